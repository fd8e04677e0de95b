// Harry Potter engine (Albert Oliveras, EDA Q1 2024-25). The statement
// (statement.ca.md in this folder) is the primary spec; the original engine
// fills its gaps (movement of ghosts and wizards, the order of a round,
// Voldemort's targeting, regeneration, the spell puzzle).
//
// Pure: next() clones what it changes and keeps the RNG inside the state.

import type { Rng } from '../../sdk/rng.ts';
import { copyBoardState, type BoardState } from '../../sdk/grid.ts';
import type { HPConfig } from './config.ts';

// Dir {Down, DR, Right, RU, Up, UL, Left, LD}: offsets (di, dj).
export const DI = [1, 1, 0, -1, -1, -1, 0, 1] as const;
export const DJ = [0, 1, 1, 1, 0, -1, -1, -1] as const;
export const DIR_CHARS = 'dcreuqlz';
export const Dir = { Down: 0, DR: 1, Right: 2, RU: 3, Up: 4, UL: 5, Left: 6, LD: 7 } as const;

import { GHOST, WIZARD } from './frame.ts';

export { GHOST, WIZARD };

/** A validated order: [0, id, dir] moves, [1, id, solution] casts a spell. */
export type HPOrder = [0, number, number] | [1, number, number[]];

export const SPELL_SIZE = 15;
/** No spell during the last 50 rounds (statement; Board::execute). */
export const NO_SPELL_LAST_ROUNDS = 50;

export interface HPState extends BoardState<HPConfig> {
  /** 1 = wall. Never changes after create(), so it is shared between states. */
  wall: Uint8Array;
  /** Owner of each cell, -1 = nobody. */
  owner: Int8Array;
  /** Unit on each cell, -1 = none. */
  cellId: Int16Array;
  /** 1 = a book lies here. */
  book: Uint8Array;
  /** Per unit (index = id). utype never changes: WIZARD or GHOST. */
  utype: Uint8Array;
  uplayer: Int8Array;
  /** i*cols + j. */
  upos: Int32Array;
  /** Wizard: rounds before its conversion completes (0 = none). Ghost: rounds before it may cast. */
  upending: Int32Array;
  /** Wizard: clan it converts to (-1 = none). Ghost: last round it was attacked (-1 = never). */
  unext: Int32Array;
  /** Overall magic strength points per clan. */
  strength: Int32Array;
  /** Points for completed conversions. */
  scoreAcc: Int32Array;
  nbCells: Int32Array;
  score: Int32Array;
  /** The 15 ingredients of the current spell. */
  spell: Int32Array;
  vi: number;
  vj: number;
}

export interface HPEvent {
  /** 'attack' battle | 'ghost' ghost attacked | 'cancel' conversion stopped | 'spell' | 'kill' by Voldemort |
   *  'respawn' | 'convert' clan change. */
  t: string;
  [k: string]: unknown;
}

export function cloneState(s: HPState): HPState {
  return {
    ...copyBoardState(s),
    wall: s.wall,
    owner: s.owner.slice(),
    cellId: s.cellId.slice(),
    book: s.book.slice(),
    utype: s.utype,
    uplayer: s.uplayer.slice(),
    upos: s.upos.slice(),
    upending: s.upending.slice(),
    unext: s.unext.slice(),
    strength: s.strength.slice(),
    scoreAcc: s.scoreAcc.slice(),
    nbCells: s.nbCells.slice(),
    score: s.score.slice(),
    spell: s.spell.slice(),
    vi: s.vi,
    vj: s.vj,
  };
}

export function nbUnits(s: HPState): number {
  return s.utype.length;
}

/** Number of wizards of a clan (units on the board or being regenerated are all counted by the caller's choice). */
export function countWizards(s: HPState, pl: number): number {
  let n = 0;
  for (let id = 0; id < s.utype.length; id++) if (s.utype[id] === WIZARD && s.uplayer[id] === pl) n++;
  return n;
}

