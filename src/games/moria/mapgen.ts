// Board generator. The original's is only in Board.o (generator, maze, chess,
// tunnel, path, generate_paths, find_space, try_cell), so this one aims at
// boards that look and play like its observed map (seed 100, Viewer/sample.out:
// 464 Outside, 1008 Cave of which 80 hold a treasure, 337 Granite, 1791 Rock,
// 0 Abyss): cave tunnels 2-3 wide reaching the Outside band, granite frames and
// maze / chess blocks, treasures buried in rock. Like the original it retries
// until the board is right.

import type { Rng } from '../rng.ts';
import { CONST } from './config.ts';
import { CT, type MoriaState } from './engine.ts';

export interface Rect {
  i: number;
  j: number;
  h: number;
  w: number;
}

/** Targets, from the observed original map. */
export const TARGET = { cave: 1008, granite: 337 } as const;

interface Gen {
  s: MoriaState;
  rng: Rng;
  rows: number;
  cols: number;
  /** Cells of granite structures plus a margin: tunnels keep out. */
  reserved: Uint8Array;
  /** Rock cells inside structures (preferred treasure spots). */
  inner: Uint8Array;
  rects: Rect[];
}

function inside(g: Gen, i: number, j: number): boolean {
  return i >= 2 && j >= 2 && i < g.rows - 2 && j < g.cols - 2;
}

function setGranite(g: Gen, i: number, j: number): void {
  const p = i * g.cols + j;
  g.s.type[p] = CT.Granite;
  g.s.turns[p] = 0;
  g.inner[p] = 0;
}

function unGranite(g: Gen, i: number, j: number): void {
  const p = i * g.cols + j;
  g.s.type[p] = CT.Rock;
  g.s.turns[p] = g.s.cfg.rock_resistance;
}

function overlaps(g: Gen, r: Rect, margin: number): boolean {
  for (const o of g.rects) {
    if (r.i - margin < o.i + o.h && o.i - margin < r.i + r.h && r.j - margin < o.j + o.w && o.j - margin < r.j + r.w) return true;
  }
  return false;
}

/** A granite rectangle outline with `gaps` openings of 1-2 cells (so the inside stays reachable by digging). */
function frame(g: Gen, r: Rect, gaps: number): void {
  const border: [number, number][] = [];
  for (let j = r.j; j < r.j + r.w; j++) border.push([r.i, j], [r.i + r.h - 1, j]);
  for (let i = r.i + 1; i < r.i + r.h - 1; i++) border.push([i, r.j], [i, r.j + r.w - 1]);
  for (const [i, j] of border) setGranite(g, i, j);
  for (let k = 0; k < gaps; k++) {
    // A gap on one side, away from the corners.
    const side = g.rng.random(0, 3);
    const len = g.rng.random(1, 2);
    if (side < 2) {
      const i = side === 0 ? r.i : r.i + r.h - 1;
      const j0 = g.rng.random(r.j + 1, r.j + r.w - 2 - len + 1);
      for (let j = j0; j < j0 + len; j++) unGranite(g, i, j);
    } else {
      const j = side === 2 ? r.j : r.j + r.w - 1;
      const i0 = g.rng.random(r.i + 1, r.i + r.h - 2 - len + 1);
      for (let i = i0; i < i0 + len; i++) unGranite(g, i, j);
    }
  }
}

