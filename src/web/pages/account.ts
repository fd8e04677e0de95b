// My account: who I am, my API tokens (made and revoked here, as with
// POST/DELETE /api/tokens). A new token's secret is shown once, in the answer
// to the form that made it, with how to use it from the command line.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../server/auth.ts';
import { createApiToken, revokeApiToken } from '../../domain/accounts.ts';
import { ownOrigin } from '../../server/origin-check.ts';
import { html, type HtmlValue } from '../html.ts';
import { sendPage } from '../layout.ts';
import { errorSummary, field, type FieldErrors } from '../forms.ts';
import { pageUser } from './auth.ts';
import { formatTime } from './submissions.ts';
import { idParams } from '../../server/schemas.ts';

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
  <h2 id="token-created-title">Your new token${view.created.label ? html` “${view.created.label}”` : ''}</h2>
  <p><strong>Copy it now: it is shown only this once.</strong> Arbiter keeps only a hash of it.</p>
  <p><label for="new-token">Token</label>
  <input id="new-token" class="mono token-secret" type="text" readonly value="${view.created.token}" aria-describedby="new-token-hint" autocomplete="off" spellcheck="false"></p>
  <p class="hint" id="new-token-hint">Select it and copy (Ctrl+C or ⌘C). Keep it secret: it acts as you.</p>
  <p>Use it with <code>arbiter submit</code>:</p>
  <pre><code>export ARBITER_URL=${ownOrigin(request) ?? 'http://127.0.0.1:3000'}
export ARBITER_TOKEN=${view.created.token}
npx arbiter submit my-bot.ts --game moria</code></pre>
</section>`
      : '';
    const rows = tokens.map(
      (t) => html`<tr id="token-${t.id}" data-revoked="${t.revokedAt ? 'true' : 'false'}">
  <td class="mono">${t.prefix}…</td>
  <td>${t.label ?? html`<span class="muted">no label</span>`}</td>
  <td>${formatTime(t.createdAt)}</td>
  <td>${t.lastUsedAt ? formatTime(t.lastUsedAt) : html`<span class="muted">never</span>`}</td>
  <td>${
    t.revokedAt
      ? html`<span class="badge rejected">revoked</span> ${formatTime(t.revokedAt)}`
      : html`<form method="post" action="/account/tokens/${t.id}/revoke" class="inline"><button type="submit" class="danger small" aria-label="Revoke token ${t.prefix}${t.label ? ` (${t.label})` : ''}">Revoke</button></form>`
  }</td>
</tr>`,
    );
    const body = html`<h1>My account</h1>
${view.notice ? html`<p class="notice ok" role="status">${view.notice}</p>` : ''}
<p>Logged in as <strong id="account-username">${me.username}</strong>${me.isAdmin ? html` <span class="badge">admin</span>` : ''}.
<a href="/submissions">My submissions</a> · <a href="/submit">Submit a bot</a> · <a href="/account/representatives">My tournament representatives</a></p>
${created}
<h2 id="tokens-title">API tokens</h2>
<p>A token lets a script or the <code>arbiter</code> command act as you (<code>Authorization: Bearer …</code>).</p>
${
  tokens.length > 0
    ? html`<div class="table-wrap"><table id="tokens" aria-labelledby="tokens-title">
  <thead><tr><th scope="col">Token</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
    : html`<p class="muted" id="tokens">No tokens yet.</p>`
}
<h3>New token</h3>
${errorSummary(view.errors, { label: 'Label' })}
<form method="post" action="/account/tokens" id="token-form" novalidate>
  ${field({ name: 'label', label: 'Label (optional)', value: view.label ?? '', hint: `What it is for, e.g. "laptop" (at most ${LABEL_MAX} characters).`, errors: view.errors, attrs: html`maxlength="${LABEL_MAX}"` })}
  <p><button type="submit">Create token</button></p>
</form>`;
    return sendPage(reply, { title: 'My account', user: request.user, nav: '/account', body }, status);
  }

  app.get('/account', async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    return sendAccount(request, reply, me);
  });

  app.post<{ Body: Record<string, string | undefined> }>('/account/tokens', async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    const label = typeof request.body?.label === 'string' ? request.body.label.trim() : '';
    if (label.length > LABEL_MAX) {
      return sendAccount(request, reply, me, { label, errors: { label: `label too long: ${label.length} characters, at most ${LABEL_MAX}` } }, 400);
    }
    const { token } = await createApiToken(db, me.id, label || null);
    // Answered here, not redirected: the secret must not land in a URL or be shown again.
    return sendAccount(request, reply, me, { created: { token, label: label || null } }, 201);
  });

  app.post<{ Params: { id: number } }>('/account/tokens/:id/revoke', { schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply, '/account');
    if (!me) return reply;
    await revokeApiToken(db, me.id, request.params.id);
    return reply.redirect('/account', 303);
  });
}
