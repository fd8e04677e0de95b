// The random sources of the original engine (2012, hecrj/bola-de-drac,
// Utils.hh and Board::next): a Park–Miller "minimal standard" generator
// (multiplier 48271, modulus 2^31 - 1) for every draw of the board, and the C
// library's rand(), seeded with the match seed, for the player order
// (std::random_shuffle). The whole state is plain numbers, cloned with the
// match state. In the original the Park–Miller generator is also the players'
// (they share one global); here each bot keeps its own random(), so the
// board's draws depend on the seed and the orders only.

import { LibcRand, randomShuffle } from '../../sdk/libc-rand.ts';

const MODULUS = 2147483647;
const MULTIPLIER = 48271;

export class ParkMiller {
  seed: number;

  /** srandomize(s): 1 + |s| mod (2^31 - 2). */
  constructor(s: number) {
    this.seed = 1 + (Math.abs(Math.trunc(s)) % (MODULUS - 1));
  }

  clone(): ParkMiller {
    const c = new ParkMiller(0);
    c.seed = this.seed;
    return c;
  }

  /** randomize(): the next value, in [0, 2^31 - 3]. seed * 48271 < 2^53, so the product is exact. */
  next(): number {
    this.seed = (this.seed * MULTIPLIER) % MODULUS;
    return this.seed - 1;
  }
}

/** The board's random sources. */
export class BdRandom {
  pm: ParkMiller;
  libc: LibcRand;

  constructor(seed: number) {
    this.pm = new ParkMiller(seed);
    this.libc = new LibcRand(seed);
  }

  clone(): BdRandom {
    const c = Object.create(BdRandom.prototype) as BdRandom;
    c.pm = this.pm.clone();
    c.libc = this.libc.clone();
    return c;
  }

  /** The order of the players this round. */
  order(n: number): number[] {
    const turn = Array.from({ length: n }, (_, i) => i);
    randomShuffle(turn, this.libc);
    return turn;
  }

  /** randomize() % n, n >= 1. */
  draw(n: number): number {
    return this.pm.next() % n;
  }
}
