// The Walking Dead engine (statement: regles-TWD, Albert Oliveras 2022),
// in lockstep with the original engine (mostazomarc/joc_eda, Board.o.Linux64):
// the same seed gives the same board and the same rounds, draw for draw.
// FIDELITY.md in this folder lists where the original wins over the statement.
// Pure: next() clones the state.
//
// Positions are cell indexes r*cols+c (-1 = not on the board). Unit ids never
// change: alive units 0..np*U-1 (U per clan, player by player), then zombies.

import { UNIT_ALIVE, UNIT_DEAD, UNIT_ZOMBIE } from './frame.ts';
import { Rng } from '../../sdk/rng.ts';
import { copyBoardState, type BoardState } from '../../sdk/grid.ts';
import { LibcRand } from '../../sdk/libc-rand.ts';
import type { TwdConfig } from './config.ts';
import { generateWaste } from './mapgen.ts';

export const UType = { Alive: UNIT_ALIVE, Dead: UNIT_DEAD, Zombie: UNIT_ZOMBIE } as const;
export type UType = (typeof UType)[keyof typeof UType];

/** Dir as in the original Structs.hh: Down, DR, Right, RU, Up, UL, Left, LD. */
export const DI = [1, 1, 0, -1, -1, -1, 0, 1] as const;
export const DJ = [0, 1, 1, 1, 0, -1, -1, -1] as const;

/** A validated order: [unit id, dir]. */
export type TwdOrder = [id: number, dir: number];

export interface TwdState extends BoardState<TwdConfig> {
  /** 1 = waste. Never mutated after create (shared between states). */
  waste: Uint8Array;
  /** Owner clan of each cell, -1 none. */
  owner: Int8Array;
  /** Unit id on each cell, -1 none. */
  cellUnit: Int16Array;
  /** 1 = food on the cell. */
  food: Uint8Array;
  uType: Int8Array;
  /** Clan of the unit; -1 for zombies. */
  uPlayer: Int8Array;
  /** Cell index, -1 for a killed zombie waiting to reappear. */
  uPos: Int16Array;
  /** Rounds left before becoming a zombie, -1 if not converting. */
  uRfz: Int16Array;
  /** Strength points ("punts de força") per clan. */
  points: Int32Array;
  /** Points for killed zombies and persons, per clan. */
  scrAcc: Int32Array;
  /** Owned cells per clan. */
  nbCells: Int32Array;
  /**
   * Score per clan as the original keeps it: scrAcc + nbCells, set at the end
   * of every round (so 0 in round 0).
   */
  score: Int32Array;
}

export type TwdEvent =
  | { k: 'fight'; a: number; d: number; w: number; surprise: boolean }
  | { k: 'zkill'; u: number; z: number }
  | { k: 'bite'; z: number; u: number }
  | { k: 'eat'; u: number; p: number }
  | { k: 'zeat'; z: number; p: number }
  | { k: 'zombie'; u: number; p: number }
  | { k: 'spawn'; u: number; pl: number; p: number }
  | { k: 'switch'; u: number; from: number; to: number }
  | { k: 'food'; p: number };

export function cloneState(s: TwdState): TwdState {
  return {
    ...copyBoardState(s),
    waste: s.waste,
    owner: s.owner.slice(),
    cellUnit: s.cellUnit.slice(),
    food: s.food.slice(),
    uType: s.uType.slice(),
    uPlayer: s.uPlayer.slice(),
    uPos: s.uPos.slice(),
    uRfz: s.uRfz.slice(),
    points: s.points.slice(),
    scrAcc: s.scrAcc.slice(),
    nbCells: s.nbCells.slice(),
    score: s.score.slice(),
  };
}

/** An empty state (no units, no food) over a given waste grid. */
export function emptyState(cfg: TwdConfig, waste: Uint8Array, nUnits: number, seed: number): TwdState {
  const rows = cfg.board_rows;
  const cols = cfg.board_cols;
  const n = rows * cols;
  const np = cfg.num_players;
  return {
    cfg,
    rows,
    cols,
    round: 0,
    rng: new Rng(seed),
    waste,
    owner: new Int8Array(n).fill(-1),
    cellUnit: new Int16Array(n).fill(-1),
    food: new Uint8Array(n),
    uType: new Int8Array(nUnits),
    uPlayer: new Int8Array(nUnits).fill(-1),
    uPos: new Int16Array(nUnits).fill(-1),
    uRfz: new Int16Array(nUnits).fill(-1),
    points: new Int32Array(np).fill(cfg.clan_ini_strength),
    scrAcc: new Int32Array(np),
    nbCells: new Int32Array(np),
    score: new Int32Array(np),
  };
}

