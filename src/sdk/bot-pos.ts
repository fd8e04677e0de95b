// Position helpers shared by the games' bot APIs (bundled into each bot's
// isolate, so pure code only). JavaScript has no operator overloading: these
// stand in for the C++ `Pos + Dir`, `Pos == Pos` and `pos_ok`.

import type { BotRuntime } from './bot-runtime-types.ts';

export interface Pos {
  i: number;
  j: number;
}

const isInteger = Number.isInteger;
const isInt = (x: unknown): x is number => typeof x === 'number' && isInteger(x);

/** The (i, j) of a call made as f(i, j) or as f(pos), unchecked. */
export function ijOf(a: unknown, b: unknown): [i: number, j: number] {
  return typeof a === 'object' && a !== null ? [(a as Pos).i, (a as Pos).j] : [a as number, b as number];
}

/** pos_ok(i, j) or pos_ok(pos) on a rows × cols board; anything else is false. */
export function posWithin(a: unknown, b: unknown, rows: number, cols: number): boolean {
  const [i, j] = ijOf(a, b);
  return isInt(i) && isInt(j) && i >= 0 && j >= 0 && i < rows && j < cols;
}

/**
 * Defines Pos(i, j), pos_add(p, dir | pos), pos_eq(a, b) and dir_ok(dir) for
 * a game whose directions 0..di.length-1 move by (di[d], dj[d]).
 */
export function definePosHelpers(rt: BotRuntime, di: readonly number[], dj: readonly number[]): void {
  rt.define('Pos', (i: number, j: number): Pos => ({ i, j }));
  rt.define(
    'pos_add',
    (p: Pos, x: number | Pos): Pos => (typeof x === 'object' && x !== null ? { i: p.i + x.i, j: p.j + x.j } : { i: p.i + (di[x] ?? 0), j: p.j + (dj[x] ?? 0) }),
  );
  rt.define('pos_eq', (a: Pos, b: Pos): boolean => a.i === b.i && a.j === b.j);
  rt.define('dir_ok', (dir: unknown): boolean => isInt(dir) && dir >= 0 && dir < di.length);
}

/**
 * The eight directions of the 2020s games (The Walking Dead, Harry Potter):
 * the C++ enum Dir { Down, DR, Right, RU, Up, UL, Left, LD } and its offsets.
 */
export const DIR8 = Object.freeze({ Down: 0, DR: 1, Right: 2, RU: 3, Up: 4, UL: 5, Left: 6, LD: 7 });
export const DI8: readonly number[] = [1, 1, 0, -1, -1, -1, 0, 1];
export const DJ8: readonly number[] = [0, 1, 1, 1, 0, -1, -1, -1];
