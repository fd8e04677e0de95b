// Official tournaments on the site: the list, a tournament's page (the
// bracket round by round, every group with its match and the line that
// replays it, the standings, the downloads), a user's representatives, and
// the admin's page to create, edit, cancel, delete, start, pause, resume and
// rerun (a planned tournament's page previews who would enter). A running
// tournament's page refreshes itself (a meta refresh: no script needed).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../form-fields.ts';
import { typed } from '../typed.ts';
import { loadGames } from '../../games/registry.ts';
import { asRefusal, forbidden } from '../errors.ts';
import type { AuthUser } from '../auth.ts';
import { idParams } from '../schemas.ts';
import {
  cancelTournament,
  createTournament,
  deleteTournament,
  editTournament,
  listRepresentatives,
  listTournaments,
  pauseTournament,
  previewEntries,
  rerunMatch,
  resumeTournament,
  setRepresentative,
  startNow,
  tournamentDetail,
  type TournamentDetail,
  type TournamentEffects,
} from '../../domain/tournaments.ts';
import { applyTournamentEffects } from '../../jobs/scheduler/tournaments.ts';
import { html, type Html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { errorSummary, field, select, type FieldErrors } from '../render/forms.ts';
import { pageUser } from '../auth.ts';
import { formatTime } from './submissions/index.ts';
import { tournamentSeed } from '../../domain/tournament-admin.ts';
import { courseTimeZone, parseCourseInput, toCourseInput } from '../../domain/course-time.ts';
import { t as tr, th, word } from '../i18n/index.ts';
import { localizeRefusal } from '../i18n/refusals.ts';
import { escapeHtml } from '../render/html.ts';
import { adminOnlyPages } from '../access.ts';

/** Seconds between reloads of a tournament's page while it runs. */
export const REFRESH_SECONDS = 5;

type Form = Record<string, string | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function statusBadge(status: string): Html {
  const cls = status === 'finished' ? 'done' : status === 'running' ? 'running' : status === 'paused' || status === 'cancelled' ? 'failed' : 'queued';
  return html`<span class="badge ${cls}">${word(status)}</span>`;
}

function seatCell(s: TournamentDetail['rounds'][number]['groups'][number]['seats'][number]): Html {
  const result = s.rank !== null ? html` <span class="muted">#${s.rank} · ${s.score ?? 0}</span>` : '';
  const name = s.builtin ? html`<span class="muted">${s.name}</span>` : s.fell ? html`<s>${s.name}</s>` : html`<strong>${s.name}</strong>`;
  return html`<li class="group-seat" value="${String(s.seat)}" data-entry="${s.entry === null ? '' : String(s.entry)}" data-fell="${s.fell ? 'true' : 'false'}">${name}${result}${s.frozen ? html` <span class="badge failed">${tr('tour.froze')}</span>` : ''}</li>`;
}

function adminControls(d: { id: number; status: string }): Html {
  const post = (action: string, label: string, cls = '') =>
    html`<form method="post" action="/admin/tournaments/${d.id}/${action}" class="inline"><button type="submit"${cls ? html` class="${cls}"` : ''}>${label}</button></form>`;
  return html`<p id="admin-controls">${
    d.status === 'scheduled'
      ? html`${post('start', tr('tour.start'))} <a class="button secondary" href="/admin/tournaments/${d.id}/edit">${tr('tour.edit')}</a> ${post('cancel', tr('tour.cancel'), 'secondary')}`
      : ''
  }${d.status === 'running' ? post('pause', tr('tour.pause'), 'secondary') : ''}${d.status === 'paused' ? post('resume', tr('tour.resume')) : ''}${d.status === 'cancelled' ? post('delete', tr('tour.delete'), 'secondary') : ''}</p>`;
}

/** While planned: who would enter if the entries froze now (everyone sees how many; an admin sees the list). */
function previewSection(p: Preview, user: AuthUser | null): Html {
  return html`<section id="entries-preview" aria-labelledby="entries-preview-h">
<h2 id="entries-preview-h">${tr('tour.previewTitle')}</h2>
<p class="hint">${tr('tour.previewNote')}</p>
${
  user?.isAdmin && p.entries.length
    ? html`<div class="table-wrap"><table id="preview">
<thead><tr><th scope="col">#</th><th scope="col">${tr('tour.player')}</th><th scope="col">${tr('tour.owner')}</th></tr></thead>
<tbody>${p.entries.map((e) => html`<tr><td>${e.entry + 1}</td><td>${e.name}</td><td>${e.owner}</td></tr>`)}</tbody>
</table></div>`
    : ''
}
</section>`;
}

type Preview = Awaited<ReturnType<typeof previewEntries>>;

function tournamentBody(d: TournamentDetail, user: AuthUser | null, preview: Preview | null): Html {
  const rounds = [...d.rounds].reverse().map(
    (r) => html`<section class="round" id="round-${r.round}" aria-labelledby="round-${r.round}-title">
<h3 id="round-${r.round}-title">${tr('tour.round', r.round)}${r.final ? tr('tour.finalPhase') : ''}</h3>
<div class="table-wrap"><table class="groups">
<thead><tr><th scope="col">${tr('tour.group')}</th><th scope="col">${tr('tour.seats')}</th><th scope="col">${tr('tour.match')}</th><th scope="col">${tr('tour.replayIt')}</th></tr></thead>
<tbody>${r.groups.map(
      (g) => html`<tr id="group-${r.round}-${g.group + 1}">
<td>${g.group + 1}</td>
<td><ol class="seats" start="0">${g.seats.map(seatCell)}</ol></td>
<td>${
        g.match
          ? html`<a href="/matches/${g.match.id}">#${g.match.id}</a> <span class="badge ${g.match.status}">${word(g.match.status)}</span>${g.match.attempt > 0 ? html` <span class="muted">${tr('tour.rerunN', g.match.attempt)}</span>` : ''}${
              g.match.status === 'failed'
                ? html`<br><span class="muted">${g.match.error ?? tr('tour.couldNotPlay')}${tr('tour.waitingRerun')}</span>${
                    user?.isAdmin
                      ? html`<form method="post" action="/admin/tournaments/${d.id}/matches/${g.match.id}/rerun" class="inline"><button type="submit" class="small">${tr('tour.rerun')}</button></form>`
                      : ''
                  }`
                : ''
            }${g.match.replay ? html`<br><a href="${g.match.replay.url}" download>${tr('tour.replay')}</a>` : ''}`
          : html`<span class="muted">${tr('tour.none')}</span>`
      }</td>
<td><code class="play">${g.play}</code></td>
</tr>`,
    )}</tbody>
</table></div>
</section>`,
  );
  const standings = d.standings.length
    ? html`<div class="table-wrap"><table id="standings">
<thead><tr><th scope="col">${d.status === 'finished' ? tr('tour.place') : tr('tour.position')}</th><th scope="col">${tr('tour.player')}</th><th scope="col">${tr('tour.owner')}</th><th scope="col">${tr('tour.fellIn')}</th><th scope="col">${tr('tour.lastRank')}</th><th scope="col">${tr('tour.lastScore')}</th></tr></thead>
<tbody>${d.standings.map(
        (s) =>
          html`<tr><td>${s.place ?? s.position}</td><td>${s.name}</td><td>${s.owner ?? ''}</td><td>${s.eliminatedRound !== null ? tr('tour.roundN', s.eliminatedRound) : d.status === 'finished' ? html`<strong>${tr('tour.champion')}</strong>` : tr('tour.stillIn')}</td><td>${s.lastRank ?? ''}</td><td>${s.lastScore ?? ''}</td></tr>`,
      )}</tbody>
</table></div>`
    : html`<p class="muted">${tr('tour.freezeAt')}${formatTime(new Date(d.freezeAt))}.</p>`;
  return html`<p class="breadcrumbs"><a href="/tournaments">${tr('tour.title')}</a> › ${d.game}</p>
<h1>${d.name}</h1>
<dl class="facts">
<dt>${tr('tour.game')}</dt><dd>${d.game}</dd>
<dt>${tr('tour.status')}</dt><dd id="tournament-status">${statusBadge(d.status)}${d.status === 'running' ? tr('tour.inRound', d.round) : ''}</dd>
<dt>${tr('tour.entriesFreeze')}</dt><dd id="tournament-freeze">${formatTime(new Date(d.freezeAt))}</dd>
${d.startedAt ? html`<dt>${tr('tour.started')}</dt><dd id="tournament-started">${formatTime(new Date(d.startedAt))}</dd>` : ''}
${d.cancelledAt ? html`<dt>${tr('tour.cancelledAt')}</dt><dd id="tournament-cancelled">${formatTime(new Date(d.cancelledAt))}</dd>` : ''}
<dt>${tr('tour.seed')}</dt><dd id="tournament-seed">${d.seed !== null ? html`<code>${d.seed}</code>${tr('tour.seedNote')}` : html`<span class="muted">${tr('tour.seedSecret')}</span>`}</dd>
${d.config ? html`<dt>${tr('tour.settings')}</dt><dd><code>${JSON.stringify(d.config)}</code></dd>` : ''}
<dt>${tr('tour.entries')}</dt><dd id="tournament-entries">${preview ? tr('tour.wouldEnter', preview.entries.length) : d.entries.length}</dd>
</dl>
${user?.isAdmin ? adminControls(d) : ''}
${d.status === 'cancelled' ? html`<p class="notice" role="status">${tr('tour.cancelledNote')}</p>` : ''}
${preview ? previewSection(preview, user) : ''}
${d.status === 'running' ? html`<p class="muted" role="status">${tr('tour.reloads', REFRESH_SECONDS)}</p>` : ''}
<p class="downloads"><a class="button" id="download-replays" href="/api/tournaments/${d.id}/replays.zip" download>${tr('tour.allReplays')}</a>
<a class="button secondary" id="download-standings" href="/api/tournaments/${d.id}/standings.csv" download>${tr('tour.standingsCsv')}</a></p>
<h2>${tr('tour.standings')}</h2>
${standings}
<h2>${tr('tour.rounds')}</h2>
<p class="hint">${tr('tour.rules')}</p>
${rounds.length ? rounds : html`<p class="muted">${tr('tour.noRound')}</p>`}`;
}

/**
 * A tournament form's config (a JSON object, or none), freeze time (the course's wall-clock time without an
 * offset: course-time.ts) and seed, with the fields' errors. Creating, an empty freeze time is now and an
 * empty seed the judge's draw; editing (`required`), both must be given.
 */
function tournamentFields(
  v: Form,
  required: boolean,
): { errors: FieldErrors; config: Record<string, unknown> | null; freezeAt: Date; seed: number | undefined } {
  const errors: FieldErrors = {};
  let config: Record<string, unknown> | null = null;
  if (str(v.config)) {
    try {
      const parsed: unknown = JSON.parse(str(v.config));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      config = parsed as Record<string, unknown>;
    } catch {
      errors.config = tr('tourAdmin.notObject');
    }
  }
  const freezeAt = str(v.freezeAt) || required ? (parseCourseInput(str(v.freezeAt)) ?? new Date(NaN)) : new Date();
  if (Number.isNaN(freezeAt.getTime())) errors.freezeAt = tr('tourAdmin.notDate');
  const seed = str(v.seed) ? Number(str(v.seed)) : undefined;
  if ((seed === undefined && required) || (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff)))
    errors.seed = tr('tourAdmin.badSeed');
  return { errors, config, freezeAt, seed };
}

