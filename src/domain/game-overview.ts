// What the games list and the home page say of each game beside its own
// record: how many player names qualified, and the submission deadlines set.

import type { Db } from '../db/client.ts';

/** How many player names qualified (hold their name) in each game that has any. */
export async function qualifiedPlayerCounts(db: Db): Promise<Map<string, number>> {
  const counts = await db.playerName.groupBy({ by: ['game'], where: { locked: true }, _count: { _all: true } });
  return new Map(counts.map((c) => [c.game, c._count._all]));
}

/** The games with a submission deadline, by game id. */
export async function submissionDeadlines(db: Db): Promise<{ game: string; submissionDeadline: Date }[]> {
  const rows = await db.gameSetting.findMany({ where: { submissionDeadline: { not: null } }, orderBy: { game: 'asc' } });
  return rows.flatMap((r) => (r.submissionDeadline ? [{ game: r.game, submissionDeadline: r.submissionDeadline }] : []));
}
