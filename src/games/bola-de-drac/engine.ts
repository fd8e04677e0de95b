// Bola de Drac 2015: the rules. Statement: statement.ca.md in this folder;
// gaps filled from the 2012 engine (repository hecrj/bola-de-drac, Board.cc
// Board::next), which Arbiter follows draw for draw (FIDELITY.md).
//
// Round numbering: `state.round` is the round the bots see in play() and the
// round their actions are played in. The first round is round 0 ("La primera
// ronda és la ronda 0"); gokus without a Kinton act in even rounds; the
// movement penalty applies when round ≡ 2 (mod 4).

import { Rng } from '../../sdk/rng.ts';
import type { BdConfig } from './config.ts';
import { cnfText, parseCnf, type Cnf } from './cnf.ts';
import { CType, DI, DJ, ORDER_MOVE, ORDER_THROW } from './consts.ts';
import { generateMap, type GeneratedMap } from './mapgen.ts';
import { BdRandom } from './random.ts';

export interface Goku {
  /** Cell index i*cols+j (kept where it died while dead). */
  pos: number;
  ball: boolean;
  /** Deposited balls. */
  balls: number;
  strength: number;
  /** Rounds of Kinton life left; > 0 means the goku rides a cloud. */
  kinton: number;
  alive: boolean;
  /** Rounds before it may resurrect (dead gokus only). */
  time: number;
}

export interface State {
  cfg: BdConfig;
  rows: number;
  cols: number;
  round: number;
  /** CType per cell. */
  grid: Uint8Array;
  /** Player standing on each cell, or -1. */
  occ: Int8Array;
  gokus: Goku[];
  /** Per bean: cell, present (0/1), time; the cells never change. */
  beans: Int32Array;
  kintons: Int32Array;
  /** Cell → bean index or -1 (never mutated after create: shared between states). */
  beanAt: Int16Array;
  kintonAt: Int16Array;
  /** The board's random sources (random.ts). */
  rng: BdRandom;
}

/** A validated order: [kind, dir], kind 'm' (move) or 't' (throw_kamehame), dir 0..4 (0 = None: a no-op that still counts as the action). */
export type Order = [kind: 'm' | 't', dir: number];

export type BdEvent =
  | { e: 'kamehame'; p: number; d: number; from: [number, number]; to: [number, number]; killed: number[] }
  | { e: 'combat'; a: number; b: number; winner: number; at: [number, number] }
  | { e: 'take'; p: number; what: 'ball' | 'bean' | 'kinton'; at: [number, number] }
  | { e: 'deposit'; p: number; at: [number, number] }
  | { e: 'ball'; at: [number, number] }
  | { e: 'resurrect'; p: number; at: [number, number] };

export function create(cfg: BdConfig, seed: number): State {
  const rng = new BdRandom(seed);
  const board = cfg.map !== '' ? fromCnf(parseCnf(cfg.map)) : fromGenerated(cfg, generateMap(cfg, new Rng(seed)));
  return { cfg, ...board, rng };
}

type Board = Omit<State, 'cfg' | 'rng'>;

function fromGenerated(cfg: BdConfig, map: GeneratedMap): Board {
  const { rows, cols } = map;
  const n = rows * cols;
  const occ = new Int8Array(n).fill(-1);
  const gokus: Goku[] = [];
  for (let p = 0; p < cfg.nb_players; p++) {
    const pos = map.starts[p]!;
    occ[pos] = p;
    // "Inicialment tots els gokus es troben al màxim nivell de força".
    gokus.push({ pos, ball: false, balls: 0, strength: cfg.max_strength, kinton: 0, alive: true, time: 0 });
  }
  const beanAt = new Int16Array(n).fill(-1);
  const kintonAt = new Int16Array(n).fill(-1);
  const beans = new Int32Array(map.beans.length * 3);
  map.beans.forEach((k, b) => {
    beans[b * 3] = k;
    beans[b * 3 + 1] = 1;
    beanAt[k] = b;
  });
  const kintons = new Int32Array(map.kintons.length * 3);
  map.kintons.forEach((k, b) => {
    kintons[b * 3] = k;
    kintons[b * 3 + 1] = 1;
    kintonAt[k] = b;
  });
  return { rows, cols, round: 0, grid: map.grid, occ, gokus, beans, kintons, beanAt, kintonAt };
}

