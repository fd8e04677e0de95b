// The teacher's view of students and grades on a real Postgres,
// through app.inject: a student's record (API and page) with a rejected and a
// qualified submission (its gate matches), a rating, a tournament result and
// a similarity pair; the list of all submissions with its filters, pages and
// CSV; the grades CSV (a student who never submitted included, admins left
// out, formulas defused); the admin pages' facts in words, not raw JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot } from '../../helpers/app.ts';
import { recordAudit } from '../../../src/domain/audit.ts';
import { ROSTER_FIELDS } from '../../../src/domain/students.ts';
import { withLang } from '../../../src/http/i18n/index.ts';
import { auditDetailText, recorderText } from '../../../src/http/render/admin-words.ts';

const { app, db } = await startTestApi();

const teacher = await registerUser(app, 'teacher');
await db.user.update({ where: { id: teacher.id }, data: { isAdmin: true } });
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
const carol = await registerUser(app, 'carol');
await db.user.update({ where: { id: ana.id }, data: { email: 'ana@uni.example' } });
// A formula in a cell: the CSV must defuse it.
await db.user.update({ where: { id: carol.id }, data: { email: '=HYPERLINK("http://evil.example")' } });

const T0 = new Date('2026-01-10T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

// ana: v1 rejected at compile, v2 qualified through the whole gate (self-play and four wins over the Dummy).
const anaBot = await db.playerName.create({ data: { game: 'moria', name: 'AnaBot', nameLower: 'anabot', ownerId: ana.id } });
const v1 = await db.submission.create({
  data: {
    playerId: anaBot.id,
    userId: ana.id,
    game: 'moria',
    version: 1,
    source: 'oops',
    filename: 'AnaBot.ts',
    sizeBytes: 4,
    status: 'rejected',
    reason: 'compile error: line 1: unexpected token',
    reasonLine: 1,
    reasonDetail: { step: 'compile', line: 1 },
    createdAt: T0,
    finishedAt: at(1),
  },
});
const v2 = await db.submission.create({
  data: {
    playerId: anaBot.id,
    userId: ana.id,
    game: 'moria',
    version: 2,
    source: bot('AnaBot'),
    filename: 'AnaBot.ts',
    sizeBytes: 321,
    status: 'qualified',
    createdAt: at(60),
    startedAt: at(61),
    finishedAt: at(120),
  },
});
await db.playerName.update({ where: { id: anaBot.id }, data: { locked: true, lockedAt: at(120), qualifiedSubmissionId: v2.id } });
const gateMatch = (step: 'selfplay' | 'dummy', index: number | null) =>
  db.match.create({
    data: {
      game: 'moria',
      seed: 100 + (index ?? 9),
      kind: 'gate',
      status: 'done',
      submissionId: v2.id,
      gateStep: step,
      gateIndex: index,
      finishedAt: at(100),
      participants: {
        create: [0, 1, 2, 3].map((seat) =>
          step === 'selfplay' || seat === 0
            ? { seat, name: 'AnaBot', playerId: anaBot.id, submissionId: v2.id, score: seat === 0 ? 50 : 10, rank: seat === 0 ? 1 : 2 }
            : { seat, name: 'Dummy', builtinName: 'Dummy', score: 5, rank: 2 },
        ),
      },
    },
  });
const selfplay = await gateMatch('selfplay', null);
const dummies: Awaited<ReturnType<typeof gateMatch>>[] = [];
for (let i = 0; i < 4; i++) dummies.push(await gateMatch('dummy', i));
await db.rating.create({ data: { playerId: anaBot.id, game: 'moria', mu: 28, sigma: 2, ordinal: 22, matchesPlayed: 30 } });

// bob: a qualified C++ player rated above ana's, and the tournament's champion.
const bobBot = await db.playerName.create({
  data: { game: 'moria', name: 'BobBot', nameLower: 'bobbot', ownerId: bob.id, locked: true, lockedAt: new Date('2026-01-12T09:00:00Z') },
});
const bobSub = await db.submission.create({
  data: {
    playerId: bobBot.id,
    userId: bob.id,
    game: 'moria',
    version: 1,
    source: '#define PLAYER_NAME BobBot',
    filename: 'AIBobBot.cc',
    sizeBytes: 999,
    status: 'qualified',
    createdAt: new Date('2026-01-12T08:00:00Z'),
    finishedAt: new Date('2026-01-12T09:00:00Z'),
  },
});
await db.playerName.update({ where: { id: bobBot.id }, data: { qualifiedSubmissionId: bobSub.id } });
await db.rating.create({ data: { playerId: bobBot.id, game: 'moria', mu: 35, sigma: 2, ordinal: 29, matchesPlayed: 30 } });

// A finished tournament: bob champion, ana fell in round 3 (second place).
const cup = await db.tournament.create({
  data: {
    game: 'moria',
    name: 'Winter Cup',
    seed: 7,
    freezeAt: new Date('2026-01-20T10:00:00Z'),
    status: 'finished',
    round: 3,
    startedAt: new Date('2026-01-20T10:00:00Z'),
    finishedAt: new Date('2026-01-20T12:00:00Z'),
  },
});
await db.tournamentEntry.create({
  data: { tournamentId: cup.id, entryIndex: 0, userId: ana.id, submissionId: v2.id, playerId: anaBot.id, name: 'AnaBot', eliminatedRound: 3, place: 2 },
});
await db.tournamentEntry.create({
  data: { tournamentId: cup.id, entryIndex: 1, userId: bob.id, submissionId: bobSub.id, playerId: bobBot.id, name: 'BobBot', eliminatedRound: null, place: 1 },
});

// The stored similarity report: ana's v2 and bob's submission, 81%.
const label = (id: number, author: string, title: string, filename: string) => ({ key: `s:${id}`, kind: 'submission', id, author, title, filename });
await db.similarityReport.create({
  data: {
    game: 'moria',
    documents: 3,
    durationMs: 5,
    pairs: [
      {
        a: `s:${v2.id}`,
        b: `s:${bobSub.id}`,
        shared: 12,
        fractionA: 0.81,
        fractionB: 0.6,
        score: 0.81,
        labelA: label(v2.id, 'ana', 'AnaBot v2', 'AnaBot.ts'),
        labelB: label(bobSub.id, 'bob', 'BobBot v1', 'AIBobBot.cc'),
      },
    ],
  },
});

const asTeacher = { cookie: teacher.cookie };

/** A CSV (every field quoted, CRLF) read back into rows of cells. */
function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split('\r\n')
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));
}
const byHeader = (rows: string[][]) => rows.slice(1).map((r) => Object.fromEntries(rows[0]!.map((h, i) => [h, r[i]!])));

