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
import { enqueueMatch } from '../../src/domain/match-setup.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, waitFor, TEST_REDIS_URL } from '../helpers/queue.ts';
import { assertRecordedOnce, builtinMatches, FAST_RECOVERY, spawnArbiter, type ArbiterProcess } from '../helpers/faults.ts';

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

test('two recorder+scheduler processes: the second waits, takes both leases within the lease time after a SIGKILL of the first; every match recorded once', {
  timeout: 300_000,
}, async () => {
  const database = await freshDatabase();
  cleanups.push(() => database.drop());
  const db = database.db;
  const ttl = 2000;
  const env = {
    ...FAST_RECOVERY,
    // Longer match locks than the recovery tests': no match changes hands here, only the leases do.
    MATCH_LOCK_MS: '2000',
    STALLED_INTERVAL_MS: '1000',
    SWEEP_AFTER_MS: '3000',
    DATABASE_URL: database.url,
    REDIS_URL: fq.redisUrl,
    QUEUE_PREFIX: fq.prefix,
    LEASE_TTL_MS: String(ttl),
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

  const before = await builtinMatches(db, 4, 20, 100);
  for (const id of before) await enqueueMatch(db, fq.queues, id);
  await waitFor(
    'the first matches recorded by the first process',
    async () => (await db.match.count({ where: { id: { in: before }, status: 'done' } })) === 4,
    120_000,
    100,
  );
  assert.doesNotMatch(second.output(), /consuming results|ranked play/, 'the standby did nothing while the first lived');

  // More matches, then the first dies in the middle of them.
  const during = await builtinMatches(db, 6, 20, 200);
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

  const afterKill = await builtinMatches(db, 3, 20, 300);
  for (const id of afterKill) await enqueueMatch(db, fq.queues, id);
  const all = [...before, ...during, ...afterKill];
  await waitFor('every match recorded', async () => (await db.match.count({ where: { id: { in: all }, status: 'done' } })) === all.length, 180_000, 100);
  await assertRecordedOnce(db, all);
  assert.match(second.output(), /took the lease/);
});