export function createState(cfg: TwdConfig, seed: number): TwdState {
  const rng = new Rng(seed);
  // glibc rand() is never seeded by the original: every match starts it at 1.
  const waste = generateWaste(cfg.board_rows, cfg.board_cols, rng, new LibcRand(1));
  const np = cfg.num_players;
  const nAlive = np * cfg.num_ini_units_per_clan;
  const s = emptyState(cfg, waste, nAlive + cfg.num_ini_zombies, 0);
  s.rng = rng;
  // Units player by player, then zombies, then food, all at regeneration positions.
  let id = 0;
  for (let pl = 0; pl < np; pl++) {
    for (let k = 0; k < cfg.num_ini_units_per_clan; k++, id++) {
      const p = regenPos(s);
      placeUnit(s, id, UType.Alive, pl, p);
    }
  }
  for (let k = 0; k < cfg.num_ini_zombies; k++, id++) placeUnit(s, id, UType.Zombie, -1, regenPos(s));
  for (let k = 0; k < cfg.num_ini_food; k++) s.food[regenPos(s)] = 1;
  updateCells(s);
  return s;
}

export function placeUnit(s: TwdState, id: number, type: UType, pl: number, p: number): void {
  s.uType[id] = type;
  s.uPlayer[id] = type === UType.Zombie ? -1 : pl;
  s.uPos[id] = p;
  s.uRfz[id] = -1;
  s.cellUnit[p] = id;
  if (type === UType.Alive) s.owner[p] = pl;
}

export function aliveCount(s: TwdState, pl: number): number {
  let n = 0;
  for (let u = 0; u < s.uType.length; u++) if (s.uType[u] === UType.Alive && s.uPlayer[u] === pl) n++;
  return n;
}

/** ⌊points / alive units⌋, 0 without alive units (the fixed State.hh formula). */
export function strengthOf(s: TwdState, pl: number): number {
  const n = aliveCount(s, pl);
  return n === 0 ? 0 : Math.floor(s.points[pl]! / n);
}

/**
 * The score the original prints and players see: scr_acc + owned cells as of
 * the end of the last round; 0 before the first round. The original adds the
 * cells once each whatever points_per_owned_cell says.
 */
export function scoreOf(s: TwdState, pl: number): number {
  return s.score[pl]!;
}

function updateCells(s: TwdState): void {
  s.nbCells.fill(0);
  const o = s.owner;
  for (let c = 0; c < o.length; c++) if (o[c]! >= 0) s.nbCells[o[c]!]!++;
}

// Scratch buffers reused across calls (the engine is synchronous).
let scratchPrefix = new Int32Array(0);
let scratchDist = new Int32Array(0);
let scratchQueue = new Int32Array(0);
let scratchCand = new Int32Array(0);

/**
 * Regeneration position (statement, "Regeneració d'objectes", as the original
 * implements it): an empty cell (street, no unit, no food) with no unit in the
 * 5x5 square around it (food in the square does not matter, unlike the
 * statement's wording), uniformly among those (row-major list,
 * random(0,n-1)). If there is none, a random empty cell (rejection sampling
 * with random(0,rows-1), random(0,cols-1), as the original get_empty_pos).
 */
export function regenPos(s: TwdState): number {
  // The arrays read from the state once, out of the board loops: states of several shapes make each s.x a polymorphic load.
  const { rows, cols, cellUnit, waste, food } = s;
  const W = cols + 1;
  if (scratchPrefix.length < (rows + 1) * W) scratchPrefix = new Int32Array((rows + 1) * W);
  const P = scratchPrefix;
  for (let j = 0; j <= cols; j++) P[j] = 0;
  for (let i = 0; i < rows; i++) {
    let run = 0;
    P[(i + 1) * W] = 0;
    for (let j = 0; j < cols; j++) {
      const c = i * cols + j;
      if (cellUnit[c] !== -1) run++;
      P[(i + 1) * W + j + 1] = P[i * W + j + 1]! + run;
    }
  }
  const good = (i: number, j: number): boolean => {
    const c = i * cols + j;
    if (waste[c] || cellUnit[c] !== -1 || food[c]) return false;
    const i0 = i - 2 < 0 ? 0 : i - 2;
    const j0 = j - 2 < 0 ? 0 : j - 2;
    const i1 = i + 3 > rows ? rows : i + 3;
    const j1 = j + 3 > cols ? cols : j + 3;
    return P[i1 * W + j1]! - P[i0 * W + j1]! - P[i1 * W + j0]! + P[i0 * W + j0]! === 0;
  };
  if (scratchCand.length < rows * cols) scratchCand = new Int32Array(rows * cols);
  const cand = scratchCand;
  let n = 0;
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (good(i, j)) cand[n++] = i * cols + j;
  if (n > 0) return cand[s.rng.random(0, n - 1)]!;
  for (let tries = 0; tries < 1_000_000; tries++) {
    const i = s.rng.random(0, rows - 1);
    const j = s.rng.random(0, cols - 1);
    const c = i * cols + j;
    if (!s.waste[c] && s.cellUnit[c] === -1 && !s.food[c]) return c;
  }
  throw new Error('walking-dead: no empty cell left to regenerate an object');
}

