// The leaderboard of a game: qualified players (name locked) by OpenSkill
// ordinal, one query. Players of a disabled user, or whose qualified
// submission an admin disabled, are left out. The API and the website read it through here.

import type { Db } from '../../db/client.ts';

/**
 * A rating whose uncertainty σ is above this is provisional: its μ ± 3σ spans more than 24 points, and a
 * few matches still move its rank a lot (a new player starts at σ = 25/3; four-player matches bring it
 * under 4 in about twenty).
 */
export const PROVISIONAL_SIGMA = 4;

export interface LeaderboardEntry {
  rank: number;
  player: string;
  owner: string;
  /** The ordinal, mu - 3 sigma. */
  rating: number;
  mu: number;
  sigma: number;
  matchesPlayed: number;
  /** σ is still above PROVISIONAL_SIGMA. */
  provisional: boolean;
}

export async function readLeaderboard(db: Db, game: string, limit: number, offset: number): Promise<{ total: number; players: LeaderboardEntry[] }> {
  const rows = await db.$queryRaw<{ player: string; owner: string; ordinal: number; mu: number; sigma: number; matchesPlayed: number; total: number }[]>`
    SELECT p."name" AS player, u."username" AS owner, r."ordinal", r."mu", r."sigma", r."matchesPlayed",
           (count(*) OVER ())::int AS total
    FROM "Rating" r
    JOIN "PlayerName" p ON p."id" = r."playerId"
    JOIN "User" u ON u."id" = p."ownerId"
    LEFT JOIN "Submission" s ON s."id" = p."qualifiedSubmissionId"
    WHERE r."game" = ${game} AND p."locked" AND u."disabledAt" IS NULL AND s."disabledAt" IS NULL
    ORDER BY r."ordinal" DESC, r."mu" DESC, r."matchesPlayed" DESC, r."playerId" ASC
    LIMIT ${limit} OFFSET ${offset}`;
  // Past the last page the window count is not there: count apart.
  const total =
    rows.length > 0
      ? rows[0]!.total
      : await db.rating.count({
          where: {
            game,
            player: { locked: true, owner: { disabledAt: null }, OR: [{ qualifiedSubmissionId: null }, { qualifiedSubmission: { disabledAt: null } }] },
          },
        });
  return {
    total,
    players: rows.map((r, i) => ({
      rank: offset + i + 1,
      player: r.player,
      owner: r.owner,
      rating: r.ordinal,
      mu: r.mu,
      sigma: r.sigma,
      matchesPlayed: r.matchesPlayed,
      provisional: r.sigma > PROVISIONAL_SIGMA,
    })),
  };
}
