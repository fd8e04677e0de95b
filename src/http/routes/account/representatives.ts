// /account/representatives: which of a user's players enters each game's tournaments.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { asRefusal } from '../../errors.ts';
import type { AuthUser } from '../../auth.ts';
import { listRepresentatives, setRepresentative } from '../../../domain/tournaments.ts';
import { html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { errorSummary, select, type FieldErrors } from '../../render/forms.ts';
import { pageUser } from '../../auth.ts';
import { t as tr, th } from '../../i18n/index.ts';
import { localizeRefusal } from '../../i18n/refusals.ts';
import { escapeHtml } from '../../render/html.ts';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export default async function representativePages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

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

  app.get('/representatives', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    return sendRepresentatives(request, reply, me);
  });

  app.post('/representatives', { config: { access: 'user' } }, async (request, reply) => {
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
}
