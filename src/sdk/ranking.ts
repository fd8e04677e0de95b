/**
 * Standard competition ranks from scores, higher is better: rank 1 is first,
 * tied players share a rank, and the next rank skips (scores 9,7,7,3 → 1,2,2,4).
 */
export function ranksFromScores(scores: readonly number[]): number[] {
  return scores.map((s) => 1 + scores.filter((t) => t > s).length);
}

/** A win in the judge's sense: ranked strictly first, no tie. */
export function isOutrightWinner(scores: readonly number[], player: number): boolean {
  const mine = scores[player]!;
  return scores.every((s, p) => p === player || s < mine);
}