/** A perfect maze of granite walls on the odd lattice inside r (odd h and w). */
function maze(g: Gen, r: Rect): void {
  for (let i = r.i; i < r.i + r.h; i++) for (let j = r.j; j < r.j + r.w; j++) setGranite(g, i, j);
  const ch = (r.h - 1) / 2;
  const cw = (r.w - 1) / 2;
  const seen = new Uint8Array(ch * cw);
  const open = (i: number, j: number) => {
    const p = i * g.cols + j;
    g.s.type[p] = CT.Rock;
    g.s.turns[p] = g.s.cfg.rock_resistance;
    g.inner[p] = 1;
  };
  const stack: number[] = [g.rng.random(0, ch * cw - 1)];
  seen[stack[0]!] = 1;
  open(r.i + 1 + 2 * Math.floor(stack[0]! / cw), r.j + 1 + 2 * (stack[0]! % cw));
  while (stack.length) {
    const c = stack[stack.length - 1]!;
    const ci = Math.floor(c / cw);
    const cj = c % cw;
    const nb: number[] = [];
    if (ci > 0 && !seen[c - cw]) nb.push(c - cw);
    if (ci < ch - 1 && !seen[c + cw]) nb.push(c + cw);
    if (cj > 0 && !seen[c - 1]) nb.push(c - 1);
    if (cj < cw - 1 && !seen[c + 1]) nb.push(c + 1);
    if (nb.length === 0) {
      stack.pop();
      continue;
    }
    const n = nb[g.rng.random(0, nb.length - 1)]!;
    seen[n] = 1;
    const ni = Math.floor(n / cw);
    const nj = n % cw;
    open(r.i + 1 + ci + ni, r.j + 1 + cj + nj); // the wall between
    open(r.i + 1 + 2 * ni, r.j + 1 + 2 * nj);
    stack.push(n);
  }
  // Entrances on two opposite sides.
  const e1 = r.j + 1 + 2 * g.rng.random(0, cw - 1);
  const e2 = r.j + 1 + 2 * g.rng.random(0, cw - 1);
  open(r.i, e1);
  open(r.i + r.h - 1, e2);
}

/** Granite pillars on every other cell: a chess-like block, rock between. */
function chess(g: Gen, r: Rect): void {
  for (let i = r.i; i < r.i + r.h; i++)
    for (let j = r.j; j < r.j + r.w; j++) {
      if ((i - r.i) % 2 === 0 && (j - r.j) % 2 === 0) setGranite(g, i, j);
      else g.inner[i * g.cols + j] = 1;
    }
}

function countType(s: MoriaState, t: CT): number {
  let n = 0;
  for (let p = 0; p < s.type.length; p++) if (s.type[p] === t) n++;
  return n;
}

function placeStructures(g: Gen, target: number): void {
  let granite = 0;
  for (let attempt = 0; attempt < 1000 && granite < target; attempt++) {
    const kind = g.rng.random(0, 3); // 0-1 frame (maybe nested), 2 maze, 3 chess
    let h: number, w: number;
    if (kind === 2) {
      h = 2 * g.rng.random(3, 6) + 1;
      w = 2 * g.rng.random(3, 6) + 1;
    } else if (kind === 3) {
      h = 2 * g.rng.random(3, 5) + 1;
      w = 2 * g.rng.random(3, 5) + 1;
    } else {
      h = g.rng.random(7, 14);
      w = g.rng.random(7, 14);
    }
    const r: Rect = { i: g.rng.random(5, g.rows - 5 - h), j: g.rng.random(5, g.cols - 5 - w), h, w };
    if (overlaps(g, r, 3)) continue;
    const before = countType(g.s, CT.Granite);
    if (kind <= 1) {
      frame(g, r, g.rng.random(1, 2));
      for (let i = r.i + 1; i < r.i + h - 1; i++) for (let j = r.j + 1; j < r.j + w - 1; j++) g.inner[i * g.cols + j] = 1;
      // Nested: a maze or chess block (or a second frame) inside a large frame.
      if (h >= 11 && w >= 11) {
        const ih = (h - 5) % 2 ? h - 5 : h - 6;
        const iw = (w - 5) % 2 ? w - 5 : w - 6;
        const inner: Rect = { i: r.i + 3, j: r.j + 3, h: ih, w: iw };
        const k = g.rng.random(0, 2);
        if (k === 0 && ih >= 5 && iw >= 5) maze(g, inner);
        else if (k === 1) chess(g, inner);
        else if (ih >= 3 && iw >= 3) frame(g, inner, 1);
      }
    } else if (kind === 2) maze(g, r);
    else chess(g, r);
    granite += countType(g.s, CT.Granite) - before;
    g.rects.push(r);
    for (let i = Math.max(0, r.i - 1); i < Math.min(g.rows, r.i + h + 1); i++)
      for (let j = Math.max(0, r.j - 1); j < Math.min(g.cols, r.j + w + 1); j++) g.reserved[i * g.cols + j] = 1;
  }
}

