// The judge's health, as /health, /metrics and the admin page read it: the
// database answers (and how fast), Redis and the queues, the workers seen,
// and the results the recorder has not written yet.

import type { Db } from '../db/client.ts';
import { readQueueStats } from './queue-overview.ts';
import { withTimeout, type JudgeQueues, type ResultBacklog } from '../queue/index.ts';

export async function readHealth(deps: { db: Db; queues: JudgeQueues | null }) {
  const { db } = deps;
  const t0 = performance.now();
  let dbOk = true;
  let dbError: string | undefined;
  try {
    await withTimeout(db.$queryRawUnsafe('SELECT 1'), 3000, 'database');
  } catch (err) {
    dbOk = false;
    dbError = (err as Error).message;
  }
  const dbMs = Math.round((performance.now() - t0) * 10) / 10;
  const q = await readQueueStats(deps);
  let recorder: ResultBacklog | null = null;
  if (q.ok && deps.queues) recorder = await withTimeout(deps.queues.resultBacklog(), 2000, 'recorder backlog').catch(() => null);
  const ok = dbOk && q.ok;
  return {
    status: ok ? ('ok' as const) : ('degraded' as const),
    db: { ok: dbOk, latencyMs: dbMs, ...(dbError ? { error: dbError } : {}) },
    redis: { ok: q.ok, ...(q.error ? { error: q.error } : {}) },
    queue: q.stats ? { depth: q.stats.depth, matches: q.stats.matches, results: q.stats.results } : null,
    workers: q.stats ? { seen: q.stats.workersSeen, slots: q.stats.workerSlots } : null,
    // Results the recorder has not written yet, and how long the oldest has waited (seconds).
    recorder,
  };
}
