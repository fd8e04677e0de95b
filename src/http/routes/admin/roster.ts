// A course's accounts on the site: the roster import's section of
// /admin/users and its result page (created and skipped rows, the links as a
// CSV to send, shown once), an admin's reset link for a user, and the public
// /reset/:token page where a password link sets a new password. The rules
// are the domain's (src/domain/roster.ts, src/domain/account-links.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { createResetLink } from '../../../domain/account-links.ts';
import { importRoster, rosterLinksCsv, ROSTER_DEFAULT_DAYS, ROSTER_MAX_BYTES, ROSTER_MAX_DAYS, type RosterImport } from '../../../domain/roster.ts';
import { requireAdmin, type AuthUser } from '../../auth.ts';
import { badRequest } from '../../errors.ts';
import { readRosterForm, siteOrigin } from '../api/admin/roster.ts';
import { field, select } from '../../render/forms.ts';
import { html, type Html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { t } from '../../i18n/index.ts';
import { pageUser } from '../../auth.ts';
import { when } from '../matches/index.ts';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The roster import's form, for /admin/users. */
export function rosterSection(): Html {
  return html`<section id="roster" aria-labelledby="roster-h">
<h2 id="roster-h">${t('roster.title')}</h2>
<p class="hint">${t('roster.intro', ROSTER_MAX_BYTES / 1024)}</p>
<form method="post" action="/admin/actions/roster" enctype="multipart/form-data" id="roster-form">
${field({ name: 'file', label: t('roster.file'), type: 'file', required: true, attrs: html`accept=".csv,text/csv,text/plain"` })}
${select({
  name: 'mode',
  label: t('roster.mode'),
  options: [
    { value: 'invite', label: t('roster.modeInvite') },
    { value: 'account', label: t('roster.modeAccount') },
  ],
  value: 'invite',
})}
${field({ name: 'expiresInDays', label: t('roster.days'), type: 'number', value: String(ROSTER_DEFAULT_DAYS), attrs: html`min="1" max="${String(ROSTER_MAX_DAYS)}"` })}
<p><button type="submit">${t('roster.import')}</button></p>
</form>
</section>`;
}

/** A user row's button that makes a reset link (the link is shown on the next page, once). */
export const resetLinkButton = (userId: number) =>
  html`<form method="post" action="/admin/actions/reset-link" class="inline"><input type="hidden" name="id" value="${String(userId)}"><button type="submit" class="secondary">${t('roster.resetLink')}</button></form>`;

function resultBody(r: RosterImport, origin: string): Html {
  const csv = rosterLinksCsv(r, origin);
  return html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a> › <a href="/admin/users">${t('admin.users')}</a></p>
<h1>${t('roster.resultTitle')}</h1>
<p class="notice ok" role="status" id="roster-summary">${t('roster.summary', r.created, r.skipped)}</p>
${
  r.created > 0
    ? html`<p class="notice" id="roster-once">${t(r.mode === 'invite' ? 'roster.onceInvite' : 'roster.onceAccount')}</p>
<p><a class="button" id="roster-csv" download="roster-links.csv" href="data:text/csv;charset=utf-8,${encodeURIComponent(csv)}">${t('roster.downloadCsv')}</a></p>
<label for="roster-links">${t('roster.linksCsv')}</label>
<textarea id="roster-links" readonly rows="${String(Math.min(20, r.created + 2))}" cols="100">${csv}</textarea>`
    : ''
}
<div class="table-wrap"><table id="roster-rows">
<thead><tr><th scope="col">${t('roster.line')}</th><th scope="col">${t('auth.studentId')}</th><th scope="col">${t('auth.fullName')}</th><th scope="col">${t('auth.email')}</th><th scope="col">${t('auth.username')}</th><th scope="col">${t('roster.result')}</th></tr></thead>
<tbody>${r.rows.map(
    (
      row,
    ) => html`<tr data-status="${row.status}" data-code="${row.code ?? ''}"><td>${row.line}</td><td>${row.studentId}</td><td>${row.fullName ?? ''}</td><td>${row.email ?? ''}</td><td>${row.username ?? ''}</td>
<td>${row.status === 'created' ? html`<span class="badge qualified">${t('roster.created')}</span>${row.reason ? html` <span class="muted">${row.reason}</span>` : ''}` : html`<span class="badge failed">${t('roster.skipped')}</span> ${row.reason ?? ''}`}</td></tr>`,
  )}</tbody></table></div>`;
}

/** The admin's side: the import and the reset link (admins only: this folder's autohooks.ts). */
export default async function rosterPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const adminOf = (request: FastifyRequest, reply: FastifyReply): AuthUser | null => (pageUser(request, reply) ? requireAdmin(request) : null);

  app.post('/actions/roster', { config: { access: 'admin' } }, async (request, reply) => {
    const me = adminOf(request, reply);
    if (!me) return reply;
    if (!request.isMultipart()) throw badRequest(t('roster.withFile'));
    const form = await readRosterForm(request);
    if (!form.csv || form.csv.length === 0) throw badRequest(t('roster.withFile'));
    const days = form.fields.expiresInDays ? Number(form.fields.expiresInDays) : undefined;
    const result = await importRoster(db, me.id, { csv: form.csv, mode: form.fields.mode || 'invite', ...(days !== undefined ? { expiresInDays: days } : {}) });
    return sendPage(reply, { title: t('roster.resultTitle'), user: request.user, nav: '/admin', body: resultBody(result, siteOrigin(request)) });
  });

  app.post('/actions/reset-link', { config: { access: 'admin' } }, async (request, reply) => {
    const me = adminOf(request, reply);
    if (!me) return reply;
    const id = Number(str(fields(request.body)?.id));
    if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw badRequest(t('adminErr.id'));
    const link = await createResetLink(db, me.id, id);
    const url = siteOrigin(request) + link.path;
    return sendPage(reply, {
      title: t('roster.resetTitle', link.username),
      user: request.user,
      nav: '/admin',
      body: html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a> › <a href="/admin/users">${t('admin.users')}</a></p>
<h1>${t('roster.resetTitle', link.username)}</h1>
<p class="notice" role="status">${t('roster.resetNote')} ${when(link.expiresAt)}</p>
<p><label for="reset-link">${t('roster.link')}</label><br><input id="reset-link" readonly size="90" value="${url}"></p>`,
    });
  });
}