test("a student's record over the API: identity, both submissions with their gate, time to qualify, rank, tournament, similarity, last activity", async () => {
  const res = await app.inject({ url: `/api/admin/users/${ana.id}`, headers: teacher.auth });
  assert.equal(res.statusCode, 200, res.body);
  const d = res.json();
  assert.equal(d.user.username, 'ana');
  assert.equal(d.user.email, 'ana@uni.example');
  assert.equal(d.submissions.length, 2);
  const [first, second] = d.submissions;
  assert.deepEqual(
    [first.id, first.status, first.verdict, first.compile, first.language, first.sizeBytes],
    [v1.id, 'rejected', 'rejected', 'failed', 'typescript', 4],
  );
  assert.match(first.reason, /compile error/);
  assert.ok(
    first.steps.every((s: { state: string; matchId: number | null }) => s.state === 'skipped' && s.matchId === null),
    JSON.stringify(first.steps),
  );
  assert.deepEqual([second.id, second.verdict, second.compile], [v2.id, 'qualified', 'passed']);
  assert.deepEqual(
    second.steps.map((s: { key: string; state: string; matchId: number }) => [s.key, s.state, s.matchId]),
    [['selfplay', 'passed', selfplay.id], ...dummies.map((m, i) => [`dummy-${i}`, 'won', m.id])],
  );
  assert.deepEqual(d.games, [
    {
      game: 'moria',
      submissions: 2,
      firstSubmittedAt: T0.toISOString(),
      firstQualifiedAt: at(120).toISOString(),
      secondsToQualify: 7200,
      qualifiedPlayers: ['AnaBot'],
      representative: null,
    },
  ]);
  assert.equal(d.ratings.length, 1);
  assert.deepEqual([d.ratings[0].player, d.ratings[0].rank, d.ratings[0].rating], ['AnaBot', 2, 22]);
  assert.deepEqual(d.tournaments, [
    {
      tournamentId: cup.id,
      name: 'Winter Cup',
      game: 'moria',
      status: 'finished',
      player: 'AnaBot',
      entries: 2,
      eliminatedRound: 3,
      place: 2,
      outcome: 'fell',
    },
  ]);
  assert.equal(d.similarity.length, 1);
  assert.equal(d.similarity[0].score, 0.81);
  assert.equal(d.similarity[0].other.author, 'bob');
  assert.equal(d.similarity[0].href, `/admin/similarity/moria/pair?a=s%3A${v2.id}&b=s%3A${bobSub.id}`);
  assert.equal(d.lastActivity.submission, at(60).toISOString());
  assert.ok(d.lastActivity.session, 'registering opened a session');
  // bob's record: the champion.
  const b = (await app.inject({ url: `/api/admin/users/${bob.id}`, headers: teacher.auth })).json();
  assert.equal(b.tournaments[0].outcome, 'champion');
  assert.equal(b.ratings[0].rank, 1);
  assert.equal(b.submissions[0].language, 'cpp');
  // carol never submitted: an empty record, not an error.
  const c = (await app.inject({ url: `/api/admin/users/${carol.id}`, headers: teacher.auth })).json();
  assert.deepEqual([c.submissions, c.games, c.ratings, c.tournaments, c.similarity, c.lastActivity.submission], [[], [], [], [], [], null]);
  // No such user: 404 with its code.
  const none = await app.inject({ url: '/api/admin/users/999999', headers: teacher.auth });
  assert.equal(none.statusCode, 404);
  assert.equal(none.json().code, 'not-found');
});

