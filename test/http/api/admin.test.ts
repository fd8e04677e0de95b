// The teacher's admin over HTTP (app.inject, no queues): who is an admin
// (only `arbiter admin grant` makes one), 403 for anyone else, and each
// admin action with its audit line: disabling users and submissions,
// rejudging, releasing and renaming names, the submission deadline,
// resetting ratings, the queue, CSV exports, the audit list and pages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot, submitJson, multipart, type TestUser } from '../../helpers/app.ts';
import { adminCommand, adminGrant } from '../../../src/cli/admin.ts';
import { RANKED_POOL, scheduleRanked } from '../../../src/jobs/scheduler/ranked.ts';
import { freshQueues } from '../../helpers/queue.ts';
import { initialRating } from '../../../src/domain/ratings/index.ts';

const api = await startTestApi();
const { app, db } = api;

/** A qualified player with a rating and one rated match, as the recorder leaves them. */
async function qualified(owner: TestUser, name: string, mu = 30, game = 'moria') {
  const p = await db.playerName.create({ data: { game, name, nameLower: name.toLowerCase(), ownerId: owner.id, locked: true, lockedAt: new Date() } });
  const s = await db.submission.create({
    data: {
      playerId: p.id,
      userId: owner.id,
      game,
      version: 1,
      source: bot(name),
      filename: `${name}.ts`,
      sizeBytes: 10,
      status: 'qualified',
      finishedAt: new Date(),
    },
  });
  await db.playerName.update({ where: { id: p.id }, data: { qualifiedSubmissionId: s.id } });
  await db.rating.create({ data: { playerId: p.id, game, mu, sigma: 2, ordinal: mu - 6, matchesPlayed: 7 } });
  const m = await db.match.create({ data: { game, seed: 1, kind: 'ranked', status: 'done' } });
  await db.ratingHistory.create({ data: { playerId: p.id, game, matchId: m.id, mu, sigma: 2, ordinal: mu - 6 } });
  return { playerId: p.id, submissionId: s.id };
}

/** The newest audit line. */
const lastAudit = () => db.auditEntry.findFirstOrThrow({ orderBy: { id: 'desc' }, include: { actor: { select: { username: true } } } });

const root = await registerUser(app, 'root');
const teacher = await registerUser(app, 'teacher');
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');

test('registering a username once listed in ADMIN_USERS grants nothing; arbiter admin grant and revoke do, each audited with no actor', async () => {
  assert.equal((await app.inject({ url: '/api/me', headers: root.auth })).json().isAdmin, false);
  assert.equal((await app.inject({ url: '/api/admin/users', headers: root.auth })).statusCode, 403);

  assert.equal(await adminGrant(db, 'grant', 'TEACHER'), 'teacher is now an admin');
  let line = await lastAudit();
  assert.deepEqual([line.action, line.actorId, line.targetType, line.targetId], ['admin.grant', null, 'user', String(teacher.id)]);
  assert.equal((await app.inject({ url: '/api/me', headers: teacher.auth })).json().isAdmin, true);

  // The command itself, on the database DATABASE_URL names.
  const out: string[] = [];
  const log = console.log;
  console.log = (s: string) => out.push(s);
  try {
    assert.equal(await adminCommand(['grant', 'root'], { DATABASE_URL: api.fresh.url }), 0);
    assert.equal(await adminCommand(['revoke', 'root'], { DATABASE_URL: api.fresh.url }), 0);
  } finally {
    console.log = log;
  }
  assert.deepEqual(out, ['root is now an admin', 'root is no longer an admin']);
  line = await lastAudit();
  assert.deepEqual([line.action, line.actorId, line.targetId], ['admin.revoke', null, String(root.id)]);
  assert.equal((await app.inject({ url: '/api/me', headers: root.auth })).json().isAdmin, false);
  // A user who has not signed up: exit 1 and nothing recorded.
  const count = await db.auditEntry.count();
  const err = console.error;
  console.error = () => {};
  try {
    assert.equal(await adminCommand(['grant', 'nobody'], { DATABASE_URL: api.fresh.url }), 1);
  } finally {
    console.error = err;
  }
  assert.equal(await db.auditEntry.count(), count);
  await assert.rejects(adminCommand(['promote', 'root'], { DATABASE_URL: api.fresh.url }), /usage: arbiter admin grant/);
});