/** The neighbour of cell p in direction dir, or -1 off the board. */
function dest(s: TwdState, p: number, dir: number): number {
  const i = ((p / s.cols) | 0) + DI[dir]!;
  const j = (p % s.cols) + DJ[dir]!;
  if (i < 0 || j < 0 || i >= s.rows || j >= s.cols) return -1;
  return i * s.cols + j;
}

interface RoundWork {
  /** Food eaten per clan; the last slot is food eaten by zombies. */
  ate: Int32Array;
  /** Zombies killed by each clan this round (they come back as its units). */
  zombieToUnit: number[][];
  /** Units killed in fights this round. */
  killed: Uint8Array;
  /** Strength of every clan during this round's fights. */
  strength: Int32Array;
  events: TwdEvent[];
}

/**
 * Who wins a fight (statement: "Amb un 30% de probabilitat ... sorpresa; en
 * cas contrari ... N/(N+M)"; N=M=0: even odds), with the original's draws:
 * random(0,100) < 30 (so 30/101), then random(0,1000) < N/(N+M)*1000 in
 * doubles (N=M=0: random(0,1) == 0).
 */
function attackerWins(s: TwdState, n: number, m: number): { win: boolean; surprise: boolean } {
  if (s.rng.random(0, 100) < 30) return { win: true, surprise: true };
  if (n + m === 0) return { win: s.rng.random(0, 1) === 0, surprise: false };
  return { win: s.rng.random(0, 1000) < (n / (n + m)) * 1000, surprise: false };
}

/** One alive unit's move (statement, "Moviments de les unitats vives"). */
function moveAlive(s: TwdState, w: RoundWork, id: number, dir: number): void {
  // Orders that fail still took their turn (and draw) in the interleaving.
  if (!(dir >= 0 && dir <= 7)) return; // not a direction
  if (s.uType[id] !== UType.Alive) return; // dead (maybe killed earlier this round)
  if (dir & 1) return; // never diagonally
  const op = s.uPos[id]!;
  const np = dest(s, op, dir);
  if (np < 0 || s.waste[np]) return;
  const pl = s.uPlayer[id]!;
  const other = s.cellUnit[np]!;
  if (other === -1) {
    if (s.food[np]) {
      // The strength points come at the end of the round (fights of this
      // round use the strengths of its start, as in the original).
      s.food[np] = 0;
      w.ate[pl]!++;
      w.events.push({ k: 'eat', u: id, p: np });
    }
    s.owner[np] = pl;
    s.cellUnit[np] = id;
    s.cellUnit[op] = -1;
    s.uPos[id] = np;
    return;
  }
  const t = s.uType[other]!;
  if (t === UType.Zombie) {
    // The zombie dies; it comes back at the end of the round as a unit of this clan.
    s.cellUnit[np] = -1;
    s.uPos[other] = -1;
    w.zombieToUnit[pl]!.push(other);
    s.scrAcc[pl]! += s.cfg.points_for_killing_zombie;
    w.events.push({ k: 'zkill', u: id, z: other });
    return;
  }
  if (t === UType.Dead || s.uPlayer[other] === pl) return;
  const opl = s.uPlayer[other]!;
  const r = attackerWins(s, w.strength[pl]!, w.strength[opl]!);
  const winner = r.win ? id : other;
  const loser = r.win ? other : id;
  // The loser dies; its conversion (re)starts from the beginning.
  s.uType[loser] = UType.Dead;
  s.uRfz[loser] = s.cfg.rounds_before_becoming_zombie;
  w.killed[loser] = 1;
  s.scrAcc[s.uPlayer[winner]!]! += s.cfg.points_for_killing_person;
  w.events.push({ k: 'fight', a: id, d: other, w: winner, surprise: r.surprise });
}