test("a student's page: every section, links to the gate's matches, the submissions, the tournament and the pair; linked from /admin/users; in Catalan too", async () => {
  const res = await app.inject({ url: `/admin/users/${ana.id}`, headers: asTeacher });
  assert.equal(res.statusCode, 200, res.body);
  const page = res.body;
  for (const s of [
    'ana@uni.example',
    'id="student-submissions-table"',
    `href="/submissions/${v1.id}"`,
    `href="/submissions/${v2.id}"`,
    `href="/matches/${selfplay.id}"`,
    ...dummies.map((m) => `href="/matches/${m.id}"`),
    `href="/tournaments/${cup.id}"`,
    'fell in round 3, place 2 of 2',
    `/admin/similarity/moria/pair?a=s%3A${v2.id}&amp;b=s%3A${bobSub.id}`,
    '81%',
    '2 h 0 min',
    'compile error: line 1',
    'TypeScript',
    'Latest log-in',
    `href="/admin/submissions?user=ana"`,
  ]) {
    assert.ok(page.includes(s), s);
  }
  assert.match(page, /<td class="rank"><a href="\/games\/moria\/leaderboard">2<\/a>/);
  const ca = (await app.inject({ url: `/admin/users/${ana.id}?lang=ca`, headers: asTeacher })).body;
  assert.ok(ca.includes('eliminat a la ronda 3, posició 2 de 2'));
  assert.ok(ca.includes('Última activitat'));
  // The users list links each user to their page.
  const users = (await app.inject({ url: '/admin/users', headers: asTeacher })).body;
  assert.ok(users.includes(`<a href="/admin/users/${ana.id}">ana</a>`));
  // A student's own session is refused (the route-access test walks the rest).
  assert.equal((await app.inject({ url: `/admin/users/${ana.id}`, headers: { cookie: ana.cookie } })).statusCode, 403);
  assert.equal((await app.inject({ url: `/api/admin/users/${ana.id}`, headers: ana.auth })).statusCode, 403);
  assert.equal((await app.inject({ url: `/api/admin/users/${ana.id}` })).statusCode, 401);
});