/** magic_strength(pl) = overall / (1 + #wizards): the ghost counts as a unit (State.hh; statement: points / units). */
export function magicStrength(s: HPState, pl: number, nbWizards = countWizards(s, pl)): number {
  return Math.floor(s.strength[pl]! / (1 + nbWizards));
}

export function ghostOf(s: HPState, pl: number): number {
  for (let id = 0; id < s.utype.length; id++) if (s.utype[id] === GHOST && s.uplayer[id] === pl) return id;
  return -1;
}

/** Whether a spell solution is right: size 15, labels 0..4, each label exactly 3 items, all groups with equal sums. */
export function isSpellSolutionCorrect(ingredients: ArrayLike<number>, sol: readonly number[]): boolean {
  const n = ingredients.length;
  if (sol.length !== n || n % 3 !== 0) return false;
  const parts = n / 3;
  const size = new Array<number>(parts).fill(0);
  const sum = new Array<number>(parts).fill(0);
  for (let i = 0; i < n; i++) {
    const g = sol[i]!;
    if (!Number.isInteger(g) || g < 0 || g >= parts) return false;
    size[g]!++;
    sum[g]! += ingredients[i]!;
  }
  for (let g = 0; g < parts; g++) if (size[g] !== 3 || sum[g] !== sum[0]) return false;
  return true;
}

/**
 * Spell ingredients (Board::generate_spell_ingredients): T = random(5,30); five
 * triples x,y,z in [T/4, T/2] summing to T (rejection sampling); then
 * placed through random_permutation(15): out[perm[i]] = in[i].
 */
export function generateSpellIngredients(rng: Rng, n = SPELL_SIZE): Int32Array {
  const res: number[] = [];
  const total = rng.random(5, 30);
  const m = Math.trunc(total / 4);
  const M = Math.trunc(total / 2);
  for (let k = 0; k < n / 3; k++) {
    for (;;) {
      const x = rng.random(m, M);
      const y = rng.random(m, M);
      const z = total - x - y;
      if (z >= m && z <= M) {
        res.push(x, y, z);
        break;
      }
    }
  }
  const perm = rng.permutation(res.length, true);
  const out = new Int32Array(res.length);
  for (let i = 0; i < perm.length; i++) out[perm[i]!] = res[i]!;
  return out;
}

/**
 * Regeneration position (Board::get_random_pos_where_regenerate): an empty cell
 * (corridor, no unit, no book) with no unit, no book and not Voldemort in the
 * 5x5 square around it; uniform over the row-major list by random(0, n-1).
 * If there is none, a random empty cell by rejection. `voldemortRule` adds
 * Voldemort's own condition: not on the border.
 */
export function regenPosition(s: HPState, rng: Rng, voldemortRule = false): number {
  // The arrays read from the state once, out of the loops: states of several shapes make each s.x a polymorphic load.
  const { rows, cols, cellId, book, wall } = s;
  // 2D prefix sums of "blocking" cells (unit, book, Voldemort), so each 5x5 test is O(1).
  const W = cols + 1;
  const pre = new Int32Array((rows + 1) * W);
  const vIdx = s.vi >= 0 && s.vi < rows && s.vj >= 0 && s.vj < cols ? s.vi * cols + s.vj : -1;
  for (let i = 0; i < rows; i++) {
    let rowSum = 0;
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      if (cellId[k] !== -1 || book[k] || k === vIdx) rowSum++;
      pre[(i + 1) * W + j + 1] = pre[i * W + j + 1]! + rowSum;
    }
  }
  const candidates: number[] = [];
  for (let i = 0; i < rows; i++) {
    if (voldemortRule && (i < 1 || i > rows - 2)) continue;
    const i0 = Math.max(0, i - 2);
    const i1 = Math.min(rows - 1, i + 2);
    for (let j = 0; j < cols; j++) {
      if (voldemortRule && (j < 1 || j > cols - 2)) continue;
      const k = i * cols + j;
      if (wall[k] || cellId[k] !== -1 || book[k]) continue;
      const j0 = Math.max(0, j - 2);
      const j1 = Math.min(cols - 1, j + 2);
      const blocked = pre[(i1 + 1) * W + j1 + 1]! - pre[i0 * W + j1 + 1]! - pre[(i1 + 1) * W + j0]! + pre[i0 * W + j0]!;
      if (blocked === 0) candidates.push(k);
    }
  }
  if (candidates.length > 0) return candidates[rng.random(0, candidates.length - 1)]!;
  return emptyPosition(s, rng);
}

