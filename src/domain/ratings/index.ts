// Ratings for four-player free-for-all matches: OpenSkill (Weng-Lin,
// Plackett-Luce model, the package's default). Each player is a team of one;
// ties share a rank. The leaderboard orders by the ordinal mu - 3 sigma, so a
// new player (sigma large) starts low and climbs as its rating settles.

import { ordinal, rate, rating } from 'openskill';

export interface PlayerRating {
  mu: number;
  sigma: number;
}

export interface RatedPlayer extends PlayerRating {
  ordinal: number;
}

export function initialRating(): RatedPlayer {
  const r = rating();
  return { mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) };
}

/**
 * New ratings after one match. `ranks[i]` is player i's finishing rank
 * (1 = first, ties share a rank). Returns the ratings in the same order.
 */
export function rateMatch(players: readonly PlayerRating[], ranks: readonly number[]): RatedPlayer[] {
  if (players.length !== ranks.length) throw new Error('rateMatch: one rank per player');
  if (players.length < 2) return players.map((p) => ({ ...p, ordinal: ordinal(p) }));
  const teams = players.map((p) => [rating({ mu: p.mu, sigma: p.sigma })]);
  const rated = rate(teams, { rank: [...ranks] });
  return rated.map((team) => {
    const r = team[0]!;
    return { mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) };
  });
}
