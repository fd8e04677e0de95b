// /reset/:token: a password link's page, where the link's user sets a new password
// (the link comes from the roster import or an admin's reset link: src/http/routes/admin/roster.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { findLink, usePasswordLink, type LinkView } from '../../../domain/account-links.ts';
import { PASSWORD_MIN } from '../../../domain/accounts.ts';
import { openSession } from '../../auth.ts';
import { asRefusal } from '../../errors.ts';
import { errorSummary, field, type FieldErrors } from '../../render/forms.ts';
import { html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { t } from '../../i18n/index.ts';
import { localizeRefusal } from '../../i18n/refusals.ts';
import { when } from '../matches/index.ts';

/** The public side: /reset/:token, a password link's page. */
export default async function passwordLinkPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const params = { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 200 } } } as const;
  // The token is in the address: no referrer carries it anywhere, not even to this site's own pages (this plugin's routes only).
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('referrer-policy', 'no-referrer');
  });

  function sendReset(request: FastifyRequest, reply: FastifyReply, token: string, link: LinkView | null, errors: FieldErrors = {}, status = 200) {
    const body =
      link && link.kind === 'password'
        ? html`<h1>${t('reset.title')}</h1>
<p>${t('reset.for', link.username)} ${t('reset.until')} ${when(link.expiresAt)}.</p>
${errorSummary(errors, { password: t('auth.password'), confirm: t('reset.confirm') })}
<form method="post" action="/reset/${token}" id="reset-form" novalidate>
<input type="hidden" name="username" value="${link.username}" autocomplete="username">
${field({ name: 'password', label: t('reset.newPassword'), type: 'password', required: true, autocomplete: 'new-password', hint: t('auth.passwordHint', PASSWORD_MIN), errors, attrs: html`maxlength="256"` })}
${field({ name: 'confirm', label: t('reset.confirm'), type: 'password', required: true, autocomplete: 'new-password', errors, attrs: html`maxlength="256"` })}
<p><button type="submit">${t('reset.set')}</button></p>
</form>`
        : html`<h1>${t('reset.title')}</h1>
<p class="notice bad" role="alert" id="link-gone">${t('reset.gone')}</p>`;
    return sendPage(reply, { title: t('reset.title'), user: request.user, body }, link ? status : 404);
  }

  app.get('/:token', { config: { access: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
    const link = await findLink(db, request.params.token, 'password');
    return sendReset(request, reply, request.params.token, link);
  });

  app.post('/:token', { config: { access: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
    const token = request.params.token;
    const link = await findLink(db, token, 'password');
    if (!link) return sendReset(request, reply, token, null);
    const password = fields(request.body).password ?? '';
    const confirm = fields(request.body).confirm ?? '';
    if (password !== confirm) return sendReset(request, reply, token, link, { confirm: t('reset.mismatch') }, 400);
    try {
      const user = await usePasswordLink(db, token, password);
      // The link ended every session of the user; this browser is logged in anew.
      await openSession(app.deps, reply, user.id);
      return reply.redirect('/account', 303);
    } catch (err) {
      const refused = asRefusal(err);
      if (!refused) throw err;
      return sendReset(
        request,
        reply,
        token,
        refused.code === 'not-found' ? null : link,
        { [refused.code === 'weak-password' ? 'password' : '']: localizeRefusal(refused) },
        refused.statusCode,
      );
    }
  });
}