test('every admin route and page: 401 without a user, 403 for a user who is not an admin', async () => {
  const routes: [string, string][] = [
    ['GET', '/api/admin/users'],
    ['POST', `/api/admin/users/${bob.id}/disable`],
    ['POST', '/api/admin/submissions/1/disable'],
    ['POST', '/api/admin/submissions/1/rejudge'],
    ['POST', '/api/admin/names/release'],
    ['POST', '/api/admin/names/rename'],
    ['GET', '/api/admin/games/moria'],
    ['PUT', '/api/admin/games/moria/deadline'],
    ['POST', '/api/admin/games/moria/ratings/reset'],
    ['POST', '/api/admin/games/moria/ranked/wake'],
    ['PUT', '/api/admin/games/moria/dummy'],
    ['DELETE', '/api/admin/games/moria/dummy'],
    ['GET', '/api/admin/queue'],
    ['GET', '/api/admin/audit'],
    ['GET', '/api/admin/exports/moria/leaderboard.csv'],
    ['GET', '/api/admin/exports/qualified.csv'],
  ];
  for (const [method, url] of routes) {
    const anonymous = await app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
    assert.equal(anonymous.statusCode, 401, `${method} ${url} anonymous`);
    const res = await app.inject({ method: method as 'GET', url, headers: ana.auth, payload: method === 'GET' ? undefined : {} });
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
  }
  for (const url of ['/admin', '/admin/users', '/admin/audit']) {
    const page = await app.inject({ url, headers: { cookie: ana.cookie, accept: 'text/html' } });
    assert.equal(page.statusCode, 403, url);
    assert.equal((await app.inject({ url, headers: { accept: 'text/html' } })).statusCode, 303, `${url} sends the anonymous to the login page`);
  }
  const post = await app.inject({
    method: 'POST',
    url: '/admin/actions/user',
    headers: { cookie: ana.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `id=${bob.id}&action=disable`,
  });
  assert.equal(post.statusCode, 403);
  assert.equal((await db.user.findUniqueOrThrow({ where: { id: bob.id } })).disabledAt, null);
  // No Admin link in the navigation of a user who is not one.
  assert.ok(!(await app.inject({ url: '/', headers: { cookie: ana.cookie } })).body.includes('href="/admin"'));
});

test('disabling a user: audited; log-in, token and session refused with a clear message; no submission; out of ranked play and the leaderboard; matches stay; enabling restores', async () => {
  await adminGrant(db, 'grant', 'teacher');
  const dora = await registerUser(app, 'dora');
  const q = await qualified(dora, 'DoraBot');
  const match = await db.match.create({
    data: {
      game: 'moria',
      seed: 3,
      kind: 'ranked',
      status: 'done',
      participants: { create: [{ seat: 0, name: 'DoraBot', playerId: q.playerId, submissionId: q.submissionId }] },
    },
  });
  const inPool = async () =>
    (await db.playerName.findMany({ where: { game: 'moria', ...RANKED_POOL }, select: { id: true } })).some((p) => p.id === q.playerId);
  const onBoard = async () =>
    ((await app.inject({ url: '/api/games/moria/leaderboard' })).json().players as { player: string }[]).some((p) => p.player === 'DoraBot');
  assert.ok(await inPool());
  assert.ok(await onBoard());

  const found = await app.inject({ url: '/api/admin/users?q=DOR', headers: teacher.auth });
  assert.equal(found.statusCode, 200);
  assert.deepEqual(
    found.json().users.map((u: { username: string }) => u.username),
    ['dora'],
  );

  const res = await app.inject({ method: 'POST', url: `/api/admin/users/${dora.id}/disable`, headers: teacher.auth });
  assert.equal(res.statusCode, 200, res.body);
  const line = await lastAudit();
  assert.deepEqual([line.action, line.actor?.username, line.targetType, line.targetId], ['user.disable', 'teacher', 'user', String(dora.id)]);

  const login = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'dora', password: 'correct horse' } });
  assert.equal(login.statusCode, 403);
  assert.match(login.json().message, /disabled by an admin/);
  assert.equal(login.json().code, 'account-disabled');
  const viaToken = await app.inject({ url: '/api/me', headers: dora.auth });
  assert.equal(viaToken.statusCode, 403);
  assert.match(viaToken.json().message, /disabled by an admin/);
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: dora.cookie } })).statusCode, 403);
  const sub = await submitJson(app, dora, bot('DoraTwo'));
  assert.equal(sub.statusCode, 403);
  assert.match(sub.json().message, /disabled/);
  const form = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'username=dora&password=correct+horse',
  });
  assert.equal(form.statusCode, 403);
  assert.match(form.body, /disabled by an admin/);
  assert.equal(await inPool(), false, 'out of the ranked pool');
  assert.equal(await onBoard(), false, 'off the leaderboard');
  assert.equal((await app.inject({ url: '/api/players/DoraBot' })).json().games[0].rating.rank, null, 'no rank on the player page either');
  // The scheduler itself: with Dora out, ranked matches seat only the two others (and Dummies).
  const eve = await registerUser(app, 'eve');
  await qualified(eve, 'EveBot', 25, 'bola-de-drac');
  await qualified(eve, 'EveBot2', 25, 'bola-de-drac');
  const doraBdd = await qualified(dora, 'DoraBdd', 25, 'bola-de-drac');
  const fq = await freshQueues();
  try {
    const ids = await scheduleRanked({ db, queues: fq.queues }, { target: 3, games: ['bola-de-drac'] });
    assert.equal(ids.length, 3);
    const seated = await db.participant.findMany({ where: { matchId: { in: ids }, playerId: { not: null } }, select: { playerId: true } });
    assert.equal(seated.length, 6, 'two players in each of the three matches');
    assert.ok(
      seated.every((p) => p.playerId !== doraBdd.playerId),
      'a disabled user never plays ranked',
    );
  } finally {
    await db.match.deleteMany({ where: { game: 'bola-de-drac', kind: 'ranked', status: 'queued' } });
    await fq.cleanup();
  }
  assert.ok(await db.match.findUnique({ where: { id: match.id } }), 'the matches stay');
  assert.equal((await app.inject({ url: `/api/matches/${match.id}` })).statusCode, 200);

  assert.equal((await app.inject({ method: 'POST', url: `/api/admin/users/${dora.id}/enable`, headers: teacher.auth })).statusCode, 200);
  assert.equal((await lastAudit()).action, 'user.enable');
  assert.equal((await app.inject({ url: '/api/me', headers: dora.auth })).statusCode, 200);
  assert.ok(await inPool());
  assert.ok(await onBoard());
  assert.equal(typeof (await app.inject({ url: '/api/players/DoraBot' })).json().games[0].rating.rank, 'number');
  // An admin cannot lock themself out.
  assert.equal((await app.inject({ method: 'POST', url: `/api/admin/users/${teacher.id}/disable`, headers: teacher.auth })).statusCode, 400);
});

