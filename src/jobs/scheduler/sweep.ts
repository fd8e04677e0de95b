// Repairs what a crash between a database commit and a queue write can leave
// behind, so no submission or match waits forever:
// - a submission still `queued` (the API could not reach Redis): start its gate;
// - a submission `compiling` or a match `queued`/`running` whose job Redis lost:
//   queue it again under the same id;
// - a compile check that failed every attempt (the compiler could not run, the
//   judge's fault, never the file's): tried again, never a rejection;
// - a match job that failed for good (workers died on it twice): record it as failed;
// - a result the recorder gave up on (database down too long): retry it.
// (A paused tournament's queued matches have no job on purpose; they are left alone.)

import type { Db } from '../../db/client.ts';
import { checkJobId, matchJobId, resultJobId, type JudgeQueues } from '../../queue/index.ts';
import { startGate } from '../../domain/gate.ts';
import { enqueueMatch } from '../../domain/match-setup.ts';
import { OPEN_MATCH, SubmissionStatus } from '../../statuses.ts';

export interface SweepReport {
  started: number;
  requeued: number;
  failed: number;
  retried: number;
}

export async function sweep(deps: { db: Db; queues: JudgeQueues }, options: { olderThanMs?: number } = {}): Promise<SweepReport> {
  const { db, queues } = deps;
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? 30_000));
  const report: SweepReport = { started: 0, requeued: 0, failed: 0, retried: 0 };

  const retryResult = async (id: string) => {
    const r = await queues.results.getJob(id);
    if (!r) return false;
    if ((await r.getState()) === 'failed') {
      await r.retry('failed');
      report.retried++;
    }
    return true; // waiting for the recorder, or retried
  };

  const submissions = await db.submission.findMany({
    where: { status: { in: [SubmissionStatus.queued, SubmissionStatus.compiling] }, updatedAt: { lt: cutoff } },
    select: { id: true, status: true, createdAt: true },
  });
  for (const s of submissions) {
    const jobId = checkJobId(s.id, s.createdAt);
    // The checks' lane; a check queued before it existed sits on the matches queue.
    const job = (await queues.checks.getJob(jobId)) ?? (await queues.matches.getJob(jobId));
    if (!job) {
      if (await retryResult(resultJobId(jobId))) continue;
      await startGate(deps, s.id);
      if (s.status === 'queued') report.started++;
      else report.requeued++;
      continue;
    }
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry('failed');
      report.retried++;
    } else if (state === 'completed') {
      await retryResult(resultJobId(jobId));
    }
  }

  const matches = await db.match.findMany({
    // A paused tournament's queued matches are held back on purpose: resuming queues them.
    where: { status: { in: OPEN_MATCH }, createdAt: { lt: cutoff }, OR: [{ tournamentId: null }, { tournament: { status: { not: 'paused' } } }] },
    select: { id: true, createdAt: true },
  });
  for (const m of matches) {
    const jobId = matchJobId(m.id, m.createdAt);
    const rid = resultJobId(jobId);
    const job = await queues.matches.getJob(jobId);
    if (!job) {
      if (await retryResult(rid)) continue;
      await enqueueMatch(db, queues, m.id);
      report.requeued++;
      continue;
    }
    const state = await job.getState();
    if (state === 'failed') {
      if (await queues.results.getJob(rid)) continue;
      await queues.addResult({
        type: 'match',
        matchId: String(m.id),
        jobId,
        ok: false,
        error: job.failedReason || 'the match failed on the workers',
        worker: 'sweep',
        attempt: job.attemptsMade,
      });
      report.failed++;
    } else if (state === 'completed') {
      await retryResult(rid);
    }
  }
  return report;
}