/** Board::get_empty_pos: random cells until one is empty (with a scan as a safety net). */
function emptyPosition(s: HPState, rng: Rng): number {
  const { rows, cols } = s;
  for (let tries = 0; tries < 1_000_000; tries++) {
    const i = rng.random(0, rows - 1);
    const j = rng.random(0, cols - 1);
    const k = i * cols + j;
    if (!s.wall[k] && s.cellId[k] === -1 && !s.book[k]) return k;
  }
  for (let k = 0; k < rows * cols; k++) if (!s.wall[k] && s.cellId[k] === -1 && !s.book[k]) return k;
  throw new Error('harry-potter: no empty cell left on the board');
}

/** One round's work on a copy of the state, phase by phase (playRound runs them in Board::next's order). */
class HPRound {
  readonly s: HPState;
  readonly rng: Rng;
  readonly cfg: HPConfig;
  readonly np: number;
  readonly rows: number;
  readonly cols: number;
  readonly n: number;
  readonly events: HPEvent[] = [];
  /** Current number of wizards per clan (killed ones leave at once). */
  readonly wiz: Int32Array;
  readonly booksRead: Int32Array;
  readonly killedWizards: number[][];
  readonly killedGhost: Uint8Array;
  spellCast = false;
  booksDestroyed = 0;

  constructor(prev: HPState) {
    const s = cloneState(prev);
    this.s = s;
    this.rng = s.rng;
    this.cfg = s.cfg;
    this.np = s.cfg.num_players;
    this.rows = s.rows;
    this.cols = s.cols;
    this.n = nbUnits(s);
    this.wiz = new Int32Array(this.np);
    for (let id = 0; id < this.n; id++) if (s.utype[id] === WIZARD) this.wiz[s.uplayer[id]!]!++;
    this.booksRead = new Int32Array(this.np);
    this.killedWizards = Array.from({ length: this.np }, () => []);
    this.killedGhost = new Uint8Array(this.np);
  }

  /** Is cell k in Voldemort's 3x3? */
  attacks(k: number): boolean {
    const { s, cols } = this;
    return Math.abs(((k / cols) | 0) - s.vi) <= 1 && Math.abs((k % cols) - s.vj) <= 1;
  }

  kill(id: number): void {
    const { s, wiz, killedWizards, killedGhost } = this;
    const pl = s.uplayer[id]!;
    if (s.utype[id] === GHOST) killedGhost[pl] = 1;
    else {
      killedWizards[pl]!.push(id);
      wiz[pl]!--;
    }
  }

  changeClan(id: number, to: number): void {
    const { s, cfg, wiz, events } = this;
    const from = s.uplayer[id]!;
    wiz[from]!--;
    wiz[to]!++;
    s.uplayer[id] = to;
    s.owner[s.upos[id]!] = to;
    s.scoreAcc[to]! += cfg.points_for_converting_wizard;
    events.push({ t: 'convert', id, from, to });
  }

