// Challenges over HTTP (app.inject; no queues, so the matches stay queued):
// who may challenge with what, the seats as chosen (padded with Dummies), the
// seed, the per-user hourly limit (429 with Retry-After), "my challenges",
// and the player page's form.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot, insertMatch, type TestUser } from '../../helpers/app.ts';

const api = await startTestApi({ CHALLENGES_PER_HOUR: '4' });
const { app, db } = api;
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
const cleo = await registerUser(app, 'cleo');

async function submission(owner: TestUser, name: string, status: 'qualified' | 'qualifying' | 'rejected' | 'compiling', reasonDetail?: object) {
  const p = await db.playerName.upsert({
    where: { game_nameLower: { game: 'moria', nameLower: name.toLowerCase() } },
    create: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: owner.id },
    update: {},
  });
  const version = (await db.submission.count({ where: { playerId: p.id } })) + 1;
  const s = await db.submission.create({
    data: {
      playerId: p.id,
      userId: owner.id,
      game: 'moria',
      version,
      source: bot(name),
      filename: `${name}.ts`,
      sizeBytes: 10,
      status,
      ...(reasonDetail ? { reasonDetail } : {}),
    },
  });
  if (status === 'qualified') {
    await db.playerName.update({ where: { id: p.id }, data: { locked: true, lockedAt: new Date(), qualifiedSubmissionId: s.id } });
    await db.rating.create({ data: { playerId: p.id, game: 'moria', mu: 25, sigma: 8, ordinal: 1, matchesPlayed: 0 } });
  }
  return { playerId: p.id, submissionId: s.id };
}

const challenge = (user: TestUser, body: object) => app.inject({ method: 'POST', url: '/api/challenges', headers: user.auth, payload: body });

const anaBot = await submission(ana, 'AnaBot', 'qualified');
const rival = await submission(bob, 'Rival', 'qualified');
const lostToDummy = await submission(ana, 'Loser', 'rejected', { step: 'dummy', matchId: 1 });

test('a challenge plays my submission in seat 0 against the chosen seats, on my seed, padded with Dummy; unrated kind "challenge", who asked recorded', async () => {
  const res = await challenge(ana, { submissionId: anaBot.submissionId, opponents: ['rival', 'Demo'], seed: 1234 });
  assert.equal(res.statusCode, 201, res.body);
  const m = await db.match.findUniqueOrThrow({ where: { id: res.json().matchId }, include: { participants: { orderBy: { seat: 'asc' } } } });
  assert.deepEqual([m.kind, m.seed, m.requestedById, m.status], ['challenge', 1234, ana.id, 'queued']);
  assert.deepEqual(
    m.participants.map((p) => [p.name, p.submissionId, p.builtinName]),
    [
      ['AnaBot', anaBot.submissionId, null],
      ['Rival', rival.submissionId, null],
      ['Demo', null, 'Demo'],
      ['Dummy', null, 'Dummy'],
    ],
  );
  // No opponent at all: three Dummies; a random seed.
  const alone = await challenge(ana, { submissionId: lostToDummy.submissionId });
  assert.equal(alone.statusCode, 201, 'a version beaten only by the Dummy passed self-play: it may challenge');
  const seats = await db.participant.findMany({ where: { matchId: alone.json().matchId }, orderBy: { seat: 'asc' } });
  assert.deepEqual(
    seats.map((p) => p.name),
    ['Loser', 'Dummy', 'Dummy', 'Dummy'],
  );
  // The public match shows it like any other.
  assert.equal((await app.inject({ url: `/api/matches/${res.json().matchId}` })).json().kind, 'challenge');
});

test('refusals: not logged in, not mine, not past self-play, unknown or disabled opponent, too many opponents, bad seed', async () => {
  assert.equal((await app.inject({ method: 'POST', url: '/api/challenges', payload: { submissionId: anaBot.submissionId } })).statusCode, 401);
  assert.equal((await challenge(bob, { submissionId: anaBot.submissionId })).statusCode, 403);
  const compiling = await submission(ana, 'Fresh', 'compiling');
  const c = await challenge(ana, { submissionId: compiling.submissionId });
  assert.equal(c.statusCode, 409);
  assert.match(c.json().message, /self-play/);
  const froze = await submission(ana, 'Froze', 'rejected', { step: 'selfplay', matchId: 2 });
  assert.equal((await challenge(ana, { submissionId: froze.submissionId })).statusCode, 409);
  const unknown = await challenge(ana, { submissionId: anaBot.submissionId, opponents: ['Nobody'] });
  assert.equal(unknown.statusCode, 400);
  assert.match(unknown.json().message, /"Nobody" is not a qualified player/);
  // A player that never qualified is no opponent.
  assert.equal((await challenge(ana, { submissionId: anaBot.submissionId, opponents: ['Loser'] })).statusCode, 400);
  await db.submission.update({ where: { id: rival.submissionId }, data: { disabledAt: new Date() } });
  assert.equal((await challenge(ana, { submissionId: anaBot.submissionId, opponents: ['Rival'] })).statusCode, 400, 'a disabled submission plays no challenge');
  await db.submission.update({ where: { id: rival.submissionId }, data: { disabledAt: null } });
  assert.equal((await challenge(ana, { submissionId: anaBot.submissionId, opponents: ['Demo', 'Demo', 'Demo', 'Demo'] })).statusCode, 400);
  assert.equal((await challenge(ana, { submissionId: anaBot.submissionId, seed: -1 })).statusCode, 400);
  assert.equal(await db.match.count({ where: { kind: 'challenge', requestedById: bob.id } }), 0);
});

