// Tournaments through the API and the pages (real Postgres, app.inject):
// creating is an admin's (403 otherwise, audited), the seed stays secret
// until the start, representatives are picked and freeze with the entries,
// disabled users and submissions do not enter, pause/resume, rerun refused
// for a played match and allowed for a failed one, the public pages and CSV.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerUser, startTestApi, type TestUser } from '../../helpers/app.ts';
import { adminGrant } from '../../../src/cli/admin.ts';
import { coinsBot, qualifiedPlayer, TEST_GAMES, type TestPlayer } from '../../helpers/tournaments.ts';

process.env.ARBITER_GAMES_PATH = TEST_GAMES;

const { app, db } = await startTestApi();
const boss = await registerUser(app, 'boss');
await adminGrant(db, 'grant', 'boss');
const alice = await registerUser(app, 'alice');
const bob = await registerUser(app, 'bob');
const carol = await registerUser(app, 'carol');

const day = 86_400_000;
const json = (u: TestUser, method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: u.auth, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
const form = (cookie: string, url: string, fields: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  });

// alice has two qualified players (A1 older, A2 latest), bob one, carol one whose submission an admin disabled.
const a1 = await qualifiedPlayer(db, { userId: alice.id, name: 'A1', source: coinsBot('A1', 1), qualifiedAt: new Date(Date.now() - 2 * day) });
const a2 = await qualifiedPlayer(db, { userId: alice.id, name: 'A2', source: coinsBot('A2', 2), qualifiedAt: new Date(Date.now() - day) });
const b1 = await qualifiedPlayer(db, { userId: bob.id, name: 'B1', source: coinsBot('B1', 3) });
const c1: TestPlayer = await qualifiedPlayer(db, { userId: carol.id, name: 'C1', source: coinsBot('C1', 1) });
await db.submission.update({ where: { id: c1.submissionId }, data: { disabledAt: new Date() } });

let tid = 0;

test('creating a tournament is an admin’s: 401 without a user, 403 for a user, 201 and an audit line for an admin; bad game or config is a 400', async () => {
  const body = { game: 'coins', name: 'Winter cup', freezeAt: new Date(Date.now() + day).toISOString(), config: { nb_rounds: 20 }, seed: 777 };
  assert.equal((await app.inject({ method: 'POST', url: '/api/tournaments', payload: body })).statusCode, 401);
  const refused = await json(alice, 'POST', '/api/tournaments', body);
  assert.equal(refused.statusCode, 403);
  assert.equal(await db.tournament.count(), 0);
  assert.equal((await json(boss, 'POST', '/api/tournaments', { ...body, game: 'chess' })).statusCode, 400);
  const badConfig = await json(boss, 'POST', '/api/tournaments', { ...body, config: { nb_rounds: -3 } });
  assert.equal(badConfig.statusCode, 400);
  assert.match(badConfig.json().message, /nb_rounds/);
  const res = await json(boss, 'POST', '/api/tournaments', body);
  assert.equal(res.statusCode, 201, res.body);
  const t = res.json();
  tid = t.id;
  assert.equal(t.status, 'scheduled');
  assert.equal(t.seed, null, 'the seed is secret until the start');
  assert.equal((await app.inject({ url: `/api/tournaments/${tid}` })).json().seed, null);
  assert.doesNotMatch((await app.inject({ url: `/tournaments/${tid}` })).body, /777/);
  const audit = await db.auditEntry.findMany({ where: { action: 'tournament.create' } });
  assert.equal(audit.length, 1);
  assert.equal(audit[0]!.actorId, boss.id);
  assert.equal(audit[0]!.targetId, String(tid));
});

