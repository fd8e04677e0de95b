// The original games' generator (Random.hh), bit for bit, so a
// seed means the same thing here as in the C++ package. Its whole state is one
// 31-bit integer, kept inside the match state (engines) or the bot runtime.

const MASK = 0x7fffffff;

export class Rng {
  seed: number;

  constructor(seed: number) {
    this.seed = Math.abs(Math.trunc(seed)) & MASK;
  }

  clone(): Rng {
    const copy = new Rng(0);
    copy.seed = this.seed;
    return copy;
  }

  /** Advances the generator once. Math.imul keeps the low 32 bits exact. */
  next(): number {
    this.seed = (Math.imul(843314861, this.seed) + 453816693) & MASK;
    return this.seed;
  }

  /** next(), then the new seed as a fraction of 2^31. */
  uniform(): number {
    return this.next() / 2147483648;
  }

  /** Integer in [l, u]. Advances the seed twice, like the original. */
  random(l: number, u: number): number {
    if (l > u) return l;
    if (u - l + 1 > 1e6) return l;
    this.next();
    return l + Math.floor((u - l + 1) * this.uniform());
  }

  /**
   * A permutation of 0..n-1. Moria swaps for i in 0..n-2; The Walking Dead and
   * Harry Potter for i in 0..n-1 (one extra draw): pass `full` for those.
   */
  permutation(n: number, full = false): number[] {
    const v = Array.from({ length: n }, (_, i) => i);
    const last = full ? n - 1 : n - 2;
    for (let i = 0; i <= last; i++) {
      const j = this.random(i, n - 1);
      const t = v[i]!;
      v[i] = v[j]!;
      v[j] = t;
    }
    return v;
  }
}

/** The generator a player's `random()` uses: seeded seed + player + 1 (Game.cc). */
export function playerRng(matchSeed: number, player: number): Rng {
  return new Rng(matchSeed + player + 1);
}