test('all submissions: filters by game, status, language, user and dates, paged; the page links each row; the CSV follows the same filters', async () => {
  const list = async (q: string) => {
    const res = await app.inject({ url: `/api/admin/submissions${q}`, headers: teacher.auth });
    assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
    return res.json() as { total: number; submissions: { id: number; links: { page: string } }[] };
  };
  const ids = (r: { submissions: { id: number }[] }) => r.submissions.map((s) => s.id);
  assert.deepEqual(ids(await list('')), [bobSub.id, v2.id, v1.id]);
  assert.deepEqual(ids(await list('?user=AN')), [v2.id, v1.id]);
  assert.deepEqual(ids(await list('?status=qualified')), [bobSub.id, v2.id]);
  assert.deepEqual(ids(await list('?status=rejected&game=moria')), [v1.id]);
  assert.deepEqual(ids(await list('?language=cpp')), [bobSub.id]);
  assert.deepEqual(ids(await list('?language=typescript&status=')), [v2.id, v1.id]);
  assert.deepEqual(ids(await list('?game=walking-dead')), []);
  assert.deepEqual(ids(await list('?from=2026-01-11')), [bobSub.id]);
  assert.deepEqual(ids(await list('?to=2026-01-10')), [v2.id, v1.id], 'a day alone takes the whole day in');
  assert.deepEqual(ids(await list('?from=2026-01-10T08:30&to=2026-01-11')), [v2.id]);
  const paged = await list('?limit=2&offset=2');
  assert.deepEqual([paged.total, ids(paged)], [3, [v1.id]]);
  assert.equal(paged.submissions[0]!.links.page, `/submissions/${v1.id}`);
  // Bad filters: 400 with a message and a code.
  const bad = async (q: string, code?: string) => {
    const res = await app.inject({ url: `/api/admin/submissions${q}`, headers: teacher.auth });
    assert.equal(res.statusCode, 400, q);
    assert.ok(res.json().message, q);
    if (code) assert.equal(res.json().code, code, q);
  };
  await bad('?status=bogus');
  await bad('?language=cobol');
  await bad('?from=yesterday', 'bad-date');
  await bad('?from=2026-02-01&to=2026-01-01', 'bad-range');

  const csv = await app.inject({ url: '/api/admin/exports/submissions.csv?user=ana', headers: teacher.auth });
  assert.equal(csv.statusCode, 200);
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  const rows = byHeader(parseCsv(csv.body));
  assert.deepEqual(
    rows.map((r) => [r.submission, r.user, r.email, r.player, r.version, r.language, r.status]),
    [
      [String(v2.id), 'ana', 'ana@uni.example', 'AnaBot', '2', 'typescript', 'qualified'],
      [String(v1.id), 'ana', 'ana@uni.example', 'AnaBot', '1', 'typescript', 'rejected'],
    ],
  );
  assert.equal((await app.inject({ url: '/api/admin/exports/submissions.csv?from=nope', headers: teacher.auth })).statusCode, 400);

  const page = await app.inject({ url: '/admin/submissions?language=cpp', headers: asTeacher });
  assert.equal(page.statusCode, 200);
  assert.ok(page.body.includes(`<a href="/submissions/${bobSub.id}">#${bobSub.id}</a>`));
  assert.ok(!page.body.includes(`data-submission="${v1.id}"`));
  assert.ok(page.body.includes('href="/api/admin/exports/submissions.csv?language=cpp"'));
  assert.ok(page.body.includes(`<a href="/admin/users/${bob.id}">bob</a>`));
  assert.ok(page.body.includes('<option value="cpp" selected>'));
  assert.equal((await app.inject({ url: '/admin/submissions?from=nope', headers: asTeacher })).statusCode, 400);
  // The admin page links to the list and the grades.
  const admin = (await app.inject({ url: '/admin', headers: asTeacher })).body;
  assert.ok(admin.includes('href="/admin/submissions"'));
  assert.ok(admin.includes('href="/api/admin/exports/moria/grades.csv"'));
  assert.ok(admin.includes('href="/api/admin/exports/grades.csv"'));
});