/** A fixed board (config `map`), as the original reads its .cnf file. */
function fromCnf(c: Cnf): Board {
  const { rows, cols } = c;
  const n = rows * cols;
  const occ = new Int8Array(n).fill(-1);
  const gokus: Goku[] = c.gokus.map((g, p) => {
    const pos = g.i * cols + g.j;
    if (g.alive) occ[pos] = p;
    return { pos, ball: g.ball, balls: g.balls, strength: g.strength, kinton: g.kinton, alive: g.alive, time: g.time };
  });
  const items = (list: Cnf['beans']): [Int32Array, Int16Array] => {
    const arr = new Int32Array(list.length * 3);
    const at = new Int16Array(n).fill(-1);
    list.forEach((b, x) => {
      const k = b.i * cols + b.j;
      arr[x * 3] = k;
      arr[x * 3 + 1] = b.present ? 1 : 0;
      arr[x * 3 + 2] = b.time;
      at[k] = x;
    });
    return [arr, at];
  };
  const [beans, beanAt] = items(c.beans);
  const [kintons, kintonAt] = items(c.kintons);
  return { rows, cols, round: c.round, grid: c.grid.slice(), occ, gokus, beans, kintons, beanAt, kintonAt };
}

/** The board as a .cnf text the original engine reads (its parameters, names "?"). */
export function toCnf(s: State): string {
  const { cfg, cols } = s;
  const params: Record<string, number> = {};
  for (const key of Object.keys(cfg) as (keyof BdConfig)[]) {
    const v = cfg[key];
    if (typeof v === 'number' && key !== 'edition') params[key] = v;
  }
  params['rows'] = s.rows;
  params['cols'] = cols;
  params['nb_beans'] = s.beans.length / 3;
  params['nb_kintons'] = s.kintons.length / 3;
  const items = (arr: Int32Array) => {
    const out = [];
    for (let b = 0; b < arr.length; b += 3) out.push({ i: Math.floor(arr[b]! / cols), j: arr[b]! % cols, present: arr[b + 1] === 1, time: arr[b + 2]! });
    return out;
  };
  return cnfText({
    params,
    round: s.round,
    rows: s.rows,
    cols,
    grid: s.grid,
    beans: items(s.beans),
    kintons: items(s.kintons),
    gokus: s.gokus.map((g) => ({
      i: Math.floor(g.pos / cols),
      j: g.pos % cols,
      ball: g.ball,
      kinton: g.kinton,
      alive: g.alive,
      time: g.time,
      balls: g.balls,
      strength: g.strength,
    })),
  });
}

export function cloneState(s: State): State {
  return {
    cfg: s.cfg,
    rows: s.rows,
    cols: s.cols,
    round: s.round,
    grid: s.grid.slice(),
    occ: s.occ.slice(),
    gokus: s.gokus.map((g) => ({ ...g })),
    beans: s.beans.slice(),
    kintons: s.kintons.slice(),
    beanAt: s.beanAt,
    kintonAt: s.kintonAt,
    rng: s.rng.clone(),
  };
}

export function score(s: State, p: number): number {
  const g = s.gokus[p]!;
  // "puntuació = boles · (max_strength() + 1) + força"
  return g.balls * (s.cfg.max_strength + 1) + g.strength;
}

/** Rounds a match plays: nb_rounds (2015: rounds 0 .. nb_rounds-1); the 2012 game played nb_rounds - 1. */
export function lastRound(cfg: BdConfig): number {
  return cfg.edition === 2012 ? cfg.nb_rounds - 1 : cfg.nb_rounds;
}

/** Mutable round context (one per next()). */
class RoundRun {
  readonly events: BdEvent[] = [];
  /** Balls to re-place at the end of the round. */
  surplus = 0;
  readonly even: boolean;
  readonly penaltyRound: boolean;

