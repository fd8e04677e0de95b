// Builds Walking Dead states from ASCII pictures for rule tests.
//
//   X waste          . street          F food
//   0-3 street owned by that clan
//   a b c d  alive unit of clan 0..3 (it owns its cell)
//   A B C D  dead unit of clan 0..3 (countdown = rounds_before_becoming_zombie)
//   Z        zombie
// Units get ids in row-major order of the picture.

import { Rng } from '../../../src/sdk/rng.ts';
import { DEFAULT_CONFIG, type TwdConfig } from '../../../src/games/walking-dead/config.ts';
import { emptyState, nextState, UType, type TwdOrder, type TwdState } from '../../../src/games/walking-dead/engine.ts';

export function build(picture: string[], opts: { cfg?: Partial<TwdConfig>; seed?: number; points?: number[] } = {}): TwdState {
  const rows = picture.length;
  const cols = picture[0]!.length;
  const cfg: TwdConfig = { ...DEFAULT_CONFIG, board_rows: rows, board_cols: cols, ...opts.cfg };
  const waste = new Uint8Array(rows * cols);
  let nUnits = 0;
  for (const line of picture) {
    if (line.length !== cols) throw new Error('ragged picture');
    for (const ch of line) if (/[a-dA-DZ]/.test(ch)) nUnits++;
  }
  const s = emptyState(cfg, waste, nUnits, opts.seed ?? 1);
  let id = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const ch = picture[i]![j]!;
      const c = i * cols + j;
      if (ch === 'X') waste[c] = 1;
      else if (ch === 'F') s.food[c] = 1;
      else if (ch >= '0' && ch <= '3') s.owner[c] = +ch;
      else if (/[a-dA-DZ]/.test(ch)) {
        const u = id++;
        s.cellUnit[c] = u;
        s.uPos[u] = c;
        s.uRfz[u] = -1;
        if (ch === 'Z') {
          s.uType[u] = UType.Zombie;
          s.uPlayer[u] = -1;
        } else if (ch >= 'a') {
          s.uType[u] = UType.Alive;
          s.uPlayer[u] = ch.charCodeAt(0) - 97;
          s.owner[c] = s.uPlayer[u]!;
        } else {
          s.uType[u] = UType.Dead;
          s.uPlayer[u] = ch.charCodeAt(0) - 65;
          s.uRfz[u] = cfg.rounds_before_becoming_zombie;
        }
      }
    }
  }
  if (opts.points) s.points.set(opts.points);
  s.nbCells.fill(0);
  for (const o of s.owner) if (o >= 0) s.nbCells[o]!++;
  return s;
}

export function withSeed(s: TwdState, seed: number): TwdState {
  const t = { ...s, rng: new Rng(seed) };
  return t;
}

/** Plays one round with orders given per player. */
export function step(s: TwdState, orders: TwdOrder[][] = [[], [], [], []]) {
  while (orders.length < 4) orders.push([]);
  return nextState(s, orders);
}

export function posOf(s: TwdState, id: number): [number, number] | null {
  const p = s.uPos[id]!;
  return p < 0 ? null : [Math.floor(p / s.cols), p % s.cols];
}

export function at(s: TwdState, i: number, j: number): number {
  return s.cellUnit[i * s.cols + j]!;
}

export function foodCount(s: TwdState): number {
  let n = 0;
  for (const f of s.food) n += f;
  return n;
}

export const Dir = { Down: 0, DR: 1, Right: 2, RU: 3, Up: 4, UL: 5, Left: 6, LD: 7 } as const;