/** Can a width×width brush sit at (i, j) without touching a structure or leaving Moria? */
function brushFree(g: Gen, i: number, j: number, width: number): boolean {
  for (let a = 0; a < width; a++)
    for (let b = 0; b < width; b++) {
      if (!inside(g, i + a, j + b) || g.reserved[(i + a) * g.cols + j + b]) return false;
    }
  return true;
}

function carve(g: Gen, i: number, j: number, width: number): number {
  let n = 0;
  for (let a = 0; a < width; a++)
    for (let b = 0; b < width; b++) {
      const ii = i + a;
      const jj = j + b;
      if (!inside(g, ii, jj)) continue;
      const p = ii * g.cols + jj;
      if (g.reserved[p] || g.s.type[p] !== CT.Rock) continue;
      g.s.type[p] = CT.Cave;
      g.s.turns[p] = 0;
      n++;
    }
  return n;
}

/** A tunnel: straight runs of 3-9 steps toward a goal, brush 2 or 3 wide. Returns cells carved. */
function tunnel(g: Gen, i: number, j: number, ti: number, tj: number, width: number, budget: number): number {
  let n = carve(g, i, j, width);
  for (let runs = 0; runs < 40 && n < budget; runs++) {
    if (Math.abs(ti - i) + Math.abs(tj - j) <= 1) break;
    // Mostly toward the goal along the axis with more to go; sometimes sideways.
    let di = 0;
    let dj = 0;
    const wobble = g.rng.random(0, 4) === 0;
    const vertical = Math.abs(ti - i) > Math.abs(tj - j) ? !wobble : wobble;
    if (vertical) di = ti > i ? 1 : ti < i ? -1 : g.rng.random(0, 1) * 2 - 1;
    else dj = tj > j ? 1 : tj < j ? -1 : g.rng.random(0, 1) * 2 - 1;
    const len = g.rng.random(3, 9);
    let moved = 0;
    for (let k = 0; k < len; k++) {
      if (!brushFree(g, i + di, j + dj, width)) break;
      i += di;
      j += dj;
      n += carve(g, i, j, width);
      moved++;
      if (i === ti && vertical) break;
      if (j === tj && !vertical) break;
    }
    if (moved === 0 && !wobble && g.rng.random(0, 2) === 0) break;
  }
  return n;
}