/**
 * Zombies (statement, "Moviments dels zombis"; the BFS of the original engine): one
 * multi-source BFS from every alive unit over 8 neighbours, through cells
 * that are not waste and hold no dead unit and no zombie. Each zombie, in id
 * order, steps to a neighbour at minimum distance (random tie); unreachable
 * neighbours are never chosen.
 */
function moveZombies(s: TwdState, w: RoundWork): void {
  const { rows, cols } = s;
  const n = rows * cols;
  const INF = 0x3fffffff;
  if (scratchDist.length < n) {
    scratchDist = new Int32Array(n);
    scratchQueue = new Int32Array(n);
  }
  const T = scratchDist;
  const Q = scratchQueue;
  T.fill(INF, 0, n);
  let head = 0;
  let tail = 0;
  for (let u = 0; u < s.uType.length; u++) {
    if (s.uType[u] === UType.Alive) {
      const p = s.uPos[u]!;
      T[p] = 0;
      Q[tail++] = p;
    }
  }
  while (head < tail) {
    const p = Q[head++]!;
    const pi = (p / cols) | 0;
    const pj = p - pi * cols;
    const nd = T[p]! + 1;
    for (let d = 0; d < 8; d++) {
      const i = pi + DI[d]!;
      const j = pj + DJ[d]!;
      if (i < 0 || j < 0 || i >= rows || j >= cols) continue;
      const c = i * cols + j;
      if (T[c] !== INF || s.waste[c]) continue;
      const o = s.cellUnit[c]!;
      if (o !== -1 && s.uType[o] !== UType.Alive) continue;
      T[c] = nd;
      Q[tail++] = c;
    }
  }
  const best: number[] = [];
  for (let z = 0; z < s.uType.length; z++) {
    if (s.uType[z] !== UType.Zombie || s.uPos[z] === -1) continue;
    const p = s.uPos[z]!;
    let min = INF;
    best.length = 0;
    for (let d = 0; d < 8; d++) {
      const c = dest(s, p, d);
      if (c < 0) continue;
      const v = T[c]!;
      if (v < min) {
        min = v;
        best.length = 0;
        best.push(d);
      } else if (v === min && v !== INF) best.push(d);
    }
    if (best.length === 0) continue;
    const dir = best[s.rng.random(0, best.length - 1)]!;
    moveZombie(s, w, z, dir);
  }
}

function moveZombie(s: TwdState, w: RoundWork, z: number, dir: number): void {
  const op = s.uPos[z]!;
  const np = dest(s, op, dir);
  if (np < 0 || s.waste[np]) return;
  const other = s.cellUnit[np]!;
  if (other === -1) {
    if (s.food[np]) {
      s.food[np] = 0;
      w.ate[s.cfg.num_players]!++;
      w.events.push({ k: 'zeat', z, p: np });
    }
    s.owner[np] = -1; // the clan that owned the cell loses it
    s.cellUnit[np] = z;
    s.cellUnit[op] = -1;
    s.uPos[z] = np;
    return;
  }
  if (s.uType[other] !== UType.Alive) return; // never onto a zombie or a dead unit
  // A bite: the conversion starts unless it already had. The countdown is
  // decremented at the end of this same round, hence +1 (as in the original).
  if (s.uRfz[other] === -1) s.uRfz[other] = s.cfg.rounds_before_becoming_zombie + 1;
  w.events.push({ k: 'bite', z, u: other });
}

/**
 * The random interleaving of the players' orders (as the original Board::next does it): while some
 * order is pending, q = players with orders pending, pick the random(1,q)-th
 * of them in id order and run its next order.
 */
function runOrders(s: TwdState, w: RoundWork, orders: readonly (readonly TwdOrder[])[]): void {
  const np = s.cfg.num_players;
  const idx = new Array<number>(np).fill(0);
  let pending = 0;
  for (let pl = 0; pl < np; pl++) pending += orders[pl]?.length ?? 0;
  while (pending-- > 0) {
    let q = 0;
    for (let pl = 0; pl < np; pl++) if (idx[pl]! < (orders[pl]?.length ?? 0)) q++;
    const ran = s.rng.random(1, q);
    let pl = -1;
    let acc = 0;
    while (acc < ran) {
      pl++;
      if (idx[pl]! < (orders[pl]?.length ?? 0)) acc++;
    }
    const o = orders[pl]![idx[pl]!++]!;
    moveAlive(s, w, o[0], o[1]);
  }
}

