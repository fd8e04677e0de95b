// Replay retention on real Postgres: ranked replays past the age or the
// per-player count go (the match, its seats and ratings stay); gate,
// tournament and challenge replays are never touched; the download answers
// 410 and the match page says the replay was pruned.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pruneReplays } from '../../../src/jobs/scheduler/retention.ts';
import { loadConfig } from '../../../src/config.ts';
import { startScheduler } from '../../../src/jobs/scheduler/index.ts';
import type { JudgeQueues } from '../../../src/queue/index.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startTestApi } from '../../helpers/app.ts';

const api = await startTestApi();
const { db, app } = api;
const DAY = 24 * 3600 * 1000;
const NOW = new Date('2030-06-01T12:00:00Z');

const owner = await db.user.create({ data: { username: 'keeper', usernameLower: 'keeper', passwordHash: 'x' } });
async function player(name: string) {
  return db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: owner.id } });
}

/** A finished match with a replay, seated by the given players (null = a built-in). */
async function played(kind: 'ranked' | 'gate' | 'tournament' | 'challenge', seats: ({ id: number; name: string } | null)[], daysAgo: number) {
  const finishedAt = new Date(NOW.getTime() - daysAgo * DAY);
  const m = await db.match.create({
    data: {
      game: 'moria',
      seed: 1,
      kind,
      status: 'done',
      finishedAt,
      participants: {
        create: seats.map((p, seat) =>
          p ? { seat, playerId: p.id, name: p.name, score: 10 - seat, rank: seat + 1 } : { seat, builtinName: 'Dummy', name: 'Dummy', score: 0, rank: 4 },
        ),
      },
    },
  });
  await db.replay.create({ data: { matchId: m.id, data: Buffer.from('replay'), sizeBytes: 6 } });
  return m.id;
}

const hasReplay = async (id: number) => (await db.replay.count({ where: { matchId: id } })) === 1;

test('nothing is pruned while both limits are 0 (the default)', async () => {
  const a = await player('Idle');
  const id = await played('ranked', [a, null, null, null], 400);
  assert.deepEqual(await pruneReplays(db, { rankedDays: 0, rankedPerPlayer: 0 }, NOW), { pruned: 0, batches: 0 });
  assert.ok(await hasReplay(id));
  const c = loadConfig({});
  assert.equal(c.retentionRankedDays, 0);
  assert.equal(c.retentionRankedPerPlayer, 0);
});

test('by age: ranked replays older than the limit go, in batches; gate, tournament and challenge replays stay however old', async () => {
  const a = await player('Aged');
  const oldRanked = [
    await played('ranked', [a, null, null, null], 40),
    await played('ranked', [a, null, null, null], 31),
    await played('ranked', [a, null, null, null], 35),
  ];
  const recent = await played('ranked', [a, null, null, null], 5);
  const kept = [
    await played('gate', [a, null, null, null], 400),
    await played('tournament', [a, null, null, null], 400),
    await played('challenge', [a, null, null, null], 400),
  ];
  const report = await pruneReplays(db, { rankedDays: 30, batchSize: 2 }, NOW);
  assert.ok(report.pruned >= 3, `pruned ${report.pruned}`);
  assert.ok(report.batches >= 2, 'more than one batch of 2');
  for (const id of oldRanked) assert.equal(await hasReplay(id), false, `ranked ${id} pruned`);
  assert.ok(await hasReplay(recent));
  for (const id of kept) assert.ok(await hasReplay(id), `match ${id} kept`);
  // The match, its seats and its scores stay.
  const m = await db.match.findUniqueOrThrow({ where: { id: oldRanked[0]! }, include: { participants: true } });
  assert.equal(m.status, 'done');
  assert.equal(m.participants.length, 4);
  assert.equal(m.participants[0]!.score, 10);
});

test('by count: a ranked replay stays while it is among the newest N of ANY of its players', async () => {
  const busy = await player('Busy');
  const quiet = await player('Quiet');
  // Quiet played once, in Busy's oldest match; Busy then played three more.
  const shared = await played('ranked', [busy, quiet, null, null], 3);
  const busyOnly = [
    await played('ranked', [busy, null, null, null], 2),
    await played('ranked', [busy, null, null, null], 1),
    await played('ranked', [busy, null, null, null], 0),
  ];
  await pruneReplays(db, { rankedPerPlayer: 2 }, NOW);
  assert.ok(await hasReplay(shared), "Quiet's only match keeps its replay although Busy has newer ones");
  assert.equal(await hasReplay(busyOnly[0]!), false, "Busy's third newest, no other player: pruned");
  assert.ok(await hasReplay(busyOnly[1]!));
  assert.ok(await hasReplay(busyOnly[2]!));
  // Once Quiet has two newer matches, the shared one goes too.
  await played('ranked', [quiet, null, null, null], 0);
  await played('ranked', [quiet, null, null, null], 0);
  await pruneReplays(db, { rankedPerPlayer: 2 }, NOW);
  assert.equal(await hasReplay(shared), false);
  // A player seated twice in one match counts it once.
  const twice = await player('Twice');
  const doubled = await played('ranked', [twice, twice, null, null], 1);
  await played('ranked', [twice, null, null, null], 0);
  await pruneReplays(db, { rankedPerPlayer: 2 }, NOW);
  assert.ok(await hasReplay(doubled));
});

test('a pruned replay: the download answers 410 Gone with a message, the match page says it was pruned, the match API still has the result', async () => {
  const a = await player('Gone');
  const id = await played('ranked', [a, null, null, null], 100);
  const before = await app.inject({ url: `/api/matches/${id}/replay` });
  assert.equal(before.statusCode, 200);
  await pruneReplays(db, { rankedDays: 10 }, NOW);
  const res = await app.inject({ url: `/api/matches/${id}/replay` });
  assert.equal(res.statusCode, 410);
  assert.equal(res.json().error, 'Gone');
  assert.match(res.json().message, /retention/);
  const page = await app.inject({ url: `/matches/${id}` });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /replay was deleted by the retention policy/);
  assert.doesNotMatch(page.body, /data-viewer/);
  const detail = (await app.inject({ url: `/api/matches/${id}` })).json();
  assert.equal(detail.status, 'done');
  assert.equal(detail.replay, null);
  assert.equal(detail.participants[0].score, 10);
  // A match not played yet is still a plain 404.
  const queued = await db.match.create({ data: { game: 'moria', seed: 1, kind: 'ranked', status: 'queued' } });
  assert.equal((await app.inject({ url: `/api/matches/${queued.id}/replay` })).statusCode, 404);
});

test('the scheduler runs the retention loop when a limit is set', async () => {
  const a = await player('Looped');
  const id = await played('ranked', [a, null, null, null], 3650);
  const queues = { prefix: 'unused' } as unknown as JudgeQueues; // ranked play off; the sweep's errors are only logged
  const scheduler = startScheduler({ db, queues, rankedEnabled: false, sweepIntervalMs: 3_600_000, retention: { rankedDays: 1000, intervalMs: 100 } });
  try {
    await waitFor('the loop to prune the replay', async () => !(await hasReplay(id)), 20_000, 50);
  } finally {
    await scheduler.close();
  }
});
