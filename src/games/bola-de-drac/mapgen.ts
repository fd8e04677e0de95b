// Seeded board generator. The original game shipped fixed maps (demo, maze,
// zigzag, cnord, ... in hecrj/bola-de-drac): a rock border, rock walls inside, sizes
// 15x31, 20x38, 19x19, 15x43, the four gokus placed symmetrically. We generate
// boards of the same kind: walls are mirrored in both axes (so all four start
// positions are equivalent), every non-rock cell is connected to every other,
// and items are placed in symmetric orbits where the counts allow it.

import type { Rng } from '../../sdk/rng.ts';
import { CType } from './consts.ts';
import { ORIGINAL_SIZES, type BdConfig } from './config.ts';

export interface GeneratedMap {
  rows: number;
  cols: number;
  /** CType per cell, row-major (beans and kintons drawn as Bean / Kinton). */
  grid: Uint8Array;
  /** Cell indices (i*cols+j). */
  capsules: number[];
  balls: number[];
  beans: number[];
  kintons: number[];
  /** Start cell per player. */
  starts: number[];
}

/** Number of non-rock cells reachable from the first non-rock cell equals the number of non-rock cells. */
export function isConnected(grid: Uint8Array, rows: number, cols: number, queue?: Int32Array, seen?: Uint8Array): boolean {
  const n = rows * cols;
  const q = queue ?? new Int32Array(n);
  const vis = seen ?? new Uint8Array(n);
  vis.fill(0);
  let total = 0;
  let start = -1;
  for (let k = 0; k < n; k++) {
    if (grid[k] !== CType.Rock) {
      total++;
      if (start < 0) start = k;
    }
  }
  if (total === 0) return false;
  let head = 0;
  let tail = 0;
  q[tail++] = start;
  vis[start] = 1;
  let reached = 0;
  while (head < tail) {
    const c = q[head++]!;
    reached++;
    const nb = [c - cols, c + cols, c - 1, c + 1];
    for (let t = 0; t < 4; t++) {
      const d = nb[t]!;
      if (d >= 0 && d < n && vis[d] === 0 && grid[d] !== CType.Rock) {
        vis[d] = 1;
        q[tail++] = d;
      }
    }
  }
  return reached === total;
}

/** The board being generated: its size, its cells, and which cells a start or an item already holds. */
class MapBuilder {
  readonly n: number;
  readonly grid: Uint8Array;
  readonly queue: Int32Array;
  readonly seen: Uint8Array;
  /** 1 = start or item. */
  readonly taken: Uint8Array;
  /** Rows and columns of the top-left quadrant (the middle row or column included when odd). */
  readonly qRows: number;
  readonly qCols: number;

