// Bola de Drac 2015 (Jordi Petit, Enric Rodríguez, Salvador Roura): one goku
// per player collects dragon balls and drops them in Hoi Poi capsules.

import { defineGame, type BotView } from '../../sdk/types.ts';
import { record } from '../../sdk/view-layout.ts';
import { VIEW } from './view.ts';
import { SETTINGS } from './config.ts';
import { CELL_CHARS, ORDER_MOVE, ORDER_THROW, type BdFrame } from './consts.ts';
import { charCodesToString } from '../../sdk/grid.ts';
import { create, lastRound, next, score, type Order, type State } from './engine.ts';

/** CELL_CHARS as character codes, for a frame's grid. */
const CELL_CODES = Array.from(CELL_CHARS, (c) => c.charCodeAt(0));

/** GType of a goku: Normal 0, On_Kinton 1, With_Ball 2, On_Kinton_With_Ball 3. */
function gtype(kinton: number, ball: boolean): number {
  return (kinton > 0 ? 1 : 0) + (ball ? 2 : 0);
}

const KINDS: Record<string, 'm' | 't'> = {
  m: ORDER_MOVE,
  move: ORDER_MOVE,
  t: ORDER_THROW,
  throw_kamehame: ORDER_THROW,
};

/** Bean or kinton spots (cell, present, time per spot) as view records. */
function spots(items: Int32Array, cols: number): Int32Array {
  const B = VIEW.beans;
  const out = new Int32Array((items.length / 3) * B.stride);
  for (let k = 0, o = 0; k < items.length; k += 3, o += B.stride) {
    out[o + B.at.i] = Math.floor(items[k]! / cols);
    out[o + B.at.j] = items[k]! % cols;
    out[o + B.at.present] = items[k + 1]!;
    out[o + B.at.time] = items[k + 2]!;
  }
  return out;
}

const game = defineGame<typeof SETTINGS.table, State, Order, BdFrame>({
  id: 'bola-de-drac',
  title: 'Bola de Drac',
  engineVersion: 'bola-de-drac-2015-2',
  nbPlayers: 4,
  // The statement: "2 segons per tota la partida".
  defaultLimits: { cpuBudgetMs: 2000, memoryMb: 128 },
  folder: import.meta.url,

  settings: SETTINGS,
  view: VIEW,
  create,
  round: (s) => s.round,
  lastRound,

  validateOrders(_state, _player, raw) {
    // One goku per player: the first action asked is the only one ("En cas de
    // demanar diverses accions a un goku, només es considerarà la primera").
    const orders: Order[] = [];
    const warnings: string[] = [];
    if (!Array.isArray(raw)) {
      if (raw !== undefined && raw !== null) warnings.push('orders must be an array; ignored');
      return { orders, warnings };
    }
    for (let i = 0; i < raw.length; i++) {
      const o: unknown = raw[i];
      const show = (() => {
        try {
          return JSON.stringify(o)?.slice(0, 60) ?? String(o);
        } catch {
          return '?';
        }
      })();
      if (!Array.isArray(o) || o.length < 2) {
        warnings.push(`order ${i} ${show}: expected [kind, dir]; ignored`);
        continue;
      }
      const kind = typeof o[0] === 'string' ? KINDS[o[0]] : undefined;
      const dir = o[1];
      if (!kind) {
        warnings.push(`order ${i} ${show}: unknown action (use move or throw_kamehame); ignored`);
        continue;
      }
      if (typeof dir !== 'number' || !Number.isInteger(dir) || dir < 0 || dir > 4) {
        warnings.push(`order ${i} ${show}: direction must be a Dir (0..4); ignored`);
        continue;
      }
      // A second order for a unit is dropped without a word here: the API already wrote what the original
      // writes for it (its Action's warning, or nothing in Harry Potter), and the original engine never sees it.
      if (orders.length > 0) continue;
      orders.push([kind, dir]);
    }
    return { orders, warnings };
  },

  next,

  scores: (s) => s.gokus.map((_, p) => score(s, p)),

  counters: (s) => ({
    balls: s.gokus.map((g) => g.balls),
    strength: s.gokus.map((g) => g.strength),
  }),

  encodeView(s): BotView {
    const { cfg, cols } = s;
    const nb = s.beans.length / 3;
    const nk = s.kintons.length / 3;
    const meta = record(VIEW.meta, {
      round: s.round,
      rows: s.rows,
      cols,
      nb_players: cfg.nb_players,
      nb_rounds: cfg.nb_rounds,
      nb_capsules: cfg.nb_capsules,
      nb_balls: cfg.nb_balls,
      nb_beans: nb,
      nb_kintons: nk,
      goku_regen_time: cfg.goku_regen_time,
      bean_regen_time: cfg.bean_regen_time,
      kinton_regen_time: cfg.kinton_regen_time,
      kinton_life_time: cfg.kinton_life_time,
      max_strength: cfg.max_strength,
      res_strength: cfg.res_strength,
      moving_penalty: cfg.moving_penalty,
      kamehame_penalty: cfg.kamehame_penalty,
      combat_penalty: cfg.combat_penalty,
    });
    const G = VIEW.gokus;
    const gokus = new Int32Array(G.stride * s.gokus.length);
    s.gokus.forEach((g, p) => {
      const o = G.stride * p;
      gokus[o + G.at.i] = Math.floor(g.pos / cols);
      gokus[o + G.at.j] = g.pos % cols;
      gokus[o + G.at.type] = gtype(g.kinton, g.ball);
      gokus[o + G.at.balls] = g.balls;
      gokus[o + G.at.strength] = g.strength;
      gokus[o + G.at.kinton] = g.kinton;
      gokus[o + G.at.alive] = g.alive ? 1 : 0;
      gokus[o + G.at.time] = g.time;
    });
    return { meta, cells: new Int8Array(s.grid), gokus, beans: spots(s.beans, cols), kintons: spots(s.kintons, cols) };
  },

  frame(s): BdFrame {
    const codes = new Uint8Array(s.grid.length);
    for (let k = 0; k < codes.length; k++) codes[k] = CELL_CODES[s.grid[k]!]!;
    const grid = charCodesToString(codes);
    // Per goku: i, j, alive (0/1), GType, deposited balls, strength, kinton life, regen time.
    const gokus: number[] = [];
    for (const g of s.gokus) {
      gokus.push(Math.floor(g.pos / s.cols), g.pos % s.cols, g.alive ? 1 : 0, gtype(g.kinton, g.ball), g.balls, g.strength, g.kinton, g.time);
    }
    return { round: s.round, rows: s.rows, cols: s.cols, grid, gokus };
  },
});

export default game;