  /** Board::result_attack: 2/-2 immediate conversion of the defender/attacker, 1/-1 a conversion process starts. */
  battle(a: number, d: number): void {
    const { s, cfg, rng, wiz, events } = this;
    const s1 = Math.floor(s.strength[s.uplayer[a]!]! / (1 + wiz[s.uplayer[a]!]!));
    const s2 = Math.floor(s.strength[s.uplayer[d]!]! / (1 + wiz[s.uplayer[d]!]!));
    let r: number;
    if (s1 > 2 * s2) r = 2;
    else if (s2 > 2 * s1) r = -2;
    else if (rng.random(0, 100) < 30)
      r = 1; // surprise: 30 of 101
    else if (s1 + s2 === 0) r = rng.random(0, 1) === 0 ? 1 : -1;
    else r = rng.random(0, 1000) < (s1 / (s1 + s2)) * 1000 ? 1 : -1;
    events.push({ t: 'attack', a, d, r });
    if (r === 2) this.changeClan(d, s.uplayer[a]!);
    else if (r === -2) this.changeClan(a, s.uplayer[d]!);
    else {
      const loser = r === 1 ? d : a;
      const winner = r === 1 ? a : d;
      s.upending[loser] = cfg.rounds_for_converting;
      s.unext[loser] = s.uplayer[winner]!;
    }
  }

  stepTo(id: number, from: number, to: number): void {
    const { s, booksRead } = this;
    const pl = s.uplayer[id]!;
    if (s.book[to]) {
      s.book[to] = 0;
      booksRead[pl]!++;
    }
    s.owner[to] = pl;
    s.cellId[to] = id;
    s.cellId[from] = -1;
    s.upos[id] = to;
  }

  move(id: number, dir: number): boolean {
    const { s, cfg, rows, cols, events } = this;
    if (!(dir >= 0 && dir <= 7)) return false;
    const type = s.utype[id]!;
    if (type === WIZARD && dir % 2 === 1) return false; // wizards never move diagonally
    const from = s.upos[id]!;
    const i = ((from / cols) | 0) + DI[dir]!;
    const j = (from % cols) + DJ[dir]!;
    if (i < 0 || i >= rows || j < 0 || j >= cols) return false;
    const to = i * cols + j;
    // Voldemort's 3x3 is checked first: the mover dies even if the destination is a wall or occupied.
    if (this.attacks(to)) {
      s.cellId[from] = -1;
      this.kill(id);
      events.push({ t: 'kill', id, by: 'move' });
      return true;
    }
    if (s.wall[to]) return false;
    const other = s.cellId[to]!;
    if (other === -1) {
      this.stepTo(id, from, to);
      return true;
    }
    if (type === GHOST) return false; // ghosts never attack
    if (s.upending[id]! > 0) return false; // a converting wizard cannot attack nor stop a conversion
    const pl = s.uplayer[id]!;
    if (s.uplayer[other] === pl) {
      // Same clan: only stops the conversion of a converting wizard.
      if (s.utype[other] === GHOST || s.upending[other] === 0) return false;
      s.upending[other] = 0;
      s.unext[other] = -1;
      events.push({ t: 'cancel', id: other, by: id });
      return true;
    }
    if (s.utype[other] === GHOST) {
      const last = s.unext[other]!;
      if (last !== -1 && s.round - last < cfg.rounds_no_attack_ghost) return false;
      s.upending[other]! += cfg.rounds_attack_resting_ghost;
      s.unext[other] = s.round;
      events.push({ t: 'ghost', id: other, by: id });
      return true;
    }
    if (s.upending[other]! > 0) return false; // no attack on a wizard already converting
    this.battle(id, other);
    return true;
  }

  castSpell(id: number, sol: readonly number[]): boolean {
    const { s, cfg, rng, rows, cols, events } = this;
    if (s.utype[id] !== GHOST) return false;
    if (cfg.num_rounds - s.round <= NO_SPELL_LAST_ROUNDS) return false;
    if (s.upending[id] !== 0) return false;
    if (this.spellCast) return false; // only one spell per round
    if (!isSpellSolutionCorrect(s.spell, sol)) return false;
    this.spellCast = true;
    s.upending[id] = cfg.rounds_spell_resting_ghost;
    const pl = s.uplayer[id]!;
    // 15% of the corridor cells without a unit (books and own cells count) are taken,
    // among those not owned by the caster, in random_permutation order.
    let empty = 0;
    const positions: number[] = [];
    for (let k = 0; k < rows * cols; k++) {
      if (!s.wall[k] && s.cellId[k] === -1) {
        empty++;
        if (s.owner[k] !== pl) positions.push(k);
      }
    }
    let toCapture = Math.trunc(empty * 0.15);
    const perm = rng.permutation(positions.length, true);
    let captured = 0;
    for (let x = 0; toCapture > 0 && x < perm.length; x++) {
      s.owner[positions[perm[x]!]!] = pl;
      toCapture--;
      captured++;
    }
    events.push({ t: 'spell', id, pl, cells: captured });
    return true;
  }

