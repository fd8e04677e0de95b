// The admin's pages (admins only; 403 for anyone else): /admin (health and
// queue, games with their deadline, private Dummy, ratings reset and CSV
// export, submission and name actions, the latest audit lines), /admin/users
// (search, disable, enable) and /admin/audit. Forms post to /admin/actions/*,
// which call the same domain functions as the API and come back with a
// notice; a refusal is an error page with the domain's message.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rejudgeSubmission, releaseName, renameName, resetRatings, searchUsers, setSubmissionDeadline, setSubmissionDisabled, setUserDisabled, submissionDeadline } from '../../domain/admin.ts';
import { listAudit, type AuditRow } from '../../domain/audit.ts';
import { installPrivateDummy, privateDummyInfo, removePrivateDummy } from '../../domain/private-dummy.ts';
import { queueOverview } from '../../domain/queue-overview.ts';
import { readFileForm } from '../../server/file-form.ts';
import { loadGames } from '../../game-kit/registry.ts';
import { requireAdmin, type AuthUser } from '../../server/auth.ts';
import { badRequest } from '../../server/errors.ts';
import { readHealth } from '../../server/routes/ops.ts';
import { field, select } from '../forms.ts';
import { html, type Html } from '../html.ts';
import { sendPage } from '../layout.ts';
import { pageUser } from './auth.ts';
import { pager, when } from './matches.ts';

type FormBody = Record<string, string | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function auditTable(rows: AuditRow[], id = 'audit'): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}">No admin action yet.</p>`;
  return html`<div class="table-wrap"><table id="${id}">
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows.map((r) => html`<tr data-action="${r.action}"><td>${when(r.at)}</td><td>${r.actor ?? html`<span class="muted">command line</span>`}</td><td><code>${r.action}</code></td><td>${r.targetType ? `${r.targetType} ${r.targetId ?? ''}` : ''}</td><td>${r.detail ? html`<code>${JSON.stringify(r.detail)}</code>` : ''}</td></tr>`)}</tbody>
</table></div>`;
}

const postButton = (action: string, label: string, hidden: Record<string, string | number> = {}, cls = 'secondary') =>
  html`<form method="post" action="${action}" class="inline">${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}">`)}<button type="submit" class="${cls}">${label}</button></form>`;

/** A datetime-local value (UTC) for a date. */
const localValue = (d: Date | null) => (d ? d.toISOString().slice(0, 16) : '');

export default async function adminPages(app: FastifyInstance) {
  const { db, config } = app.deps;

  /** The admin, or null after a redirect to the login page; 403 for a user who is not an admin. */
  const adminOf = (request: FastifyRequest, reply: FastifyReply): AuthUser | null => {
    if (!pageUser(request, reply)) return null;
    return requireAdmin(request);
  };
  const back = (reply: FastifyReply, notice: string, to = '/admin') => reply.redirect(`${to}${to.includes('?') ? '&' : '?'}done=${encodeURIComponent(notice)}`, 303);
  const noticeOf = (q: { done?: string }) => (q.done ? html`<p class="notice ok" role="status" id="admin-notice">${q.done.slice(0, 300)}</p>` : '');

  app.get<{ Querystring: { done?: string } }>(
    '/admin',
    { schema: { hide: true, querystring: { type: 'object', properties: { done: { type: 'string', maxLength: 400 } } } } },
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
        title: 'Admin',
        user: request.user,
        nav: '/admin',
        body: html`<h1>Admin</h1>