test('the hourly limit: past CHALLENGES_PER_HOUR, 429 with Retry-After and when in the message; other users are not affected', async () => {
  const mine = await db.match.count({ where: { kind: 'challenge', requestedById: ana.id } });
  for (let i = mine; i < 4; i++) assert.equal((await challenge(ana, { submissionId: anaBot.submissionId })).statusCode, 201);
  const over = await challenge(ana, { submissionId: anaBot.submissionId });
  assert.equal(over.statusCode, 429);
  const retry = Number(over.headers['retry-after']);
  assert.ok(retry > 3500 && retry <= 3600, `Retry-After ${over.headers['retry-after']}`);
  assert.match(over.json().message, /at most 4 challenges per hour: try again in 60 minutes \(at \d\d:\d\d:\d\d UTC\)/);
  assert.equal(await db.match.count({ where: { kind: 'challenge', requestedById: ana.id } }), 4, 'nothing created past the limit');
  // The hour slides: once the oldest is an hour old, one more is allowed.
  const oldest = await db.match.findFirstOrThrow({ where: { kind: 'challenge', requestedById: ana.id }, orderBy: { id: 'asc' } });
  await db.match.update({ where: { id: oldest.id }, data: { createdAt: new Date(Date.now() - 3601_000) } });
  assert.equal((await challenge(ana, { submissionId: anaBot.submissionId })).statusCode, 201);
  // Bob is not affected.
  assert.equal((await challenge(bob, { submissionId: rival.submissionId, opponents: ['AnaBot'] })).statusCode, 201);
});

test("my matches: /api/matches?mine=1 and /matches?mine=1 list every match my submissions played (gate, ranked, tournament, challenge) and the challenges I asked for, nobody else's", async () => {
  const dan = await registerUser(app, 'dan');
  const danBot = await submission(dan, 'DanBot', 'qualified');
  const seats = (who: number) =>
    [0, 1, 2, 3].map((seat) =>
      seat === who
        ? { name: 'DanBot', playerId: danBot.playerId, submissionId: danBot.submissionId, score: 9, rank: 1 }
        : { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 2 },
    );
  const played = [
    await insertMatch(db, { kind: 'gate', submissionId: danBot.submissionId, seats: seats(1) }),
    await insertMatch(db, { kind: 'ranked', seats: seats(2) }),
    await insertMatch(db, { kind: 'tournament', seats: seats(3) }),
  ].map((m) => m.id);
  // A challenge someone else asked for, with DanBot among the opponents; and one Dan asked for.
  const eve = await registerUser(app, 'eve');
  const eveBot = await submission(eve, 'EveBot', 'qualified');
  const against = await challenge(eve, { submissionId: eveBot.submissionId, opponents: ['DanBot'] });
  assert.equal(against.statusCode, 201, against.body);
  const asked = await challenge(dan, { submissionId: danBot.submissionId, opponents: ['Rival'] });
  assert.equal(asked.statusCode, 201, asked.body);
  const expected = [...played, against.json().matchId, asked.json().matchId].sort((a, b) => b - a);

  const mine = await app.inject({ url: '/api/matches?mine=1', headers: dan.auth });
  assert.equal(mine.statusCode, 200, mine.body);
  assert.deepEqual(
    mine.json().matches.map((m: { id: number }) => m.id),
    expected,
  );
  assert.equal(mine.json().total, 5);
  // Filters still apply: kind=challenge gives the two challenges.
  const challenges = await app.inject({ url: '/api/matches?kind=challenge&mine=1', headers: dan.auth });
  assert.equal(challenges.json().total, 2);
  assert.equal((await app.inject({ url: '/api/matches?mine=1' })).statusCode, 401);
  const page = await app.inject({ url: '/matches?mine=1', headers: { cookie: dan.cookie } });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h1>My matches<\/h1>/);
  assert.equal((page.body.match(/<tr data-match=/g) ?? []).length, 5);
  assert.match(page.body, /href="\/matches\?mine=1"/, 'the navigation links to my matches');
  const challengePage = await app.inject({ url: '/matches?kind=challenge&mine=1', headers: { cookie: dan.cookie } });
  assert.match(challengePage.body, /<h1>My challenges<\/h1>/);
  // Public: everyone's challenges are in the ordinary list.
  const all = await app.inject({ url: '/api/matches?kind=challenge' });
  assert.ok(all.json().total >= 6);
});

test("the player page's challenge form: shown to a user with a bot past self-play, and it plays the challenge", async () => {
  const page = await app.inject({ url: '/players/Rival', headers: { cookie: cleo.cookie } });
  assert.ok(!page.body.includes('challenge-form'), 'cleo has no bot to challenge with');
  const cleoBot = await submission(cleo, 'CleoBot', 'qualifying');
  const withBot = await app.inject({ url: '/players/Rival', headers: { cookie: cleo.cookie } });
  assert.ok(withBot.body.includes('id="challenge-moria"'));
  assert.ok(withBot.body.includes(`value="${cleoBot.submissionId}"`));
  const post = await app.inject({
    method: 'POST',
    url: '/players/Rival/challenge',
    headers: { cookie: cleo.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `game=moria&submission=${cleoBot.submissionId}&opponent1=Rival&opponent2=&opponent3=Null&seed=77`,
  });
  assert.equal(post.statusCode, 303, post.body);
  const id = Number(/^\/matches\/(\d+)$/.exec(post.headers.location as string)![1]);
  const seats = await db.participant.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
  assert.deepEqual(
    seats.map((p) => p.name),
    ['CleoBot', 'Rival', 'Null', 'Dummy'],
  );
  assert.equal((await db.match.findUniqueOrThrow({ where: { id } })).seed, 77);
});
