// The Moria engine: one round of the original's Board::next (the original
// engine, repository alvaroarino/JOC-EDA-2019-2020, folder game19/, Board.o),
// on typed arrays.
// It follows the original's behaviour, random draws included, even where the
// statement (statement.en.md in this folder) says otherwise: FIDELITY.md lists
// those places and how the two were compared.

import { Rng } from '../../sdk/rng.ts';
import { CONST, type MoriaConfig } from './config.ts';

export enum CT {
  Outside = 0,
  Cave = 1,
  Abyss = 2,
  Granite = 3,
  Rock = 4,
}
export enum UT {
  Dwarf = 0,
  Wizard = 1,
  Orc = 2,
  Troll = 3,
  Balrog = 4,
}
export const NONE_DIR = 8;
/** Bottom, BR, Right, RT, Top, TL, Left, LB, None. */
export const DI = [1, 1, 0, -1, -1, -1, 0, 1, 0] as const;
export const DJ = [0, 1, 1, 1, 0, -1, -1, -1, 0] as const;

/** One order: [unit id, direction 0..8]. */
export type MoriaOrder = [id: number, dir: number];

export interface MoriaState {
  cfg: MoriaConfig;
  round: number;
  /** The board RNG's state (Random.hh seed). */
  seed: number;
  /** Per cell (i*cols+j). */
  type: Uint8Array;
  owner: Int8Array;
  turns: Uint8Array;
  treasure: Uint8Array;
  unitAt: Int16Array;
  /** Per unit id. pos = i*cols+j, or -1 (dead orc). */
  utype: Uint8Array;
  uplayer: Int8Array;
  uhealth: Int16Array;
  upos: Int16Array;
  nbTreasures: Int32Array;
  nbCells: Int32Array;
}

export type MoriaEvent =
  | { t: 'atk'; a: number; v: number; d: number; h: number } // attacker, victim, damage, health left
  | { t: 'kill'; v: number; by: number; to: number; why: 'attack' | 'abyss' | 'balrog' } // by = killer id or -1; to = new clan (-1 Sauron)
  | { t: 'dig'; p: number; left: number }
  | { t: 'open'; p: number; abyss: boolean } // rock became cave / abyss
  | { t: 'gold'; v: number; p: number } // treasure picked
  | { t: 'move'; v: number; d: number } // Sauron unit moves (incl. None for the Balrog), like the .res movements
  | { t: 'spawn'; v: number; p: number }
  | { t: 'heal'; v: number; by: number };

export interface Layout {
  nbUnits: number;
  firstOrc: number;
  firstTroll: number;
  balrog: number;
  perPlayer: number;
}

export function layout(cfg: MoriaConfig): Layout {
  const perPlayer = cfg.nb_dwarves + cfg.nb_wizards;
  const firstOrc = cfg.nb_players * perPlayer;
  const firstTroll = firstOrc + cfg.max_nb_orcs;
  const balrog = firstTroll + cfg.nb_trolls;
  return { nbUnits: balrog + 1, firstOrc, firstTroll, balrog, perPlayer };
}

/** The type an id has for its whole life (ids are fixed, as in the original's output files). */
export function typeOfId(cfg: MoriaConfig, id: number): UT {
  const L = layout(cfg);
  if (id < L.firstOrc) return id % L.perPlayer < cfg.nb_dwarves ? UT.Dwarf : UT.Wizard;
  if (id < L.firstTroll) return UT.Orc;
  if (id < L.balrog) return UT.Troll;
  return UT.Balrog;
}

export function maxHealth(t: UT): number {
  switch (t) {
    case UT.Dwarf:
      return CONST.dwarves_health;
    case UT.Wizard:
      return CONST.wizards_health;
    case UT.Orc:
      return CONST.orcs_health;
    case UT.Troll:
      return CONST.trolls_health;
    default:
      return 0;
  }
}