test('representatives: the latest qualified by default, a pick by name, refusals for another’s or a disabled player', async () => {
  const list = (await json(alice, 'GET', '/api/representatives')).json().representatives;
  assert.equal(list.length, 1);
  assert.equal(list[0].current.name, 'A2', 'the latest qualified player until a pick');
  assert.equal(list[0].chosen, false);
  const picked = await json(alice, 'PUT', '/api/representatives/coins', { player: 'a1' });
  assert.equal(picked.statusCode, 200, picked.body);
  assert.equal(picked.json().current.name, 'A1');
  assert.equal(picked.json().chosen, true);
  assert.equal((await json(alice, 'PUT', '/api/representatives/coins', { player: 'B1' })).statusCode, 403);
  assert.equal((await json(alice, 'PUT', '/api/representatives/coins', { player: 'nobody' })).statusCode, 404);
  const disabled = await json(carol, 'PUT', '/api/representatives/coins', { player: 'C1' });
  assert.equal(disabled.statusCode, 409);
  assert.match(disabled.json().message, /cannot represent/);
  assert.equal((await app.inject({ method: 'GET', url: '/api/representatives' })).statusCode, 401);
  // The page shows the pick and changes it by form.
  const page = await app.inject({ url: '/account/representatives', headers: { cookie: bob.cookie } });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<strong class="current">B1<\/strong>/);
  const viaForm = await form(alice.cookie, '/account/representatives', { game: 'coins', player: 'A2' });
  assert.equal(viaForm.statusCode, 200);
  assert.match(viaForm.body, /A2 now represents you in coins/);
  assert.equal((await json(alice, 'PUT', '/api/representatives/coins', { player: 'A1' })).statusCode, 200);
});

