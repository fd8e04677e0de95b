// Board generator, written from a reading of the original's (Board.o only:
// generate_grid, generate_paths, path, tunnel, try_cell, find_space,
// max_area, maze, chess), drawing from the board's random generator in the
// same order, so that a seed gives the original's board:
//  1. All rock inside a 2-cell Outside band.
//  2. Paths: one random walk from each side of the inner area (the sides in a
//     random order) toward the other sides, then ten "tunnels", each a walk
//     from the inner border cells farthest (around the border) from the caves
//     already there. A side or tunnel that fails 11 times starts the paths
//     again, on the same grid.
//  3. Every path cell becomes a 2x2 block of cave (down and right).
//  4. Between 800 and 1100 cave cells inside, else a new grid from step 1.
//  5. Up to two "mazes" (nested granite frames, each with a 2-cell gap, and
//     8-12 treasures in each corridor) and up to three "chess" blocks
//     (granite on one colour with probability 4/5, treasures on the other with
//     probability 1/4), each in the largest all-rock rectangle of the right
//     size, away from the caves.
//  6. Treasures at random on the rock left away from the caves, until 80
//     (a new grid from step 1 if there is no room).

import type { Rng } from '../../sdk/rng.ts';
import { CT, type MoriaState } from './engine.ts';

const R_ = 82; // 'R'
const C_ = 67; // 'C'
const O_ = 79; // 'O'
const G_ = 71; // 'G'
const T_ = 84; // 'T'

/** The original's treasure count (Settings.hh ini_treasures). */
const TREASURES = 80;

/** Ordered set of cells (the original keeps std::set<Pos>, i.e. row-major order). */
class CellSet {
  readonly has: Uint8Array;
  constructor(n: number) {
    this.has = new Uint8Array(n);
  }
}

class Generator {
  readonly rows: number;
  readonly cols: number;
  m: Uint8Array;
  constructor(
    readonly rng: Rng,
    rows: number,
    cols: number,
  ) {
    this.rows = rows;
    this.cols = cols;
    this.m = new Uint8Array(rows * cols);
  }

  at(i: number, j: number): number {
    return this.m[i * this.cols + j]!;
  }

  set(i: number, j: number, c: number): void {
    this.m[i * this.cols + j] = c;
  }

