// A player name as the API and the player page show it: per game, whether it
// qualified, its rank and rating, its versions, its rating history and its
// recent matches.

import type { Db } from '../db/client.ts';
import { matchInclude, matchOut, statusOut } from './serialize.ts';
import { storedReason } from './reasons.ts';

/** A player the leaderboard lists (src/domain/ratings/leaderboard.ts): locked, its owner and its qualified submission not disabled. */
const ON_LEADERBOARD = { locked: true, owner: { disabledAt: null }, OR: [{ qualifiedSubmissionId: null }, { qualifiedSubmission: { disabledAt: null } }] };

export async function readPlayerProfile(db: Db, name: string, options: { game?: string; matches: number }) {
  const players = await db.playerName.findMany({
    where: { nameLower: name.toLowerCase(), ...(options.game ? { game: options.game } : {}) },
    include: {
      owner: { select: { username: true, disabledAt: true } },
      qualifiedSubmission: { select: { disabledAt: true } },
      ratings: true,
      submissions: {
        orderBy: { version: 'desc' },
        select: { id: true, version: true, status: true, reason: true, reasonDetail: true, reasonLine: true, createdAt: true, finishedAt: true },
      },
    },
    orderBy: { game: 'asc' },
  });
  if (players.length === 0) return null;
  const games = await Promise.all(
    players.map(async (p) => {
      const rating = p.ratings.find((r) => r.game === p.game) ?? null;
      const [history, matches, rank] = await Promise.all([
        db.ratingHistory.findMany({ where: { playerId: p.id, game: p.game }, orderBy: { id: 'asc' }, take: 1000 }),
        db.match.findMany({
          where: { participants: { some: { playerId: p.id } } },
          orderBy: { id: 'desc' },
          take: options.matches,
          include: matchInclude,
        }),
        // The leaderboard's rank: players of disabled users or disabled submissions are not on it.
        rating && p.locked && !p.owner.disabledAt && !p.qualifiedSubmission?.disabledAt
          ? db.rating.count({ where: { game: p.game, player: ON_LEADERBOARD, ordinal: { gt: rating.ordinal } } }).then((n) => n + 1)
          : Promise.resolve(null),
      ]);
      return {
        game: p.game,
        qualified: p.locked,
        lockedAt: p.lockedAt,
        qualifiedSubmissionId: p.qualifiedSubmissionId,
        rating: rating ? { rank, rating: rating.ordinal, mu: rating.mu, sigma: rating.sigma, matchesPlayed: rating.matchesPlayed } : null,
        versions: p.submissions.map((s) => ({
          submissionId: s.id,
          version: s.version,
          status: statusOut(s.status),
          reason: s.reason,
          // The reason's code and parameters (src/domain/reasons.ts), never the rest of reasonDetail (a bot's stack is its owner's): pages word it in their language.
          reasonCode: storedReason(s.reasonDetail),
          reasonLine: s.reasonLine,
          createdAt: s.createdAt,
          finishedAt: s.finishedAt,
        })),
        ratingHistory: history.map((h) => ({ matchId: h.matchId, rating: h.ordinal, mu: h.mu, sigma: h.sigma, at: h.createdAt })),
        recentMatches: matches.map(matchOut),
      };
    }),
  );
  return { name: players[0]!.name, owner: players[0]!.owner.username, games };
}