${noticeOf(request.query)}
<p><a href="/admin/users">Users</a> · <a href="/admin/tournaments">Tournaments</a> · <a href="/admin/similarity">Similarity (plagiarism)</a> · <a href="/admin/audit">The whole audit</a> · <a href="/api/admin/exports/qualified.csv" id="export-qualified">Qualified players per user (CSV)</a></p>
<section aria-labelledby="health-h" id="admin-health">
<h2 id="health-h">Queue and workers</h2>
<dl class="facts">
  <dt>Status</dt><dd><span class="badge ${health.status === 'ok' ? 'qualified' : 'failed'}">${health.status}</span> database ${health.db.ok ? 'up' : `down (${health.db.error ?? ''})`}, Redis ${health.redis.ok ? 'up' : `down (${health.redis.error ?? ''})`}</dd>
  <dt>Workers</dt><dd>${health.workers ? `${health.workers.seen} pool(s), ${health.workers.slots} match runner(s)` : 'unknown'}</dd>
  <dt>Matches</dt><dd>${queue.waiting} waiting, ${queue.running} running (${queue.matches.map((m) => `${m.kind}: ${m.waiting}/${m.running}`).join(', ')})</dd>
  <dt>Recorder</dt><dd>${health.recorder ? `${JSON.stringify(health.recorder)}` : 'unknown'}</dd>
  <dt>Expected wait</dt><dd>${queue.expectedWait.explanation}</dd>
</dl>
<p><a href="/queue">The queue page</a> · <a href="/health">/health</a></p>
</section>
<section aria-labelledby="games-h" id="admin-games">
<h2 id="games-h">Games</h2>
${settings.map(
  ({ game, deadline, dummy }) => html`<div class="card" id="admin-game-${game.id}">
<h3>${game.title}</h3>
<p>Submission deadline: <strong>${deadline ? when(deadline) : 'none'}</strong>${deadline && deadline.getTime() <= Date.now() ? ' (passed: new submissions are refused)' : ''}</p>
<form method="post" action="/admin/actions/deadline" class="inline"><input type="hidden" name="game" value="${game.id}">
${field({ name: 'deadline', label: 'New deadline (UTC; empty clears it)', type: 'text', value: localValue(deadline), attrs: html`placeholder="2026-12-20T23:59"` })}
<button type="submit">Set the deadline</button></form>
<p>Dummy: ${dummy.installed ? html`<strong>private</strong>, installed ${when(dummy.uploadedAt)} by ${dummy.uploadedBy ?? 'the command line'} (${dummy.sizeBytes} bytes) ${postButton('/admin/actions/dummy-remove', 'Remove it (the shipped Dummy plays again)', { game: game.id })}` : 'the shipped one'}</p>
<form method="post" action="/admin/actions/dummy" enctype="multipart/form-data"><input type="hidden" name="game" value="${game.id}">
${field({ name: 'file', label: 'Install a private Dummy (it must declare PLAYER_NAME = "Dummy"; it is compiled and plays itself first)', type: 'file', attrs: html`accept=".ts,.js"` })}
<button type="submit">Upload and judge it</button></form>
<p>${postButton('/admin/actions/ratings-reset', 'Reset the ratings', { game: game.id, confirm: 'yes' })} every player back to the starting rating, the rating history cleared (the matches stay) · <a href="/api/admin/exports/${game.id}/leaderboard.csv">Leaderboard (CSV)</a></p>
</div>`,
)}
</section>
<section aria-labelledby="subs-h" id="admin-submissions">
<h2 id="subs-h">A submission</h2>
<form method="post" action="/admin/actions/submission">
${field({ name: 'id', label: 'Submission id', type: 'number', required: true, attrs: html`min="1"` })}
${select({ name: 'action', label: 'Action', options: [{ value: 'disable', label: 'Disable (leaves ranked play)' }, { value: 'enable', label: 'Enable again' }, { value: 'rejudge', label: 'Rejudge (a rejected one: a new version, the same source, the whole gate)' }] })}
<button type="submit">Do it</button></form>
</section>
<section aria-labelledby="names-h" id="admin-names">
<h2 id="names-h">A player name</h2>
<form method="post" action="/admin/actions/name">
${select({ name: 'game', label: 'Game', options: gameOptions })}
${field({ name: 'name', label: 'Name', required: true, attrs: html`maxlength="64"` })}
${select({ name: 'action', label: 'Action', options: [{ value: 'release', label: 'Release (never qualified: free for anyone)' }, { value: 'rename', label: 'Rename to the new name' }] })}
${field({ name: 'newName', label: 'New name (rename)', attrs: html`maxlength="64"` })}
<button type="submit">Do it</button></form>
</section>
<section aria-labelledby="audit-h">
<h2 id="audit-h">Latest admin actions</h2>
${auditTable(audit.rows)}
</section>`,
      });
    },
  );

  app.get<{ Querystring: { q?: string; done?: string } }>(
    '/admin/users',
    { schema: { hide: true, querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 64 }, done: { type: 'string', maxLength: 400 } } } } },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const q = request.query.q?.trim() ?? '';
      const users = await searchUsers(db, q, 100);
      const here = `/admin/users${q ? `?q=${encodeURIComponent(q)}` : ''}`;
      return sendPage(reply, {
        title: 'Users',
        user: request.user,
        nav: '/admin',
        body: html`<p class="breadcrumbs"><a href="/admin">Admin</a></p><h1>Users</h1>