test('start now freezes the entries (one per user, the pick, no disabled submission), publishes the seed, and closes picking with a 409', async () => {
  assert.equal((await json(alice, 'POST', `/api/tournaments/${tid}/start`)).statusCode, 403);
  const res = await json(boss, 'POST', `/api/tournaments/${tid}/start`);
  assert.equal(res.statusCode, 200, res.body);
  const t = res.json();
  assert.equal(t.status, 'running');
  assert.equal(t.seed, 777);
  assert.deepEqual(t.entries.map((e: { name: string }) => e.name).sort(), ['A1', 'B1'], 'alice’s pick and bob; carol’s disabled submission is skipped');
  assert.equal(t.rounds.length, 1);
  assert.equal(t.rounds[0].final, true, 'two players: the final phase at once');
  assert.equal(t.rounds[0].groups[0].seats.filter((s: { builtin: boolean }) => s.builtin).length, 2, 'padded with two Dummies');
  const m = await db.match.findFirstOrThrow({ where: { tournamentId: tid }, include: { participants: true } });
  assert.equal(m.kind, 'tournament');
  assert.equal(m.participants.filter((p) => p.builtinName === 'Dummy').length, 2);
  assert.deepEqual(m.config, { nb_rounds: 20 });
  assert.match(t.rounds[0].groups[0].play, new RegExp(`^node arbiter\\.mjs play (\\S+ ){4}--seed ${m.seed} --set nb_rounds=20$`));
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/start`)).statusCode, 409, 'started once');

  const frozen = await json(alice, 'PUT', '/api/representatives/coins', { player: 'A2' });
  assert.equal(frozen.statusCode, 409);
  assert.match(frozen.json().message, /frozen.*Winter cup/);
  const page = await form(alice.cookie, '/account/representatives', { game: 'coins', player: 'A2' });
  assert.equal(page.statusCode, 409);
  // Changing a representative in another game stays open (none here), and the entry is the snapshot.
  assert.equal((await db.tournamentEntry.findFirstOrThrow({ where: { tournamentId: tid, userId: alice.id } })).playerId, a1.playerId);
  void a2;
  void b1;
});

test('pause and resume: admin only, audited, only from the right state', async () => {
  assert.equal((await json(bob, 'POST', `/api/tournaments/${tid}/pause`)).statusCode, 403);
  const paused = await json(boss, 'POST', `/api/tournaments/${tid}/pause`);
  assert.equal(paused.statusCode, 200);
  assert.equal(paused.json().status, 'paused');
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/pause`)).statusCode, 409);
  assert.equal((await json(alice, 'PUT', '/api/representatives/coins', { player: 'A2' })).statusCode, 409, 'still frozen while paused');
  const resumed = await json(boss, 'POST', `/api/tournaments/${tid}/resume`);
  assert.equal(resumed.statusCode, 200);
  assert.equal(resumed.json().status, 'running');
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/resume`)).statusCode, 409);
  assert.deepEqual(
    (await db.auditEntry.findMany({ where: { targetType: 'tournament' }, orderBy: { id: 'asc' } })).map((a) => a.action),
    ['tournament.create', 'tournament.start', 'tournament.pause', 'tournament.resume'],
  );
});

test('rerun: refused for a played match (its result stands) and an open one; a failed one gets a new attempt with the same seed', async () => {
  const m = await db.match.findFirstOrThrow({ where: { tournamentId: tid } });
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/matches/${m.id}/rerun`)).statusCode, 409, 'still queued');
  await db.match.update({ where: { id: m.id }, data: { status: 'done' } });
  const played = await json(boss, 'POST', `/api/tournaments/${tid}/matches/${m.id}/rerun`);
  assert.equal(played.statusCode, 409);
  assert.match(played.json().message, /result stands/);
  await db.match.update({ where: { id: m.id }, data: { status: 'failed', error: 'workers stopped' } });
  assert.equal((await json(alice, 'POST', `/api/tournaments/${tid}/matches/${m.id}/rerun`)).statusCode, 403);
  const rerun = await json(boss, 'POST', `/api/tournaments/${tid}/matches/${m.id}/rerun`);
  assert.equal(rerun.statusCode, 201, rerun.body);
  const again = await db.match.findUniqueOrThrow({ where: { id: rerun.json().matchId } });
  assert.equal(again.seed, m.seed);
  assert.equal(again.tournamentGroupId, m.tournamentGroupId);
  assert.equal(again.tournamentAttempt, 1);
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/matches/${m.id}/rerun`)).statusCode, 409, 'already rerun');
  assert.equal((await json(boss, 'POST', `/api/tournaments/${tid}/matches/999999/rerun`)).statusCode, 404);
  const detail = (await app.inject({ url: `/api/tournaments/${tid}` })).json();
  assert.equal(detail.rounds[0].groups[0].match.id, again.id);
  assert.equal(detail.rounds[0].groups[0].failedAttempts[0].id, m.id);
});

test('public pages and CSV: the list, the bracket with its match links, the standings; admin pages for admins only', async () => {
  const list = await app.inject({ url: '/tournaments' });
  assert.equal(list.statusCode, 200);
  assert.match(list.body, new RegExp(`<a href="/tournaments/${tid}">Winter cup</a>`));
  assert.match(list.body, /<a href="\/tournaments"[^>]*>Tournaments<\/a>/, 'in the navigation');
  const page = await app.inject({ url: `/tournaments/${tid}` });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<meta http-equiv="refresh" content="\d+">/, 'reloads while running');
  assert.doesNotMatch(page.body, /<script(?! type="module" src=)/, 'no inline script');
  const m = await db.match.findFirstOrThrow({ where: { tournamentId: tid }, orderBy: { id: 'desc' } });
  assert.match(page.body, new RegExp(`<a href="/matches/${m.id}">#${m.id}</a>`));
  assert.match(
    (await app.inject({ url: `/matches/${m.id}` })).body,
    new RegExp(`<a id="match-tournament" href="/tournaments/${tid}">`),
    'the match page links back',
  );
  assert.match(page.body, /node arbiter\.mjs play /);
  // Seats numbered 0 to 3, as arbiter play and the match page number them.
  const seats = /<ol class="seats" start="0">([^]*?)<\/ol>/.exec(page.body)?.[1] ?? assert.fail('no group');
  assert.deepEqual(
    [...seats.matchAll(/<li class="group-seat" value="(\d+)"/g)].map((x) => Number(x[1])),
    [0, 1, 2, 3],
  );
  assert.match(page.body, /<code>777<\/code>/);
  assert.equal((await app.inject({ url: '/tournaments/424242' })).statusCode, 404);
  const csv = await app.inject({ url: `/api/tournaments/${tid}/standings.csv` });
  assert.equal(csv.statusCode, 200);
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  const lines = csv.body.trim().split('\r\n');
  assert.equal(lines[0], '"place","player","owner","eliminated_round","last_rank","last_score","entry"');
  assert.equal(lines.length, 3);
  assert.equal((await app.inject({ url: '/admin/tournaments', headers: { cookie: alice.cookie } })).statusCode, 403);
  const admin = await app.inject({ url: '/admin/tournaments', headers: { cookie: boss.cookie } });
  assert.equal(admin.statusCode, 200);
  assert.match(admin.body, /id="tournament-form"/);
  const created = await form(boss.cookie, '/admin/tournaments', {
    game: 'coins',
    name: 'Spring cup',
    freezeAt: '2030-01-01T00:00Z',
    config: '{"nb_rounds": 15}',
    seed: '',
  });
  assert.equal(created.statusCode, 303);
  const spring = await db.tournament.findFirstOrThrow({ where: { name: 'Spring cup' } });
  assert.equal(created.headers.location, `/tournaments/${spring.id}`);
  assert.deepEqual(spring.config, { nb_rounds: 15 });
  const bad = await form(boss.cookie, '/admin/tournaments', { game: 'coins', name: 'X', freezeAt: 'tomorrow', config: '[1]' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /not a JSON object/);
  assert.equal((await form(alice.cookie, '/admin/tournaments', { game: 'coins', name: 'Y' })).statusCode, 403);
});