  /**
   * Commands: first command per unit, only for units the player owns at the
   * start of the round (Board::next), then a random interleaving that keeps
   * each clan's own order. Ownership is not checked again while executing: a
   * wizard converted at once earlier in the round still runs its old clan's
   * command.
   */
  commands(orders: readonly (readonly HPOrder[])[]): void {
    const { s, rng, np, n } = this;
    const lists: HPOrder[][] = [];
    const seen = new Uint8Array(n);
    for (let p = 0; p < np; p++) {
      const mine: HPOrder[] = [];
      for (const o of orders[p] ?? []) {
        const id = o[1];
        if (!(id >= 0 && id < n) || s.uplayer[id] !== p || seen[id]) continue;
        seen[id] = 1;
        mine.push(o as HPOrder);
      }
      lists.push(mine);
    }
    const index = new Int32Array(np);
    let pending = 0;
    for (let p = 0; p < np; p++) pending += lists[p]!.length;
    while (pending-- > 0) {
      let q = 0;
      for (let p = 0; p < np; p++) if (index[p]! < lists[p]!.length) q++;
      const ran = rng.random(1, q);
      let p = -1;
      let acc = 0;
      while (acc < ran) {
        p++;
        if (index[p]! < lists[p]!.length) acc++;
      }
      const o = lists[p]![index[p]!++]!;
      const id = o[1];
      if (o[0] === 0) this.move(id, o[2]);
      else this.castSpell(id, o[2]);
    }
  }

  /**
   * Voldemort (Board::new_pos_for_voldemort): target = a random unit at
   * minimum Manhattan distance (killed units still count, at the cell they
   * died from).
   */
  voldemort(): void {
    const { s, rng, rows, cols, n, events } = this;
    if (n > 0) {
      let minim = 1e8;
      const goals: number[] = [];
      for (let id = 0; id < n; id++) {
        const k = s.upos[id]!;
        const d = Math.abs(((k / cols) | 0) - s.vi) + Math.abs((k % cols) - s.vj);
        if (d < minim) {
          minim = d;
          goals.length = 0;
          goals.push(k);
        } else if (d === minim) goals.push(k);
      }
      const goal = goals[rng.random(0, goals.length - 1)]!;
      const gi = (goal / cols) | 0;
      const gj = goal % cols;
      // Through walls, 4 directions (Down, Right, Up, Left): closer in Manhattan distance, ties by Chebyshev.
      let best = -1;
      let maxim = 1e8;
      for (let d = 0; d < 8; d += 2) {
        const i = s.vi + DI[d]!;
        const j = s.vj + DJ[d]!;
        if (i < 0 || i >= rows || j < 0 || j >= cols) continue;
        const di = Math.abs(i - gi);
        const dj = Math.abs(j - gj);
        const mx = di > dj ? di : dj;
        const dist = di + dj;
        if (dist < minim || (dist === minim && mx < maxim)) {
          best = d;
          minim = dist;
          maxim = mx;
        }
      }
      if (best >= 0) {
        s.vi += DI[best]!;
        s.vj += DJ[best]!;
      }
    }
    for (let d = 0; d < 8; d++) {
      const i = s.vi + DI[d]!;
      const j = s.vj + DJ[d]!;
      if (i < 0 || i >= rows || j < 0 || j >= cols) continue;
      const k = i * cols + j;
      if (s.book[k]) {
        s.book[k] = 0;
        this.booksDestroyed++;
      }
      s.owner[k] = -1;
      const id = s.cellId[k]!;
      if (id !== -1) {
        s.cellId[k] = -1;
        this.kill(id);
        events.push({ t: 'kill', id, by: 'voldemort' });
      }
    }
  }