  /** Fills the grid; returns the char grid (rows x cols). */
  grid(): Uint8Array {
    const { rows: R, cols: C } = this;
    for (;;) {
      this.m.fill(R_);
      for (let i = 0; i < R; i++) {
        this.set(i, C - 1, O_);
        this.set(i, C - 2, O_);
        this.set(i, 1, O_);
        this.set(i, 0, O_);
      }
      for (let j = 0; j < C; j++) {
        this.set(0, j, O_);
        this.set(1, j, O_);
        this.set(R - 2, j, O_);
        this.set(R - 1, j, O_);
      }
      while (!this.paths());
      // Widen: every path cell becomes a 2x2 block, inside the inner area.
      const m0 = this.m.slice();
      for (let i = 2; i < R - 2; i++)
        for (let j = 2; j < C - 2; j++) {
          if (m0[i * C + j] !== C_) continue;
          for (let ii = i; ii < i + 2; ii++) {
            if (ii >= R - 2) continue;
            if (j < C - 2) this.set(ii, j, C_);
            if (j + 1 < C - 2) this.set(ii, j + 1, C_);
          }
        }
      let caves = 0;
      for (let i = 2; i < R - 2; i++) for (let j = 2; j < C - 2; j++) if (this.at(i, j) === C_) caves++;
      if (caves < 800 || caves > 1100) continue; // "Wrong number of cave cells"
      // Rock cells away from the caves, where structures and treasures may go.
      const free = new CellSet(R * C);
      for (let i = 3; i < R - 3; i++) for (let j = 3; j < C - 3; j++) if (this.at(i, j) === R_) free.has[i * C + j] = 1;
      for (let i = 2; i < R - 2; i++)
        for (let j = 2; j < C - 2; j++) {
          if (this.at(i, j) !== C_) continue;
          for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) free.has[(i + a) * C + j + b] = 0;
        }
      const nb = { n: 0 };
      if (this.maze(free, nb)) this.maze(free, nb);
      for (let k = 0; k < 3; k++) if (!this.chess(free, nb)) break;
      if (nb.n >= TREASURES) return this.m;
      const v: number[] = [];
      for (let p = 0; p < R * C; p++) if (free.has[p]) v.push(p);
      let ok = true;
      while (nb.n < TREASURES) {
        if (v.length === 0) {
          ok = false; // "No room for treasures"
          break;
        }
        const k = this.rng.random(0, v.length - 1);
        const p = v[k]!;
        v[k] = v[v.length - 1]!;
        v.pop();
        this.m[p] = T_;
        nb.n++;
      }
      if (ok) return this.m;
    }
  }

  /** generate_paths: one path per side (sides in random order), then ten tunnels. */
  paths(): boolean {
    const { rows: R, cols: C } = this;
    const perm = this.rng.permutation(4);
    for (const side of perm) {
      let tries = 11;
      for (;;) {
        let ok: boolean;
        if (side === 0) ok = this.path(2, this.rng.random(3, C - 4));
        else if (side === 1) ok = this.path(R - 3, this.rng.random(3, C - 4));
        else if (side === 2) ok = this.path(this.rng.random(3, R - 4), 2);
        else ok = this.path(this.rng.random(3, R - 4), C - 3);
        if (ok) break;
        if (--tries === 0) return false;
      }
    }
    for (let t = 0; t < 10; t++) {
      let tries = 11;
      while (!this.tunnel()) if (--tries === 0) return false;
    }
    return true;
  }

  /**
   * path(x, y): a random walk (4 directions, no cell twice) from a cell of the
   * inner border to a cave or the Outside band, weighted by the distance from
   * the starting side; its cells become caves. False when it gets stuck.
   */
  path(x: number, y: number): boolean {
    const { rows: R, cols: C } = this;
    let mask: number;
    if (x === 2) mask = 1;
    else if (x === R - 3) mask = 2;
    else if (y === 2) mask = 4;
    else if (y === C - 3) mask = 8;
    else return false;
    const end = (c: number) => c === C_ || c === O_;
    if (end(this.at(x, y))) return true;
    const seen = new Set<number>();
    const DX = [1, 0, -1, 0];
    const DY = [0, 1, 0, -1];
    for (;;) {
      seen.add(x * C + y);
      const cand: number[] = [];
      const ws: number[] = [];
      let total = 0;
      for (let k = 0; k < 4; k++) {
        const nx = x + DX[k]!;
        const ny = y + DY[k]!;
        if (nx === 1 && mask & 1) continue;
        if (nx === R - 2 && mask & 2) continue;
        if (ny === 1 && mask & 4) continue;
        if (ny === C - 2 && mask & 8) continue;
        if (seen.has(nx * C + ny)) continue;
        let w = mask === 1 ? nx - 2 : mask === 2 ? R - 3 - nx : mask === 4 ? ny - 2 : C - 3 - ny;
        if (1 << k === mask) w *= 2;
        cand.push(nx * C + ny);
        ws.push(w);
        total += w;
      }
      if (total === 0) return false;
      const r = total < 0 ? 1 : this.rng.random(1, total);
      let idx = 0;
      for (let cum = ws[0]!; cum < r; cum += ws[++idx]!);
      x = Math.floor(cand[idx]! / C);
      y = cand[idx]! % C;
      if (end(this.at(x, y))) {
        for (const p of seen) this.m[p] = C_;
        return true;
      }
    }
  }

  /**
   * tunnel: a breadth-first walk around the inner border from its non-rock
   * cells; a path from the last cells reached (in a random order, the first
   * that succeeds).
   */
  tunnel(): boolean {
    const { rows: R, cols: C } = this;
    const seen = new Uint8Array(R * C);
    let q: number[] = [];
    const push = (list: number[], i: number, j: number) => {
      list.push(i * C + j);
      seen[i * C + j] = 1;
    };
    for (let i = 2; i < R - 2; i++) {
      if (this.at(i, 2) !== R_) push(q, i, 2);
      if (this.at(i, C - 3) !== R_) push(q, i, C - 3);
    }
    for (let j = 3; j < C - 3; j++) {
      if (this.at(2, j) !== R_) push(q, 2, j);
      if (this.at(R - 3, j) !== R_) push(q, R - 3, j);
    }
    if (q.length === 0) return false;
    const tryCell = (next: number[], i: number, j: number) => {
      if (i <= 1 || i >= R - 2 || j <= 1 || j >= C - 2) return;
      if (seen[i * C + j]) return;
      push(next, i, j);
    };
    let last = q;
    while (q.length) {
      last = q;
      const next: number[] = [];
      for (const p of q) {
        const i = Math.floor(p / C);
        const j = p % C;
        if (i === 2 || i === R - 3) {
          tryCell(next, i, j - 1);
          tryCell(next, i, j + 1);
        }
        if (j === C - 3 || j === 2) {
          tryCell(next, i - 1, j);
          tryCell(next, i + 1, j);
        }
      }
      q = next;
    }
    const perm = this.rng.permutation(last.length);
    for (const k of perm) if (this.path(Math.floor(last[k]! / C), last[k]! % C)) return true;
    return false;
  }

  /**
   * find_space: the largest rectangle (sides > minSide, area <= maxArea) of
   * cells whose 3x3 block is all rock, scanning rows top-down; at least
   * minArea, or false. Its cells and a 1-cell margin leave `free`.
   */
  findSpace(minSide: number, maxArea: number, minArea: number, free: CellSet): [number, number, number, number] | null {
    const { rows: R, cols: C } = this;
    const n = C - 4;
    const h = new Array<number>(n).fill(0);
    let best = 0;
    let bi = -1;
    let bh = -1;
    let bj1 = -1;
    let bj2 = -1;
    for (let i = 3; i < R - 1; i++) {
      const ci = i - 1;
      for (let k = 0; k < n; k++) {
        const cj = k + 2;
        let all = true;
        for (let a = -1; a <= 1 && all; a++) for (let b = -1; b <= 1 && all; b++) if (this.at(ci + a, cj + b) !== R_) all = false;
        h[k] = all ? h[k]! + 1 : 0;
      }
      const [j1, j2, hh] = maxArea_(h, minSide, maxArea);
      const area = (j2 - j1 - 1) * hh;
      if (area > best) {
        best = area;
        bi = ci;
        bh = hh;
        bj2 = j2;
        bj1 = j1;
      }
    }
    if (minArea > best) return null;
    const x1 = bi + 1 - bh;
    const x2 = bi;
    const y1 = bj1 + 3;
    const y2 = bj2 + 1;
    for (let i = x1 - 1; i <= x2 + 1; i++) for (let j = y1 - 1; j <= y2 + 1; j++) free.has[i * C + j] = 0;
    return [x1, x2, y1, y2];
  }

  /** maze: nested granite frames, each with a 2-cell gap on a random side, treasures in the corridors. */
  maze(free: CellSet, nb: { n: number }): boolean {
    const sp = this.findSpace(9, 500, 100, free);
    if (!sp) return false;
    let [x1, x2, y1, y2] = sp;
    while (x1 + 2 < x2 && y1 + 2 < y2) {
      for (let i = x1; i <= x2; i++) {
        this.set(i, y2, G_);
        this.set(i, y1, G_);
      }
      for (let j = y1; j <= y2; j++) {
        this.set(x2, j, G_);
        this.set(x1, j, G_);
      }
      const side = this.rng.random(0, 3);
      if (side % 2 === 1) {
        const k = this.rng.random(y1 + 1, y2 - 2);
        const row = side === 1 ? x1 : x2;
        this.set(row, k + 1, R_);
        this.set(row, k, R_);
      } else {
        const k = this.rng.random(x1 + 1, x2 - 2);
        const col = side === 0 ? y1 : y2;
        this.set(k + 1, col, R_);
        this.set(k, col, R_);
      }
      const ring = new Set<number>();
      const C = this.cols;
      for (let i = x1 + 1; i < x2; i++) for (const j of [y1 + 1, y1 + 2, y2 - 1, y2 - 2]) ring.add(i * C + j);
      for (let j = y1 + 1; j < y2; j++) for (const i of [x1 + 1, x1 + 2, x2 - 1, x2 - 2]) ring.add(i * C + j);
      const v = [...ring].sort((a, b) => a - b);
      const want = this.rng.random(8, 12);
      for (let placed = 0; placed < want && v.length; placed++) {
        const k = this.rng.random(0, v.length - 1);
        const p = v[k]!;
        v[k] = v[v.length - 1]!;
        v.pop();
        this.m[p] = T_;
        if (++nb.n === TREASURES) return true;
      }
      x1 += 3;
      x2 -= 3;
      y1 += 3;
      y2 -= 3;
    }
    return true;
  }

  /** chess: granite on one colour (4 in 5), treasures on the other (1 in 4). */
  chess(free: CellSet, nb: { n: number }): boolean {
    const sp = this.findSpace(4, 300, 50, free);
    if (!sp) return false;
    const [x1, x2, y1, y2] = sp;
    const par = this.rng.random(0, 1);
    for (let i = x1; i <= x2; i++) for (let j = y1; j <= y2; j++) if ((i + j) % 2 === par && this.rng.random(0, 4) > 0) this.set(i, j, G_);
    for (let i = x1; i <= x2; i++)
      for (let j = y1; j <= y2; j++) {
        if ((i + j) % 2 === par) continue;
        if (this.rng.random(0, 3) === 0) {
          this.set(i, j, T_);
          if (++nb.n === TREASURES) return true;
        }
      }
    return true;
  }
}