test('disabling a submission takes it out of ranked play and off the leaderboard, audited; enabling brings it back', async () => {
  const q = await qualified(bob, 'BobBot');
  const inPool = async () =>
    (await db.playerName.findMany({ where: { game: 'moria', ...RANKED_POOL }, select: { id: true } })).some((p) => p.id === q.playerId);
  assert.ok(await inPool());
  assert.equal((await app.inject({ method: 'POST', url: `/api/admin/submissions/${q.submissionId}/disable`, headers: teacher.auth })).statusCode, 200);
  const line = await lastAudit();
  assert.deepEqual(
    [line.action, line.targetType, line.targetId, (line.detail as { player: string }).player],
    ['submission.disable', 'submission', String(q.submissionId), 'BobBot'],
  );
  assert.equal(await inPool(), false);
  assert.ok(!(await app.inject({ url: '/api/games/moria/leaderboard' })).body.includes('BobBot'));
  assert.equal((await app.inject({ method: 'POST', url: `/api/admin/submissions/${q.submissionId}/enable`, headers: teacher.auth })).statusCode, 200);
  assert.ok(await inPool());
  assert.equal((await app.inject({ method: 'POST', url: '/api/admin/submissions/999999/disable', headers: teacher.auth })).statusCode, 404);
});

test('rejudge: a rejected submission becomes a new version with the same source (queued for the gate), audited; a qualified one is refused', async () => {
  const first = (await submitJson(app, ana, bot('Rejudged'))).json().id as number;
  await db.submission.update({ where: { id: first }, data: { status: 'rejected', reason: 'the judge could not play gate match #1', finishedAt: new Date() } });
  const res = await app.inject({ method: 'POST', url: `/api/admin/submissions/${first}/rejudge`, headers: teacher.auth });
  assert.equal(res.statusCode, 202, res.body);
  const again = await db.submission.findUniqueOrThrow({ where: { id: res.json().id } });
  const old = await db.submission.findUniqueOrThrow({ where: { id: first } });
  assert.deepEqual(
    [again.playerId, again.userId, again.source, again.version, again.status],
    [old.playerId, old.userId, old.source, old.version + 1, 'queued'],
  );
  assert.equal(old.status, 'rejected', 'the old version stays on record');
  const line = await lastAudit();
  assert.deepEqual([line.action, line.targetId, (line.detail as { newSubmissionId: number }).newSubmissionId], ['submission.rejudge', String(first), again.id]);

  const q = await qualified(ana, 'Qualified1');
  const refused = await app.inject({ method: 'POST', url: `/api/admin/submissions/${q.submissionId}/rejudge`, headers: teacher.auth });
  assert.equal(refused.statusCode, 409);
  assert.match(refused.json().message, /qualified/);
  const judging = await app.inject({ method: 'POST', url: `/api/admin/submissions/${again.id}/rejudge`, headers: teacher.auth });
  assert.equal(judging.statusCode, 409, 'still being judged');
});