  constructor(readonly s: State) {
    // The 2012 engine tests the parity of the round being computed (one more
    // than the round the players saw): its "odd rounds" and "round % 4 == 3"
    // are the 2015 statement's even rounds and rounds ≡ 2 (mod 4), counted as
    // here, from the round the players see. Both editions act alike.
    this.even = s.round % 2 === 0;
    // "quan la ronda és congruent amb 2 mòdul 4 ... perd moving_penalty()"
    this.penaltyRound = s.round % 4 === 2;
  }

  at(k: number): [number, number] {
    return [Math.floor(k / this.s.cols), k % this.s.cols];
  }

  /** "Els gokus sense núvol Kínton només poden realitzar accions en les rondes parells." */
  mayAct(g: Goku): boolean {
    return g.alive && (this.even || g.kinton > 0);
  }

  kill(p: number): void {
    const g = this.s.gokus[p]!;
    if (this.s.occ[g.pos] === p) this.s.occ[g.pos] = -1;
    g.alive = false;
    g.strength = 0;
    g.kinton = 0;
    g.ball = false;
    g.time = this.s.cfg.goku_regen_time;
  }

  /**
   * The Kame Hame draw of one goku: every goku with at least kamehame_penalty
   * strength draws, in turn order, whether or not it asked (2012 engine); the
   * throw is granted when the draw allows it and the order is a valid throw.
   * The odds are the statement's: (1 + força − kp) / (1 + max − kp).
   */
  kamehame(p: number, order: Order | undefined): boolean {
    const s = this.s;
    const { cfg } = s;
    const g = s.gokus[p]!;
    if (g.strength < cfg.kamehame_penalty) return false;
    const draw = s.rng.draw(cfg.max_strength - cfg.kamehame_penalty + 1);
    if (draw > g.strength - cfg.kamehame_penalty) return false;
    if (!order || order[0] !== ORDER_THROW) return false;
    const d = order[1];
    if (d < 1 || d > 4 || !this.mayAct(g)) return false;
    g.strength -= cfg.kamehame_penalty;
    const step = DI[d]! * s.cols + DJ[d]!;
    const killed: number[] = [];
    let k = g.pos + step;
    let last = g.pos;
    // "elimina tot goku que hi hagi en línia recta ... fins a la propera casella de roca"
    while (s.grid[k] !== CType.Rock) {
      const q = s.occ[k]!;
      if (q >= 0) {
        // "Les seves boles de drac reapareixen aleatòriament ... Els seus núvols Kínton desapareixen."
        if (s.gokus[q]!.ball) this.surplus++;
        this.kill(q);
        killed.push(q);
      }
      last = k;
      k += step;
    }
    this.events.push({ e: 'kamehame', p, d, from: this.at(g.pos), to: this.at(last), killed });
    return true;
  }

  /** Arrival on a free cell: beans, kintons, balls, capsules. */
  arrive(p: number, k: number): void {
    const s = this.s;
    const g = s.gokus[p]!;
    const t = s.grid[k]!;
    if (t === CType.Bean) {
      // "la consumeix i així restitueix la seva força al valor màxim inicial"
      g.strength = s.cfg.max_strength;
      s.grid[k] = CType.Empty;
      const b = s.beanAt[k]!;
      s.beans[b * 3 + 1] = 0;
      s.beans[b * 3 + 2] = s.cfg.bean_regen_time;
      this.events.push({ e: 'take', p, what: 'bean', at: this.at(k) });
    } else if (t === CType.Kinton) {
      // Getting on, or adding kinton_life_time to the cloud already ridden; the cell's cloud disappears.
      g.kinton += s.cfg.kinton_life_time;
      s.grid[k] = CType.Empty;
      const b = s.kintonAt[k]!;
      s.kintons[b * 3 + 1] = 0;
      s.kintons[b * 3 + 2] = s.cfg.kinton_regen_time;
      this.events.push({ e: 'take', p, what: 'kinton', at: this.at(k) });
    } else if (t === CType.Ball && !g.ball) {
      // A goku already carrying a ball leaves the other one where it is.
      g.ball = true;
      s.grid[k] = CType.Empty;
      this.events.push({ e: 'take', p, what: 'ball', at: this.at(k) });
    } else if (t === CType.Capsule && g.ball) {
      this.deposit(p, k);
    }
  }