/**
 * The 20% clan switch: a random alive unit of the clan with most alive units
 * joins the clan with fewest (random among ties; if all are equal, two
 * distinct random clans). The cell it stands on changes owner with it.
 * As in the original (which sorts (count, clan) pairs in descending order),
 * tied largest clans are listed in descending clan order and tied smallest
 * ones in ascending order before the random pick.
 */
function clanSwitch(s: TwdState, w: RoundWork): void {
  if (s.rng.random(0, 4) !== 0) return;
  const np = s.cfg.num_players;
  const cnt: number[] = [];
  for (let pl = 0; pl < np; pl++) cnt.push(aliveCount(s, pl));
  const max = Math.max(...cnt);
  const min = Math.min(...cnt);
  let wins: number;
  let loses: number;
  if (max === min) {
    // As the original selectLargestSmallestClan: the winner first, then a distinct loser.
    wins = s.rng.random(0, np - 1);
    loses = s.rng.random(0, np - 1);
    while (loses === wins) loses = s.rng.random(0, np - 1);
  } else {
    const largest = cnt.flatMap((c, pl) => (c === max ? [pl] : [])).reverse();
    const smallest = cnt.flatMap((c, pl) => (c === min ? [pl] : []));
    loses = largest[s.rng.random(0, largest.length - 1)]!;
    wins = smallest[s.rng.random(0, smallest.length - 1)]!;
  }
  if (cnt[loses] === 0) return;
  let k = s.rng.random(0, cnt[loses]! - 1);
  for (let u = 0; u < s.uType.length; u++) {
    if (s.uType[u] !== UType.Alive || s.uPlayer[u] !== loses) continue;
    if (k-- > 0) continue;
    s.uPlayer[u] = wins;
    s.owner[s.uPos[u]!] = wins;
    w.events.push({ k: 'switch', u, from: loses, to: wins });
    return;
  }
}

export function nextState(state: TwdState, orders: readonly (readonly TwdOrder[])[]): { state: TwdState; events: TwdEvent[] } {
  const s = cloneState(state);
  const np = s.cfg.num_players;
  const strength = new Int32Array(np);
  for (let pl = 0; pl < np; pl++) strength[pl] = strengthOf(s, pl);
  const w: RoundWork = {
    ate: new Int32Array(np + 1),
    zombieToUnit: Array.from({ length: np }, () => []),
    killed: new Uint8Array(s.uType.length),
    strength,
    events: [],
  };

  runOrders(s, w, orders);
  moveZombies(s, w);

  // End of the round, in the statement's order.
  // 1. Conversion countdowns; finished units (alive or dead) become zombies in
  //    place and their cell loses its owner. Units killed this round start
  //    their full countdown now (the original decremented then reset them).
  for (let u = 0; u < s.uType.length; u++) {
    if (s.uRfz[u]! > 0 && !w.killed[u]) s.uRfz[u]!--;
  }
  for (let u = 0; u < s.uType.length; u++) {
    if (s.uRfz[u] !== 0) continue;
    s.uType[u] = UType.Zombie;
    s.uPlayer[u] = -1;
    s.uRfz[u] = -1;
    s.owner[s.uPos[u]!] = -1;
    w.events.push({ k: 'zombie', u, p: s.uPos[u]! });
  }
  // 2. Killed zombies come back as alive units of the killer's clan.
  for (let pl = 0; pl < np; pl++) {
    for (const z of w.zombieToUnit[pl]!) {
      const p = regenPos(s);
      placeUnit(s, z, UType.Alive, pl, p);
      w.events.push({ k: 'spawn', u: z, pl, p });
    }
  }
  // 3. Maybe one unit switches from the largest clan to the smallest.
  clanSwitch(s, w);
  // 4. Food: strength grows with the food eaten and shrinks by the number of
  //    alive units (never below 0); every eaten food item reappears.
  for (let pl = 0; pl < np; pl++) {
    const v = s.points[pl]! + s.cfg.food_strength * w.ate[pl]! - aliveCount(s, pl);
    s.points[pl] = v < 0 ? 0 : v;
  }
  for (let pl = 0; pl <= np; pl++) {
    for (let k = 0; k < w.ate[pl]!; k++) {
      const p = regenPos(s);
      s.food[p] = 1;
      w.events.push({ k: 'food', p });
    }
  }
  // 5. Scores: the accumulated points plus one per owned cell.
  updateCells(s);
  for (let pl = 0; pl < np; pl++) s.score[pl] = s.scrAcc[pl]! + s.nbCells[pl]!;
  s.round++;
  return { state: s, events: w.events };
}
