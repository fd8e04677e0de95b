// The tournament loop of the scheduler: starts the tournaments whose entries
// freeze now, and repairs a running tournament whose next step was lost
// (advance() is idempotent: it creates only what the current round lacks).
// Also where the effects of a tournament step are applied after its commit:
// queue new matches, hold back a paused tournament's queued ones.

import type { Db } from '../../db/client.ts';
import { matchJobId, type JudgeQueues } from '../../queue/index.ts';
import { advanceTournament, startDueTournaments, type TournamentEffects } from '../../domain/tournaments.ts';
import { enqueueMatch } from '../../domain/match-setup.ts';

export interface TournamentDeps {
  db: Db;
  queues: JudgeQueues | null;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

/** Queues the new matches and removes the held-back ones' waiting jobs. What fails here the sweep or the next pass repairs. */
export async function applyTournamentEffects(deps: TournamentDeps, effects: TournamentEffects): Promise<void> {
  const { db, queues } = deps;
  if (!queues) return;
  for (const id of effects.enqueue) {
    try {
      await enqueueMatch(db, queues, id);
    } catch (e) {
      deps.log?.(`could not queue tournament match ${id} (the sweep will retry): ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (effects.holdBack.length > 0) {
    const rows = await db.match.findMany({ where: { id: { in: effects.holdBack }, status: 'queued' }, select: { id: true, createdAt: true } });
    for (const m of rows) {
      try {
        const job = await queues.matches.getJob(matchJobId(m.id, m.createdAt));
        // Only a job still waiting (match jobs have priorities: 'prioritized'); one a worker holds is played and recorded as usual.
        const state = job ? await job.getState() : null;
        if (job && (state === 'waiting' || state === 'prioritized' || state === 'delayed')) await job.remove();
      } catch (e) {
        deps.log?.(`could not hold back tournament match ${m.id}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  for (const event of effects.events) await queues.publish(event).catch(() => {});
}

/** One pass: start what is due, repair what is running. Returns the matches queued. */
export async function tournamentPass(deps: TournamentDeps & { queues: JudgeQueues }, now = new Date()): Promise<number> {
  const started = await startDueTournaments(deps.db, now);
  await applyTournamentEffects(deps, started);
  let queued = started.enqueue.length;
  const running = await deps.db.tournament.findMany({ where: { status: 'running' }, select: { id: true } });
  for (const { id } of running) {
    const e = await advanceTournament(deps.db, id);
    await applyTournamentEffects(deps, e);
    queued += e.enqueue.length;
  }
  return queued;
}