/** An all-Rock board inside a 2-cell Outside band, no units placed (every pos -1). */
export function blankState(cfg: MoriaConfig, seed: number): MoriaState {
  const n = cfg.rows * cfg.cols;
  const L = layout(cfg);
  const s: MoriaState = {
    cfg,
    round: 0,
    seed: new Rng(seed).seed,
    type: new Uint8Array(n),
    owner: new Int8Array(n).fill(-1),
    turns: new Uint8Array(n),
    treasure: new Uint8Array(n),
    unitAt: new Int16Array(n).fill(-1),
    utype: new Uint8Array(L.nbUnits),
    uplayer: new Int8Array(L.nbUnits),
    uhealth: new Int16Array(L.nbUnits),
    upos: new Int16Array(L.nbUnits).fill(-1),
    nbTreasures: new Int32Array(cfg.nb_players),
    nbCells: new Int32Array(cfg.nb_players),
  };
  for (let i = 0; i < cfg.rows; i++)
    for (let j = 0; j < cfg.cols; j++) {
      const inside = i >= 2 && j >= 2 && i < cfg.rows - 2 && j < cfg.cols - 2;
      s.type[i * cfg.cols + j] = inside ? CT.Rock : CT.Outside;
      if (inside) s.turns[i * cfg.cols + j] = cfg.rock_resistance;
    }
  for (let id = 0; id < L.nbUnits; id++) {
    const t = typeOfId(cfg, id);
    s.utype[id] = t;
    s.uplayer[id] = id < L.firstOrc ? Math.floor(id / L.perPlayer) : -1;
    s.uhealth[id] = t === UT.Orc ? 0 : maxHealth(t);
  }
  return s;
}

export function cloneState(s: MoriaState): MoriaState {
  return {
    cfg: s.cfg,
    round: s.round,
    seed: s.seed,
    type: s.type.slice(),
    owner: s.owner.slice(),
    turns: s.turns.slice(),
    treasure: s.treasure.slice(),
    unitAt: s.unitAt.slice(),
    utype: s.utype.slice(),
    uplayer: s.uplayer.slice(),
    uhealth: s.uhealth.slice(),
    upos: s.upos.slice(),
    nbTreasures: s.nbTreasures.slice(),
    nbCells: s.nbCells.slice(),
  };
}

export function computeNbCells(s: MoriaState): void {
  s.nbCells.fill(0);
  const np = s.cfg.nb_players;
  for (let p = 0; p < s.owner.length; p++) {
    const o = s.owner[p]!;
    if (o >= 0 && o < np) s.nbCells[o]!++;
  }
}

/**
 * Puts unit id on cell p (no checks, the cell it left is not touched): a dwarf
 * conquers the Cave it lands on, a Sauron unit unconquers its cell.
 */
export function place(s: MoriaState, id: number, p: number): void {
  s.unitAt[p] = id;
  s.upos[id] = p;
  const pl = s.uplayer[id]!;
  if (pl < 0) s.owner[p] = -1;
  else if (s.utype[id] === UT.Dwarf && s.type[p] === CT.Cave) s.owner[p] = pl;
}

function ban(banned: Uint8Array, rows: number, cols: number, p: number, r: number): void {
  const i0 = Math.floor(p / cols);
  const j0 = p % cols;
  for (let i = Math.max(0, i0 - r); i <= Math.min(rows - 1, i0 + r); i++)
    for (let j = Math.max(0, j0 - r); j <= Math.min(cols - 1, j0 + r); j++) banned[i * cols + j] = 1;
}

/**
 * Initial placement (the original's generate_units): the Balrog on a random
 * cell of rows [3, rows-4] x cols [3, cols-4] (the column drawn first), ban
 * radius 3; then, over one permutation of the treasureless caves (row-major),
 * the trolls (highest id first) and the clan units in the order of a second
 * permutation of their ids, each on the next candidate not banned and banning
 * radius 1. Clan units left over go, without bans, on a fresh permutation of
 * the free treasureless caves outside the bans made before them. Returns false
 * when there is no room at all.
 */