${noticeOf(request.query)}
<form method="get" action="/admin/users" role="search">${field({ name: 'q', label: 'Name contains', type: 'search', value: q })}<button type="submit">Search</button></form>
<div class="table-wrap"><table id="users">
<thead><tr><th scope="col">User</th><th scope="col">E-mail</th><th scope="col">Players</th><th scope="col">Since</th><th scope="col">State</th><th scope="col"></th></tr></thead>
<tbody>${users.map(
          (u) => html`<tr data-user="${u.username}"><td>${u.username}${u.isAdmin ? ' (admin)' : ''}</td><td>${u.email ?? ''}</td><td>${u.players.map((p) => html`<a href="/players/${encodeURIComponent(p.name)}?game=${p.game}">${p.name}</a> <span class="muted">${p.game}${p.qualified ? ', qualified' : ''}</span> `)}</td><td>${when(u.createdAt)}</td>
<td>${u.disabledAt ? html`<span class="badge failed">disabled</span> ${when(u.disabledAt)}` : 'active'}</td>
<td>${postButton(`/admin/actions/user`, u.disabledAt ? 'Enable' : 'Disable', { id: u.id, action: u.disabledAt ? 'enable' : 'disable', back: here })}</td></tr>`,
        )}</tbody></table></div>`,
      });
    },
  );

  app.get<{ Querystring: { page: number } }>(
    '/admin/audit',
    { schema: { hide: true, querystring: { type: 'object', additionalProperties: false, properties: { page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 } } } } },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const per = 100;
      const { total, rows } = await listAudit(db, { limit: per, offset: (request.query.page - 1) * per });
      const pages = Math.max(1, Math.ceil(total / per));
      return sendPage(reply, {
        title: 'Audit',
        user: request.user,
        nav: '/admin',
        body: html`<p class="breadcrumbs"><a href="/admin">Admin</a></p><h1>Audit</h1>
