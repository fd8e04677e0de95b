// /admin/tournaments: the admin's page to create, edit, cancel, delete, start,
// pause, resume and rerun tournaments (admins only: this folder's autohooks.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { loadGames } from '../../../games/registry.ts';
import { asRefusal, forbidden } from '../../errors.ts';
import type { AuthUser } from '../../auth.ts';
import { idParams } from '../../schemas.ts';
import {
  cancelTournament,
  createTournament,
  deleteTournament,
  editTournament,
  listTournaments,
  pauseTournament,
  rerunMatch,
  resumeTournament,
  startNow,
  tournamentDetail,
  type TournamentDetail,
  type TournamentEffects,
} from '../../../domain/tournaments.ts';
import { applyTournamentEffects } from '../../../jobs/scheduler/tournaments.ts';
import { html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { errorSummary, field, select, type FieldErrors } from '../../render/forms.ts';
import { pageUser } from '../../auth.ts';
import { formatTime } from '../submissions/index.ts';
import { tournamentSeed } from '../../../domain/tournament-admin.ts';
import { courseTimeZone, toCourseInput } from '../../../domain/course-time.ts';
import { t as tr } from '../../i18n/index.ts';
import { localizeRefusal } from '../../i18n/refusals.ts';

import { adminControls, statusBadge, tournamentFields, type Form } from '../tournaments/index.ts';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export default async function tournamentAdminPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const apply = (effects: TournamentEffects) => applyTournamentEffects({ db, queues: app.deps.queues, log: (msg) => app.log.warn(msg) }, effects);

  function pageAdmin(request: FastifyRequest, reply: FastifyReply): AuthUser | null {
    const me = pageUser(request, reply);
    if (me && !me.isAdmin) throw forbidden(tr('tourAdmin.only'));
    return me;
  }

  async function sendAdmin(request: FastifyRequest, reply: FastifyReply, view: { values?: Form; errors?: FieldErrors } = {}, status = 200) {
    const games = [...(await loadGames()).values()];
    const list = await listTournaments(db);
    const v = view.values ?? {};
    const body = html`<p class="breadcrumbs"><a href="/tournaments">${tr('tour.title')}</a> › ${tr('tourAdmin.manage')}</p>
<h1>${tr('tour.manage')}</h1>
<div class="table-wrap"><table id="admin-tournaments">
<thead><tr><th scope="col">${tr('tour.tournament')}</th><th scope="col">${tr('tour.game')}</th><th scope="col">${tr('tour.status')}</th><th scope="col">${tr('tour.entriesFreeze')}</th><th scope="col">${tr('tourAdmin.actions')}</th></tr></thead>
<tbody>${list.map(
      (t) =>
        html`<tr><td><a href="/tournaments/${t.id}">${t.name}</a></td><td>${t.game}</td><td>${statusBadge(t.status)}</td><td>${formatTime(new Date(t.freezeAt))}</td><td>${adminControls(t)}</td></tr>`,
    )}</tbody></table></div>
<h2>${tr('tourAdmin.new')}</h2>
${errorSummary(view.errors, { game: tr('tour.game'), name: tr('admin.name'), freezeAt: tr('tour.entriesFreeze'), config: tr('tour.settings'), seed: tr('tour.seed') })}
<form method="post" action="/admin/tournaments" id="tournament-form" novalidate>
${select({ name: 'game', label: tr('tour.game'), options: games.map((g) => ({ value: g.id, label: g.title })), value: v.game, errors: view.errors, required: true })}
${field({ name: 'name', label: tr('admin.name'), value: v.name ?? '', errors: view.errors, required: true, attrs: html`maxlength="100"` })}
${field({ name: 'freezeAt', label: tr('tourAdmin.freezeUtc', courseTimeZone()), value: v.freezeAt ?? '', hint: tr('tourAdmin.freezeHint'), errors: view.errors })}
${field({ name: 'config', label: tr('tourAdmin.settings'), value: v.config ?? '', hint: tr('tourAdmin.settingsHint'), errors: view.errors })}
${field({ name: 'seed', label: tr('tourAdmin.seed'), type: 'number', value: v.seed ?? '', hint: tr('tourAdmin.seedHint'), errors: view.errors, attrs: html`min="0" max="2147483647"` })}
<p><button type="submit">${tr('tourAdmin.create')}</button></p>
</form>`;
    return sendPage(reply, { title: tr('tour.manage'), user: request.user, nav: '/tournaments', body }, status);
  }

  app.get('/tournaments', { config: { access: 'admin' } }, async (request, reply) => {
    if (!pageAdmin(request, reply)) return reply;
    return sendAdmin(request, reply);
  });

  app.post('/tournaments', { config: { access: 'admin' } }, async (request, reply) => {
    const me = pageAdmin(request, reply);
    if (!me) return reply;
    const v = fields(request.body);
    const { errors, config, freezeAt, seed } = tournamentFields(v, false);
    if (Object.keys(errors).length) return sendAdmin(request, reply, { values: v, errors }, 400);
    try {
      const t = await createTournament(db, me.id, { game: str(v.game), name: str(v.name), freezeAt, config, ...(seed !== undefined ? { seed } : {}) });
      return reply.redirect(`/tournaments/${t.id}`, 303);
    } catch (e) {
      const refusal = asRefusal(e);
      if (!refusal) throw e;
      const key = (e as { code?: string }).code;
      return sendAdmin(
        request,
        reply,
        { values: v, errors: { [key && ['game', 'name', 'freezeAt', 'config', 'seed'].includes(key) ? key : '']: localizeRefusal(refusal) } },
        refusal.statusCode,
      );
    }
  });

  app.post('/tournaments/:id/cancel', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageAdmin(request, reply);
    if (!me) return reply;
    await cancelTournament(db, me.id, request.params.id);
    return reply.redirect(`/tournaments/${request.params.id}`, 303);
  });

  app.post('/tournaments/:id/delete', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageAdmin(request, reply);
    if (!me) return reply;
    await deleteTournament(db, me.id, request.params.id);
    return reply.redirect('/admin/tournaments', 303);
  });

  async function sendEdit(request: FastifyRequest, reply: FastifyReply, d: TournamentDetail, view: { values?: Form; errors?: FieldErrors } = {}, status = 200) {
    const v = view.values ?? {
      name: d.name,
      freezeAt: toCourseInput(new Date(d.freezeAt)),
      config: d.config ? JSON.stringify(d.config) : '',
      seed: String(await tournamentSeed(db, d.id)),
    };
    const body = html`<p class="breadcrumbs"><a href="/tournaments">${tr('tour.title')}</a> › <a href="/tournaments/${d.id}">${d.name}</a></p>
<h1>${tr('tourAdmin.editTitle', d.name)}</h1>
<p class="hint">${tr('tourAdmin.editHint')}</p>
${errorSummary(view.errors, { name: tr('admin.name'), freezeAt: tr('tour.entriesFreeze'), config: tr('tour.settings'), seed: tr('tour.seed') })}
<form method="post" action="/admin/tournaments/${d.id}/edit" id="tournament-edit" novalidate>
${field({ name: 'name', label: tr('admin.name'), value: v.name ?? '', errors: view.errors, required: true, attrs: html`maxlength="100"` })}
${field({ name: 'freezeAt', label: tr('tourAdmin.freezeUtc', courseTimeZone()), value: v.freezeAt ?? '', hint: tr('tourAdmin.freezeHint'), errors: view.errors, required: true })}
${field({ name: 'config', label: tr('tourAdmin.settings'), value: v.config ?? '', hint: tr('tourAdmin.settingsHint'), errors: view.errors })}
${field({ name: 'seed', label: tr('tour.seed'), type: 'number', value: v.seed ?? '', hint: tr('tourAdmin.seedEditHint'), errors: view.errors, required: true, attrs: html`min="0" max="2147483647"` })}
<p><button type="submit">${tr('tourAdmin.save')}</button> <a href="/tournaments/${d.id}">${tr('tourAdmin.back')}</a></p>
</form>`;
    return sendPage(reply, { title: tr('tourAdmin.editTitle', d.name), user: request.user, nav: '/tournaments', body }, status);
  }

  app.get('/tournaments/:id/edit', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
    if (!pageAdmin(request, reply)) return reply;
    const d = await tournamentDetail(db, request.params.id);
    if (d.status !== 'scheduled') return reply.redirect(`/tournaments/${d.id}`, 303);
    return sendEdit(request, reply, d);
  });

  app.post('/tournaments/:id/edit', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageAdmin(request, reply);
    if (!me) return reply;
    const d = await tournamentDetail(db, request.params.id);
    const v = fields(request.body);
    const { errors, config, freezeAt, seed } = tournamentFields(v, true);
    if (Object.keys(errors).length || seed === undefined) return sendEdit(request, reply, d, { values: v, errors }, 400);
    try {
      await editTournament(db, me.id, d.id, { name: str(v.name), freezeAt, config, seed });
      return reply.redirect(`/tournaments/${d.id}`, 303);
    } catch (e) {
      const refusal = asRefusal(e);
      if (!refusal) throw e;
      const key = (e as { code?: string }).code;
      return sendEdit(
        request,
        reply,
        d,
        { values: v, errors: { [key && ['name', 'freezeAt', 'config', 'seed'].includes(key) ? key : '']: localizeRefusal(refusal) } },
        refusal.statusCode,
      );
    }
  });

  for (const action of ['start', 'pause', 'resume'] as const) {
    app.post(`/tournaments/:id/${action}`, { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
      const me = pageAdmin(request, reply);
      if (!me) return reply;
      const id = request.params.id;
      await apply(
        action === 'start' ? await startNow(db, me.id, id) : action === 'pause' ? await pauseTournament(db, me.id, id) : await resumeTournament(db, me.id, id),
      );
      return reply.redirect(`/tournaments/${id}`, 303);
    });
  }

  app.post(
    '/tournaments/:id/matches/:matchId/rerun',
    {
      config: { access: 'admin' },
      schema: { params: { type: 'object', required: ['id', 'matchId'], properties: { id: idParams.properties.id, matchId: idParams.properties.id } } },
    },
    async (request, reply) => {
      const me = pageAdmin(request, reply);
      if (!me) return reply;
      const { effects } = await rerunMatch(db, me.id, request.params.id, request.params.matchId);
      await apply(effects);
      return reply.redirect(`/tournaments/${request.params.id}`, 303);
    },
  );
}