  deposit(p: number, k: number): void {
    const g = this.s.gokus[p]!;
    g.ball = false;
    g.balls++;
    // "Quan una bola de drac és dipositada, immediatament n'apareix una altra"
    this.surplus++;
    this.events.push({ e: 'deposit', p, at: this.at(k) });
  }

  move(p: number, d: number): void {
    const s = this.s;
    const { cfg } = s;
    const g = s.gokus[p]!;
    if (d < 1 || d > 4 || !this.mayAct(g)) return;
    const from = g.pos;
    const to = from + DI[d]! * s.cols + DJ[d]!;
    if (s.grid[to] === CType.Rock) return;
    const onFoot = g.kinton === 0;
    const pays = onFoot && this.penaltyRound;
    // "el goku només es pot moure si té almenys moving_penalty() unitats de força"
    if (pays && g.strength < cfg.moving_penalty) return;
    const q = s.occ[to]!;
    if (q < 0) {
      if (pays) g.strength -= cfg.moving_penalty;
      s.occ[from] = -1;
      s.occ[to] = p;
      g.pos = to;
      this.arrive(p, to);
      return;
    }
    // Combat: A (the mover) wins with probability (1 + s(A)) / (2 + s(A) + s(B)).
    const h = s.gokus[q]!;
    const draw = s.rng.draw(2 + g.strength + h.strength);
    if (draw <= g.strength) {
      this.events.push({ e: 'combat', a: p, b: q, winner: p, at: this.at(to) });
      // The winner pays combat_penalty (and the movement penalty, as in the 2012 engine), floored at 0.
      g.strength = Math.max(0, g.strength - cfg.combat_penalty - (pays ? cfg.moving_penalty : 0));
      // "En cas que el goku vençut estigui muntat sobre un núvol Kínton, aquest passa a mans del vencedor."
      g.kinton += h.kinton;
      // The loser's ball passes to the winner; a surplus ball reappears elsewhere. A
      // winner without a ball that beats a carrier standing on a free ball takes the
      // carrier's ball, and the cell's ball reappears elsewhere (2012 engine).
      if (h.ball) {
        if (g.ball) this.surplus++;
        else {
          g.ball = true;
          if (s.grid[to] === CType.Ball) {
            s.grid[to] = CType.Empty;
            this.surplus++;
          }
        }
      }
      this.kill(q);
      s.occ[from] = -1;
      s.occ[to] = p;
      g.pos = to;
      if (g.ball && s.grid[to] === CType.Capsule) this.deposit(p, to);
    } else {
      this.events.push({ e: 'combat', a: p, b: q, winner: q, at: this.at(to) });
      h.strength = Math.max(0, h.strength - cfg.combat_penalty);
      h.kinton += g.kinton;
      if (g.ball) {
        if (h.ball) this.surplus++;
        else h.ball = true;
      }
      this.kill(p);
      // The fight happened on the defender's cell: it deposits if that is a capsule.
      if (h.ball && s.grid[to] === CType.Capsule) this.deposit(q, to);
    }
  }

  /** Whether cell k is Empty with no goku within Chebyshev distance 2 (and, unless `spots`, no bean or kinton spot). */
  free(k: number, radius: number, spots: boolean): boolean {
    const s = this.s;
    const { rows, cols } = s;
    if (s.grid[k] !== CType.Empty) return false;
    const i = Math.floor(k / cols);
    const j = k % cols;
    for (let a = Math.max(0, i - radius); a <= Math.min(rows - 1, i + radius); a++) {
      for (let b = Math.max(0, j - radius); b <= Math.min(cols - 1, j + radius); b++) {
        if (s.occ[a * cols + b]! >= 0) return false;
      }
    }
    return spots || (s.beanAt[k]! < 0 && s.kintonAt[k]! < 0);
  }

