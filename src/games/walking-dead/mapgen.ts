// Board generation (the original engine's generate_random_board): 8 waste "snakes"
// aiming at 50% of the cells. Each snake starts on an interior cell with no
// waste in its 8 neighbours and goes straight with probability 7/8, otherwise
// turns to the first valid direction of a random permutation of
// {Up, Down, Left, Right}. A cell is valid for a snake when it is not on the
// border, touches no other snake in its 8 neighbours and has at most 2 cells
// of its own snake there. The grid is redone until the streets form exactly
// one 4-connected component.
//
// The draws are those of the original engine (Board.o.Linux64 of
// mostazomarc/joc_eda), so a seed gives the original's board: the starting
// direction, the starting cells and the 7/8 draws come from the game Rng,
// while the turning directions are one list {Up, Down, Left, Right} per
// snake, reshuffled in place before every step with std::random_shuffle,
// i.e. glibc rand(), which the original never seeds (so it starts from seed 1
// in every match and runs on across the retries of the whole grid).

import type { Rng } from '../../sdk/rng.ts';
import { LibcRand, randomShuffle } from '../../sdk/libc-rand.ts';
import { openComponents } from '../../sdk/grid.ts';

// Up, Down, Left, Right as (di, dj).
const SDI = [-1, 1, 0, 0];
const SDJ = [0, 0, -1, 1];
const NB8I = [1, 1, 0, -1, -1, -1, 0, 1];
const NB8J = [0, 1, 1, 1, 0, -1, -1, -1];

/**
 * Returns waste[r*cols+c] = 1 for waste, 0 for street. `libc` is the glibc
 * rand() stream of the turning shuffles (a fresh one, seed 1, by default).
 */
export function generateWaste(rows: number, cols: number, rng: Rng, libc: LibcRand = new LibcRand(1)): Uint8Array {
  const numWaste = Math.floor(0.5 * rows * cols);
  const numSnakes = 8;
  const plan = new Int8Array(rows * cols);

  const interior = (i: number, j: number) => i > 0 && i < rows - 1 && j > 0 && j < cols - 1;

  function okInitial(i: number, j: number): boolean {
    if (!interior(i, j) || plan[i * cols + j] !== 0) return false;
    for (let d = 0; d < 8; d++) if (plan[(i + NB8I[d]!) * cols + j + NB8J[d]!] !== 0) return false;
    return true;
  }

  function okStreet(sid: number, i: number, j: number): boolean {
    if (!interior(i, j) || plan[i * cols + j] !== 0) return false;
    let own = 0;
    for (let d = 0; d < 8; d++) {
      const v = plan[(i + NB8I[d]!) * cols + j + NB8J[d]!]!;
      if (v !== 0) {
        if (v !== sid) return false;
        own++;
      }
    }
    return own <= 2;
  }

  /** Lays one snake; returns how many cells it filled. */
  function snake(sid: number, length: number): number {
    let last = rng.random(0, 3);
    let pi = -1;
    let pj = -1;
    for (let tries = 0; tries < 100000; tries++) {
      const i = rng.random(1, rows - 2);
      const j = rng.random(1, cols - 2);
      if (okInitial(i, j)) {
        pi = i;
        pj = j;
        break;
      }
    }
    if (pi < 0) return 0; // no room left for a new snake
    plan[pi * cols + pj] = sid;
    let filled = 1;
    // Indexes into SDI/SDJ: Up, Down, Left, Right; shuffled cumulatively.
    const dirs = [0, 1, 2, 3];
    while (length > 0) {
      randomShuffle(dirs, libc);
      let turn = -1;
      for (const d of dirs) {
        if (okStreet(sid, pi + SDI[d]!, pj + SDJ[d]!)) {
          turn = d;
          break;
        }
      }
      // The 7/8 draw happens on every step, before the straight cell is checked.
      const straight = rng.random(1, 8) !== 1 && okStreet(sid, pi + SDI[last]!, pj + SDJ[last]!);
      if (!straight) {
        if (turn < 0) return filled;
        last = turn;
      }
      pi += SDI[last]!;
      pj += SDJ[last]!;
      plan[pi * cols + pj] = sid;
      length--;
      filled++;
    }
    return filled;
  }

  for (let attempt = 0; attempt < 10000; attempt++) {
    plan.fill(0);
    let remaining = numWaste;
    for (let pending = numSnakes; pending > 0; pending--) {
      const length = pending !== 1 ? Math.floor(remaining / pending) : remaining;
      remaining -= snake(pending, length);
    }
    const waste = new Uint8Array(rows * cols);
    for (let k = 0; k < rows * cols; k++) waste[k] = plan[k] !== 0 ? 1 : 0;
    if (openComponents(waste, rows, cols) === 1) return waste;
  }
  throw new Error('walking-dead: could not generate a connected board');
}