test('releasing a name that never qualified frees it for anyone, its submissions stay; a qualified name cannot be released', async () => {
  const sub = (await submitJson(app, ana, bot('Freed'))).json().id as number;
  await db.submission.update({ where: { id: sub }, data: { status: 'rejected', reason: 'lost', finishedAt: new Date() } });
  assert.equal((await submitJson(app, bob, bot('Freed'))).statusCode, 409, 'taken by ana');
  const res = await app.inject({ method: 'POST', url: '/api/admin/names/release', headers: teacher.auth, payload: { game: 'moria', name: 'freed' } });
  assert.equal(res.statusCode, 200, res.body);
  const line = await lastAudit();
  assert.deepEqual(
    [line.action, (line.detail as { name: string; owner: string }).name, (line.detail as { owner: string }).owner],
    ['name.release', 'Freed', 'ana'],
  );
  const bobs = await submitJson(app, bob, bot('Freed'));
  assert.equal(bobs.statusCode, 202, bobs.body);
  assert.equal(bobs.json().version, 1, 'a new claim');
  assert.ok(await db.submission.findUnique({ where: { id: sub } }), "ana's submission stays on record");
  assert.equal((await app.inject({ url: '/api/players/Freed' })).json().owner, 'bob');

  await qualified(ana, 'LockedName');
  const locked = await app.inject({ method: 'POST', url: '/api/admin/names/release', headers: teacher.auth, payload: { game: 'moria', name: 'LockedName' } });
  assert.equal(locked.statusCode, 409);
  assert.equal(
    (await app.inject({ method: 'POST', url: '/api/admin/names/release', headers: teacher.auth, payload: { game: 'moria', name: 'NoSuchName' } })).statusCode,
    404,
  );
});