export function generateUnits(s: MoriaState, rng: Rng): boolean {
  const { rows, cols } = s.cfg;
  const L = layout(s.cfg);
  const banned = new Uint8Array(rows * cols);
  const cands: number[] = [];
  for (let p = 0; p < rows * cols; p++) if (s.type[p] === CT.Cave && !s.treasure[p]) cands.push(p);
  const perm = rng.permutation(cands.length);
  const bj = rng.random(3, cols - 4);
  const bi = rng.random(3, rows - 4);
  const bp = bi * cols + bj;
  if (s.unitAt[bp]! >= 0) return false;
  s.unitAt[bp] = L.balrog;
  s.upos[L.balrog] = bp;
  ban(banned, rows, cols, bp, 3);
  let k = -1;
  for (let t = 0; t < s.cfg.nb_trolls; t++) {
    const id = L.balrog - 1 - t;
    for (k++; k < cands.length && banned[cands[perm[k]!]!]; k++);
    if (k >= cands.length) return false;
    const p = cands[perm[k]!]!;
    s.unitAt[p] = id;
    s.upos[id] = p;
    ban(banned, rows, cols, p, 1);
  }
  const total = L.firstOrc;
  const uperm = rng.permutation(total);
  const bannedBefore = banned.slice();
  let placed = 0;
  while (k < cands.length && placed < total) {
    for (k++; k < cands.length && banned[cands[perm[k]!]!]; k++);
    if (k >= cands.length) break;
    const p = cands[perm[k]!]!;
    place(s, uperm[placed]!, p);
    ban(banned, rows, cols, p, 1);
    placed++;
  }
  if (placed < total) {
    const rest: number[] = [];
    for (let p = 0; p < rows * cols; p++) if (s.type[p] === CT.Cave && !s.treasure[p] && s.unitAt[p]! < 0 && !bannedBefore[p]) rest.push(p);
    if (total - placed > rest.length) return false;
    const rperm = rng.permutation(rest.length);
    for (let m = 0; placed < total; m++, placed++) place(s, uperm[placed]!, rest[rperm[m]!]!);
  }
  computeNbCells(s);
  return true;
}

/**
 * One round. `orders[p]` are player p's validated orders (validateOrders);
 * the state is cloned, never mutated.
 */
export function playRound(state: MoriaState, orders: readonly (readonly MoriaOrder[])[]): { state: MoriaState; events: MoriaEvent[] } {
  const r = new RoundRunner(cloneState(state));
  r.run(orders);
  return { state: r.s, events: r.ev };
}

class RoundRunner {
  readonly s: MoriaState;
  readonly rng: Rng;
  readonly ev: MoriaEvent[] = [];
  readonly L: Layout;
  readonly rows: number;
  readonly cols: number;
  readonly killed: Uint8Array;

  constructor(s: MoriaState) {
    this.s = s;
    this.rng = new Rng(0);
    this.rng.seed = s.seed;
    this.L = layout(s.cfg);
    this.rows = s.cfg.rows;
    this.cols = s.cfg.cols;
    this.killed = new Uint8Array(this.L.nbUnits);
  }

