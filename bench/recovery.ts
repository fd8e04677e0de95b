// `npm run bench recovery`: how long the judge takes to recover from each
// fault, with the default settings (locks, stalled checks, sweep): seconds
// from the fault to every affected match recorded. Each fault runs on its own
// Postgres database (127.0.0.1:5432, as the tests use), a private Redis, a
// real recorder+scheduler process reaching Postgres through a TCP proxy, and
// a real worker process.
//   npm run bench recovery [matches=4]

import { freshDatabase } from '../test/helpers/db.ts';
import { spawnArbiter, startPrivateRedis, startTcpProxy, type ArbiterProcess } from '../test/helpers/faults.ts';
import { spawnWorker, waitFor, type WorkerProcess } from '../test/helpers/queue.ts';
import { openJudgeQueues, matchJobId } from '../src/queue/index.ts';
import { createMatch, enqueueMatch } from '../src/domain/match-setup.ts';

type Fault = 'worker SIGKILL' | 'recorder SIGKILL' | 'Redis restart' | 'Redis wipe (FLUSHALL)' | 'database outage (10 s)';
const FAULTS: Fault[] = ['worker SIGKILL', 'recorder SIGKILL', 'Redis restart', 'Redis wipe (FLUSHALL)', 'database outage (10 s)'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(fault: Fault, count: number): Promise<number> {
  const redis = await startPrivateRedis();
  const database = await freshDatabase();
  const proxy = await startTcpProxy(Number(new URL(database.url).port || 5432));
  const viaProxy = new URL(database.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const prefix = 'bench-recovery';
  const queues = openJudgeQueues({ redisUrl: redis.url, prefix });
  const env = { DATABASE_URL: viaProxy.toString(), REDIS_URL: redis.url, QUEUE_PREFIX: prefix, RANKED_ENABLED: 'false', LOG_LEVEL: 'info' };
  const workerOptions = { redisUrl: redis.url, prefix, concurrency: 2 };
  let recorder: ArbiterProcess = await spawnArbiter({ parts: ['recorder', 'scheduler'], env });
  let worker: WorkerProcess = await spawnWorker(workerOptions);
  const db = database.db;
  try {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        await createMatch(db, {
          game: 'moria',
          kind: 'challenge',
          seed: 500 + i,
          seats: ['Demo', 'Dummy', 'Demo', 'Dummy'].map((builtinName) => ({ builtinName })),
        }),
      );
    }
    for (const id of ids) await enqueueMatch(db, queues, id);
    const first = await db.match.findUniqueOrThrow({ where: { id: ids[0]! } });
    // The fault lands while the first match is being played.
    await waitFor('a match under way', async () => (await queues.matches.getJob(matchJobId(first.id, first.createdAt)))?.progress && true, 120_000, 20);
    const t0 = Date.now();
    switch (fault) {
      case 'worker SIGKILL':
        await worker.kill();
        worker = await spawnWorker(workerOptions);
        break;
      case 'recorder SIGKILL':
        await recorder.kill();
        recorder = await spawnArbiter({ parts: ['recorder', 'scheduler'], env });
        break;
      case 'Redis restart':
        await redis.restart();
        break;
      case 'Redis wipe (FLUSHALL)':
        await redis.wipe();
        break;
      case 'database outage (10 s)':
        proxy.cut();
        await sleep(10_000);
        proxy.restore();
        break;
    }
    await waitFor(
      'every match recorded',
      async () => (await db.match.count({ where: { id: { in: ids }, status: { in: ['done', 'failed'] } } })) === ids.length,
      600_000,
      100,
    );
    return (Date.now() - t0) / 1000;
  } finally {
    await worker.stop().catch(() => {});
    await recorder.stop().catch(() => {});
    await queues.close().catch(() => {});
    await proxy.close().catch(() => {});
    await database.drop().catch(() => {});
    await redis.stop().catch(() => {});
  }
}

export async function run(args: string[] = []): Promise<void> {
  const count = Number(args[0] ?? 4);
  console.log(`recovery, default settings, ${count} Moria matches (Demo vs Dummy, 200 rounds) per fault, 2 match runners:`);
  for (const fault of FAULTS) {
    const seconds = await measure(fault, count);
    console.log(`  ${fault.padEnd(26)} every match recorded ${seconds.toFixed(1)} s after the fault`);
  }
}
