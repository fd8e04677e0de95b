// The recorder: the one consumer of the `results` queue and the one process
// that writes match results to Postgres (matches, participants, replays, gate
// verdicts, name locks, ratings). While it is down, results wait in Redis;
// a result that fails to record (database unreachable) is retried with a
// backoff capped at RESULT_BACKOFF_CAP_MS. Recording takes milliseconds, so
// the lock on a result and the check for stalled ones are short: a result in
// flight when the recorder dies is taken up again within seconds.

import { QueueEvents, Worker } from 'bullmq';
import {
  MATCHES_QUEUE,
  RESULTS_QUEUE,
  RESULT_BACKOFF_TYPE,
  matchIdOfJob,
  redisOptions,
  resultBackoffMs,
  watchRedis,
  type ResultJobData,
} from '../../queue/index.ts';
import { recordResult, type RecordDeps } from './record.ts';
import { OPEN_MATCH } from '../../statuses.ts';
import { runUnderLease, type LeaseOptions, type LeaseRunner } from '../../queue/lease.ts';

export { recordResult } from './record.ts';

export interface Recorder {
  readonly worker: Worker<ResultJobData>;
  close(): Promise<void>;
}

export interface RecorderOptions {
  concurrency?: number;
  /** BullMQ lock of a result being recorded (RESULT_LOCK_MS). */
  lockDurationMs?: number;
  /** How often results whose recorder died are looked for (RESULT_STALLED_INTERVAL_MS). */
  stalledIntervalMs?: number;
}

/** The results worker's retry delay: the capped backoff for results, else BullMQ's exponential one. */
export function resultBackoffStrategy(attemptsMade: number, type?: string): number {
  if (type === RESULT_BACKOFF_TYPE) return resultBackoffMs(attemptsMade);
  return Math.round(2 ** Math.max(0, attemptsMade - 1) * 1000);
}

export async function startRecorder(deps: RecordDeps & RecorderOptions): Promise<Recorder> {
  const { queues } = deps;
  const log = deps.log ?? (() => {});
  const worker = new Worker<ResultJobData>(
    RESULTS_QUEUE,
    async (job) => {
      const outcome = await recordResult(deps, job.data);
      if (outcome !== 'recorded') log(`result ${job.id}: ${outcome}, nothing stored`);
      return outcome;
    },
    {
      connection: redisOptions(queues.redisUrl),
      prefix: queues.prefix,
      concurrency: deps.concurrency ?? 1,
      lockDuration: deps.lockDurationMs ?? 5000,
      stalledInterval: deps.stalledIntervalMs ?? 5000,
      settings: { backoffStrategy: (attemptsMade: number, type?: string) => resultBackoffStrategy(attemptsMade, type) },
    },
  );
  worker.on('failed', (job, err) => log(`result ${job?.id ?? '?'} not recorded yet (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`));
  watchRedis(worker, 'recorder', log);

  // Match status 'running' and attempt count, from BullMQ's event stream (cosmetic: the result is what counts).
  const events = new QueueEvents(MATCHES_QUEUE, { connection: redisOptions(queues.redisUrl), prefix: queues.prefix });
  watchRedis(events, 'recorder match events', log);
  events.on('active', ({ jobId }) => {
    const id = matchIdOfJob(jobId);
    if (id === null) return;
    deps.db.match
      .updateMany({ where: { id, status: { in: OPEN_MATCH } }, data: { status: 'running', startedAt: new Date(), attempts: { increment: 1 } } })
      .catch((e: unknown) => log(`recorder: could not mark match ${id} running: ${e instanceof Error ? e.message : String(e)}`));
  });
  await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
  return {
    worker,
    async close() {
      await worker.close();
      await events.close();
    },
  };
}

/**
 * The recorder under its lease (src/queue/lease.ts): however many are started, one consumes the
 * results and the others wait, and one of them takes over when it dies. (A result is stored once
 * whoever records it: recordResult claims its match row.)
 */
export function startLeasedRecorder(deps: RecordDeps & RecorderOptions, lease: Omit<LeaseOptions, 'name'>, onActive?: () => void): LeaseRunner {
  return runUnderLease({ ...lease, name: 'recorder' }, async () => {
    const recorder = await startRecorder(deps);
    onActive?.();
    return recorder;
  });
}