test('renaming checks the new name like a new one (rules, reserved, taken), audited; the player answers to the new name', async () => {
  await qualified(ana, 'OldName');
  await qualified(bob, 'BobsName');
  const rename = (newName: string) =>
    app.inject({ method: 'POST', url: '/api/admin/names/rename', headers: teacher.auth, payload: { game: 'moria', name: 'OldName', newName } });
  assert.equal((await rename('Dummy')).statusCode, 400, 'reserved');
  assert.equal((await rename('bad name!')).statusCode, 400, 'characters');
  assert.equal((await rename('bobsname')).statusCode, 409, 'taken by another user');
  const res = await rename('NewName');
  assert.equal(res.statusCode, 200, res.body);
  const line = await lastAudit();
  assert.deepEqual([line.action, line.detail], ['name.rename', { game: 'moria', from: 'OldName', to: 'NewName', owner: 'ana' }]);
  assert.equal((await app.inject({ url: '/api/players/NewName' })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/players/OldName' })).statusCode, 404);
});

test('a submission deadline: after it, new submissions are refused with the date (API and form); cleared, they are taken again; audited', async () => {
  const past = new Date(Date.now() - 60_000);
  // A deadline already past closes submissions at once: the API asks for confirmPast.
  const unconfirmed = await app.inject({
    method: 'PUT',
    url: '/api/admin/games/walking-dead/deadline',
    headers: teacher.auth,
    payload: { deadline: past.toISOString() },
  });
  assert.equal(unconfirmed.statusCode, 409, unconfirmed.body);
  assert.equal(unconfirmed.json().code, 'deadline-in-past');
  assert.equal((await db.gameSetting.findUnique({ where: { game: 'walking-dead' } }))?.submissionDeadline ?? null, null, 'nothing set');
  const set = await app.inject({
    method: 'PUT',
    url: '/api/admin/games/walking-dead/deadline',
    headers: teacher.auth,
    payload: { deadline: past.toISOString(), confirmPast: true },
  });
  assert.equal(set.statusCode, 200, set.body);
  assert.deepEqual([(await lastAudit()).action, (await lastAudit()).targetId], ['game.deadline', 'walking-dead']);
  const refused = await submitJson(app, ana, bot('Late', 'walking-dead'), 'walking-dead');
  assert.equal(refused.statusCode, 403);
  assert.equal(refused.json().code, 'deadline-passed');
  assert.ok(refused.json().message.includes(past.toISOString().slice(0, 16).replace('T', ' ')), refused.json().message);
  const form = multipart({ game: 'walking-dead' }, { filename: 'late.ts', content: bot('Late', 'walking-dead') });
  const page = await app.inject({ method: 'POST', url: '/submit', headers: { cookie: ana.cookie, ...form.headers }, payload: form.payload });
  assert.equal(page.statusCode, 403);
  assert.match(page.body, /closed on/);
  const submitPage = await app.inject({ url: '/submit', headers: { cookie: ana.cookie } });
  assert.match(submitPage.body, /<ul class="notice" id="deadlines"><li>The Walking Dead: submissions closed on/);
  assert.equal((await submitJson(app, ana, bot('OnTime'))).statusCode, 202, 'other games are open');
  const future = await app.inject({
    method: 'PUT',
    url: '/api/admin/games/walking-dead/deadline',
    headers: teacher.auth,
    payload: { deadline: new Date(Date.now() + 3600_000).toISOString() },
  });
  assert.equal(future.statusCode, 200);
  assert.equal((await submitJson(app, ana, bot('Late', 'walking-dead'), 'walking-dead')).statusCode, 202);
  assert.equal(
    (await app.inject({ method: 'PUT', url: '/api/admin/games/walking-dead/deadline', headers: teacher.auth, payload: { deadline: null } })).statusCode,
    200,
  );
  assert.equal(
    (await app.inject({ method: 'PUT', url: '/api/admin/games/nope/deadline', headers: teacher.auth, payload: { deadline: null } })).statusCode,
    404,
  );
});

test("resetting a game's ratings: every player back to the start, the history cleared, other games untouched, audited", async () => {
  const hp = await qualified(ana, 'Harry1', 33, 'harry-potter');
  const other = await qualified(ana, 'Moria9', 33, 'moria');
  const res = await app.inject({ method: 'POST', url: '/api/admin/games/harry-potter/ratings/reset', headers: teacher.auth });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { players: 1, historyRowsCleared: 1 });
  const r = await db.rating.findFirstOrThrow({ where: { playerId: hp.playerId } });
  const start = initialRating();
  assert.deepEqual([r.mu, r.sigma, r.ordinal, r.matchesPlayed], [start.mu, start.sigma, start.ordinal, 0]);
  assert.equal(await db.ratingHistory.count({ where: { game: 'harry-potter' } }), 0);
  assert.equal((await db.rating.findFirstOrThrow({ where: { playerId: other.playerId } })).mu, 33);
  assert.equal((await lastAudit()).action, 'game.ratings-reset');
});

test("waking a game's ranked play: audited (the scheduler counts matches from it again); an unknown game is a 404", async () => {
  const res = await app.inject({ method: 'POST', url: '/api/admin/games/moria/ranked/wake', headers: teacher.auth });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().game, 'moria');
  const audit = await lastAudit();
  assert.deepEqual([audit.action, audit.targetType, audit.targetId], ['ranked.wake', 'game', 'moria']);
  assert.equal((await app.inject({ method: 'POST', url: '/api/admin/games/nope/ranked/wake', headers: teacher.auth })).statusCode, 404);
});