test('the scheduler’s steps: a tournament starts at its freeze time, and a round whose next step was lost is repaired', async () => {
  const { startDueTournaments, advanceTournament } = await import('../../../src/domain/tournaments.ts');
  // Five more users, so round 1 is a knockout of two groups.
  for (let i = 0; i < 5; i++) await qualifiedPlayer(db, { username: `extra${i}`, name: `E${i}`, source: coinsBot(`E${i}`, 2) });
  const t = await db.tournament.create({ data: { game: 'coins', name: 'Due', seed: 5, freezeAt: new Date(Date.now() + day) } });
  assert.equal((await startDueTournaments(db)).enqueue.length, 0, 'not yet');
  const started = await startDueTournaments(db, new Date(Date.now() + 2 * day));
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id: t.id } })).status, 'running');
  const entries = await db.tournamentEntry.count({ where: { tournamentId: t.id } });
  assert.equal(entries, 7, 'alice, bob and the five (carol’s submission is disabled)');
  assert.equal(started.enqueue.length, 2, 'two groups: 4 + 3 players, one Dummy');
  // Every match of round 1 recorded without the step that follows (as if the recorder died after its commit).
  for (const id of started.enqueue) {
    const ps = await db.participant.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
    for (const p of ps) await db.participant.update({ where: { id: p.id }, data: { rank: p.seat + 1, score: 10 - p.seat } });
    await db.match.update({ where: { id }, data: { status: 'done' } });
  }
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id: t.id } })).round, 1);
  const repaired = await advanceTournament(db, t.id);
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id: t.id } })).round, 2, 'round 2 drawn');
  assert.equal(repaired.enqueue.length, 1, 'four left: one final-phase match');
  assert.equal(await db.tournamentEntry.count({ where: { tournamentId: t.id, eliminatedRound: 1 } }), 3);
  assert.equal((await advanceTournament(db, t.id)).enqueue.length, 0, 'idempotent: nothing more to do');
  assert.equal(await db.match.count({ where: { tournamentId: t.id } }), 3);
});