export default async function tournamentPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const apply = (effects: TournamentEffects) => applyTournamentEffects({ db, queues: app.deps.queues, log: (msg) => app.log.warn(msg) }, effects);

  app.get('/tournaments', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const list = await listTournaments(db);
    const body = html`<h1>${tr('tour.title')}</h1>
<p>${th('tour.intro_html')}</p>
${request.user?.isAdmin ? html`<p><a href="/admin/tournaments">${tr('tour.manage')}</a></p>` : ''}
${
  list.length
    ? html`<div class="table-wrap"><table id="tournaments">
<thead><tr><th scope="col">${tr('tour.tournament')}</th><th scope="col">${tr('tour.game')}</th><th scope="col">${tr('tour.status')}</th><th scope="col">${tr('tour.entriesFreeze')}</th><th scope="col">${tr('tour.entries')}</th><th scope="col">${tr('tour.championCol')}</th></tr></thead>
<tbody>${list.map(
        (t) =>
          html`<tr><td><a href="/tournaments/${t.id}">${t.name}</a></td><td>${t.game}</td><td>${statusBadge(t.status)}</td><td>${formatTime(new Date(t.freezeAt))}</td><td>${t.entries}</td><td>${t.champion ?? ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">${tr('tour.noneYet')}</p>`
}`;
    return sendPage(reply, { title: tr('tour.title'), user: request.user, nav: '/tournaments', body });
  });

  app.get('/tournaments/:id', { config: { access: 'public' }, schema: { hide: true, params: idParams } }, async (request, reply) => {
    const d = await tournamentDetail(db, request.params.id);
    const preview = d.status === 'scheduled' ? await previewEntries(db, d.id) : null;
    return sendPage(reply, {
      title: d.name,
      user: request.user,
      nav: '/tournaments',
      head: d.status === 'running' ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : undefined,
      body: tournamentBody(d, request.user, preview),
    });
  });

  // ---------------------------------------------------------------- representatives

  async function sendRepresentatives(
    request: FastifyRequest,
    reply: FastifyReply,
    me: AuthUser,
    view: { errors?: FieldErrors; game?: string; notice?: string } = {},
    status = 200,
  ) {
    const reps = await listRepresentatives(db, me.id);
    const body = html`<h1>${tr('rep.title')}</h1>
<p>${tr('rep.intro')}</p>
${view.notice ? html`<p class="notice ok" role="status">${view.notice}</p>` : ''}
${errorSummary(view.errors, { player: tr('tour.player') })}
${
  reps.length
    ? reps.map(
        (r) => html`<section class="card" id="representative-${r.game}">
<h2>${r.game}</h2>
<p>${tr('rep.representing')}<strong class="current">${r.current?.name ?? tr('rep.nobody')}</strong>${r.chosen ? '' : html` <span class="muted">${tr('rep.latest')}</span>`}</p>
${
  r.frozenBy
    ? html`<p class="notice">${th('rep.closed_html', `/tournaments/${r.frozenBy.id}`, escapeHtml(r.frozenBy.name))}</p>`
    : html`<form method="post" action="/account/representatives" novalidate>
<input type="hidden" name="game" value="${r.game}">
${select({ name: 'player', label: tr('rep.playerFor', r.game), options: r.players.map((p) => ({ value: p.name, label: p.name })), value: r.current?.name, errors: view.game === r.game ? view.errors : undefined })}
<p><button type="submit">${tr('rep.pick')}</button></p>
</form>`
}
</section>`,
      )
    : html`<p class="muted">${th('rep.noneYet_html')}</p>`
}`;
    return sendPage(reply, { title: tr('rep.title'), user: request.user, nav: '/account', body }, status);
  }

  app.get('/account/representatives', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    return sendRepresentatives(request, reply, me);
  });

  app.post('/account/representatives', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account/representatives');
    if (!me) return reply;
    const game = str(fields(request.body)?.game);
    const player = str(fields(request.body)?.player);
    try {
      const r = await setRepresentative(db, me.id, game, player);
      return sendRepresentatives(request, reply, me, { notice: tr('rep.now', r.current?.name ?? player, game) });
    } catch (e) {
      const refusal = asRefusal(e);
      if (!refusal) throw e;
      return sendRepresentatives(request, reply, me, { game, errors: { player: localizeRefusal(refusal) } }, refusal.statusCode);
    }
  });

  // ---------------------------------------------------------------- admin
  // An admin scope: its hook sends anonymous visitors to log in and answers anyone but an admin with the 403 page (src/http/access.ts).
  await app.register(
    adminOnlyPages(async (scope) => {
      const app = typed(scope);
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

      app.get('/admin/tournaments', { config: { access: 'admin' } }, async (request, reply) => {
        if (!pageAdmin(request, reply)) return reply;
        return sendAdmin(request, reply);
      });

      app.post('/admin/tournaments', { config: { access: 'admin' } }, async (request, reply) => {
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

      app.post('/admin/tournaments/:id/cancel', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
        const me = pageAdmin(request, reply);
        if (!me) return reply;
        await cancelTournament(db, me.id, request.params.id);
        return reply.redirect(`/tournaments/${request.params.id}`, 303);
      });

      app.post('/admin/tournaments/:id/delete', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
        const me = pageAdmin(request, reply);
        if (!me) return reply;
        await deleteTournament(db, me.id, request.params.id);
        return reply.redirect('/admin/tournaments', 303);
      });

      async function sendEdit(
        request: FastifyRequest,
        reply: FastifyReply,
        d: TournamentDetail,
        view: { values?: Form; errors?: FieldErrors } = {},
        status = 200,
      ) {
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

      app.get('/admin/tournaments/:id/edit', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
        if (!pageAdmin(request, reply)) return reply;
        const d = await tournamentDetail(db, request.params.id);
        if (d.status !== 'scheduled') return reply.redirect(`/tournaments/${d.id}`, 303);
        return sendEdit(request, reply, d);
      });

      app.post('/admin/tournaments/:id/edit', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
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
        app.post(`/admin/tournaments/:id/${action}`, { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
          const me = pageAdmin(request, reply);
          if (!me) return reply;
          const id = request.params.id;
          await apply(
            action === 'start'
              ? await startNow(db, me.id, id)
              : action === 'pause'
                ? await pauseTournament(db, me.id, id)
                : await resumeTournament(db, me.id, id),
          );
          return reply.redirect(`/tournaments/${id}`, 303);
        });
      }

      app.post(
        '/admin/tournaments/:id/matches/:matchId/rerun',
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
    }),
  );
}
