// glibc's rand() (the default TYPE_3 additive feedback generator) and
// libstdc++'s std::random_shuffle, reproduced so that a seed means the same
// board as in the original packages that drew from them: The Walking Dead's
// board generator (rand() never seeded, so seed 1) and Bola de Drac 2012's
// player order (srand(seed)). The whole state is plain numbers, so it can live
// inside a match state and be cloned with it.

const DEGREE = 31;
const SEPARATION = 3;

export class LibcRand {
  /** The 31 words of the additive table, as signed 32-bit integers. */
  private table: Int32Array;
  /** Index of the "front" word; the rear one is SEPARATION places behind it (mod DEGREE). */
  private front: number;

  /** srand(seed): seed is taken as an unsigned int, 0 means 1, as glibc does. */
  constructor(seed = 1) {
    this.table = new Int32Array(DEGREE);
    this.front = SEPARATION;
    let s = seed >>> 0;
    if (s === 0) s = 1;
    // The seed is stored in a 32-bit signed word, then the table is filled with
    // 16807 * previous mod (2^31 - 1) (Schrage's method, signed, C division).
    let word = s | 0;
    this.table[0] = word;
    for (let i = 1; i < DEGREE; i++) {
      const hi = Math.trunc(word / 127773);
      const lo = word % 127773;
      word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      this.table[i] = word;
    }
    // glibc discards the first 10 * DEGREE outputs.
    for (let i = 0; i < 10 * DEGREE; i++) this.rand();
  }

  clone(): LibcRand {
    const copy = Object.create(LibcRand.prototype) as LibcRand;
    copy.table = this.table.slice();
    copy.front = this.front;
    return copy;
  }

  /** rand(): an integer in [0, 2^31 - 1]. */
  rand(): number {
    const f = this.front;
    const r = (f + DEGREE - SEPARATION) % DEGREE;
    const value = (this.table[f]! + this.table[r]!) | 0;
    this.table[f] = value;
    this.front = (f + 1) % DEGREE;
    return value >>> 1;
  }
}

/** std::random_shuffle(first, last) as libstdc++ implements it: swap a[i] with a[rand() % (i + 1)], i from 1 up. */
export function randomShuffle<T>(a: T[], rng: LibcRand): void {
  for (let i = 1; i < a.length; i++) {
    const j = rng.rand() % (i + 1);
    if (j !== i) {
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
  }
}
