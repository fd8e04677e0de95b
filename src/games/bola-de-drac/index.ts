// Bola de Drac 2015 (Jordi Petit, Enric Rodríguez, Salvador Roura): one goku
// per player collects dragon balls and drops them in Hoi Poi capsules.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineGame, type BotView } from '../../game-kit/types.ts';
import { defineView } from '../../game-kit/view-layout.ts';
import { SETTINGS } from './config.ts';
import { BEAN_LEN, CELL_CHARS, GOKU_LEN, META, META_LEN, ORDER_MOVE, ORDER_THROW } from './consts.ts';
import { create, lastRound, next, score, type Order, type State } from './engine.ts';
import { conventionalBotFiles } from '../../game-kit/bot-files.ts';

const here = dirname(fileURLToPath(import.meta.url));

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

export const VIEW = defineView({
  g: { type: 'Int8', doc: 'per cell: its CType' },
  m: { type: 'Int32', doc: 'the round, the size and the settings; then per goku, per bean and per kinton cloud their fields' },
});

const game = defineGame<typeof SETTINGS.table, State, Order, unknown>({
  id: 'bola-de-drac',
  title: 'Bola de Drac',
  engineVersion: 'bola-de-drac-2015-2',
  nbPlayers: 4,
  // The statement: "2 segons per tota la partida".
  defaultLimits: { cpuBudgetMs: 2000, memoryMb: 128 },
  bots: conventionalBotFiles(here),
  statements: { ca: join(here, 'statement.ca.md') },

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
      if (orders.length > 0) {
        warnings.push(`order ${i} ${show}: an action was already requested for this goku; ignored`);
        continue;
      }
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
    const { cfg } = s;
    const nb = s.beans.length / 3;
    const nk = s.kintons.length / 3;
    const m = new Int32Array(META_LEN + GOKU_LEN * s.gokus.length + BEAN_LEN * (nb + nk));
    m[META.round] = s.round;
    m[META.rows] = s.rows;
    m[META.cols] = s.cols;
    m[META.nb_players] = cfg.nb_players;
    m[META.nb_rounds] = cfg.nb_rounds;
    m[META.nb_capsules] = cfg.nb_capsules;
    m[META.nb_balls] = cfg.nb_balls;
    m[META.nb_beans] = nb;
    m[META.nb_kintons] = nk;
    m[META.goku_regen_time] = cfg.goku_regen_time;
    m[META.bean_regen_time] = cfg.bean_regen_time;
    m[META.kinton_regen_time] = cfg.kinton_regen_time;
    m[META.kinton_life_time] = cfg.kinton_life_time;
    m[META.max_strength] = cfg.max_strength;
    m[META.res_strength] = cfg.res_strength;
    m[META.moving_penalty] = cfg.moving_penalty;
    m[META.kamehame_penalty] = cfg.kamehame_penalty;
    m[META.combat_penalty] = cfg.combat_penalty;
    let o = META_LEN;
    for (const g of s.gokus) {
      m[o++] = Math.floor(g.pos / s.cols);
      m[o++] = g.pos % s.cols;
      m[o++] = gtype(g.kinton, g.ball);
      m[o++] = g.balls;
      m[o++] = g.strength;
      m[o++] = g.kinton;
      m[o++] = g.alive ? 1 : 0;
      m[o++] = g.time;
    }
    for (const arr of [s.beans, s.kintons]) {
      for (let b = 0; b < arr.length; b += 3) {
        m[o++] = Math.floor(arr[b]! / s.cols);
        m[o++] = arr[b]! % s.cols;
        m[o++] = arr[b + 1]!;
        m[o++] = arr[b + 2]!;
      }
    }
    return { g: new Int8Array(s.grid), m };
  },

  frame(s) {
    let grid = '';
    for (let k = 0; k < s.grid.length; k++) grid += CELL_CHARS[s.grid[k]!];
    // Per goku: i, j, alive (0/1), GType, deposited balls, strength, kinton life, regen time.
    const gokus: number[] = [];
    for (const g of s.gokus) {
      gokus.push(Math.floor(g.pos / s.cols), g.pos % s.cols, g.alive ? 1 : 0, gtype(g.kinton, g.ball), g.balls, g.strength, g.kinton, g.time);
    }
    return { round: s.round, rows: s.rows, cols: s.cols, grid, gokus };
  },
});

export default game;
