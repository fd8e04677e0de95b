// The Walking Dead (Albert Oliveras, UPC EDA Q1 2022-23) as an Arbiter game.

import { defineGame, type BotView } from '../../sdk/types.ts';
import { rememberFirstStates } from '../../sdk/first-states.ts';
import { record } from '../../sdk/view-layout.ts';
import { readBack, type JsonWriter } from '../../sdk/json-writer.ts';
import { VIEW } from './view.ts';
import { SETTINGS } from './config.ts';
import type { TwdFrame } from './frame.ts';
import { cloneState, createState, nextState, scoreOf, UType, type TwdOrder, type TwdState } from './engine.ts';

/**
 * The orders that reach the engine, as the original's Action and Board::next
 * filter them: the first order per unit id counts (a later one is dropped
 * even when the first is invalid); orders for ids that are not one of the
 * player's units (alive or dead) are dropped. Orders of the player's own
 * units are kept even when they cannot succeed (a dead unit, a diagonal, a
 * direction outside 0..7, given as -1): in the original they still take their
 * turn, and a random draw, in the interleaving of the round.
 */
function validateOrders(state: TwdState, player: number, raw: unknown): { orders: TwdOrder[]; warnings: string[] } {
  const orders: TwdOrder[] = [];
  const warnings: string[] = [];
  if (!Array.isArray(raw)) return { orders, warnings: ['orders are not a list'] };
  const seen = new Set<number>();
  const n = state.uType.length;
  const max = Math.min(raw.length, 1000);
  for (let k = 0; k < max; k++) {
    const o: unknown = raw[k];
    if (!Array.isArray(o) || o.length < 2) {
      warnings.push(`order ${k}: not a move [id, dir]`);
      continue;
    }
    const [id, dir] = o as unknown[];
    if (!Number.isInteger(id)) {
      warnings.push(`order ${k}: invalid unit id ${JSON.stringify(id)}`);
      continue;
    }
    const u = id as number;
    // A second order for a unit is dropped without a word here: the API already wrote what the original
    // writes for it (its Action's warning, or nothing in Harry Potter), and the original engine never sees it.
    if (seen.has(u)) continue;
    seen.add(u);
    if (u < 0 || u >= n) {
      warnings.push(`order ${k}: invalid unit id ${u}`);
      continue;
    }
    if (state.uPlayer[u] !== player || state.uType[u] === UType.Zombie) {
      warnings.push(`order ${k}: unit ${u} is not yours`);
      continue;
    }
    let d = dir as number;
    if (!Number.isInteger(dir) || d < 0 || d > 7) {
      warnings.push(`order ${k}: invalid dir ${JSON.stringify(dir)} for unit ${u} (it does nothing)`);
      d = -1;
    } else if (state.uType[u] === UType.Dead) {
      warnings.push(`order ${k}: unit ${u} is dead and cannot move (it does nothing)`);
    } else if (d & 1) {
      warnings.push(`order ${k}: unit ${u} cannot move diagonally (it does nothing)`);
    }
    orders.push([u, d]);
  }
  if (raw.length > max) warnings.push(`${raw.length - max} orders beyond the first 1000 ignored`);
  return { orders, warnings };
}

/**
 * The replay frame (TwdFrame), written as JSON into `out`: the match process writes it so, the grid's chars
 * straight into the bytes, the numbers as digits, never built as objects; frame() reads it back.
 */
export function writeFrame(s: TwdState, out: JsonWriter): void {
  const np = s.cfg.num_players;
  const { waste, owner, food, uType, uPlayer, uPos, uRfz } = s;
  out.raw('{"round":');
  out.number(s.round);
  out.raw(',"rows":');
  out.number(s.rows);
  out.raw(',"cols":');
  out.number(s.cols);
  out.raw(',"grid":"');
  const cells = s.rows * s.cols;
  out.room(cells);
  const bytes = out.bytes;
  let at = out.length;
  // waste ? 'W' : owner >= 0 ? '0' + owner : '.', without branches (waste is 0 or 1, -waste its mask): the
  // cells' kinds are too mixed to predict (a 60x60 grid in 3.3 ms a match against 4.3).
  for (let c = 0; c < cells; c++) {
    const o = owner[c]!;
    const onWaste = -waste[c]!;
    bytes[at++] = ((48 + o + (o >> 31)) & ~onWaste) | (87 /* W */ & onWaste);
  }
  out.length = at;
  out.raw('","food":[');
  // Food (0 or 1) is on a few cells of thousands: indexOf finds them natively, in half the time of a loop.
  for (let c = food.indexOf(1); c >= 0; ) {
    out.number(c);
    c = food.indexOf(1, c + 1);
    if (c >= 0) out.byte(44); /* , */
  }
  out.raw('],"units":[');
  const alive = new Array<number>(np).fill(0);
  for (let u = 0; u < uType.length; u++) {
    const pl = uPlayer[u]!;
    if (u > 0) out.byte(44);
    out.number(uType[u]!);
    out.byte(44);
    out.number(pl);
    out.byte(44);
    out.number(uPos[u]!);
    out.byte(44);
    out.number(uRfz[u]!);
    if (uType[u] === UType.Alive && pl >= 0 && pl < np) alive[pl]!++;
  }
  out.raw('],"points":');
  out.numbers(s.points);
  out.raw(',"strength":');
  out.numbers(alive.map((a, pl) => (a === 0 ? 0 : Math.floor(s.points[pl]! / a))));
  out.raw(',"alive":');
  out.numbers(alive);
  out.byte(125); /* } */
}