function carveTunnels(g: Gen, target: number): void {
  const { rows, cols } = g;
  let caves = 0;
  // Entrances from the Outside band: at least one per side.
  const entrances = g.rng.random(5, 8);
  for (let k = 0; k < entrances && caves < target; k++) {
    const side = k < 4 ? k : g.rng.random(0, 3);
    const width = g.rng.random(2, 3);
    let i: number, j: number;
    if (side === 0) [i, j] = [2, g.rng.random(4, cols - 7)];
    else if (side === 1) [i, j] = [rows - 2 - width, g.rng.random(4, cols - 7)];
    else if (side === 2) [i, j] = [g.rng.random(4, rows - 7), 2];
    else [i, j] = [g.rng.random(4, rows - 7), cols - 2 - width];
    if (!brushFree(g, i, j, width)) continue;
    caves += tunnel(g, i, j, g.rng.random(12, rows - 14), g.rng.random(12, cols - 14), width, target - caves);
  }
  // Branches from existing caves until the cave count is reached.
  for (let attempt = 0; attempt < 600 && caves < target; attempt++) {
    const list: number[] = [];
    for (let p = 0; p < g.s.type.length; p++) if (g.s.type[p] === CT.Cave) list.push(p);
    if (list.length === 0) break;
    const start = list[g.rng.random(0, list.length - 1)]!;
    const width = g.rng.random(2, 3);
    const si = Math.floor(start / cols);
    const sj = start % cols;
    if (!brushFree(g, si, sj, width)) continue;
    caves += tunnel(g, si, sj, g.rng.random(3, rows - 4), g.rng.random(3, cols - 4), width, target - caves);
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

function placeTreasures(g: Gen, count: number): boolean {
  const { s, rows, cols } = g;
  const reach = reachFromOutside(s, (p) => s.type[p] !== CT.Granite);
  const nearCave = (p: number): boolean => {
    const i = Math.floor(p / cols);
    const j = p % cols;
    for (let a = -1; a <= 1; a++)
      for (let b = -1; b <= 1; b++) if (s.type[(i + a) * cols + j + b] === CT.Cave) return true;
    return false;
  };
  const innerList: number[] = [];
  const openList: number[] = [];
  for (let i = 3; i < rows - 3; i++)
    for (let j = 3; j < cols - 3; j++) {
      const p = i * cols + j;
      if (s.type[p] !== CT.Rock || !reach[p] || nearCave(p)) continue;
      (g.inner[p] ? innerList : openList).push(p);
    }
  let placed = 0;
  const take = (list: number[], want: number) => {
    const perm = g.rng.permutation(list.length);
    for (const k of perm) {
      if (placed >= count || want <= 0) return;
      const p = list[k]!;
      // Buried: only rock around (never next to a cave or another treasure).
      if (s.type[p] !== CT.Rock || nearCave(p)) continue;
      s.type[p] = CT.Cave;
      s.turns[p] = 0;
      s.treasure[p] = 1;
      placed++;
      want--;
    }
  };
  take(innerList, Math.ceil(count / 2));
  take(openList, count - placed);
  take(innerList, count - placed);
  return placed === count;
}

/** Checks that make a board playable; returns the first problem, or null. */
export function boardProblem(s: MoriaState): string | null {
  const { rows, cols } = s.cfg;
  let caves = 0;
  let free = 0;
  let treasures = 0;
  for (let p = 0; p < rows * cols; p++) {
    if (s.type[p] === CT.Cave) {
      caves++;
      if (s.treasure[p]) treasures++;
      else free++;
    }
    if (s.type[p] === CT.Abyss) return 'abyss at start';
  }
  if (treasures !== CONST.ini_treasures) return `${treasures} treasures instead of ${CONST.ini_treasures}`;
  if (caves < TARGET.cave - 60 || caves > TARGET.cave + 60) return `wrong number of cave cells: ${caves}`;
  const np = s.cfg.nb_players;
  const needed = np * (s.cfg.nb_dwarves + s.cfg.nb_wizards) + s.cfg.nb_trolls + 1;
  if (free < needed * 4) return `no room for the units: ${free} free caves`;
  const dig = reachFromOutside(s, (p) => s.type[p] !== CT.Granite);
  const walk = reachFromOutside(s, (p) => s.type[p] === CT.Cave && !s.treasure[p]);
  for (let p = 0; p < rows * cols; p++) {
    if (s.treasure[p] && !dig[p]) return `treasure at ${Math.floor(p / cols)},${p % cols} sealed by granite`;
    if (s.type[p] === CT.Cave && !s.treasure[p] && !walk[p]) return `cave at ${Math.floor(p / cols)},${p % cols} not connected to the outside`;
  }
  return null;
}

/** Fills the board of a blank state (all rock). False if this attempt failed (retry). */
export function generateGrid(s: MoriaState, rng: Rng): boolean {
  const { rows, cols } = s.cfg;
  const n = rows * cols;
  for (let p = 0; p < n; p++) {
    if (s.type[p] === CT.Outside) continue;
    s.type[p] = CT.Rock;
    s.turns[p] = s.cfg.rock_resistance;
    s.treasure[p] = 0;
    s.owner[p] = -1;
  }
  const g: Gen = { s, rng, rows, cols, reserved: new Uint8Array(n), inner: new Uint8Array(n), rects: [] };
  placeStructures(g, TARGET.granite + rng.random(-25, 25));
  carveTunnels(g, TARGET.cave - CONST.ini_treasures + rng.random(-30, 30));
  if (!placeTreasures(g, CONST.ini_treasures)) return false;
  return boardProblem(s) === null;
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
