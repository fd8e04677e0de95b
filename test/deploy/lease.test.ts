// One scheduler and one recorder, however many are started: each works under
// a lease in Redis (src/queue/lease.ts) and the others wait as standbys. In
// process: a standby takes over at once from a holder that stops cleanly, and
// a holder whose lease was taken from it stops its work before the next step.
// On real processes: two `recorder scheduler` processes, the first SIGKILLed
// while matches are being recorded; the second takes both leases over within
// the lease's time plus a third, and every match is recorded once.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { leaseKey, runUnderLease } from '../../src/queue/lease.ts';
import { createMatch, enqueueMatch } from '../../src/domain/match-setup.ts';
import type { Db } from '../../src/db/client.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, waitFor, TEST_REDIS_URL } from '../helpers/queue.ts';
import { spawnArbiter, type ArbiterProcess } from '../helpers/faults.ts';

const fq = await freshQueues();
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await fq.cleanup();
});

/** A runner whose work counts its starts and stops. */
function counted(prefix: string, ttlMs: number) {
  const log = { starts: 0, stops: 0 };
  const runner = runUnderLease({ redisUrl: TEST_REDIS_URL, prefix, name: 'scheduler', ttlMs }, async () => {
    log.starts++;
    return {
      close: async () => {
        log.stops++;
      },
    };
  });
  cleanups.push(() => runner.close());
  return { runner, log };
}

test('in process: one holds, one waits; a clean stop hands over at once; a stolen lease stops its holder', async () => {
  const prefix = `${fq.prefix}-inproc`;
  const ttl = 3000;
  const first = counted(prefix, ttl);
  await first.runner.active();
  const second = counted(prefix, ttl);
  await new Promise((ok) => setTimeout(ok, 1500));
  assert.equal(first.runner.state, 'active');
  assert.equal(second.runner.state, 'standby');
  assert.equal(second.log.starts, 0, 'the standby does nothing');
  assert.ok(await first.runner.stillHeld());
  assert.equal(await second.runner.stillHeld(), false);

  // A clean stop gives the lease up: the standby takes it within a renewal round, not the lease's time.
  const stoppedAt = Date.now();
  await first.runner.close();
  assert.equal(first.log.stops, 1);
  await second.runner.active();
  const handover = Date.now() - stoppedAt;
  assert.ok(handover < ttl / 3 + 500, `took over in ${handover} ms`);
  assert.ok(second.runner.epoch > 0);

  // Someone else's token in the key (the holder paused past its lease, another took it): the holder stops its work.
  const redis = new Redis(TEST_REDIS_URL);
  cleanups.push(async () => redis.quit());
  await redis.set(leaseKey(prefix, 'scheduler'), JSON.stringify({ holder: 'another', epoch: 1e9 }), 'PX', 60_000);
  assert.equal(await second.runner.stillHeld(), false, 'fenced at once');
  await waitFor('the holder to stop', async () => second.log.stops === 1, ttl * 2, 50);
  assert.equal(second.runner.state, 'standby');
});

async function builtinMatches(db: Db, n: number, from: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = await createMatch(db, {
      game: 'moria',
      kind: 'challenge',
      seed: from + i,
      config: { nb_rounds: 20 },
      seats: ['Demo', 'Null', 'Demo', 'Null'].map((builtinName) => ({ builtinName })),
    });
    ids.push(id);
  }
  return ids;
}

async function assertRecordedOnce(db: Db, ids: number[]) {
  for (const id of ids) {
    const m = await db.match.findUniqueOrThrow({ where: { id }, include: { participants: true } });
    assert.equal(m.status, 'done', `match ${id}`);
    assert.equal(await db.replay.count({ where: { matchId: id } }), 1, `one replay for match ${id}`);
    assert.equal(m.participants.length, 4);
  }
}

test('two recorder+scheduler processes: the second waits, takes both leases within the lease time after a SIGKILL of the first; every match recorded once', {
  timeout: 300_000,
}, async () => {
  const database = await freshDatabase();
  cleanups.push(() => database.drop());
  const db = database.db;
  const ttl = 2000;
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: fq.redisUrl,
    QUEUE_PREFIX: fq.prefix,
    LEASE_TTL_MS: String(ttl),
    RANKED_ENABLED: 'false',
    RESULT_LOCK_MS: '1000',
    RESULT_STALLED_INTERVAL_MS: '500',
    MATCH_LOCK_MS: '2000',
    STALLED_INTERVAL_MS: '1000',
    SWEEP_INTERVAL_MS: '500',
    SWEEP_AFTER_MS: '3000',
    CPP_PREWARM: '0',
  };
  const started: ArbiterProcess[] = [];
  cleanups.push(async () => {
    for (const p of started) await p.kill();
  });
  const first = await spawnArbiter({ parts: ['recorder', 'scheduler'], env });
  started.push(first);
  const second = await spawnArbiter({ parts: ['recorder', 'scheduler'], env, standby: true });
  started.push(second);
  started.push(await spawnArbiter({ parts: ['worker'], env: { ...env, WORKER_CONCURRENCY: '2', WORKER_NICE: '0' } }));

  const before = await builtinMatches(db, 4, 100);
  for (const id of before) await enqueueMatch(db, fq.queues, id);
  await waitFor(
    'the first matches recorded by the first process',
    async () => (await db.match.count({ where: { id: { in: before }, status: 'done' } })) === 4,
    120_000,
    100,
  );
  assert.doesNotMatch(second.output(), /consuming results|ranked play/, 'the standby did nothing while the first lived');

  // More matches, then the first dies in the middle of them.
  const during = await builtinMatches(db, 6, 200);
  for (const id of during) await enqueueMatch(db, fq.queues, id);
  await waitFor(
    'a result of the second batch recorded',
    async () => (await db.match.count({ where: { id: { in: during }, status: 'done' } })) >= 1,
    120_000,
    50,
  );
  const killedAt = Date.now();
  await first.kill();
  await waitFor(
    'the second process to take both leases',
    async () => /consuming results/.test(second.output()) && /ranked play/.test(second.output()),
    ttl * 4,
    50,
  );
  const takeover = Date.now() - killedAt;
  console.log(`takeover after SIGKILL: ${takeover} ms (lease ${ttl} ms)`);
  // The lease lapses within its time after the last renewal; a standby tries every third of it.
  assert.ok(takeover <= ttl + ttl / 3 + 1500, `took over ${takeover} ms after the kill`);

  const afterKill = await builtinMatches(db, 3, 300);
  for (const id of afterKill) await enqueueMatch(db, fq.queues, id);
  const all = [...before, ...during, ...afterKill];
  await waitFor('every match recorded', async () => (await db.match.count({ where: { id: { in: all }, status: 'done' } })) === all.length, 180_000, 100);
  await assertRecordedOnce(db, all);
  assert.match(second.output(), /took the lease/);
});
