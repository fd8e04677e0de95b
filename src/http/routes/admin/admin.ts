// The admin's pages (admins only; 403 for anyone else): /admin (health and
// queue, games with their deadline, private Dummy, ratings reset and CSV
// export, submission and name actions, the latest audit lines), /admin/users
// (search, disable, enable) and /admin/audit. Forms post to /admin/actions/*,
// which call the same domain functions as the API and come back with a
// notice; a refusal is an error page with the domain's message.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { pageNumber, query } from '../../schemas.ts';
import { waitExplanation } from '../../i18n/reasons.ts';
import {
  rejudgeSubmission,
  releaseName,
  renameName,
  resetRatings,
  searchUsers,
  setSubmissionDeadline,
  setSubmissionDisabled,
  setUserDisabled,
  submissionDeadline,
} from '../../../domain/admin.ts';
import { listAudit, type AuditRow } from '../../../domain/audit.ts';
import { installPrivateDummy, privateDummyInfo, removePrivateDummy } from '../../../domain/private-dummy.ts';
import { BOT_FILE_ACCEPT } from '../../../sandbox/languages/index.ts';
import { queueOverview } from '../../../domain/queue-overview.ts';
import { courseTimeZone, formatForPeople, parseCourseInput, toCourseInput } from '../../../domain/course-time.ts';
import { readFileForm } from '../../file-form.ts';
import { loadGames } from '../../../games/registry.ts';
import { requireAdmin, type AuthUser } from '../../auth.ts';
import { badRequest } from '../../errors.ts';
import { readHealth } from '../../../domain/health.ts';
import { field, select } from '../../render/forms.ts';
import { html, type Html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { pageUser } from '../../auth.ts';
import { pager, when } from '../matches/index.ts';
import { t, th, word } from '../../i18n/index.ts';
import { resetLinkButton, rosterSection } from './roster.ts';
import { auditDetailText, auditTargetCell, healthStatusText, recorderText } from '../../render/admin-words.ts';

type FormBody = Record<string, string | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function auditTable(rows: AuditRow[], id = 'audit'): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}">${t('admin.noAction')}</p>`;
  return html`<div class="table-wrap"><table id="${id}">
<thead><tr><th scope="col">${t('admin.when')}</th><th scope="col">${t('admin.who')}</th><th scope="col">${t('admin.action')}</th><th scope="col">${t('admin.target')}</th><th scope="col">${t('admin.detail')}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr data-action="${r.action}"><td>${when(r.at)}</td><td>${r.actor ?? html`<span class="muted">${t('admin.commandLine')}</span>`}</td><td><code>${r.action}</code></td><td>${auditTargetCell(r.targetType, r.targetId)}</td><td class="audit-detail">${auditDetailText(r.action, r.targetId, r.detail)}</td></tr>`)}</tbody>
</table></div>`;
}

const postButton = (action: string, label: string, hidden: Record<string, string | number> = {}, cls = 'secondary') =>
  html`<form method="post" action="${action}" class="inline">${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}">`)}<button type="submit" class="${cls}">${label}</button></form>`;

/** A datetime-local value (UTC) for a date. */
/** A date-time field's value: the course's wall-clock time (course-time.ts), as the form reads it back. */
const localValue = (d: Date | null) => (d ? toCourseInput(d) : '');