  /** Up to 200 random cells, as the 2012 engine draws them: the column first, then the row. */
  tryCells(ok: (k: number) => boolean): number {
    const s = this.s;
    for (let tries = 0; tries < 200; tries++) {
      const j = s.rng.draw(s.cols);
      const i = s.rng.draw(s.rows);
      const k = i * s.cols + j;
      if (ok(k)) return k;
    }
    return -1;
  }

  placeBall(): void {
    // Empty, not a bean/kinton spot, no goku in the 5x5 around (2012 place_new_ball).
    let k = this.tryCells((c) => this.free(c, 2, false));
    if (k < 0) {
      // The 2012 engine stops on an assertion here. The ball must reappear
      // ("El nombre de boles de drac al tauler és sempre nb_balls()"): a
      // random one of the cells that qualify, relaxed step by step if none does.
      const s = this.s;
      for (const [radius, spots] of [
        [2, false],
        [0, false],
        [0, true],
      ] as const) {
        const cand: number[] = [];
        for (let c = 0; c < s.rows * s.cols; c++) if (this.free(c, radius, spots)) cand.push(c);
        if (cand.length) {
          k = cand[s.rng.draw(cand.length)]!;
          break;
        }
      }
    }
    if (k < 0) return; // a board with no empty cell left
    this.s.grid[k] = CType.Ball;
    this.events.push({ e: 'ball', at: this.at(k) });
  }

  endOfRound(frozen: readonly boolean[]): void {
    const s = this.s;
    const { cfg } = s;
    for (let p = 0; p < s.gokus.length; p++) {
      const g = s.gokus[p]!;
      if (g.alive) {
        // "Passades kinton_life_time() rondes, el núvol Kínton desapareix"
        if (g.kinton > 0) g.kinton--;
      } else if (!frozen[p]) {
        // Frozen players never resurrect.
        if (g.time > 0) g.time--;
        // After at least goku_regen_time rounds, only at the end of an odd
        // round (so the goku is back for an even round, when it can act).
        if (g.time === 0 && s.round % 2 === 1) {
          // "Els gokus sempre ressusciten en posicions buides i sense altres gokus
          // al voltant" (5x5, as in 2012). After 200 failed tries the goku stays
          // dead and tries again at the end of the next odd round (2012 engine).
          const k = this.tryCells((c) => this.free(c, 2, true));
          if (k >= 0) {
            g.alive = true;
            g.pos = k;
            g.ball = false;
            g.kinton = 0;
            g.strength = cfg.res_strength;
            s.occ[k] = p;
            this.events.push({ e: 'resurrect', p, at: this.at(k) });
          }
        }
      }
    }
    // Beans and Kinton clouds come back when their time is up and no goku stands on the cell.
    for (const [arr, type] of [
      [s.beans, CType.Bean],
      [s.kintons, CType.Kinton],
    ] as const) {
      for (let b = 0; b < arr.length; b += 3) {
        if (arr[b + 1]) continue;
        if (arr[b + 2]! > 0) arr[b + 2]!--;
        const k = arr[b]!;
        if (arr[b + 2] === 0 && s.grid[k] === CType.Empty && s.occ[k]! < 0) {
          arr[b + 1] = 1;
          s.grid[k] = type;
        }
      }
    }
    for (let i = 0; i < this.surplus; i++) this.placeBall();
    this.surplus = 0;
  }
}

export function next(prev: State, orders: Order[][], frozen: readonly boolean[]): { state: State; events: BdEvent[] } {
  const s = cloneState(prev);
  const run = new RoundRun(s);
  const np = s.gokus.length;
  // "Inicialment es determina un ordre aleatori dels jugadors."
  const turn = s.rng.order(np);
  const act: (Order | undefined)[] = [];
  for (let p = 0; p < np; p++) act.push(frozen[p] ? undefined : orders[p]?.[0]);
  // Kame Hames first: "A cada ronda només es pot llançar un sol Kame Hame."
  for (const p of turn) if (run.kamehame(p, act[p])) break;
  // Then the moves (and their combats), in the same order.
  for (const p of turn) {
    const a = act[p];
    if (a && a[0] === ORDER_MOVE) run.move(p, a[1]);
  }
  run.endOfRound(frozen);
  s.round++;
  return { state: s, events: run.events };
}