test('CSV exports: the leaderboard and the qualified players per user', async () => {
  const board = await app.inject({ url: '/api/admin/exports/moria/leaderboard.csv', headers: teacher.auth });
  assert.equal(board.statusCode, 200);
  assert.match(board.headers['content-type'] as string, /^text\/csv/);
  const lines = board.body.trim().split('\r\n');
  assert.equal(lines[0], '"rank","player","owner","rating","mu","sigma","matches"');
  assert.ok(lines.some((l) => l.startsWith('"1",')));
  const q = await app.inject({ url: '/api/admin/exports/qualified.csv', headers: teacher.auth });
  assert.equal(q.statusCode, 200);
  assert.match(q.body, /^"user","email","game","player"/);
  assert.ok(q.body.includes('"ana","","moria","NewName"'), q.body);
});

test('the queue and health, the audit list by API and on the pages', async () => {
  const queue = await app.inject({ url: '/api/admin/queue', headers: teacher.auth });
  assert.equal(queue.statusCode, 200);
  assert.equal(queue.json().health.db.ok, true);
  assert.equal(typeof queue.json().queue.waiting, 'number');
  const audit = await app.inject({ url: '/api/admin/audit?limit=200', headers: teacher.auth });
  assert.equal(audit.statusCode, 200);
  const actions = new Set((audit.json().rows as { action: string }[]).map((r) => r.action));
  // Ids the API shows are numbers; a game's id is its name.
  for (const r of audit.json().rows as { targetType: string | null; targetId: unknown }[]) {
    if (r.targetType === 'game') assert.equal(typeof r.targetId, 'string');
    else if (r.targetId !== null) assert.equal(typeof r.targetId, 'number', JSON.stringify(r));
  }
  for (const a of [
    'admin.grant',
    'admin.revoke',
    'user.disable',
    'user.enable',
    'submission.disable',
    'submission.rejudge',
    'name.release',
    'name.rename',
    'game.deadline',
    'game.ratings-reset',
  ])
    assert.ok(actions.has(a), a);
  const page = await app.inject({ url: '/admin', headers: { cookie: teacher.cookie } });
  assert.equal(page.statusCode, 200);
  for (const id of ['admin-health', 'admin-games', 'admin-submissions', 'admin-names', 'id="audit"']) assert.ok(page.body.includes(id), id);
  assert.ok(page.body.includes('href="/admin"'), 'the Admin link in the navigation');
  const users = await app.inject({ url: '/admin/users?q=ana', headers: { cookie: teacher.cookie } });
  assert.equal(users.statusCode, 200);
  assert.ok(users.body.includes('data-user="ana"'));
  // A form action: disable bob from the users page, then enable him again.
  const post = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/admin/actions/user',
      headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
  const done = await post(`id=${bob.id}&action=disable&back=/admin/users`);
  assert.equal(done.statusCode, 303);
  assert.match(done.headers.location as string, /^\/admin\/users\?done=/);
  assert.ok((await db.user.findUniqueOrThrow({ where: { id: bob.id } })).disabledAt);
  await post(`id=${bob.id}&action=enable`);
  assert.equal((await db.user.findUniqueOrThrow({ where: { id: bob.id } })).disabledAt, null);
  // The submission page has the admin's buttons for an admin only; they come back to it.
  const sub = await db.submission.findFirstOrThrow({ where: { userId: ana.id }, orderBy: { id: 'desc' } });
  assert.ok((await app.inject({ url: `/submissions/${sub.id}`, headers: { cookie: teacher.cookie } })).body.includes('id="admin-submission"'));
  assert.ok(!(await app.inject({ url: `/submissions/${sub.id}`, headers: { cookie: ana.cookie } })).body.includes('id="admin-submission"'));
  const off = await app.inject({
    method: 'POST',
    url: '/admin/actions/submission',
    headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `id=${sub.id}&action=disable&back=/submissions/${sub.id}`,
  });
  assert.equal(off.statusCode, 303);
  assert.equal(off.headers.location, `/submissions/${sub.id}`);
  assert.ok((await db.submission.findUniqueOrThrow({ where: { id: sub.id } })).disabledAt);
  assert.ok(
    (await app.inject({ url: `/submissions/${sub.id}`, headers: { cookie: ana.cookie } })).body.includes('id="submission-disabled"'),
    'its owner reads that it was disabled',
  );
  assert.ok((await app.inject({ url: `/api/submissions/${sub.id}` })).json().disabledAt);
  // /docs lists the admin's routes and the challenges.
  const spec = (await app.inject({ url: '/docs/json' })).json();
  for (const path of ['/api/admin/users', '/api/admin/audit', '/api/admin/games/{game}/dummy', '/api/challenges']) assert.ok(spec.paths[path], path);
  const auditPage = await app.inject({ url: '/admin/audit', headers: { cookie: teacher.cookie } });
  assert.equal(auditPage.statusCode, 200);
  assert.ok(auditPage.body.includes('data-action="user.enable"'));
});

