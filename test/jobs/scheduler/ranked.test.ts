// Ranked play: the scheduler keeps a shallow queue of four-player matches for
// qualified players, favouring those with few matches; the recorder rates
// them with OpenSkill; the leaderboard orders players by rating.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pickPlayers, scheduleRanked } from '../../../src/jobs/scheduler/ranked.ts';
import { startScheduler } from '../../../src/jobs/scheduler/index.ts';
import { initialRating, rateMatch } from '../../../src/domain/ratings/index.ts';
import { waitFor } from '../../helpers/queue.ts';
import { OPEN_MATCH } from '../../../src/statuses.ts';
import { botAs, startTestJudge, type TestJudge } from '../../helpers/judge.ts';

let judge: TestJudge;

before(async () => {
  judge = await startTestJudge({ workers: 1, concurrency: 2 });
});
after(async () => {
  await judge?.close();
});

/** A player that has passed the gate (inserted directly: the gate has its own tests). */
async function qualified(owner: string, name: string, builtin: string) {
  const user = await judge.db.user.findUniqueOrThrow({ where: { usernameLower: owner } });
  const player = await judge.db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: user.id } });
  const source = botAs(builtin, name);
  const sub = await judge.db.submission.create({
    data: {
      playerId: player.id,
      userId: user.id,
      game: 'moria',
      version: 1,
      source,
      filename: `${name}.ts`,
      sizeBytes: source.length,
      status: 'qualified',
      finishedAt: new Date(),
    },
  });
  await judge.db.playerName.update({ where: { id: player.id }, data: { locked: true, lockedAt: new Date(), qualifiedSubmissionId: sub.id } });
  const r = initialRating();
  await judge.db.rating.create({ data: { playerId: player.id, game: 'moria', mu: r.mu, sigma: r.sigma, ordinal: r.ordinal } });
  return player.id;
}

test('OpenSkill: the winner gains, the last loses, tied players move together', () => {
  const start = initialRating();
  const [a, b, c, d] = rateMatch([start, start, start, start], [1, 2, 2, 4]);
  assert.ok(a!.ordinal > b!.ordinal && b!.ordinal > d!.ordinal);
  assert.equal(b!.mu, c!.mu);
  assert.ok(a!.sigma < start.sigma, 'a match makes the rating surer');
});

test('picking players: the fewest-played always, then a strong preference for few matches', () => {
  const candidates = [0, 9, 9, 9, 9, 9, 1, 9].map((load, i) => ({ playerId: i, submissionId: i, name: `p${i}`, load }));
  const picked = new Map<number, number>();
  for (let k = 0; k < 400; k++) {
    const four = pickPlayers(candidates, 4);
    assert.equal(four.length, 4);
    assert.equal(new Set(four.map((c) => c.playerId)).size, 4, 'four different players');
    assert.equal(four[0]!.playerId, 0);
    for (const c of four) picked.set(c.playerId, (picked.get(c.playerId) ?? 0) + 1);
  }
  assert.equal(picked.get(0), 400);
  assert.ok(picked.get(6)! > 380, `the player with 1 match is nearly always picked (${picked.get(6)})`);
  assert.equal(pickPlayers(candidates.slice(0, 3), 4).length, 3);
});

test('with two qualified players, Dummies fill the other seats; the queue stays at its target', async () => {
  await judge.user('ann');
  await judge.user('ben');
  const a = await qualified('ann', 'DemoA', 'Demo');
  const n = await qualified('ben', 'NullA', 'Null');
  const created = await scheduleRanked({ db: judge.db, queues: judge.queues }, { target: 2, config: { nb_rounds: 20 } });
  assert.equal(created.length, 2);
  assert.deepEqual(await scheduleRanked({ db: judge.db, queues: judge.queues }, { target: 2 }), [], 'nothing more while two are in flight');
  for (const id of created) {
    const seats = await judge.db.participant.findMany({ where: { matchId: id } });
    assert.deepEqual(
      seats
        .map((s) => s.playerId)
        .filter((p) => p !== null)
        .sort(),
      [a, n].sort(),
    );
    assert.equal(seats.filter((s) => s.builtinName === 'Dummy').length, 2);
  }
  await waitFor('both ranked matches recorded', async () => (await judge.db.match.count({ where: { id: { in: created }, status: 'done' } })) === 2);
  const history = await judge.db.ratingHistory.count({ where: { matchId: { in: created } } });
  assert.equal(history, 4, 'the two players are rated in each match; the Dummies are not');
});

test('after ranked matches the leaderboard orders players by rating (the Demo copies above the Null copies)', async () => {
  await qualified('ann', 'DemoB', 'Demo');
  await qualified('ben', 'NullB', 'Null');
  const scheduler = startScheduler({
    db: judge.db,
    queues: judge.queues,
    rankedIntervalMs: 200,
    ranked: { target: 2, config: { nb_rounds: 60 } },
    sweepIntervalMs: 60_000,
  });
  try {
    await waitFor(
      'every player to have played 4 ranked matches',
      async () => (await judge.db.rating.findMany({ where: { game: 'moria' } })).every((r) => r.matchesPlayed >= 4),
      180_000,
      250,
    );
  } finally {
    await scheduler.close();
  }
  // Matches queued before the scheduler stopped are still played and rated: what follows is read once they are
  // (a match recorded between reading a rating and its history gave one history row more than matchesPlayed).
  await waitFor(
    'the ranked matches in flight to be recorded',
    async () => (await judge.db.match.count({ where: { status: { in: OPEN_MATCH } } })) === 0,
    180_000,
    250,
  );
  const res = await judge.app.inject({ url: '/api/games/moria/leaderboard' });
  assert.equal(res.statusCode, 200);
  const board = res.json().players as { player: string; rating: number; matchesPlayed: number }[];
  assert.equal(board.length, 4);
  for (let i = 1; i < board.length; i++) assert.ok(board[i - 1]!.rating >= board[i]!.rating, 'ordered by rating');
  assert.deepEqual(
    board
      .slice(0, 2)
      .map((p) => p.player)
      .sort(),
    ['DemoA', 'DemoB'],
    JSON.stringify(board),
  );
  const ratings = await judge.db.rating.findMany({ include: { player: true } });
  for (const r of ratings) {
    const history = await judge.db.ratingHistory.findMany({ where: { playerId: r.playerId }, orderBy: { id: 'desc' } });
    assert.equal(history.length, r.matchesPlayed, `${r.player.name}: one history row per rated match`);
    assert.equal(history[0]!.ordinal, r.ordinal);
  }
});