  run(orders: readonly (readonly MoriaOrder[])[]): void {
    const s = this.s;
    const np = s.cfg.nb_players;
    // 1. Validation again (the host already did it): an alive unit of the
    // player, first order per unit, dir 0..8, wizards only straight; None
    // orders are dropped here, so they take no part in the interleaving.
    const lists: MoriaOrder[][] = [];
    const seen = new Uint8Array(this.L.nbUnits);
    for (let pl = 0; pl < np; pl++) {
      const list: MoriaOrder[] = [];
      for (const o of orders[pl] ?? []) {
        const [id, dir] = o;
        if (!this.ownedBy(id, pl) || seen[id]) continue;
        seen[id] = 1;
        if (!(Number.isInteger(dir) && dir >= 0 && dir <= NONE_DIR)) continue;
        if (s.utype[id] === UT.Wizard && dir % 2 === 1) continue;
        if (dir === NONE_DIR) continue;
        list.push([id, dir]);
      }
      lists.push(list);
    }
    // 2. Interleave as the original: pick the ran-th player with orders left.
    const idx = new Array<number>(np).fill(0);
    for (;;) {
      let q = 0;
      for (let pl = 0; pl < np; pl++) if (idx[pl]! < lists[pl]!.length) q++;
      if (q === 0) break;
      let ran = this.rng.random(1, q);
      let pl = 0;
      for (; pl < np; pl++) if (idx[pl]! < lists[pl]!.length && --ran === 0) break;
      const [id, dir] = lists[pl]![idx[pl]!++]!;
      // A unit killed earlier this round skips its order (its draw is spent).
      if (this.killed[id]) continue;
      this.move(id, dir);
    }
    // 3. Sauron: orcs, trolls, Balrog.
    this.moveOrcs();
    this.moveTrolls();
    this.moveBalrog();
    // 4. Respawns (every orc at 0 health; every dwarf, wizard and troll
    // killed this round, in id order), healing, cells.
    const deadOrcs: number[] = [];
    const deadOthers: number[] = [];
    for (let id = 0; id < this.L.nbUnits; id++) {
      const t = s.utype[id] as UT;
      if (t === UT.Orc) {
        if (s.uhealth[id]! === 0) deadOrcs.push(id);
      } else if (this.killed[id] && t !== UT.Balrog) deadOthers.push(id);
    }
    this.spawnOrcs(deadOrcs);
    this.spawnUnits(deadOthers);
    this.heal();
    computeNbCells(s);
    s.round++;
    s.seed = this.rng.seed;
  }

  ownedBy(id: number, pl: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.L.firstOrc && this.s.uplayer[id] === pl && this.s.upos[id]! >= 0;
  }

  neighbour(p: number, d: number): number {
    const i = Math.floor(p / this.cols) + DI[d]!;
    const j = (p % this.cols) + DJ[d]!;
    if (i < 0 || j < 0 || i >= this.rows || j >= this.cols) return -1;
    return i * this.cols + j;
  }

  manhattan(a: number, b: number): number {
    return Math.abs(Math.floor(a / this.cols) - Math.floor(b / this.cols)) + Math.abs((a % this.cols) - (b % this.cols));
  }

  chebyshev(a: number, b: number): number {
    return Math.max(Math.abs(Math.floor(a / this.cols) - Math.floor(b / this.cols)), Math.abs((a % this.cols) - (b % this.cols)));
  }

  balrogPos(): number {
    return this.s.upos[this.L.balrog]!;
  }

  /** Manhattan distance to the Balrog, or Infinity on a board without one. */
  balrogDist(p: number): number {
    const b = this.balrogPos();
    return b >= 0 ? this.manhattan(p, b) : Infinity;
  }

  nearBalrog(p: number): boolean {
    const b = this.balrogPos();
    return b >= 0 && this.chebyshev(p, b) <= 1;
  }

  isClan(id: number): boolean {
    return id >= 0 && id < this.L.firstOrc;
  }

