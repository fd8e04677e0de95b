// Builds Bola de Drac states from ASCII pictures, for rule tests.
//   X rock   . empty   C capsule   B ball   K kinton cloud   M magic bean
//   0-3 goku of that player (on an empty cell)
// Gokus not drawn are dead (far away, regen time left); override any goku
// field with `gokus`.

import { BdRandom } from '../../../src/games/bola-de-drac/random.ts';
import game from '../../../src/games/bola-de-drac/index.ts';
import { CType } from '../../../src/games/bola-de-drac/consts.ts';
import type { Goku, Order, State } from '../../../src/games/bola-de-drac/engine.ts';

export { game };

export function build(
  picture: string[],
  opts: { cfg?: Record<string, unknown>; gokus?: Record<number, Partial<Goku>>; round?: number; seed?: number } = {},
): State {
  const rows = picture.length;
  const cols = picture[0]!.length;
  const cfg = game.parseConfig({ ...opts.cfg });
  const n = rows * cols;
  const grid = new Uint8Array(n);
  const occ = new Int8Array(n).fill(-1);
  const beanAt = new Int16Array(n).fill(-1);
  const kintonAt = new Int16Array(n).fill(-1);
  const beans: number[] = [];
  const kintons: number[] = [];
  const gokus: Goku[] = [];
  for (let p = 0; p < 4; p++) gokus.push({ pos: 0, ball: false, balls: 0, strength: 0, kinton: 0, alive: false, time: cfg.goku_regen_time });
  for (let i = 0; i < rows; i++) {
    const line = picture[i]!;
    if (line.length !== cols) throw new Error(`picture row ${i} has ${line.length} chars, expected ${cols}`);
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      const c = line[j]!;
      if (c === 'X') grid[k] = CType.Rock;
      else if (c === 'C') grid[k] = CType.Capsule;
      else if (c === 'B') grid[k] = CType.Ball;
      else if (c === 'K') {
        grid[k] = CType.Kinton;
        kintonAt[k] = kintons.length / 3;
        kintons.push(k, 1, 0);
      } else if (c === 'M') {
        grid[k] = CType.Bean;
        beanAt[k] = beans.length / 3;
        beans.push(k, 1, 0);
      } else if (c >= '0' && c <= '3') {
        const p = Number(c);
        occ[k] = p;
        gokus[p] = { pos: k, ball: false, balls: 0, strength: cfg.max_strength, kinton: 0, alive: true, time: 0 };
      } else if (c !== '.') throw new Error(`unknown picture char ${c}`);
    }
  }
  for (const [p, over] of Object.entries(opts.gokus ?? {})) Object.assign(gokus[Number(p)]!, over);
  const resolved = { ...cfg, rows, cols };
  return {
    cfg: resolved,
    rows,
    cols,
    round: opts.round ?? 0,
    grid,
    occ,
    gokus,
    beans: Int32Array.from(beans),
    kintons: Int32Array.from(kintons),
    beanAt,
    kintonAt,
    rng: new BdRandom(opts.seed ?? 1),
  };
}

/** Board random sources whose player order and draws are scripted (then they fall back to the real generators). */
export class ScriptedRng extends BdRandom {
  constructor(
    public script: number[] | null,
    public draws: number[] = [],
    seed = 1,
  ) {
    super(seed);
  }
  override clone(): ScriptedRng {
    const c = new ScriptedRng(this.script ? [...this.script] : null, [...this.draws]);
    c.pm = this.pm.clone();
    c.libc = this.libc.clone();
    return c;
  }
  override order(n: number): number[] {
    return this.script ? [...this.script] : super.order(n);
  }
  /** A scripted draw in [0, n - 1]. */
  override draw(n: number): number {
    if (this.draws.length > 0) {
      const v = this.draws.shift()!;
      if (v < 0 || v >= n) throw new Error(`scripted draw ${v} outside [0, ${n - 1}]`);
      return v;
    }
    return super.draw(n);
  }
}

export function scripted(s: State, order: number[] | null, draws: number[] = []): State {
  s.rng = new ScriptedRng(order, draws);
  return s;
}

const NOT_FROZEN = [false, false, false, false];

/** Plays one round; orders per player as [kind, dir] or nothing. */
export function step(s: State, orders: (Order | null)[] = [], frozen: boolean[] = NOT_FROZEN) {
  const all: Order[][] = [0, 1, 2, 3].map((p) => (orders[p] ? [orders[p]!] : []));
  return game.next(s, all, frozen);
}

export function at(s: State, p: number): [number, number] {
  const g = s.gokus[p]!;
  return [Math.floor(g.pos / s.cols), g.pos % s.cols];
}

export function cellAt(s: State, i: number, j: number): number {
  return s.grid[i * s.cols + j]!;
}

export function countFreeBalls(s: State): number {
  let n = 0;
  for (const t of s.grid) if (t === CType.Ball) n++;
  return n;
}

export const M = (d: number): Order => ['m', d];
export const T = (d: number): Order => ['t', d];
