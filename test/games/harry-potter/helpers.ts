// Builds Harry Potter states from ASCII pictures for rule tests.
import { Rng } from '../../../src/sdk/rng.ts';
import { DEFAULT_CONFIG, type HPConfig } from '../../../src/games/harry-potter/config.ts';
import { GHOST, WIZARD, generateSpellIngredients, updateCellsAndScore, type HPOrder, type HPState } from '../../../src/games/harry-potter/engine.ts';
import game from '../../../src/games/harry-potter/index.ts';

export interface UnitSpec {
  /** 'w' wizard, 'g' ghost. */
  t: 'w' | 'g';
  pl: number;
  at: [number, number];
  pending?: number;
  next?: number;
}

export interface Picture {
  /** '#' wall, '.' corridor, 'B' book, '0'..'3' corridor owned by that player. */
  map: string[];
  /** Units, ids in this order. */
  units: UnitSpec[];
  /** Voldemort's position. */
  v: [number, number];
  seed?: number;
  round?: number;
  cfg?: Partial<HPConfig>;
  /** Overall strength per clan (default 1000 each). */
  strength?: number[];
  spell?: number[];
}

export function build(p: Picture): HPState {
  const rows = p.map.length;
  const cols = p.map[0]!.length;
  const cfg: HPConfig = { ...DEFAULT_CONFIG, board_rows: rows, board_cols: cols, ...p.cfg };
  const n = p.units.length;
  const rng = new Rng(p.seed ?? 1);
  const s: HPState = {
    cfg,
    rows,
    cols,
    round: p.round ?? 0,
    rng,
    wall: new Uint8Array(rows * cols),
    owner: new Int8Array(rows * cols).fill(-1),
    cellId: new Int16Array(rows * cols).fill(-1),
    book: new Uint8Array(rows * cols),
    utype: new Uint8Array(n),
    uplayer: new Int8Array(n),
    upos: new Int32Array(n),
    upending: new Int32Array(n),
    unext: new Int32Array(n).fill(-1),
    strength: Int32Array.from(p.strength ?? [1000, 1000, 1000, 1000]),
    scoreAcc: new Int32Array(4),
    nbCells: new Int32Array(4),
    score: new Int32Array(4),
    spell: p.spell ? Int32Array.from(p.spell) : generateSpellIngredients(new Rng(99)),
    vi: p.v[0],
    vj: p.v[1],
  };
  for (let i = 0; i < rows; i++) {
    const line = p.map[i]!;
    if (line.length !== cols) throw new Error(`row ${i} has ${line.length} chars, expected ${cols}`);
    for (let j = 0; j < cols; j++) {
      const c = line[j]!;
      const k = i * cols + j;
      if (c === '#') s.wall[k] = 1;
      else if (c === 'B') s.book[k] = 1;
      else if (c >= '0' && c <= '3') s.owner[k] = c.charCodeAt(0) - 48;
      else if (c !== '.') throw new Error(`unknown map char ${c}`);
    }
  }
  p.units.forEach((u, id) => {
    const k = u.at[0] * cols + u.at[1];
    if (s.wall[k] || s.cellId[k] !== -1) throw new Error(`unit ${id} on a wall or another unit`);
    s.utype[id] = u.t === 'g' ? GHOST : WIZARD;
    s.uplayer[id] = u.pl;
    s.upos[id] = k;
    s.upending[id] = u.pending ?? 0;
    s.unext[id] = u.next ?? -1;
    s.cellId[k] = id;
    s.owner[k] = u.pl;
  });
  updateCellsAndScore(s);
  return s;
}

/** An open board of the given size (all corridor). */
export function open(rows: number, cols: number): string[] {
  return Array.from({ length: rows }, () => '.'.repeat(cols));
}

/** Plays one round with raw orders per player (validated like the host does). */
export function step(s: HPState, orders: unknown[][] = [[], [], [], []]) {
  const valid = orders.map((o, p) => game.validateOrders(s, p, o).orders);
  while (valid.length < 4) valid.push([]);
  return game.next(s, valid as HPOrder[][], [false, false, false, false]);
}

export const at = (s: HPState, id: number): [number, number] => [Math.floor(s.upos[id]! / s.cols), s.upos[id]! % s.cols];
export const cell = (s: HPState, i: number, j: number) => i * s.cols + j;
export const books = (s: HPState) => s.book.reduce((a, b) => a + b, 0);

/** Solves the spell puzzle: 5 disjoint triples with equal sums (backtracking). */
export function solveSpell(v: ArrayLike<number>): number[] | null {
  const n = v.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += v[i]!;
  const parts = n / 3;
  if (total % parts !== 0) return null;
  const target = total / parts;
  const label = new Array<number>(n).fill(-1);
  const rec = (g: number): boolean => {
    if (g === parts) return true;
    const a = label.indexOf(-1);
    label[a] = g;
    for (let b = a + 1; b < n; b++) {
      if (label[b] !== -1) continue;
      label[b] = g;
      for (let c = b + 1; c < n; c++) {
        if (label[c] !== -1 || v[a]! + v[b]! + v[c]! !== target) continue;
        label[c] = g;
        if (rec(g + 1)) return true;
        label[c] = -1;
      }
      label[b] = -1;
    }
    label[a] = -1;
    return false;
  };
  return rec(0) ? label : null;
}