  /**
   * move(id, dir) of the original, for every unit but the Balrog. It starts
   * from the unit's recorded position even when the unit was killed earlier
   * this round (a troll does act then: see moveTrolls).
   */
  move(id: number, dir: number): boolean {
    const s = this.s;
    if (dir === NONE_DIR) return true;
    const from = s.upos[id]!;
    if (from < 0) return false;
    const to = this.neighbour(from, dir);
    if (to < 0) return false;
    const t = s.utype[id] as UT;
    const target = s.unitAt[to]!;
    if (target >= 0) {
      // Attack. Wizards cannot hit; nobody hits its own clan; Sauron never hits Sauron.
      if (t === UT.Wizard) return false;
      if (s.uplayer[target] === s.uplayer[id]) return false;
      if (s.utype[target] === UT.Balrog) return false; // immortal (never adjacent in practice)
      let lo: number, hi: number;
      if (t === UT.Dwarf) [lo, hi] = [CONST.min_damage_dwarves, CONST.max_damage_dwarves];
      else if (t === UT.Orc) [lo, hi] = [CONST.min_damage_orcs, CONST.max_damage_orcs];
      else [lo, hi] = [CONST.min_damage_trolls, CONST.max_damage_trolls];
      const dmg = this.rng.random(lo, hi);
      const h = Math.max(0, s.uhealth[target]! - dmg);
      s.uhealth[target] = h;
      this.ev.push({ t: 'atk', a: id, v: target, d: dmg, h });
      // The attacker does not move, even if it kills.
      if (h === 0) this.capture(target, s.uplayer[id]!, id, 'attack');
      return true;
    }
    const ct = s.type[to] as CT;
    if (ct === CT.Granite) return false;
    if (ct === CT.Rock) {
      if (t !== UT.Dwarf) return false;
      // Digging: the dwarf stays; after rock_resistance hits the rock opens.
      const left = s.turns[to]! - 1;
      s.turns[to] = Math.max(0, left);
      if (left <= 0) {
        const abyss = this.rng.random(1, CONST.inv_prob_abyss) === 1;
        s.type[to] = abyss ? CT.Abyss : CT.Cave;
        this.ev.push({ t: 'open', p: to, abyss });
      } else this.ev.push({ t: 'dig', p: to, left });
      return true;
    }
    if (ct === CT.Abyss) {
      if (t === UT.Dwarf || t === UT.Wizard) {
        // Falls and dies immediately.
        this.capture(id, -1, -1, 'abyss');
        return true;
      }
      if (t !== UT.Orc) return false; // trolls never enter an abyss
    }
    if (ct === CT.Outside && t === UT.Orc) return false; // orcs never leave Moria
    if (this.nearBalrog(to)) {
      this.capture(id, -1, this.L.balrog, 'balrog');
      return true;
    }
    this.step(id, to);
    return true;
  }

  /** The unit leaves its recorded cell (whoever the grid shows there) for `to`. */
  step(id: number, to: number): void {
    const s = this.s;
    const from = s.upos[id]!;
    if (from >= 0) s.unitAt[from] = -1;
    s.unitAt[to] = id;
    s.upos[id] = to;
    const t = s.utype[id] as UT;
    if (t === UT.Dwarf) {
      if (s.type[to] === CT.Cave) {
        s.owner[to] = s.uplayer[id]!;
        if (s.treasure[to]) {
          s.treasure[to] = 0;
          s.nbTreasures[s.uplayer[id]!]!++;
          this.ev.push({ t: 'gold', v: id, p: to });
        }
      }
    } else if (t !== UT.Wizard) s.owner[to] = -1; // Sauron units unconquer
  }

  /**
   * capture(id, pl): the unit leaves the grid and is marked killed this round.
   * An orc is dead (health 0, no position). A troll gets full health back; a
   * dwarf or wizard changes clan (to the killer's clan, or for Sauron and the
   * abyss to a random different clan) and gets full health back. Trolls,
   * dwarves and wizards keep their recorded position until they are reborn at
   * the end of the round, as in the original.
   */
  capture(id: number, pl: number, by: number, why: 'attack' | 'abyss' | 'balrog'): void {
    const s = this.s;
    const p = s.upos[id]!;
    if (p >= 0) s.unitAt[p] = -1;
    this.killed[id] = 1;
    const t = s.utype[id] as UT;
    let to = -1;
    if (t === UT.Orc) {
      s.uhealth[id] = 0;
      s.upos[id] = -1;
    } else if (t === UT.Troll) s.uhealth[id] = CONST.trolls_health;
    else if (t === UT.Dwarf || t === UT.Wizard) {
      const old = s.uplayer[id]!;
      if (pl >= 0) to = pl;
      else {
        const r = this.rng.random(0, s.cfg.nb_players - 2);
        to = r + (r >= old ? 1 : 0);
      }
      s.uplayer[id] = to;
      s.uhealth[id] = maxHealth(t);
    }
    this.ev.push({ t: 'kill', v: id, by, to, why });
  }