test('the grades CSV: one line per student and game, the one who never submitted too, admins left out, formulas defused', async () => {
  const res = await app.inject({ url: '/api/admin/exports/moria/grades.csv', headers: teacher.auth });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-disposition']), /moria-grades\.csv/);
  const rows = parseCsv(res.body);
  const header = rows[0]!;
  assert.deepEqual(
    header.filter((h) => h === 'student_id' || h === 'full_name'),
    ROSTER_FIELDS.length ? ['student_id', 'full_name'] : [],
  );
  const by = Object.fromEntries(byHeader(rows).map((r) => [r.username, r]));
  assert.deepEqual(Object.keys(by), ['ana', 'bob', 'carol'], 'every student, by name; the teacher is an admin');
  const pick = (r: Record<string, string>) => [
    r.game,
    r.submissions,
    r.first_qualified_at,
    r.qualified_player,
    r.best_rank,
    r.rating,
    r.tournament,
    r.tournament_standing,
    r.tournament_place,
    r.similarity_max,
    r.similar_to,
  ];
  assert.deepEqual(pick(by.ana!), ['moria', '2', at(120).toISOString(), 'AnaBot', '2', '22', 'Winter Cup', 'fell in round 3', '2', '0.81', 'bob']);
  assert.deepEqual(pick(by.bob!), ['moria', '1', '2026-01-12T09:00:00.000Z', 'BobBot', '1', '29', 'Winter Cup', 'champion', '1', '0.81', 'ana']);
  assert.deepEqual(pick(by.carol!), ['moria', '0', '', '', '', '', 'Winter Cup', 'not entered', '', '', '']);
  assert.equal(by.carol!.email, `'=HYPERLINK("http://evil.example")`, 'a formula is prefixed');
  // The roster's columns, when the User table has them (the roster import's): read and exported.
  if (ROSTER_FIELDS.includes('studentId')) {
    await db.$executeRawUnsafe(`UPDATE "User" SET "studentId" = 'S-0042' WHERE id = ${ana.id}`);
    const again = byHeader(parseCsv((await app.inject({ url: '/api/admin/exports/moria/grades.csv', headers: teacher.auth })).body));
    assert.equal(again.find((r) => r.username === 'ana')!.student_id, 'S-0042');
    assert.equal((await app.inject({ url: `/api/admin/users/${ana.id}`, headers: teacher.auth })).json().user.studentId, 'S-0042');
  }
  assert.ok(res.body.includes(`"'=HYPERLINK(""http://evil.example"")"`));

  // Every game: one line per student and game.
  const all = await app.inject({ url: '/api/admin/exports/grades.csv', headers: teacher.auth });
  assert.equal(all.statusCode, 200);
  const allRows = byHeader(parseCsv(all.body));
  const games = new Set(allRows.map((r) => r.game));
  assert.ok(games.has('moria') && games.size >= 2, [...games].join());
  assert.equal(allRows.length, 3 * games.size);
  assert.ok(allRows.filter((r) => r.game !== 'moria').every((r) => r.submissions === '0' && r.tournament === ''));
  // An unknown game: 404.
  assert.equal((await app.inject({ url: '/api/admin/exports/nope/grades.csv', headers: teacher.auth })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/admin/exports/moria/grades.csv', headers: bob.auth })).statusCode, 403);
});

test('the admin pages say it in words: the recorder and the audit details, never raw JSON', async () => {
  // A deadline (known shape) and an action of a shape the page does not know (jsonb keeps its keys in its own order).
  const set = await app.inject({ method: 'PUT', url: '/api/admin/games/moria/deadline', headers: teacher.auth, payload: { deadline: '2030-01-02T10:30:00Z' } });
  assert.equal(set.statusCode, 200, set.body);
  await recordAudit(db, {
    actorId: teacher.id,
    action: 'roster.something',
    targetType: 'user',
    targetId: ana.id,
    detail: { rows: 3, options: { mode: 'merge', dry: false }, list: ['a', 'b'] },
  });
  await app.inject({ method: 'POST', url: `/api/admin/users/${bob.id}/disable`, headers: teacher.auth });
  await app.inject({ method: 'POST', url: `/api/admin/users/${bob.id}/enable`, headers: teacher.auth });
  const noJson = (body: string, where: string) => {
    const text = body.replace(/<script[\s\S]*?<\/script>/g, '');
    assert.doesNotMatch(text, /\{&quot;|\{"|&quot;\}|"\}/, `${where} shows raw JSON`);
  };
  for (const url of ['/admin', '/admin/audit']) {
    const res = await app.inject({ url, headers: asTeacher });
    assert.equal(res.statusCode, 200);
    noJson(res.body, url);
    assert.ok(res.body.includes('deadline of moria: from none to 2030-01-02 10:30 UTC'), url);
    assert.ok(res.body.includes('list: a, b, rows: 3, options: (dry: no, mode: merge)'), `${url}: ${res.body.match(/data-action="roster.something".*/)?.[0]}`);
    assert.ok(res.body.includes('user bob'), url);
    assert.ok(res.body.includes(`user <a href="/admin/users/${ana.id}">${ana.id}</a>`), url);
  }
  const admin = (await app.inject({ url: '/admin', headers: asTeacher })).body;
  assert.match(admin, /<dd id="admin-recorder">unknown<\/dd>/, 'no queues in this test: unknown, in words');
  const ca = (await app.inject({ url: '/admin/audit?lang=ca', headers: asTeacher })).body;
  assert.ok(ca.includes('termini de moria: de cap a 2030-01-02 10:30 UTC'));
  noJson(ca, '/admin/audit in Catalan');
  // The recorder's backlog, as the page words it when the queues are up.
  assert.equal(
    withLang('en', () => recorderText({ waiting: 0, failed: 0, oldestSeconds: null })),
    'nothing waiting to be recorded',
  );
  assert.equal(
    withLang('en', () => recorderText({ waiting: 0, failed: 2, oldestSeconds: 30 })),
    '0 results waiting to be recorded, 2 given up (the sweep retries them); the oldest has waited 30 s',
  );
  assert.equal(
    withLang('es', () => recorderText({ waiting: 1, failed: 0, oldestSeconds: 600 })),
    '1 resultado pendiente de guardar, 0 abandonados (el barrido los reintenta); el más antiguo lleva 10 min esperando',
  );
  assert.equal(
    withLang('en', () => auditDetailText('name.rename', 4, { game: 'moria', from: 'A', to: 'B', owner: 'ana' })),
    'A renamed B in moria (of ana)',
  );
});