  constructor(
    readonly rows: number,
    readonly cols: number,
    readonly rng: Rng,
  ) {
    const n = rows * cols;
    this.n = n;
    this.grid = new Uint8Array(n);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        if (i === 0 || j === 0 || i === rows - 1 || j === cols - 1) this.grid[i * cols + j] = CType.Rock;
      }
    }
    this.queue = new Int32Array(n);
    this.seen = new Uint8Array(n);
    this.taken = new Uint8Array(n);
    this.qRows = Math.ceil(rows / 2);
    this.qCols = Math.ceil(cols / 2);
  }

  /** The cell and its mirror images (1, 2 or 4 distinct cells). */
  orbit(i: number, j: number): number[] {
    const { rows, cols } = this;
    const out: number[] = [];
    for (const ii of [i, rows - 1 - i]) {
      for (const jj of [j, cols - 1 - j]) {
        const k = ii * cols + jj;
        if (!out.includes(k)) out.push(k);
      }
    }
    return out;
  }

  /** Walls: mirrored segments, each kept only if the board stays connected. */
  walls(): void {
    const { rows, cols, grid, rng, qRows, qCols, queue, seen } = this;
    const interior = (rows - 2) * (cols - 2);
    const targetRocks = Math.floor((interior * rng.random(24, 34)) / 100);
    let rocks = 0;
    const maxLen = Math.max(3, Math.floor(Math.max(qRows, qCols) * 0.6));
    for (let attempt = 0; attempt < 400 && rocks < targetRocks; attempt++) {
      const vertical = rng.random(0, 1) === 1;
      const len = rng.random(2, maxLen);
      // Walls start on even coordinates more often than not, as in the hand-made maps.
      let i = rng.random(1, Math.max(1, qRows - 1));
      let j = rng.random(1, Math.max(1, qCols - 1));
      if (rng.random(0, 2) > 0) {
        if (vertical) j = Math.min(qCols - 1, j + (j % 2 === 1 ? 1 : 0));
        else i = Math.min(qRows - 1, i + (i % 2 === 1 ? 1 : 0));
      }
      const added: number[] = [];
      for (let s = 0; s < len; s++) {
        const ii = vertical ? i + s : i;
        const jj = vertical ? j : j + s;
        if (ii < 1 || jj < 1 || ii > qRows - 1 || jj > qCols - 1) break;
        for (const k of this.orbit(ii, jj)) {
          if (grid[k] !== CType.Rock) {
            grid[k] = CType.Rock;
            added.push(k);
          }
        }
      }
      if (added.length === 0) continue;
      if (isConnected(grid, rows, cols, queue, seen) && noDeadPocket(grid, rows, cols, added)) {
        rocks += added.length;
      } else {
        for (const k of added) grid[k] = CType.Empty;
      }
    }
  }

  /** Is cell k empty ground with no start or item within `spacing` cells? */
  isFree(k: number, spacing: number): boolean {
    const { rows, cols, grid, taken } = this;
    if (grid[k] !== CType.Empty || taken[k]) return false;
    if (spacing === 0) return true;
    const i = Math.floor(k / cols);
    const j = k % cols;
    for (let di = -spacing; di <= spacing; di++) {
      for (let dj = -spacing; dj <= spacing; dj++) {
        const a = i + di;
        const b = j + dj;
        if (a >= 0 && b >= 0 && a < rows && b < cols && taken[a * cols + b]) return false;
      }
    }
    return true;
  }

  take(cells: number[]): void {
    for (const k of cells) this.taken[k] = 1;
  }

  /** Gokus: one orbit of four, in the quadrant, far enough from each other. */
  starts(): number[] {
    const { rows, cols, rng, qRows, qCols } = this;
    let starts: number[] = [];
    for (let tries = 0; tries < 2000 && starts.length === 0; tries++) {
      const i = rng.random(1, qRows - 1);
      const j = rng.random(1, qCols - 1);
      const cells = this.orbit(i, j);
      if (cells.length !== 4) continue;
      if (rows - 1 - 2 * i < 4 || cols - 1 - 2 * j < 4) continue;
      if (cells.every((k) => this.isFree(k, 0))) starts = cells;
    }
    if (starts.length === 0) starts = this.randomCells(4);
    // Player order: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right (as in demo.cnf).
    this.take(starts);
    return starts;
  }

  /** count free cells at random, spaced if possible (not marked taken). */
  randomCells(count: number): number[] {
    const { rows, cols, n, rng, taken } = this;
    const out: number[] = [];
    for (let spacing = 1; spacing >= 0 && out.length < count; spacing--) {
      for (let tries = 0; tries < 400 && out.length < count; tries++) {
        const k = rng.random(0, rows - 1) * cols + rng.random(0, cols - 1);
        if (this.isFree(k, spacing) && !out.includes(k)) {
          out.push(k);
          taken[k] = 1;
        }
      }
    }
    // Last resort: scan (always succeeds: parseConfig keeps boards roomy).
    for (let k = 0; k < n && out.length < count; k++) {
      if (this.isFree(k, 0)) {
        out.push(k);
        taken[k] = 1;
      }
    }
    for (const k of out) taken[k] = 0;
    return out;
  }

  /** count cells for items, in symmetric orbits where the count allows it (marked taken). */
  place(count: number): number[] {
    const { rows, cols, rng, qRows, qCols } = this;
    const out: number[] = [];
    while (out.length < count) {
      const left = count - out.length;
      let got: number[] | null = null;
      const wanted = left >= 4 ? 4 : left >= 2 ? 2 : 1;
      for (let tries = 0; tries < 200 && !got; tries++) {
        let i: number;
        let j: number;
        if (wanted === 4) {
          i = rng.random(1, qRows - 1);
          j = rng.random(1, qCols - 1);
        } else if (wanted === 2) {
          // On a symmetry axis (middle row or column of an odd side) the orbit has two cells.
          const axes: number[] = [];
          if (rows % 2 === 1) axes.push(0);
          if (cols % 2 === 1) axes.push(1);
          if (axes.length === 0) {
            // No axis (both sides even): a pair symmetric through the centre.
            i = rng.random(1, rows - 2);
            j = rng.random(1, qCols - 1);
            const a = i * cols + j;
            const b = (rows - 1 - i) * cols + (cols - 1 - j);
            if (a !== b && this.isFree(a, 1) && this.isFree(b, 1)) got = [a, b];
            continue;
          }
          if (axes[rng.random(0, axes.length - 1)] === 0) {
            i = (rows - 1) / 2;
            j = rng.random(1, qCols - 2);
          } else {
            i = rng.random(1, qRows - 2);
            j = (cols - 1) / 2;
          }
        } else {
          if (rows % 2 === 0 || cols % 2 === 0) break;
          i = (rows - 1) / 2;
          j = (cols - 1) / 2;
        }
        const cells = this.orbit(i, j);
        if (cells.length !== wanted) continue;
        // Mirror images not side by side.
        if (wanted === 4 && (rows - 1 - 2 * i < 2 || cols - 1 - 2 * j < 2)) continue;
        if (wanted === 2 && (rows % 2 === 1 && i === (rows - 1) / 2 ? cols - 1 - 2 * j < 2 : rows - 1 - 2 * i < 2)) continue;
        if (cells.every((k) => this.isFree(k, 1))) got = cells;
        if (wanted === 1 && !got) break;
      }
      if (!got) got = this.randomCells(Math.min(left, wanted));
      this.take(got);
      out.push(...got);
    }
    return out;
  }
}

