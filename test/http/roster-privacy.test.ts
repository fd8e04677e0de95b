// A roster's fields (student id, full name, e-mail) are the teacher's: a
// student imported as an account without a username column gets a generated
// username, and every public page and API answer (every GET route that is not
// an admin's, as an anonymous visitor and as another student) is searched for
// the planted fields, with that student owning a qualified player, a rating,
// a match and a tournament place. The teacher's own record page is searched
// too, to show the fields are there to be found.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { startTestApi, registerUser, bot, insertMatch, multipart, type TestUser } from '../helpers/app.ts';
import { GENERATED_USERNAME_RE } from '../../src/domain/roster.ts';

const api = await startTestApi();
const { app, db } = api;
const admin = await registerUser(app, 'teacher');
await db.user.update({ where: { id: admin.id }, data: { isAdmin: true } });
const classmate = await registerUser(app, 'classmate');

const STUDENT_ID = '48151623X';
const FULL_NAME = 'Privata Secretez';
const EMAIL = 'privata.secretez@example.org';
/** What must never show: each field, and the parts a page could show alone. */
const PLANTED = [STUDENT_ID, FULL_NAME, 'Secretez', EMAIL, 'privata.secretez'];

const body = multipart({ mode: 'account' }, { filename: 'roster.csv', content: `DNI;Nom;Correu\r\n${STUDENT_ID};${FULL_NAME};${EMAIL}\r\n` });
const imported = await app.inject({ method: 'POST', url: '/api/admin/roster', headers: { ...admin.auth, ...body.headers }, payload: body.payload });
assert.equal(imported.statusCode, 200, imported.body);
const planted = await db.user.findUniqueOrThrow({ where: { studentId: STUDENT_ID } });

// The student plays: a qualified player, a rating, a ranked match, first place in a finished tournament.
const player = await db.playerName.create({
  data: { game: 'moria', name: 'Privbot', nameLower: 'privbot', ownerId: planted.id, locked: true, lockedAt: new Date() },
});
const sub = await db.submission.create({
  data: {
    playerId: player.id,
    userId: planted.id,
    game: 'moria',
    version: 1,
    source: bot('Privbot'),
    filename: 'Privbot.ts',
    sizeBytes: 100,
    status: 'qualified',
    finishedAt: new Date(),
  },
});
await db.playerName.update({ where: { id: player.id }, data: { qualifiedSubmissionId: sub.id } });
await db.rating.create({ data: { playerId: player.id, game: 'moria', mu: 30, sigma: 2, ordinal: 24, matchesPlayed: 1 } });
const match = await insertMatch(db, {
  seats: [
    { name: 'Privbot', playerId: player.id, submissionId: sub.id, score: 3, rank: 1 },
    { name: 'Dummy', builtinName: 'Dummy', score: 2, rank: 2 },
    { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 3 },
    { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 4 },
  ],
});
const tournament = await db.tournament.create({
  data: {
    game: 'moria',
    name: 'Cup',
    seed: 7,
    freezeAt: new Date(Date.now() - 86_400_000),
    status: 'finished',
    startedAt: new Date(),
    finishedAt: new Date(),
    round: 1,
  },
});
await db.tournamentEntry.create({
  data: { tournamentId: tournament.id, entryIndex: 0, userId: planted.id, submissionId: sub.id, playerId: player.id, name: 'Privbot', place: 1 },
});

/** A route's path with values for its params: the planted student's things. */
function fill(url: string): string {
  return url.replace(/:(\w+)/g, (_m, key: string, at: number) => {
    const before = url.slice(0, at);
    if (key === 'game') return 'moria';
    if (key === 'name') return 'Privbot';
    if (key === 'file') return 'app.js';
    if (key === 'seat') return '0';
    if (key === 'token') return 'not-a-token-but-long-enough';
    if (/matches\/$/.test(before)) return String(match.id);
    if (/tournaments\/$/.test(before)) return String(tournament.id);
    return String(sub.id);
  });
}

/** The text of an answer: a gzip'd one (a replay) unpacked. */
function textOf(raw: Buffer): string {
  if (raw[0] === 0x1f && raw[1] === 0x8b) return gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
}

test('an account import without a username column: the username is generated, never a roster field', () => {
  assert.match(planted.username, GENERATED_USERNAME_RE);
  for (const p of PLANTED) assert.ok(!planted.username.toLowerCase().includes(p.toLowerCase()), planted.username);
});

test('every public page and API answer, as a visitor and as another student, holds no roster field; the teacher’s record does', async () => {
  const routes = app.routeAccess.filter((r) => r.method === 'GET' && r.access !== 'admin');
  assert.ok(routes.length > 40, `${routes.length} routes`);
  const found: string[] = [];
  let pages = 0;
  for (const { url } of routes) {
    const path = fill(url.replace('/*', '/index.css'));
    for (const who of [null, classmate] as (TestUser | null)[]) {
      const res = await app.inject({ method: 'GET', url: path, headers: who ? who.auth : {} });
      pages++;
      const text = textOf(res.rawPayload);
      for (const p of PLANTED)
        if (text.toLowerCase().includes(p.toLowerCase())) found.push(`${path} (${who ? 'student' : 'visitor'}, ${res.statusCode}): "${p}"`);
    }
  }
  // The pages that name the student at all, by the username, answer with data (the walk reached them).
  const named = await Promise.all(
    ['/games/moria/leaderboard', `/matches/${match.id}`, `/tournaments/${tournament.id}`, `/api/tournaments/${tournament.id}/standings.csv`].map(
      async (u) => (await app.inject({ url: u })).body.includes(planted.username) || (await app.inject({ url: u })).body.includes('Privbot'),
    ),
  );
  assert.deepEqual(named, [true, true, true, true]);
  console.log(`${pages} answers searched for ${PLANTED.length} planted strings: ${found.length} found`);
  assert.deepEqual(found, []);
  const record = await app.inject({ url: `/admin/users/${planted.id}`, headers: admin.auth });
  assert.equal(record.statusCode, 200);
  assert.ok(record.body.includes(STUDENT_ID) && record.body.includes(FULL_NAME), 'the teacher sees the roster fields');
});