test('final phase in the database: a tie for last replays the match as a new round with a new seed; a strict last falls; the last one left is the champion', async () => {
  const { startNow: start, advanceTournament } = await import('../../../src/domain/tournaments.ts');
  const t = await db.tournament.create({ data: { game: 'coins', name: 'Ties', seed: 99, freezeAt: new Date(Date.now() + day) } });
  // Seven users have a coins player by now: keep alice and bob by disabling the others' submissions for this one.
  const keep = [alice.id, bob.id];
  const others = await db.submission.findMany({ where: { game: 'coins', userId: { notIn: keep }, disabledAt: null }, select: { id: true } });
  await db.submission.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: new Date() } });
  try {
    const first = await start(db, boss.id, t.id);
    assert.equal(first.enqueue.length, 1);
    const seeds: number[] = [];
    /** Records the round's match with these scores by entry (Dummies score 0), and advances as the recorder would. */
    const play = async (matchId: number, scoreOf: (entry: number) => number) => {
      const m = await db.match.findUniqueOrThrow({ where: { id: matchId }, include: { participants: true, tournamentGroup: true } });
      seeds.push(m.seed);
      const seats = m.tournamentGroup!.entries as (number | null)[];
      const scores = seats.map((e) => (e === null ? 0 : scoreOf(e)));
      for (const p of m.participants) {
        await db.participant.update({ where: { id: p.id }, data: { score: scores[p.seat]!, rank: 1 + scores.filter((s) => s > scores[p.seat]!).length } });
      }
      await db.match.update({ where: { id: matchId }, data: { status: 'done' } });
      return advanceTournament(db, t.id);
    };
    const tie = await play(first.enqueue[0]!, () => 5);
    assert.equal(tie.enqueue.length, 1, 'a tie for last: the match is replayed');
    const tie2 = await play(tie.enqueue[0]!, () => 7);
    assert.equal(tie2.enqueue.length, 1, 'and again');
    assert.equal(await db.tournamentEntry.count({ where: { tournamentId: t.id, eliminatedRound: { not: null } } }), 0, 'nobody fell in a tie');
    const entries = await db.tournamentEntry.findMany({ where: { tournamentId: t.id }, orderBy: { entryIndex: 'asc' } });
    const bobEntry = entries.find((e) => e.userId === bob.id)!.entryIndex;
    const done = await play(tie2.enqueue[0]!, (e) => (e === bobEntry ? 1 : 9));
    assert.equal(done.enqueue.length, 0);
    const row = await db.tournament.findUniqueOrThrow({ where: { id: t.id } });
    assert.equal(row.status, 'finished');
    assert.equal(row.round, 3);
    assert.equal(new Set(seeds).size, 3, 'each replay plays a new seed');
    const places = await db.tournamentEntry.findMany({ where: { tournamentId: t.id }, orderBy: { place: 'asc' } });
    assert.deepEqual(
      places.map((p) => [p.userId, p.place, p.eliminatedRound]),
      [
        [alice.id, 1, null],
        [bob.id, 2, 3],
      ],
    );
  } finally {
    await db.submission.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: null } });
  }
});

test('a player disabled after the freeze is withdrawn when its round ends: it falls in that round and is not drawn again', async () => {
  const { startNow: start, advanceTournament } = await import('../../../src/domain/tournaments.ts');
  const t = await db.tournament.create({ data: { game: 'coins', name: 'Withdrawal', seed: 3, freezeAt: new Date(Date.now() + day) } });
  const first = await start(db, boss.id, t.id);
  const entries = await db.tournamentEntry.findMany({ where: { tournamentId: t.id } });
  assert.equal(entries.length, 7);
  assert.equal(first.enqueue.length, 2);
  // Round 1 played: seats ranked in seat order, Dummies too.
  for (const id of first.enqueue) {
    const ps = await db.participant.findMany({ where: { matchId: id } });
    for (const p of ps) await db.participant.update({ where: { id: p.id }, data: { rank: p.seat + 1, score: 10 - p.seat } });
  }
  // A survivor of group 1 (seat 0 or 1 holds a player who beat two) is disabled by an admin before the round ends.
  const group = await db.tournamentGroup.findFirstOrThrow({ where: { tournamentId: t.id, round: 1, groupIndex: 0 } });
  const seats = group.entries as (number | null)[];
  const survivor = seats.find((e, seat) => e !== null && seat <= 1)!;
  const entry = entries.find((e) => e.entryIndex === survivor)!;
  await db.submission.update({ where: { id: entry.submissionId }, data: { disabledAt: new Date() } });
  try {
    for (const id of first.enqueue) await db.match.update({ where: { id }, data: { status: 'done' } });
    await advanceTournament(db, t.id);
    assert.equal((await db.tournamentEntry.findUniqueOrThrow({ where: { id: entry.id } })).eliminatedRound, 1, 'withdrawn in round 1');
    const round2 = await db.tournamentGroup.findMany({ where: { tournamentId: t.id, round: 2 } });
    assert.ok(round2.length > 0);
    assert.ok(
      round2.every((g) => !(g.entries as (number | null)[]).includes(survivor)),
      'not drawn again',
    );
  } finally {
    await db.submission.update({ where: { id: entry.submissionId }, data: { disabledAt: null } });
  }
});