  /** A multi-source 8-neighbour BFS; val: 1 sources, 0 passable, 1e9 blocked. */
  bfs(val: Int32Array, queue: Int32Array, qlen: number): void {
    let head = 0;
    while (head < qlen) {
      const p = queue[head++]!;
      const v = val[p]! + 1;
      for (let d = 0; d < 8; d++) {
        const q = this.neighbour(p, d);
        if (q >= 0 && val[q] === 0) {
          val[q] = v;
          queue[qlen++] = q;
        }
      }
    }
  }

  /** Random adjacent dwarf or wizard (dir), or -1. */
  attackDir(p: number): number {
    const s = this.s;
    const list: number[] = [];
    for (let d = 0; d < 8; d++) {
      const q = this.neighbour(p, d);
      if (q >= 0 && s.unitAt[q]! >= 0 && this.isClan(s.unitAt[q]!)) list.push(d);
    }
    return list.length ? list[this.rng.random(0, list.length - 1)]! : -1;
  }

  /** Random empty neighbour with the minimum map value (< 1e8), or -1. */
  bestDir(p: number, val: Int32Array): number {
    const s = this.s;
    let best = 1e8;
    const list: number[] = [];
    for (let d = 0; d < 8; d++) {
      const q = this.neighbour(p, d);
      if (q < 0 || s.unitAt[q]! >= 0) continue;
      const v = val[q]!;
      if (v < best) {
        best = v;
        list.length = 0;
        list.push(d);
      } else if (v === best) list.push(d);
    }
    return list.length ? list[this.rng.random(0, list.length - 1)]! : -1;
  }

  sauronMove(id: number, d: number): void {
    this.ev.push({ t: 'move', v: id, d });
    if (d !== NONE_DIR) this.move(id, d);
  }

  moveOrcs(): void {
    const s = this.s;
    const n = this.rows * this.cols;
    let anyOrc = false;
    for (let id = this.L.firstOrc; id < this.L.firstTroll; id++) if (s.uhealth[id]! > 0) anyOrc = true;
    if (!anyOrc) return;
    const val = new Int32Array(n).fill(1e9);
    const queue = new Int32Array(n);
    let qlen = 0;
    for (let p = 0; p < n; p++) {
      if (this.balrogDist(p) <= 4) continue;
      const ct = s.type[p];
      const u = s.unitAt[p]!;
      if (ct === CT.Cave && u >= 0 && this.isClan(u)) {
        val[p] = 1;
        queue[qlen++] = p;
      } else if (ct === CT.Cave || ct === CT.Abyss) val[p] = 0;
    }
    this.bfs(val, queue, qlen);
    // The orcs alive when the round began, in id order; one killed since is skipped.
    for (let id = this.L.firstOrc; id < this.L.firstTroll; id++) {
      const p = s.upos[id]!;
      if (p < 0 || s.uhealth[id]! <= 0) continue;
      let d = this.attackDir(p);
      if (d < 0) d = this.bestDir(p, val);
      this.sauronMove(id, d < 0 ? NONE_DIR : d);
    }
  }