test('the admin page forms: deadline (read as UTC) set and cleared, a name renamed, a private Dummy with the wrong name refused; each audited', async () => {
  const form = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
  const set = await form('/admin/actions/deadline', 'game=bola-de-drac&deadline=2030-01-02T10%3A30');
  assert.equal(set.statusCode, 303);
  assert.equal((await db.gameSetting.findUniqueOrThrow({ where: { game: 'bola-de-drac' } })).submissionDeadline?.toISOString(), '2030-01-02T10:30:00.000Z');
  assert.ok((await app.inject({ url: '/admin', headers: { cookie: teacher.cookie } })).body.includes('value="2030-01-02T10:30"'));
  assert.equal((await form('/admin/actions/deadline', 'game=bola-de-drac&deadline=someday')).statusCode, 400);
  assert.equal((await form('/admin/actions/deadline', 'game=bola-de-drac&deadline=')).statusCode, 303);
  assert.equal((await db.gameSetting.findUniqueOrThrow({ where: { game: 'bola-de-drac' } })).submissionDeadline, null);
  assert.equal((await lastAudit()).action, 'game.deadline');

  await qualified(bob, 'FormName');
  assert.equal((await form('/admin/actions/name', 'game=moria&name=FormName&action=rename&newName=FormName2')).statusCode, 303);
  assert.equal((await lastAudit()).action, 'name.rename');
  const taken = await form('/admin/actions/name', 'game=moria&name=FormName2&action=rename&newName=NewName');
  assert.equal(taken.statusCode, 409);
  assert.match(taken.body, /is taken/);

  const upload = multipart({ game: 'moria' }, { filename: 'dummy.ts', content: bot('NotDummy') });
  const refused = await app.inject({
    method: 'POST',
    url: '/admin/actions/dummy',
    headers: { cookie: teacher.cookie, ...upload.headers },
    payload: upload.payload,
  });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.body, /PLAYER_NAME = &quot;Dummy&quot;/);
  const empty = multipart({ game: 'moria' }, { filename: 'dummy.ts', content: '' });
  const none = await app.inject({ method: 'POST', url: '/admin/actions/dummy', headers: { cookie: teacher.cookie, ...empty.headers }, payload: empty.payload });
  assert.equal(none.statusCode, 400);
  assert.match(none.body, /choose the Dummy file/);
  // The API reads the same form: the file reaches the same checks.
  const apiUpload = multipart({}, { filename: 'dummy.ts', content: bot('NotDummy') });
  const apiRefused = await app.inject({
    method: 'PUT',
    url: '/api/admin/games/moria/dummy',
    headers: { ...teacher.auth, ...apiUpload.headers },
    payload: apiUpload.payload,
  });
  assert.equal(apiRefused.statusCode, 400, apiRefused.body);
  assert.match(apiRefused.json().message, /PLAYER_NAME = "Dummy"/);
  assert.equal(await db.privateDummy.count(), 0);
});
