// My account: who I am, my API tokens (made and revoked here, as with
// POST/DELETE /api/tokens). A new token's secret is shown once, in the answer
// to the form that made it, with how to use it from the command line.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth.ts';
import { createApiToken, revokeApiToken } from '../../domain/accounts.ts';
import { ownOrigin } from '../origin-check.ts';
import { html, type HtmlValue } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { errorSummary, field, type FieldErrors } from '../render/forms.ts';
import { pageUser } from './auth.ts';
import { formatTime } from './submissions.ts';
import { idParams } from '../schemas.ts';
import { t, th, t as tr } from '../i18n/index.ts';
import { escapeHtml } from '../render/html.ts';

const LABEL_MAX = 100;

interface AccountView {
  label?: string;
  errors?: FieldErrors;
  created?: { token: string; label: string | null };
  notice?: string;
}

export default async function accountPages(app: FastifyInstance) {
  const { db } = app.deps;
  // Token lists and secrets are nobody's cache's business.
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('cache-control', 'private, no-store');
    return payload;
  });

  async function sendAccount(request: FastifyRequest, reply: FastifyReply, me: AuthUser, view: AccountView = {}, status = 200) {
    const tokens = await db.apiToken.findMany({ where: { userId: me.id }, orderBy: { id: 'desc' } });
    const created: HtmlValue = view.created
      ? html`<section class="notice ok token-created" id="token-created" aria-labelledby="token-created-title">
  <h2 id="token-created-title">${t('account.newToken', view.created.label ?? '')}</h2>
  <p><strong>${t('account.copyNow')}</strong>${t('account.hashOnly')}</p>
  <p><label for="new-token">${t('account.token')}</label>
  <input id="new-token" class="mono token-secret" type="text" readonly value="${view.created.token}" aria-describedby="new-token-hint" autocomplete="off" spellcheck="false"></p>
  <p class="hint" id="new-token-hint">${t('account.copyHint')}</p>
  <p>${th('account.useWith_html')}</p>
  <pre><code>export ARBITER_URL=${ownOrigin(request) ?? 'http://127.0.0.1:3000'}
export ARBITER_TOKEN=${view.created.token}
node arbiter.mjs submit MyBot.ts</code></pre>
</section>`
      : '';
    const rows = tokens.map(
      (t) => html`<tr id="token-${t.id}" data-revoked="${t.revokedAt ? 'true' : 'false'}">
  <td class="mono">${t.prefix}…</td>
  <td>${t.label ?? html`<span class="muted">${tr('account.noLabel')}</span>`}</td>
  <td>${formatTime(t.createdAt)}</td>
  <td>${t.lastUsedAt ? formatTime(t.lastUsedAt) : html`<span class="muted">${tr('account.never')}</span>`}</td>
  <td>${
    t.revokedAt
      ? html`<span class="badge rejected">${tr('account.revoked')}</span> ${formatTime(t.revokedAt)}`
      : html`<form method="post" action="/account/tokens/${t.id}/revoke" class="inline"><button type="submit" class="danger small" aria-label="${tr('account.revokeLabel', t.prefix, t.label ?? '')}">${tr('account.revoke')}</button></form>`
  }</td>
</tr>`,
    );
    const body = html`<h1>${t('account.title')}</h1>
${view.notice ? html`<p class="notice ok" role="status">${view.notice}</p>` : ''}
<p>${th('account.loggedInAs_html', escapeHtml(me.username))}${me.isAdmin ? html` <span class="badge">${t('account.admin')}</span>` : ''}.
${th('account.links_html')}</p>
${created}
<h2 id="tokens-title">${t('account.tokens')}</h2>
<p>${th('account.tokensIntro_html')}</p>
${
  tokens.length > 0
    ? html`<div class="table-wrap"><table id="tokens" aria-labelledby="tokens-title">
  <thead><tr><th scope="col">${t('account.token')}</th><th scope="col">${t('account.label')}</th><th scope="col">${t('account.created')}</th><th scope="col">${t('account.lastUsed')}</th><th scope="col">${t('account.revoked')}</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
    : html`<p class="muted" id="tokens">${t('account.noTokens')}</p>`
}
<h3>${t('account.newTokenH')}</h3>
${errorSummary(view.errors, { label: t('account.label') })}
<form method="post" action="/account/tokens" id="token-form" novalidate>
  ${field({ name: 'label', label: t('account.labelOptional'), value: view.label ?? '', hint: t('account.labelHint', LABEL_MAX), errors: view.errors, attrs: html`maxlength="${LABEL_MAX}"` })}
  <p><button type="submit">${t('account.create')}</button></p>
</form>`;
    return sendPage(reply, { title: t('account.title'), user: request.user, nav: '/account', body }, status);
  }

  app.get('/account', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    return sendAccount(request, reply, me);
  });

  app.post<{ Body: Record<string, string | undefined> }>('/account/tokens', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    const label = typeof request.body?.label === 'string' ? request.body.label.trim() : '';
    if (label.length > LABEL_MAX) {
      return sendAccount(request, reply, me, { label, errors: { label: t('account.labelTooLong', label.length, LABEL_MAX) } }, 400);
    }
    const { token } = await createApiToken(db, me.id, label || null);
    // Answered here, not redirected: the secret must not land in a URL or be shown again.
    return sendAccount(request, reply, me, { created: { token, label: label || null } }, 201);
  });

  app.post<{ Params: { id: number } }>('/account/tokens/:id/revoke', { config: { access: 'owner' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    await revokeApiToken(db, me.id, request.params.id);
    return reply.redirect('/account', 303);
  });
}