  /**
   * Regeneration of killed units: wizards first (player by player), joining
   * random(0,3) (possibly their own clan) with no conversion pending; then
   * ghosts, resting as after a spell.
   */
  regenerate(): void {
    const { s, cfg, rng, np, wiz, killedWizards, killedGhost, events } = this;
    for (let p = 0; p < np; p++) {
      for (const id of killedWizards[p]!) {
        const k = regenPosition(s, rng);
        const pl = rng.random(0, np - 1);
        s.owner[k] = pl;
        s.cellId[k] = id;
        s.uplayer[id] = pl;
        s.upos[id] = k;
        s.upending[id] = 0;
        s.unext[id] = -1;
        wiz[pl]!++;
        events.push({ t: 'respawn', id, pl, at: k });
      }
    }
    for (let p = 0; p < np; p++) {
      if (!killedGhost[p]) continue;
      const id = ghostOf(s, p);
      const k = regenPosition(s, rng);
      s.owner[k] = p;
      s.cellId[k] = id;
      s.upos[id] = k;
      s.upending[id] = cfg.rounds_spell_resting_ghost;
      s.unext[id] = -1;
      events.push({ t: 'respawn', id, pl: p, at: k });
    }
  }

  /** Ghosts rest one round less. */
  restGhosts(): void {
    const { s, n } = this;
    for (let id = 0; id < n; id++) if (s.utype[id] === GHOST && s.upending[id]! > 0) s.upending[id]!--;
  }

  /** Conversions: at 0 the wizard joins next_player, whose clan scores the points. */
  conversions(): void {
    const { s, n } = this;
    const changes: number[] = [];
    for (let id = 0; id < n; id++) {
      if (s.utype[id] === WIZARD && s.upending[id]! > 0) {
        s.upending[id]!--;
        if (s.upending[id] === 0) {
          changes.push(id, s.unext[id]!);
          s.unext[id] = -1;
        }
      }
    }
    for (let x = 0; x < changes.length; x += 2) this.changeClan(changes[x]!, changes[x + 1]!);
  }

  /** Books: strength for the books read, then every book taken or destroyed comes back. */
  books(): void {
    const { s, cfg, rng, np, booksRead } = this;
    for (let p = 0; p < np; p++) {
      s.strength[p]! += cfg.book_magic_strength * booksRead[p]!;
      for (let b = 0; b < booksRead[p]!; b++) s.book[regenPosition(s, rng)] = 1;
    }
    for (let b = 0; b < this.booksDestroyed; b++) s.book[regenPosition(s, rng)] = 1;
  }
}

/**
 * One round in the order of Board::next:
 * commands (interleaved) → Voldemort moves and attacks → killed units
 * regenerate → ghosts rest one round less → conversions progress/complete →
 * strength from books read and books regenerated → owned cells → score → new
 * spell ingredients → round + 1.
 */
export function playRound(prev: HPState, orders: readonly (readonly HPOrder[])[]): { state: HPState; events: HPEvent[] } {
  const r = new HPRound(prev);
  r.commands(orders);
  r.voldemort();
  r.regenerate();
  r.restGhosts();
  r.conversions();
  r.books();
  const s = r.s;
  updateCellsAndScore(s);
  s.spell = generateSpellIngredients(r.rng);
  s.round++;
  return { state: s, events: r.events };
}

export function updateCellsAndScore(s: HPState): void {
  const np = s.cfg.num_players;
  s.nbCells.fill(0);
  for (let k = 0; k < s.owner.length; k++) {
    const o = s.owner[k]!;
    if (o >= 0 && o < np) s.nbCells[o]!++;
  }
  for (let p = 0; p < np; p++) s.score[p] = s.scoreAcc[p]! + s.nbCells[p]! * s.cfg.points_per_owned_cell;
}
