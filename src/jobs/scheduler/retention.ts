// Replay retention. Replays are most of the database's size, and ranked play
// makes one every few seconds all term. Gate, tournament and challenge
// replays are kept forever (a student's verdict must stay watchable); a
// ranked replay is deleted once it is older than `rankedDays`, or once it is
// no longer among the newest `rankedPerPlayer` ranked matches of ANY of its
// players. Only the Replay row goes: the match, its seats, scores and the
// ratings it moved stay. Deletes run in small batches, each its own
// statement, so the table is never locked for long.

import type { Db } from '../../db/client.ts';
import type { Log } from '../../log.ts';

export interface RetentionOptions {
  /** Ranked replays older than this are pruned; 0 = no age limit. */
  rankedDays?: number;
  /** Keep a ranked replay while it is among the newest N ranked matches of any of its players; 0 = no count limit. */
  rankedPerPlayer?: number;
  /** Replays deleted per statement. */
  batchSize?: number;
}

export interface RetentionReport {
  /** Replays deleted. */
  pruned: number;
  /** Delete statements run. */
  batches: number;
}

const DAY_MS = 24 * 3600 * 1000;

/** A match that finished but whose replay row is gone was pruned (a done match always gets its replay in the same transaction). */
export function replayWasPruned(match: { kind: string; status: string; replay: unknown }): boolean {
  return match.kind === 'ranked' && match.status === 'done' && !match.replay;
}

export const PRUNED_REPLAY_MESSAGE = 'its replay was deleted by the retention policy for ranked matches (the result, scores and ratings remain)';

/** Ids of ranked matches whose replay the policy no longer keeps. Read-only. */
async function prunable(db: Db, options: RetentionOptions, now: Date): Promise<number[]> {
  const days = options.rankedDays ?? 0;
  const perPlayer = options.rankedPerPlayer ?? 0;
  const ids = new Set<number>();
  if (days > 0) {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const old = await db.$queryRaw<{ id: number }[]>`
      SELECT r."matchId" AS id FROM "Replay" r JOIN "Match" m ON m."id" = r."matchId"
      WHERE m."kind" = 'ranked' AND COALESCE(m."finishedAt", r."createdAt") < ${cutoff}`;
    for (const { id } of old) ids.add(id);
  }
  if (perPlayer > 0) {
    // Each player's ranked matches, newest first; a match goes when it is past
    // the first N for every player seated in it.
    const beyond = await db.$queryRaw<{ id: number }[]>`
      WITH seats AS (
        SELECT DISTINCT p."matchId", p."playerId" FROM "Participant" p JOIN "Match" m ON m."id" = p."matchId"
        WHERE m."kind" = 'ranked' AND m."status" = 'done' AND p."playerId" IS NOT NULL
      ), numbered AS (
        SELECT "matchId", row_number() OVER (PARTITION BY "playerId" ORDER BY "matchId" DESC) AS n FROM seats
      )
      SELECT n."matchId" AS id FROM numbered n JOIN "Replay" r ON r."matchId" = n."matchId"
      GROUP BY n."matchId" HAVING min(n.n) > ${perPlayer}`;
    for (const { id } of beyond) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** One pass of the policy: deletes the replays it no longer keeps, in batches. */
export async function pruneReplays(db: Db, options: RetentionOptions, now: Date = new Date()): Promise<RetentionReport> {
  const report: RetentionReport = { pruned: 0, batches: 0 };
  if (!(options.rankedDays ?? 0) && !(options.rankedPerPlayer ?? 0)) return report;
  const ids = await prunable(db, options, now);
  const batch = Math.max(1, options.batchSize ?? 200);
  for (let i = 0; i < ids.length; i += batch) {
    const chunk = ids.slice(i, i + batch);
    // The kind is checked again at delete time: only ranked replays ever go.
    const n = await db.$executeRaw`
      DELETE FROM "Replay" r USING "Match" m
      WHERE r."matchId" = m."id" AND m."kind" = 'ranked' AND r."matchId" = ANY(${chunk}::int[])`;
    report.pruned += n;
    report.batches++;
  }
  return report;
}

/** Logs what a pass pruned (nothing when it pruned nothing). */
export async function retentionPass(db: Db, options: RetentionOptions, log?: Log): Promise<RetentionReport> {
  const report = await pruneReplays(db, options);
  if (report.pruned > 0)
    log?.('retention: ranked replays pruned', {
      pruned: report.pruned,
      batches: report.batches,
      rankedDays: options.rankedDays ?? 0,
      rankedPerPlayer: options.rankedPerPlayer ?? 0,
    });
  return report;
}
