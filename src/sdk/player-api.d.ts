// The player API every game shares: what the judge gives every bot (me,
// random, random_permutation, status), positions, and the checks and state
// every game names the same. (In the repository each game's player.d.ts
// references this file; a starter kit's player.d.ts holds both.)

// ---- Provided by the judge, in every game ----------------------------------

/** Your player number, 0..3. */
declare function me(): number;
/** A random integer in [l, u] from your own generator (seeded per match, so a match replays identically). */
declare function random(l: number, u: number): number;
/** A random permutation of 0..n-1. */
declare function random_permutation(n: number): number[];
/** Fraction of its CPU budget player pl has used (0..1), or -1 once it is frozen. */
declare function status(pl: number): number;

// ---- Positions ----------------------------------------------------------------

/** A board position: row i (0 = top), column j (0 = left). */
interface Pos {
  i: number;
  j: number;
}
/** Makes a Pos (like the C++ constructor Pos(i, j)). */
declare function Pos(i: number, j: number): Pos;
/** Is pl a player number (0..3)? */
declare function player_ok(pl: number): boolean;
/** Is (i, j), or p, on the board? */
declare function pos_ok(i: number, j: number): boolean;
declare function pos_ok(p: Pos): boolean;

// ---- The state every game has (each game declares its Cell) -----------------

/** The current round, counting from 0. */
declare function round(): number;
/** The cell at (i, j) or p; off the board, the default cell the game's Cell describes. */
declare function cell(i: number, j: number): Cell;
declare function cell(p: Pos): Cell;

/**
 * The player class: every function of the API is also one of its methods
 * (`this.cell(i, j)` is `cell(i, j)`), every enum one of its static members.
 */
interface Player {
  me(): number;
  random(l: number, u: number): number;
  random_permutation(n: number): number[];
  status(pl: number): number;
  Pos(i: number, j: number): Pos;
  player_ok(pl: number): boolean;
  pos_ok(i: number, j: number): boolean;
  pos_ok(p: Pos): boolean;
  round(): number;
  cell(i: number, j: number): Cell;
  cell(p: Pos): Cell;
}
