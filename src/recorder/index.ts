// The recorder: the one consumer of the `results` queue and the one process
// that writes match results to Postgres (matches, participants, replays, gate
// verdicts, name locks, ratings). While it is down, results wait in Redis;
// a result that fails to record (database unreachable) is retried with backoff.

import { QueueEvents, Worker } from 'bullmq';
import { MATCHES_QUEUE, RESULTS_QUEUE, matchIdOfJob, redisOptions, type ResultJobData } from '../queue/index.ts';
import { recordResult, type RecordDeps } from './record.ts';

export { recordResult, type RecordDeps } from './record.ts';

export interface Recorder {
  readonly worker: Worker<ResultJobData>;
  close(): Promise<void>;
}

export async function startRecorder(deps: RecordDeps & { concurrency?: number }): Promise<Recorder> {
  const { queues } = deps;
  const log = deps.log ?? (() => {});
  const worker = new Worker<ResultJobData>(
    RESULTS_QUEUE,
    async (job) => {
      const outcome = await recordResult(deps, job.data);
      if (outcome !== 'recorded') log(`result ${job.id}: ${outcome}, nothing stored`);
      return outcome;
    },
    { connection: redisOptions(queues.redisUrl), prefix: queues.prefix, concurrency: deps.concurrency ?? 1 },
  );
  worker.on('failed', (job, err) => log(`result ${job?.id ?? '?'} not recorded yet (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`));
  worker.on('error', (err) => log(`recorder: ${err.message}`));

  // Match status 'running' and attempt count, from BullMQ's event stream (cosmetic: the result is what counts).
  const events = new QueueEvents(MATCHES_QUEUE, { connection: redisOptions(queues.redisUrl), prefix: queues.prefix });
  events.on('active', ({ jobId }) => {
    const id = matchIdOfJob(jobId);
    if (id === null) return;
    deps.db.match
      .updateMany({ where: { id, status: { in: ['queued', 'running'] } }, data: { status: 'running', startedAt: new Date(), attempts: { increment: 1 } } })
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
