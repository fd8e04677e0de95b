// A worker's /health and /metrics (WORKER_HEALTH_PORT): ready while its
// runners run and Redis answers, 503 with the reason once Redis is gone; the
// metrics count runners busy and idle and the matches played, in Prometheus
// text; any other path is a 404 with a code. The worker is an in-process pool
// on a private redis-server, so that Redis can be stopped under it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openJudgeQueues, deletePrefix } from '../../../src/queue/index.ts';
import { startWorkerPool, type WorkerPool } from '../../../src/jobs/worker/pool.ts';
import { createMatch, enqueueMatch } from '../../../src/domain/match-setup.ts';
import { freshDatabase } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startPrivateRedis } from '../../helpers/faults.ts';

const redis = await startPrivateRedis();
const database = await freshDatabase();
const prefix = `health-${process.pid}`;
const queues = openJudgeQueues({ redisUrl: redis.url, prefix });
let pool: WorkerPool | null = await startWorkerPool({ redisUrl: redis.url, prefix, concurrency: 2, checkConcurrency: 1, healthPort: 0, name: 'health-test' });
after(async () => {
  await pool?.close();
  await deletePrefix(queues.redis(), prefix).catch(() => {});
  await queues.close();
  await database.drop();
  await redis.stop();
});

const base = () => `http://127.0.0.1:${pool!.healthPort}`;

/** Prometheus text: `name{labels} value` lines into a map from `name{labels}` to value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    assert.ok(m, `a sample line: ${line}`);
    const labels = m[2]!
      .split(',')
      .filter((l) => !l.startsWith('worker='))
      .join(',');
    out.set(`${m[1]}{${labels}}`, Number(m[3]));
  }
  return out;
}

test('ready, with every runner idle; metrics in Prometheus text; other paths 404', async () => {
  assert.ok(pool!.healthPort! > 0);
  const health = await fetch(`${base()}/health`);
  assert.equal(health.status, 200);
  const body = (await health.json()) as Record<string, unknown>;
  assert.deepEqual(body, { status: 'ready', worker: 'health-test', redis: 'up', runners: { busy: 0, total: 2 } });
  const metrics = await fetch(`${base()}/metrics`);
  assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const m = samples(await metrics.text());
  assert.equal(m.get('arbiter_worker_runners{state="idle"}'), 2);
  assert.equal(m.get('arbiter_worker_runners{state="busy"}'), 0);
  assert.equal(m.get('arbiter_worker_matches_total{}'), 0);
  assert.equal(m.get('arbiter_worker_redis_up{}'), 1);
  assert.equal(m.get('arbiter_worker_ready{}'), 1);
  const missing = await fetch(`${base()}/admin`);
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { code: string }).code, 'not-found');
  assert.equal((await fetch(`${base()}/health`, { method: 'POST' })).status, 405);
});

test('a match played: busy while it runs, counted once done', async () => {
  const id = await createMatch(database.db, {
    game: 'moria',
    kind: 'challenge',
    seed: 5,
    config: { nb_rounds: 200 },
    seats: ['Demo', 'Null', 'Demo', 'Null'].map((builtinName) => ({ builtinName })),
  });
  await enqueueMatch(database.db, queues, id);
  const busy = await waitFor(
    'the match running',
    async () => {
      const m = samples(await (await fetch(`${base()}/metrics`)).text());
      return m.get('arbiter_worker_runners{state="busy"}') === 1 ? m : null;
    },
    60_000,
    20,
  );
  assert.equal(busy.get('arbiter_worker_runners{state="idle"}'), 1);
  const done = await waitFor(
    'the match counted',
    async () => {
      const m = samples(await (await fetch(`${base()}/metrics`)).text());
      return m.get('arbiter_worker_matches_total{}') === 1 ? m : null;
    },
    120_000,
    50,
  );
  assert.equal(done.get('arbiter_worker_runners{state="busy"}'), 0);
  assert.equal(done.get('arbiter_worker_failures_total{kind="match"}'), 0);
  assert.ok((done.get('arbiter_worker_match_processes{}') ?? 0) >= 1);
  // Its result is on the results queue for the recorder.
  assert.equal((await queues.results.getJobCounts('waiting')).waiting, 1);
});

test('Redis gone: 503 not-ready, saying so; ready again once it is back; closed with the pool', async () => {
  const restarting = redis.restart(5000);
  const down = await waitFor(
    '503 while Redis is down',
    async () => {
      const r = await fetch(`${base()}/health`);
      return r.status === 503 ? ((await r.json()) as { status: string; redis: string; problems: string[] }) : null;
    },
    4000,
    100,
  );
  assert.equal(down.status, 'not-ready');
  assert.equal(down.redis, 'down');
  assert.match(down.problems.join(' '), /Redis does not answer/);
  const m = samples(await (await fetch(`${base()}/metrics`)).text());
  assert.equal(m.get('arbiter_worker_redis_up{}'), 0, 'the metrics say so too, and still answer');
  await restarting;
  await waitFor('ready again', async () => (await fetch(`${base()}/health`)).status === 200, 30_000, 100);
  const port = pool!.healthPort;
  await pool!.close();
  pool = null;
  await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), 'the port is closed with the pool');
});