  /**
   * Every troll acts, in id order, from its recorded position: as in the
   * original, even one killed earlier this round (it is reborn at the end of
   * the round all the same). If such a troll walks, the cell it walks to keeps
   * showing it after its rebirth elsewhere (a "ghost": the original's rebirth
   * does not clear it): it blocks, can be hit (hurting the troll), and bans
   * rebirths around it, as in the original.
   */
  moveTrolls(): void {
    const s = this.s;
    const n = this.rows * this.cols;
    let val: Int32Array | null = null;
    for (let id = this.L.firstTroll; id < this.L.balrog; id++) {
      const p = s.upos[id]!;
      if (p >= 0 && s.type[p] === CT.Outside) {
        val = new Int32Array(n).fill(1e9);
        const queue = new Int32Array(n);
        let qlen = 0;
        for (let q = 0; q < n; q++) {
          if (this.balrogDist(q) <= 4) continue;
          if (s.type[q] === CT.Cave) {
            val[q] = 1;
            queue[qlen++] = q;
          } else if (s.type[q] === CT.Outside) val[q] = 0;
        }
        this.bfs(val, queue, qlen);
        break;
      }
    }
    for (let id = this.L.firstTroll; id < this.L.balrog; id++) {
      const p = s.upos[id]!;
      if (p < 0) continue;
      let d = this.attackDir(p);
      if (d < 0) {
        if (s.type[p] === CT.Outside) d = this.bestDir(p, val!);
        else {
          const list: number[] = [];
          for (let k = 0; k < 8; k++) {
            const q = this.neighbour(p, k);
            if (q >= 0 && s.unitAt[q]! < 0 && s.type[q] === CT.Cave && this.balrogDist(q) > 4) list.push(k);
          }
          if (list.length) d = list[this.rng.random(0, list.length - 1)]!;
        }
      }
      this.sauronMove(id, d < 0 ? NONE_DIR : d);
    }
  }

  moveBalrog(): void {
    const s = this.s;
    const b = this.L.balrog;
    const p1 = s.upos[b]!;
    if (p1 < 0) return;
    // Targets: the nearest (Manhattan) dwarves and wizards not on Outside, at
    // their recorded positions (as in the original, a unit killed earlier this
    // round still counts, where it fell).
    let minim = 1e8;
    const possib: number[] = [];
    for (let id = 0; id < this.L.firstOrc; id++) {
      const p = s.upos[id]!;
      if (p < 0 || s.type[p] === CT.Outside) continue;
      const dist = this.manhattan(p, p1);
      if (dist < minim) {
        minim = dist;
        possib.length = 0;
        possib.push(p);
      } else if (dist === minim) possib.push(p);
    }
    let res = NONE_DIR;
    if (possib.length) {
      const goal = possib[this.rng.random(0, possib.length - 1)]!;
      let maxim = 1e8;
      for (let d = 0; d < 8; d += 2) {
        const p2 = this.neighbour(p1, d);
        if (p2 < 0 || s.type[p2] === CT.Outside) continue;
        const dist = this.manhattan(p2, goal);
        const mx = this.chebyshev(p2, goal);
        if (dist < minim || (dist === minim && mx < maxim)) {
          res = d;
          minim = dist;
          maxim = mx;
        }
      }
    }
    // The original aborts the whole game (an assertion) when that cell shows a
    // unit, which only a troll's ghost cell can do (see moveTrolls): here the
    // Balrog stays put instead.
    const to = res === NONE_DIR ? -1 : this.neighbour(p1, res);
    if (to >= 0 && s.unitAt[to]! >= 0) res = NONE_DIR;
    this.ev.push({ t: 'move', v: b, d: res });
    if (res === NONE_DIR) return;
    this.step(b, to);
    // Everything in the ring around it dies; the ring is unconquered.
    for (let d = 0; d < 8; d++) {
      const q = this.neighbour(to, d);
      if (q < 0) continue;
      s.owner[q] = -1;
      const u = s.unitAt[q]!;
      if (u >= 0) this.capture(u, -1, b, 'balrog');
    }
  }