<p>${total} admin action${total === 1 ? '' : 's'}, newest first.</p>
${auditTable(rows)}
${pager({ page: request.query.page, pages, href: (p) => `/admin/audit?page=${p}`, label: 'Audit pages' })}`,
      });
    },
  );

  // ---- form actions

  const idOf = (v: unknown) => {
    const n = Number(str(v));
    if (!Number.isInteger(n) || n < 1 || n > 2147483647) throw badRequest('give a positive whole number as the id');
    return n;
  };

  /** A form action for admins only: the handler gets the admin and the form's fields. */
  const action = (path: string, handler: (me: AuthUser, b: FormBody, reply: FastifyReply, request: FastifyRequest) => Promise<unknown>) =>
    app.post<{ Body: FormBody }>(path, async (request, reply) => {
      const me = adminOf(request, reply);
      if (!me) return reply;
      return handler(me, request.body ?? {}, reply, request);
    });

  action('/admin/actions/user', async (me, b, reply) => {
    const disable = str(b.action) === 'disable';
    const u = await setUserDisabled(db, me.id, idOf(b.id), disable);
    const to = str(b.back).startsWith('/admin/users') ? str(b.back) : '/admin/users';
    return back(reply, `${u.username} ${disable ? 'disabled' : 'enabled'}`, to);
  });

  action('/admin/actions/submission', async (me, b, reply, request) => {
    const id = idOf(b.id);
    const action = str(b.action);
    const to = /^\/submissions\/\d+$/.test(str(b.back)) ? str(b.back) : '/admin';
    if (action === 'rejudge') {
      const again = await rejudgeSubmission(db, me.id, id);
      const { queues, startGate } = app.deps;
      if (queues && startGate) await startGate({ db, queues }, again).catch((err: unknown) => request.log.warn({ err, submissionId: again }, 'rejudge: gate left queued for the sweep'));
      return to === '/admin' ? back(reply, `submission ${id} rejudged as submission ${again}`) : reply.redirect(`/submissions/${again}`, 303);
    }
    if (action !== 'disable' && action !== 'enable') throw badRequest('choose disable, enable or rejudge');
    await setSubmissionDisabled(db, me.id, id, action === 'disable');
    return to === '/admin' ? back(reply, `submission ${id} ${action}d`) : reply.redirect(to, 303);
  });

  action('/admin/actions/name', async (me, b, reply) => {
    const game = str(b.game);
    const name = str(b.name);
    if (str(b.action) === 'rename') {
      const done = await renameName(db, me.id, game, name, str(b.newName), config.offensiveWords);
      return back(reply, `${name} renamed to ${done.name} in ${game}`);
    }
    if (str(b.action) !== 'release') throw badRequest('choose release or rename');
    await releaseName(db, me.id, game, name);
    return back(reply, `${name} released in ${game}: anyone may claim it`);
  });

  action('/admin/actions/deadline', async (me, b, reply) => {
    const text = str(b.deadline);
    let deadline: Date | null = null;
    if (text) {
      // A datetime-local value carries no zone: it is read as UTC, as every date on the site is shown.
      deadline = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
      if (Number.isNaN(deadline.getTime())) throw badRequest(`"${text}" is not a date: write it as 2026-12-20T23:59 (UTC)`);
    }
    const row = await setSubmissionDeadline(db, me.id, str(b.game), deadline);
    return back(reply, row.submissionDeadline ? `deadline of ${row.game} set to ${row.submissionDeadline.toISOString()}` : `deadline of ${row.game} cleared`);
  });

  action('/admin/actions/ratings-reset', async (me, b, reply) => {
    if (str(b.confirm) !== 'yes') throw badRequest('not confirmed');
    const r = await resetRatings(db, me.id, str(b.game));
    return back(reply, `ratings of ${str(b.game)} reset: ${r.players} players, ${r.historyRowsCleared} history rows cleared`);
  });

  app.post('/admin/actions/dummy', async (request, reply) => {
    const me = adminOf(request, reply);
    if (!me) return reply;
    if (!request.isMultipart()) throw badRequest('send the form with its file');
    const form = await readFileForm(request, config.submissionMaxBytes);
    const game = form.fields.game ?? '';
    const { source, filename } = form;
    if (!source) throw badRequest('choose the Dummy file (.ts or .js)');
    await installPrivateDummy(db, me.id, { game, source, filename }, { maxBytes: config.submissionMaxBytes });
    return back(reply, `private Dummy installed for ${game}: it passed the compile check and self-play`);
  });

  action('/admin/actions/dummy-remove', async (me, b, reply) => {
    const game = str(b.game);
    await removePrivateDummy(db, me.id, game);
    return back(reply, `private Dummy of ${game} removed: the shipped Dummy plays again`);
  });
}