export function generateMap(cfg: BdConfig, rng: Rng): GeneratedMap {
  let rows = cfg.rows;
  let cols = cfg.cols;
  if (rows === 0 || cols === 0) {
    const size = ORIGINAL_SIZES[rng.random(0, ORIGINAL_SIZES.length - 1)]!;
    rows = size[0];
    cols = size[1];
  }
  const b = new MapBuilder(rows, cols, rng);
  b.walls();
  const starts = b.starts();
  const capsules = b.place(cfg.nb_capsules);
  const beans = b.place(cfg.nb_beans);
  const kintons = b.place(cfg.nb_kintons);
  const balls = b.place(cfg.nb_balls);
  const { grid } = b;
  for (const k of capsules) grid[k] = CType.Capsule;
  for (const k of beans) grid[k] = CType.Bean;
  for (const k of kintons) grid[k] = CType.Kinton;
  for (const k of balls) grid[k] = CType.Ball;
  return { rows, cols, grid, capsules, balls, beans, kintons, starts };
}

/** A new wall may not leave a free neighbour closed on three or four sides (no one-cell dead ends). */
function noDeadPocket(grid: Uint8Array, rows: number, cols: number, added: number[]): boolean {
  for (const k of added) {
    for (const d of [k - cols, k + cols, k - 1, k + 1]) {
      if (d < 0 || d >= rows * cols || grid[d] === CType.Rock) continue;
      let walls = 0;
      for (const e of [d - cols, d + cols, d - 1, d + 1]) if (grid[e] === CType.Rock) walls++;
      if (walls >= 3) return false;
    }
  }
  return true;
}