/**
 * max_area: the largest rectangle under the histogram h (as the original's
 * stack-based scan), among those with both sides > minSide and area <=
 * maxArea: [left bound, right bound (both exclusive), height], or [-1, 0, -1].
 */
function maxArea_(h: number[], minSide: number, maxArea: number): [number, number, number] {
  const n = h.length;
  const left = new Array<number>(n);
  const right = new Array<number>(n);
  const st: number[] = [];
  for (let i = 0; i < n; i++) {
    while (st.length && h[st[st.length - 1]!]! >= h[i]!) st.pop();
    left[i] = st.length ? st[st.length - 1]! : -1;
    st.push(i);
  }
  st.length = 0;
  for (let i = n - 1; i >= 0; i--) {
    while (st.length && h[st[st.length - 1]!]! >= h[i]!) st.pop();
    right[i] = st.length ? st[st.length - 1]! : n;
    st.push(i);
  }
  let best = 0;
  let out: [number, number, number] = [-1, 0, -1];
  for (let i = 0; i < n; i++) {
    const w = right[i]! - left[i]! - 1;
    const area = w * h[i]!;
    if (minSide < Math.min(w, h[i]!) && area > best && area <= maxArea) {
      best = area;
      out = [left[i]!, right[i]!, h[i]!];
    }
  }
  return out;
}

