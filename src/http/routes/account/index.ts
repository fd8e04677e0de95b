// My account: who I am, my API tokens (made and revoked here, as with
// POST/DELETE /api/tokens; each with when it was made and last used), and my
// password (changed with the current one, as PUT /api/me/password: every other
// session ends and every token is revoked). A new token's secret is shown
// once, in the answer to the form that made it, with how to use it from the
// command line.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import type { AuthUser } from '../../auth.ts';
import { listApiTokens } from '../../../domain/credentials.ts';
import { checkCredentials, createApiToken, PASSWORD_MIN, revokeApiToken } from '../../../domain/accounts.ts';
import { changeOwnPassword } from '../../../domain/account-links.ts';
import { RetryLaterError } from '../../../domain/attempt-budgets.ts';
import { openSession, passwordClient } from '../../auth.ts';
import { asRefusal } from '../../errors.ts';
import { localizeRefusal } from '../../i18n/refusals.ts';
import { ownOrigin } from '../../origin-check.ts';
import { html, type HtmlValue } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { errorSummary, field, type FieldErrors } from '../../render/forms.ts';
import { pageUser } from '../../auth.ts';
import { formatTime } from '../submissions/index.ts';
import { idParams } from '../../schemas.ts';
import { t, th, t as tr } from '../../i18n/index.ts';
import { escapeHtml } from '../../render/html.ts';

const LABEL_MAX = 100;

interface AccountView {
  label?: string;
  errors?: FieldErrors;
  /** The password form's errors (its fields: currentPassword, password, confirm). */
  passwordErrors?: FieldErrors;
  created?: { token: string; label: string | null };
  notice?: string;
}

export default async function accountPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  // Token lists and secrets are nobody's cache's business.
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('cache-control', 'private, no-store');
    return payload;
  });

  async function sendAccount(request: FastifyRequest, reply: FastifyReply, me: AuthUser, view: AccountView = {}, status = 200) {
    const tokens = await listApiTokens(db, me.id, 'newest');
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
</form>
<h2 id="password-title">${t('account.passwordTitle')}</h2>
<p>${t('account.passwordIntro')}</p>
${errorSummary(view.passwordErrors, { currentPassword: t('account.currentPassword'), password: t('reset.newPassword'), confirm: t('reset.confirm') })}
<form method="post" action="/account/password" id="password-form" novalidate>
  ${field({ name: 'currentPassword', label: t('account.currentPassword'), type: 'password', required: true, autocomplete: 'current-password', errors: view.passwordErrors, attrs: html`maxlength="256"` })}
  ${field({ name: 'password', label: t('reset.newPassword'), type: 'password', required: true, autocomplete: 'new-password', hint: t('auth.passwordHint', PASSWORD_MIN), errors: view.passwordErrors, attrs: html`maxlength="256"` })}
  ${field({ name: 'confirm', label: t('reset.confirm'), type: 'password', required: true, autocomplete: 'new-password', errors: view.passwordErrors, attrs: html`maxlength="256"` })}
  <p><button type="submit">${t('account.changePassword')}</button></p>
</form>`;
    return sendPage(reply, { title: t('account.title'), user: request.user, nav: '/account', body }, status);
  }

  app.get('', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    return sendAccount(request, reply, me);
  });

  app.post('/tokens', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    const label = fields(request.body).label?.trim() ?? '';
    if (label.length > LABEL_MAX) {
      return sendAccount(request, reply, me, { label, errors: { label: t('account.labelTooLong', label.length, LABEL_MAX) } }, 400);
    }
    const { token } = await createApiToken(db, me.id, label || null);
    // Answered here, not redirected: the secret must not land in a URL or be shown again.
    return sendAccount(request, reply, me, { created: { token, label: label || null } }, 201);
  });

  app.post('/password', { config: { access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    const text = (k: string) => fields(request.body)[k]?.slice(0, 256) ?? '';
    const [current, password, confirm] = [text('currentPassword'), text('password'), text('confirm')];
    const errors: FieldErrors = {};
    if (!current) errors.currentPassword = t('auth.enterPassword');
    if (password !== confirm) errors.confirm = t('reset.mismatch');
    if (Object.keys(errors).length > 0) return sendAccount(request, reply, me, { passwordErrors: errors }, 400);
    try {
      await checkCredentials(app.deps, { username: me.username, password: current }, passwordClient(request, me.username));
      const { tokensRevoked } = await changeOwnPassword(db, me.id, password, me.via);
      // Every session ended with the change: this browser gets a new one.
      await openSession(app.deps, reply, me.id);
      return sendAccount(request, reply, me, { notice: t('account.passwordChanged', tokensRevoked) });
    } catch (err) {
      const refused = asRefusal(err);
      if (!refused) throw err;
      const retryAfterSeconds = err instanceof RetryLaterError ? err.retryAfterSeconds : undefined;
      if (retryAfterSeconds) void reply.header('retry-after', String(retryAfterSeconds));
      const where = refused.statusCode === 401 ? 'currentPassword' : refused.code === 'weak-password' ? 'password' : '';
      const message =
        refused.statusCode === 401 ? t('account.wrongCurrentPassword') : localizeRefusal({ ...refused, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) });
      return sendAccount(request, reply, me, { passwordErrors: { [where]: message } }, refused.statusCode);
    }
  });

  app.post('/tokens/:id/revoke', { config: { access: 'owner' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    await revokeApiToken(db, me.id, request.params.id);
    return reply.redirect('/account', 303);
  });
}