export default async function adminPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = app.deps;

  /** The admin, or null after a redirect to the login page; 403 for a user who is not an admin. */
  const adminOf = (request: FastifyRequest, reply: FastifyReply): AuthUser | null => {
    if (!pageUser(request, reply)) return null;
    return requireAdmin(request);
  };
  const back = (reply: FastifyReply, notice: string, to = '/admin') =>
    reply.redirect(`${to}${to.includes('?') ? '&' : '?'}done=${encodeURIComponent(notice)}`, 303);
  const noticeOf = (q: { done?: string }) => (q.done ? html`<p class="notice ok" role="status" id="admin-notice">${q.done.slice(0, 300)}</p>` : '');

  app.get(
    '',
    { config: { access: 'admin' }, schema: { hide: true, querystring: { type: 'object', properties: { done: { type: 'string', maxLength: 400 } } } } },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const games = [...(await loadGames()).values()];
      const [health, queue, audit, settings] = await Promise.all([
        readHealth(app.deps),
        queueOverview(app.deps),
        listAudit(db, { limit: 20 }),
        Promise.all(games.map(async (g) => ({ game: g, deadline: await submissionDeadline(db, g.id), dummy: await privateDummyInfo(db, g.id) }))),
      ]);
      const gameOptions = games.map((g) => ({ value: g.id, label: g.title }));
      return sendPage(reply, {
        title: t('admin.title'),
        user: request.user,
        nav: '/admin',
        body: html`<h1>${t('admin.title')}</h1>
${noticeOf(request.query)}
<p>${th('admin.links_html')}</p>
<p id="admin-students">${th('stu.adminLinks_html')}</p>
<section aria-labelledby="health-h" id="admin-health">
<h2 id="health-h">${t('admin.health')}</h2>
<dl class="facts">
  <dt>${t('admin.status')}</dt><dd><span class="badge ${health.status === 'ok' ? 'qualified' : 'failed'}">${healthStatusText(health.status)}</span>${t('admin.dbRedis', health.db.ok ? t('admin.up') : t('admin.down', health.db.error ?? ''), health.redis.ok ? t('admin.up') : t('admin.down', health.redis.error ?? ''))}</dd>
  <dt>${t('admin.workers')}</dt><dd>${health.workers ? t('admin.pools', health.workers.seen, health.workers.slots) : t('admin.unknown')}</dd>
  <dt>${t('admin.matches')}</dt><dd>${t('admin.waitingRunning', queue.waiting, queue.running, queue.matches.map((m) => `${word(m.kind)}: ${m.waiting}/${m.running}`).join(', '))}</dd>
  <dt>${t('admin.recorder')}</dt><dd id="admin-recorder">${recorderText(health.recorder)}</dd>
  <dt>${t('admin.expectedWait')}</dt><dd>${waitExplanation(queue.expectedWait)}</dd>
</dl>
<p>${th('admin.queueLinks_html')}</p>
</section>
<section aria-labelledby="games-h" id="admin-games">
<h2 id="games-h">${t('admin.games')}</h2>
${settings.map(
  ({ game, deadline, dummy }) => html`<div class="card" id="admin-game-${game.id}">
<h3>${game.title}</h3>
<p>${t('admin.deadline')}<strong>${deadline ? when(deadline) : t('admin.none')}</strong>${deadline && deadline.getTime() <= Date.now() ? t('admin.passed') : ''}</p>
<form method="post" action="/admin/actions/deadline" class="inline"><input type="hidden" name="game" value="${game.id}">
${field({ name: 'deadline', label: t('admin.newDeadline', courseTimeZone()), type: 'text', value: localValue(deadline), attrs: html`placeholder="2026-12-20T23:59"` })}
<button type="submit">${t('admin.setDeadline')}</button></form>
<p>${t('admin.dummy')}${dummy.installed ? html`<strong>${t('admin.private')}</strong>${t('admin.installedOn')}${when(dummy.uploadedAt)}${t('admin.installed', dummy.uploadedBy ?? t('admin.commandLine'), dummy.sizeBytes ?? 0)}${postButton('/admin/actions/dummy-remove', t('admin.removeDummy'), { game: game.id })}` : t('admin.shipped')}</p>
<form method="post" action="/admin/actions/dummy" enctype="multipart/form-data"><input type="hidden" name="game" value="${game.id}">
${field({ name: 'file', label: t('admin.installDummy'), type: 'file', attrs: html`accept="${BOT_FILE_ACCEPT}"` })}
<button type="submit">${t('admin.upload')}</button></form>
<p>${postButton('/admin/actions/ratings-reset', t('admin.resetRatings'), { game: game.id, confirm: 'yes' })}${t('admin.resetNote')}<a href="/api/admin/exports/${game.id}/leaderboard.csv">${t('admin.leaderboardCsv')}</a> · <a href="/api/admin/exports/${game.id}/grades.csv" id="grades-${game.id}">${t('stu.gradesCsv')}</a></p>
</div>`,
)}
</section>
<section aria-labelledby="subs-h" id="admin-submissions">
<h2 id="subs-h">${t('admin.aSubmission')}</h2>
<form method="post" action="/admin/actions/submission">
${field({ name: 'id', label: t('admin.submissionId'), type: 'number', required: true, attrs: html`min="1"` })}
${select({
  name: 'action',
  label: t('admin.action'),
  options: [
    { value: 'disable', label: t('admin.disableOpt') },
    { value: 'enable', label: t('admin.enableOpt') },
    { value: 'rejudge', label: t('admin.rejudgeOpt') },
  ],
})}
<button type="submit">${t('admin.doIt')}</button></form>
</section>
<section aria-labelledby="names-h" id="admin-names">
<h2 id="names-h">${t('admin.aName')}</h2>
<form method="post" action="/admin/actions/name">
${select({ name: 'game', label: t('admin.game'), options: gameOptions })}
${field({ name: 'name', label: t('admin.name'), required: true, attrs: html`maxlength="64"` })}
${select({
  name: 'action',
  label: t('admin.action'),
  options: [
    { value: 'release', label: t('admin.releaseOpt') },
    { value: 'rename', label: t('admin.renameOpt') },
  ],
})}
${field({ name: 'newName', label: t('admin.newName'), attrs: html`maxlength="64"` })}
<button type="submit">${t('admin.doIt')}</button></form>
</section>
<section aria-labelledby="audit-h">
<h2 id="audit-h">${t('admin.latest')}</h2>
${auditTable(audit.rows)}
</section>`,
      });
    },
  );

  app.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: { hide: true, querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 64 }, done: { type: 'string', maxLength: 400 } } } },
    },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const q = request.query.q?.trim() ?? '';
      const users = await searchUsers(db, q, 100);
      const here = `/admin/users${q ? `?q=${encodeURIComponent(q)}` : ''}`;
      return sendPage(reply, {
        title: t('admin.users'),
        user: request.user,
        nav: '/admin',
        body: html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a></p><h1>${t('admin.users')}</h1>
${noticeOf(request.query)}
<form method="get" action="/admin/users" role="search">${field({ name: 'q', label: t('admin.nameContains'), type: 'search', value: q })}<button type="submit">${t('admin.search')}</button></form>
<div class="table-wrap"><table id="users">
<thead><tr><th scope="col">${t('admin.user')}</th><th scope="col">${t('admin.email')}</th><th scope="col">${t('admin.players')}</th><th scope="col">${t('admin.since')}</th><th scope="col">${t('admin.state')}</th><th scope="col"></th></tr></thead>
<tbody>${users.map(
          (
            u,
          ) => html`<tr data-user="${u.username}"><td><a href="/admin/users/${u.id}">${u.username}</a>${u.isAdmin ? ' (admin)' : ''}</td><td>${u.email ?? ''}</td><td>${u.players.map((p) => html`<a href="/players/${encodeURIComponent(p.name)}?game=${p.game}">${p.name}</a> <span class="muted">${p.game}${p.qualified ? ', qualified' : ''}</span> `)}</td><td>${when(u.createdAt)}</td>
<td>${u.disabledAt ? html`<span class="badge failed">${t('admin.disabled')}</span> ${when(u.disabledAt)}` : t('admin.active')}</td>
<td>${postButton(`/admin/actions/user`, u.disabledAt ? t('admin.enable') : t('admin.disable'), { id: u.id, action: u.disabledAt ? 'enable' : 'disable', back: here })} ${resetLinkButton(u.id)}</td></tr>`,
        )}</tbody></table></div>
${rosterSection()}`,
      });
    },
  );

  app.get(
    '/audit',
    {
      config: { access: 'admin' },
      schema: {
        hide: true,
        querystring: query({ page: pageNumber }),
      },
    },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const per = 100;
      const { total, rows } = await listAudit(db, { limit: per, offset: (request.query.page - 1) * per });
      const pages = Math.max(1, Math.ceil(total / per));
      return sendPage(reply, {
        title: t('admin.audit'),
        user: request.user,
        nav: '/admin',
        body: html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a></p><h1>${t('admin.audit')}</h1>
<p>${t('admin.auditCount', total)}</p>
${auditTable(rows)}
${pager({ page: request.query.page, pages, href: (p) => `/admin/audit?page=${p}`, label: t('admin.auditPages') })}`,
      });
    },
  );

  // ---- form actions

  const idOf = (v: unknown) => {
    const n = Number(str(v));
    if (!Number.isInteger(n) || n < 1 || n > 2147483647) throw badRequest(t('adminErr.id'));
    return n;
  };

  /** A form action for admins only: the handler gets the admin and the form's fields. */
  const action = (path: string, handler: (me: AuthUser, b: FormBody, reply: FastifyReply, request: FastifyRequest) => Promise<unknown>) =>
    app.post(path, { config: { access: 'admin' } }, async (request, reply) => {
      const me = adminOf(request, reply);
      if (!me) return reply;
      return handler(me, fields(request.body), reply, request);
    });

  action('/actions/user', async (me, b, reply) => {
    const disable = str(b.action) === 'disable';
    const u = await setUserDisabled(db, me.id, idOf(b.id), disable);
    const to = str(b.back).startsWith('/admin/users') ? str(b.back) : '/admin/users';
    return back(reply, t('adminDone.user', u.username, disable), to);
  });

  action('/actions/submission', async (me, b, reply, request) => {
    const id = idOf(b.id);
    const action = str(b.action);
    const to = /^\/submissions\/\d+$/.test(str(b.back)) ? str(b.back) : '/admin';
    if (action === 'rejudge') {
      const again = await rejudgeSubmission(db, me.id, id);
      const { queues, startGate } = app.deps;
      if (queues && startGate)
        await startGate({ db, queues }, again).catch((err: unknown) =>
          request.log.warn({ err, submissionId: again }, 'rejudge: gate left queued for the sweep'),
        );
      return to === '/admin' ? back(reply, t('adminDone.rejudged', id, again)) : reply.redirect(`/submissions/${again}`, 303);
    }
    if (action !== 'disable' && action !== 'enable') throw badRequest(t('adminErr.submissionAction'));
    await setSubmissionDisabled(db, me.id, id, action === 'disable');
    return to === '/admin' ? back(reply, t('adminDone.submission', id, action === 'disable')) : reply.redirect(to, 303);
  });

  action('/actions/name', async (me, b, reply) => {
    const game = str(b.game);
    const name = str(b.name);
    if (str(b.action) === 'rename') {
      const done = await renameName(db, me.id, game, name, str(b.newName), config.offensiveWords);
      return back(reply, t('adminDone.renamed', name, done.name, game));
    }
    if (str(b.action) !== 'release') throw badRequest(t('adminErr.nameAction'));
    await releaseName(db, me.id, game, name);
    return back(reply, t('adminDone.released', name, game));
  });

  action('/actions/deadline', async (me, b, reply, request) => {
    const text = str(b.deadline);
    let deadline: Date | null = null;
    if (text) {
      // Without an offset it is the course's wall-clock time, as every date on the site is shown.
      deadline = parseCourseInput(text);
      if (!deadline) throw badRequest(t('adminErr.date', text, courseTimeZone()));
    }
    if (deadline && deadline.getTime() <= Date.now() && str(b.confirmPast) !== 'yes') {
      // A deadline already past closes submissions at once: ask again, with the same value and a confirmation.
      return sendPage(
        reply,
        {
          title: t('admin.pastDeadlineTitle'),
          user: request.user,
          nav: '/admin',
          body: html`<h1>${t('admin.pastDeadlineTitle')}</h1>
<p id="deadline-past">${t('admin.pastDeadline', str(b.game), formatForPeople(deadline))}</p>
<form method="post" action="/admin/actions/deadline"><input type="hidden" name="game" value="${str(b.game)}"><input type="hidden" name="deadline" value="${text}"><input type="hidden" name="confirmPast" value="yes">
<button type="submit">${t('admin.pastDeadlineConfirm')}</button> <a href="/admin#admin-game-${str(b.game)}">${t('admin.pastDeadlineCancel')}</a></form>`,
        },
        409,
      );
    }
    const row = await setSubmissionDeadline(db, me.id, str(b.game), deadline, { allowPast: true });
    return back(
      reply,
      row.submissionDeadline ? t('adminDone.deadlineSet', row.game, formatForPeople(row.submissionDeadline)) : t('adminDone.deadlineCleared', row.game),
    );
  });

  action('/actions/ratings-reset', async (me, b, reply) => {
    if (str(b.confirm) !== 'yes') throw badRequest(t('adminErr.confirm'));
    const r = await resetRatings(db, me.id, str(b.game));
    return back(reply, t('adminDone.ratingsReset', str(b.game), r.players, r.historyRowsCleared));
  });

  app.post('/actions/dummy', { config: { access: 'admin' } }, async (request, reply) => {
    const me = adminOf(request, reply);
    if (!me) return reply;
    if (!request.isMultipart()) throw badRequest(t('adminErr.withFile'));
    const form = await readFileForm(request, config.submissionMaxBytes);
    const game = form.fields.game ?? '';
    const { source, filename } = form;
    if (!source) throw badRequest(t('adminErr.dummyFile'));
    await installPrivateDummy(db, me.id, { game, source, filename }, { maxBytes: config.submissionMaxBytes });
    return back(reply, t('adminDone.dummyInstalled', game));
  });

  action('/actions/dummy-remove', async (me, b, reply) => {
    const game = str(b.game);
    await removePrivateDummy(db, me.id, game);
    return back(reply, t('adminDone.dummyRemoved', game));
  });
}