  /**
   * spawn_orcs: the empty abysses at Manhattan distance > 2 from the Balrog,
   * row-major, are permuted (always, even with no dead orc); each, in that
   * order and while dead orcs remain, yields the last dead orc with
   * probability 1/inv_prob_orc.
   */
  spawnOrcs(dead: number[]): void {
    const s = this.s;
    const cands: number[] = [];
    for (let p = 0; p < this.rows * this.cols; p++) if (s.type[p] === CT.Abyss && s.unitAt[p]! < 0 && this.balrogDist(p) > 2) cands.push(p);
    const perm = this.rng.permutation(cands.length);
    for (const k of perm) {
      if (dead.length === 0) break;
      if (this.rng.random(0, CONST.inv_prob_orc - 1) === 0) {
        const id = dead.pop()!;
        s.uhealth[id] = CONST.orcs_health;
        place(s, id, cands[k]!);
        this.ev.push({ t: 'spawn', v: id, p: cands[k]! });
      }
    }
  }

  /**
   * spawn_units: the dwarves, wizards and trolls killed this round are reborn
   * on the Outside band, away from every unit on the grid (radius 1, the
   * Balrog radius 3). The band and the list are permuted every round, even
   * when nobody died. With no band cell left, free treasureless caves inside
   * [2, rows-2) x [2, cols-2) outside the bans, permuted, take the rest.
   */
  spawnUnits(list: number[]): void {
    const s = this.s;
    const { rows, cols } = this;
    const banned = new Uint8Array(rows * cols);
    for (let p = 0; p < rows * cols; p++) {
      const u = s.unitAt[p]!;
      if (u >= 0) ban(banned, rows, cols, p, u === this.L.balrog ? 3 : 1);
    }
    let cands: number[] = [];
    const add = (i: number, j: number) => {
      const p = i * cols + j;
      if (!banned[p]) cands.push(p);
    };
    for (let i = 0; i < rows; i++) {
      add(i, 0);
      add(i, 1);
      add(i, cols - 2);
      add(i, cols - 1);
    }
    for (let j = 2; j < cols - 2; j++) {
      add(0, j);
      add(1, j);
      add(rows - 2, j);
      add(rows - 1, j);
    }
    let cperm = this.rng.permutation(cands.length);
    const uperm = this.rng.permutation(list.length);
    let k = 0;
    let ci = -1;
    while (k < list.length) {
      for (ci++; ci < cands.length && banned[cands[cperm[ci]!]!]; ci++);
      if (ci >= cands.length) break;
      this.respawn(list[uperm[k]!]!, cands[cperm[ci]!]!, banned);
      k++;
    }
    if (k >= list.length) return;
    cands = [];
    for (let i = 2; i < rows - 2; i++)
      for (let j = 2; j < cols - 2; j++) {
        const p = i * cols + j;
        if (s.type[p] === CT.Cave && !s.treasure[p] && s.unitAt[p]! < 0 && !banned[p]) cands.push(p);
      }
    cperm = this.rng.permutation(cands.length);
    ci = -1;
    for (; k < list.length; k++) {
      for (ci++; ci < cands.length && banned[cands[cperm[ci]!]!]; ci++);
      if (ci >= cands.length) throw new Error('moria: no room to place a reborn unit');
      this.respawn(list[uperm[k]!]!, cands[cperm[ci]!]!, banned);
    }
  }

  respawn(id: number, p: number, banned: Uint8Array): void {
    place(this.s, id, p);
    ban(banned, this.rows, this.cols, p, 1);
    this.ev.push({ t: 'spawn', v: id, p });
  }

  /** heal_units: at the very end, a wizard fully heals 4-adjacent units of its clan (not itself). */
  heal(): void {
    const s = this.s;
    for (let id = 0; id < this.L.firstOrc; id++) {
      if (s.utype[id] !== UT.Wizard) continue;
      const p = s.upos[id]!;
      if (p < 0) continue;
      for (let d = 0; d < 8; d += 2) {
        const q = this.neighbour(p, d);
        if (q < 0) continue;
        const u = s.unitAt[q]!;
        if (u >= 0 && this.isClan(u) && s.uplayer[u] === s.uplayer[id]) {
          const full = maxHealth(s.utype[u] as UT);
          if (s.uhealth[u] !== full) {
            s.uhealth[u] = full;
            this.ev.push({ t: 'heal', v: u, by: id });
          }
        }
      }
    }
  }
}