/** Fills the board of a blank state from the board generator (the original's GENERATOR). */
export function generateGrid(s: MoriaState, rng: Rng): void {
  const { rows, cols } = s.cfg;
  const m = new Generator(rng, rows, cols).grid();
  for (let p = 0; p < rows * cols; p++) {
    s.owner[p] = -1;
    s.treasure[p] = 0;
    s.turns[p] = 0;
    const c = m[p]!;
    if (c === R_) {
      s.type[p] = CT.Rock;
      s.turns[p] = s.cfg.rock_resistance;
    } else if (c === C_ || c === T_) {
      s.type[p] = CT.Cave;
      s.treasure[p] = c === T_ ? 1 : 0;
    } else if (c === O_) s.type[p] = CT.Outside;
    else s.type[p] = CT.Granite;
  }
}

/** 8-neighbour reach from the Outside band through `pass` cells. */
export function reachFromOutside(s: MoriaState, pass: (p: number) => boolean): Uint8Array {
  const { rows, cols } = s.cfg;
  const seen = new Uint8Array(rows * cols);
  const queue: number[] = [];
  for (let p = 0; p < rows * cols; p++)
    if (s.type[p] === CT.Outside) {
      seen[p] = 1;
      queue.push(p);
    }
  for (let h = 0; h < queue.length; h++) {
    const p = queue[h]!;
    const i = Math.floor(p / cols);
    const j = p % cols;
    for (let a = -1; a <= 1; a++)
      for (let b = -1; b <= 1; b++) {
        const ii = i + a;
        const jj = j + b;
        if (ii < 0 || jj < 0 || ii >= rows || jj >= cols) continue;
        const q = ii * cols + jj;
        if (!seen[q] && pass(q)) {
          seen[q] = 1;
          queue.push(q);
        }
      }
  }
  return seen;
}

/** A fixed board (the `board` setting, already checked by parseConfig), as the original reads a FIXED grid. */
export function readGrid(s: MoriaState, board: string): void {
  const rows = board.split('\n');
  const cols = s.cfg.cols;
  for (let i = 0; i < s.cfg.rows; i++)
    for (let j = 0; j < cols; j++) {
      const ch = rows[i]![j]!;
      const p = i * cols + j;
      s.owner[p] = -1;
      s.turns[p] = 0;
      s.treasure[p] = 0;
      if (ch === 'R') {
        s.type[p] = CT.Rock;
        s.turns[p] = s.cfg.rock_resistance;
      } else if (ch === 'C' || ch === 'T') {
        s.type[p] = CT.Cave;
        s.treasure[p] = ch === 'T' ? 1 : 0;
      } else if (ch === 'O') s.type[p] = CT.Outside;
      else if (ch === 'G') s.type[p] = CT.Granite;
      else if (ch === 'A') s.type[p] = CT.Abyss;
      else if (ch >= '0' && ch <= '3') {
        s.type[p] = CT.Cave;
        s.owner[p] = ch.charCodeAt(0) - 48;
      } else {
        s.type[p] = CT.Rock;
        s.turns[p] = ch.charCodeAt(0) - 96;
      }
    }
}
