// When ranked play rests. Ratings move less with every match, and a laptop
// (or a server between deadlines) where nothing new has qualified should not
// keep its cores busy forever re-rating the same players. So ranked play of a
// game rests once every player in its pool has played `settledMatches`
// finished ranked matches since it was last woken, and it is woken by a new
// qualification (the pool's newest qualified submission) or by a teacher: a
// ratings reset, or an explicit wake (wakeRankedPlay, audited as ranked.wake).

import type { Db } from '../db/client.ts';
import { MatchStatus } from '../statuses.ts';
import { recordAudit } from './audit.ts';
import { notFound } from './errors.ts';
import { loadGames } from '../games/registry.ts';

/** The audited admin actions that wake a game's ranked play. */
export const RANKED_WAKE_ACTIONS = ['ranked.wake', 'game.ratings-reset'] as const;

export interface RankedPoolMember {
  playerId: number;
  /** When its qualified submission qualified (its verdict's time). */
  qualifiedAt: Date | null;
}

export interface RankedRest {
  rests: boolean;
  /** Since when the matches count: the newest qualification or wake; null with an empty pool and no wake. */
  since: Date | null;
  /** The fewest finished ranked matches any pool member has played since then. */
  fewest: number;
}

/**
 * Whether ranked play of `game` rests: every member of the pool has played at
 * least `settledMatches` finished ranked matches since the latest of its
 * members' qualifications and the teacher's wakes. 0 = never rests.
 */
export async function rankedRest(db: Db, game: string, pool: readonly RankedPoolMember[], settledMatches: number): Promise<RankedRest> {
  const wake = await db.auditEntry.findFirst({
    where: { targetType: 'game', targetId: game, action: { in: [...RANKED_WAKE_ACTIONS] } },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true },
  });
  let since = wake?.createdAt ?? null;
  for (const p of pool) if (p.qualifiedAt && (!since || p.qualifiedAt > since)) since = p.qualifiedAt;
  if (settledMatches <= 0 || pool.length === 0) return { rests: false, since, fewest: 0 };
  const counts = await db.participant.groupBy({
    by: ['playerId'],
    where: {
      playerId: { in: pool.map((p) => p.playerId) },
      match: { game, kind: 'ranked', status: MatchStatus.done, ...(since ? { createdAt: { gt: since } } : {}) },
    },
    _count: { _all: true },
  });
  const played = new Map(counts.map((c) => [c.playerId, c._count._all]));
  const fewest = Math.min(...pool.map((p) => played.get(p.playerId) ?? 0));
  return { rests: fewest >= settledMatches, since, fewest };
}

/** A teacher asks for more ranked play of a game: it plays until settled again (audited). */
export async function wakeRankedPlay(db: Db, actorId: number | null, game: string): Promise<{ game: string; wokenAt: Date }> {
  if (!(await loadGames()).has(game)) throw notFound(`no game "${game}"`);
  const wokenAt = new Date();
  await recordAudit(db, { actorId, action: 'ranked.wake', targetType: 'game', targetId: game });
  return { game, wokenAt };
}
