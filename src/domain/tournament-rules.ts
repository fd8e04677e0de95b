// The rules of an official tournament, as pure functions of the tournament's
// seed and the matches' results (no database, no clock, no Math.random), so
// anyone holding the published seed can redo every draw:
//
// - Seeds. deriveSeed(seed, round, k) hashes the tournament seed with the
//   round and k (0 = the round's draw, g + 1 = the match seed of group g)
//   into 0..2^31-1. A rerun of a match lost to an infrastructure fault plays
//   the same seed; a final-phase replay is a new round, hence a new seed.
// - The draw. The players still in, in entry order, are shuffled with a
//   mulberry32 generator seeded with deriveSeed(seed, round, 0) (Fisher-Yates,
//   from the last position down), cut into ceil(n / 4) groups whose sizes
//   differ by at most one (the bigger ones first), and each group's seats
//   (players and Dummies) are shuffled by the same generator, group by group.
//   So there are exactly 4 * ceil(n / 4) - n Dummies in a round, the fewest possible.
// - Knockout (more than four players in): a player survives by beating at
//   least two of the three other seats of its match (Dummies count as rivals).
//   Beating a seat means a strictly better rank (a strictly higher score): a
//   tie beats nobody. If nobody at all survives a round, the round is void and
//   everyone plays the next one.
// - Final phase (four or fewer in): one match a round, every player in it
//   (Dummies pad to four seats). The player ranked strictly behind every other
//   player falls; if no player is strictly last (a tie for last), nobody falls
//   and the match is replayed as the next round, with that round's seed. The
//   last one left is the champion.
// - Standings: the champion first, then by the round a player fell in, later
//   rounds first; within a round, by rank in that round's match, then by
//   score in it (higher first), then by entry order.
// - A player whose user or submission an admin disables after the freeze is
//   withdrawn when its round ends: it falls in that round (its standing is
//   ordered with the others who fell there). Until then its matches stand.
// - A tournament stops after MAX_ROUNDS rounds (only endless ties could get
//   there); whoever is still in then takes the top places, ordered as above
//   (their eliminatedRound stays null).

export const TOURNAMENT_DUMMY = 'Dummy';
export const SEATS = 4;
export const MAX_ROUNDS = 200;

function mix(h: number, v: number): number {
  h = Math.imul(h ^ (v | 0), 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 31-bit seed derived from the tournament's seed and some integers. */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let h = mix(0x2545f491, seed);
  for (const p of parts) h = mix(h, p);
  return h & 0x7fffffff;
}

/** mulberry32: a small 32-bit generator, the same on every machine. */
export class DrawRng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** An integer in 0..n-1. */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

/** Sizes of the groups of a knockout round of n players: ceil(n / 4) groups, differing by at most one, the bigger first. */
export function groupSizes(n: number, seats = SEATS): number[] {
  if (n <= 0) return [];
  const g = Math.ceil(n / seats);
  const base = Math.floor(n / g);
  const extra = n % g;
  return Array.from({ length: g }, (_, i) => base + (i < extra ? 1 : 0));
}

/** One drawn group: entry indexes by seat, null for a Dummy's seat. */
export interface DrawnGroup {
  seats: (number | null)[];
  seed: number;
}

export interface DrawnRound {
  final: boolean;
  groups: DrawnGroup[];
}

/** The groups of a round, from the tournament's seed and the entries still in (entry indexes). */
export function drawRound(seed: number, round: number, active: readonly number[], seats = SEATS): DrawnRound {
  const rng = new DrawRng(deriveSeed(seed, round, 0));
  const order = rng.shuffle([...active].sort((a, b) => a - b));
  const final = order.length <= seats;
  const sizes = final ? [order.length] : groupSizes(order.length, seats);
  const groups: DrawnGroup[] = [];
  let at = 0;
  for (const [g, size] of sizes.entries()) {
    const members: (number | null)[] = order.slice(at, at + size);
    at += size;
    while (members.length < seats) members.push(null);
    groups.push({ seats: rng.shuffle(members), seed: deriveSeed(seed, round, g + 1) });
  }
  return { final, groups };
}

/** A seat of a finished match: the entry (null for a Dummy), its rank (1 = first) and score. */
export interface SeatResult {
  entry: number | null;
  rank: number | null;
  score: number | null;
}

const rankOf = (s: SeatResult) => s.rank ?? Number.MAX_SAFE_INTEGER;

/** Knockout: the entries of a group that survive (each beat at least two of the other three seats; a tie beats nobody). */
export function knockoutSurvivors(seats: readonly SeatResult[]): number[] {
  const out: number[] = [];
  for (const s of seats) {
    if (s.entry === null) continue;
    const beaten = seats.filter((t) => t !== s && rankOf(s) < rankOf(t)).length;
    if (beaten >= 2) out.push(s.entry);
  }
  return out;
}

/** Final phase: the player ranked strictly behind every other player, or null (a tie for last, or one player). */
export function strictlyLast(seats: readonly SeatResult[]): number | null {
  const players = seats.filter((s) => s.entry !== null);
  if (players.length < 2) return null;
  const worst = Math.max(...players.map(rankOf));
  const last = players.filter((s) => rankOf(s) === worst);
  if (last.length !== 1) return null;
  const others = players.filter((s) => s !== last[0]);
  return others.every((o) => rankOf(o) < worst) ? last[0]!.entry : null;
}

/** Who falls in a round: the entries of the round not surviving; nobody if the round is void. */
export function roundEliminations(final: boolean, groups: readonly SeatResult[][]): number[] {
  if (final) {
    const out = groups.map(strictlyLast).filter((e): e is number => e !== null);
    return out;
  }
  const all = groups.flatMap((g) => g.filter((s) => s.entry !== null).map((s) => s.entry!));
  const survivors = new Set(groups.flatMap(knockoutSurvivors));
  if (survivors.size === 0) return []; // void round: everyone plays the next one
  return all.filter((e) => !survivors.has(e));
}

export interface StandingInput {
  entry: number;
  /** The round it fell in; null: still in (the champion). */
  eliminatedRound: number | null;
  /** Its rank and score in its last match (null if it never played). */
  lastRank: number | null;
  lastScore: number | null;
}

/** The final order: champion first, later rounds first, then rank, score, entry order. */
export function orderStandings<T extends StandingInput>(entries: readonly T[]): T[] {
  const round = (e: StandingInput) => (e.eliminatedRound === null ? Number.MAX_SAFE_INTEGER : e.eliminatedRound);
  return [...entries].sort(
    (a, b) =>
      round(b) - round(a) ||
      (a.lastRank ?? Number.MAX_SAFE_INTEGER) - (b.lastRank ?? Number.MAX_SAFE_INTEGER) ||
      (b.lastScore ?? Number.NEGATIVE_INFINITY) - (a.lastScore ?? Number.NEGATIVE_INFINITY) ||
      a.entry - b.entry,
  );
}