/** The frame as objects: writeFrame's JSON read back (one description of a frame, see readBack). */
const frame = readBack<TwdState, TwdFrame>(writeFrame);

// Generating the map costs about 6 ms, a copy 0.01 ms.
const firstState = rememberFirstStates(createState);

const game = defineGame<typeof SETTINGS.table, TwdState, TwdOrder, TwdFrame>({
  id: 'walking-dead',
  title: 'The Walking Dead',
  engineVersion: 'walking-dead-2',
  nbPlayers: 4,
  defaultLimits: { cpuBudgetMs: 10000, memoryMb: 128 },
  folder: import.meta.url,

  settings: SETTINGS,
  view: VIEW,
  create(config, seed) {
    const first = firstState(config, seed);
    // A copy of every array, the waste grid the rounds share included: a caller may change what it is given.
    return { ...cloneState(first), cfg: config, waste: first.waste.slice() };
  },
  round: (s) => s.round,
  validateOrders,
  next(state, orders) {
    return nextState(state, orders);
  },
  scores: (s) => Array.from({ length: s.cfg.num_players }, (_, pl) => scoreOf(s, pl)),
  counters(s) {
    const np = s.cfg.num_players;
    const alive = new Array<number>(np).fill(0);
    const dead = new Array<number>(np).fill(0);
    for (let u = 0; u < s.uType.length; u++) {
      const pl = s.uPlayer[u]!;
      if (pl < 0) continue;
      if (s.uType[u] === UType.Alive) alive[pl]!++;
      else if (s.uType[u] === UType.Dead) dead[pl]!++;
    }
    return {
      alive,
      dead,
      strength: alive.map((n, pl) => (n === 0 ? 0 : Math.floor(s.points[pl]! / n))),
      cells: Array.from(s.nbCells),
    };
  },
  encodeView(s): BotView {
    const np = s.cfg.num_players;
    const P = VIEW.players;
    const players = new Int32Array(np * P.stride);
    for (let pl = 0; pl < np; pl++) {
      players[pl * P.stride + P.at.points] = s.points[pl]!;
      players[pl * P.stride + P.at.score] = scoreOf(s, pl);
    }
    const CB = VIEW.cells.shift;
    // Each array read from the state once, out of the loops: states of several shapes make each s.x a polymorphic load (5x slower).
    const { waste, owner, food, uType, uPlayer, uPos, uRfz } = s;
    const cells = new Uint8Array(s.rows * s.cols);
    // The shifts in locals: read from VIEW in the loop, they were loaded again for every cell.
    const wasteBit = 1 << CB.waste;
    const ownerAt = CB.owner1;
    const foodAt = CB.food;
    for (let c = 0; c < cells.length; c++) cells[c] = waste[c] ? wasteBit : ((owner[c]! + 1) << ownerAt) | (food[c]! << foodAt);
    const U = VIEW.units;
    const n = uType.length;
    const units = new Int16Array(U.stride * n);
    for (let u = 0; u < n; u++) {
      const o = U.stride * u;
      units[o + U.at.type] = uType[u]!;
      units[o + U.at.player] = uPlayer[u]!;
      units[o + U.at.pos] = uPos[u]!;
      units[o + U.at.rounds_for_zombie] = uRfz[u]!;
    }
    return { meta: record(VIEW.meta, { round: s.round }), settings: record(VIEW.settings, s.cfg), players, cells, units };
  },

  frame,
  writeFrame,
});

export default game;
