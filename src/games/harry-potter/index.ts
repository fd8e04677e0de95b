// Harry Potter (EDA Q1 2024-25) as an Arbiter game. Rules: engine.ts; board
// generation: mapgen.ts; bot API: bot-api.ts and player.d.ts.

import { Rng } from '../../sdk/rng.ts';
import { defineGame, type BotView } from '../../sdk/types.ts';
import { rememberFirstStates } from '../../sdk/first-states.ts';
import { record } from '../../sdk/view-layout.ts';
import { readBack, type JsonWriter } from '../../sdk/json-writer.ts';
import { VIEW } from './view.ts';
import { SETTINGS, type HPConfig } from './config.ts';
import type { HPFrame } from './frame.ts';
import { GHOST, WIZARD, cloneState, magicStrength, nbUnits, playRound, type HPOrder, type HPState } from './engine.ts';
import { createState } from './mapgen.ts';

function describe(raw: unknown): string {
  try {
    const s = JSON.stringify(raw);
    return s === undefined ? String(raw) : s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return String(raw);
  }
}

/**
 * The original's rule (Action::execute, Board::next): a unit's FIRST command of
 * the round is the one that counts, valid or not. A later command for the same
 * unit is ignored even when the first one cannot be carried out (a diagonal
 * wizard move, a direction outside 0..7, a wizard's spell, a wrong solution):
 * the engine then runs the first one, which does nothing but still takes its
 * turn (and its random draw) in the interleaving. Commands for units the player
 * does not own are dropped before the interleaving, as in Board::next. What C++
 * cannot express (not an array of three, an unknown command type, an id that is
 * not a unit) is dropped without claiming the unit.
 */
export function validateOrders(state: HPState, player: number, raw: unknown): { orders: HPOrder[]; warnings: string[] } {
  const orders: HPOrder[] = [];
  const warnings: string[] = [];
  if (!Array.isArray(raw)) return { orders, warnings: [`orders must be an array, got ${describe(raw)}`] };
  const n = nbUnits(state);
  const seen = new Set<number>();
  const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  for (const item of raw as unknown[]) {
    if (!Array.isArray(item) || item.length !== 3) {
      warnings.push(`malformed order ${describe(item)}`);
      continue;
    }
    const [kind, id, arg] = item as unknown[];
    if (kind !== 0 && kind !== 1) {
      warnings.push(`unknown command type in ${describe(item)}`);
      continue;
    }
    if (!isInt(id) || id < 0 || id >= n) {
      warnings.push(`unit id out of range: ${describe(id)}`);
      continue;
    }
    // A second order for a unit is dropped without a word here: the API already wrote what the original
    // writes for it (its Action's warning, or nothing in Harry Potter), and the original engine never sees it.
    if (seen.has(id)) continue;
    seen.add(id);
    if (state.uplayer[id] !== player) {
      warnings.push(`unit ${id} is not yours`);
      continue;
    }
    if (kind === 0) {
      const dir = isInt(arg) ? arg : -1;
      if (dir < 0 || dir > 7) warnings.push(`invalid direction ${describe(arg)} for unit ${id}: it does nothing this round`);
      else if (state.utype[id] === WIZARD && dir % 2 === 1) warnings.push(`wizard ${id} cannot move diagonally: it does nothing this round`);
      orders.push([0, id, dir]);
    } else {
      const sol: number[] = [];
      if (Array.isArray(arg)) for (let k = 0; k < arg.length && k < 64; k++) sol.push(isInt(arg[k]) ? (arg[k] as number) : -1);
      else warnings.push(`spell of unit ${id}: the solution must be an array of integers`);
      if (state.utype[id] !== GHOST) warnings.push(`unit ${id} is a wizard: only ghosts cast spells; it does nothing this round`);
      orders.push([1, id, sol]);
    }
  }
  return { orders, warnings };
}

export function encodeView(s: HPState): BotView {
  const n = nbUnits(s);
  const np = s.cfg.num_players;
  const CB = VIEW.cells.shift;
  // Each array read from the state once, out of the loops: states of several shapes make each s.x a polymorphic load.
  const { wall, book, owner, upos, utype, uplayer, upending, unext, cols } = s;
  const cells = new Uint8Array(s.rows * cols);
  // The shifts in locals: read from VIEW in the loop, they were loaded again for every cell.
  const wallAt = CB.wall;
  const bookAt = CB.book;
  const ownerAt = CB.owner1;
  for (let k = 0; k < cells.length; k++) cells[k] = (wall[k]! << wallAt) | (book[k]! << bookAt) | ((owner[k]! + 1) << ownerAt);
  const U = VIEW.units;
  const units = new Int16Array(n * U.stride);
  for (let id = 0; id < n; id++) {
    const o = id * U.stride;
    const k = upos[id]!;
    units[o + U.at.type] = utype[id]!;
    units[o + U.at.player] = uplayer[id]!;
    units[o + U.at.i] = (k / cols) | 0;
    units[o + U.at.j] = k % cols;
    units[o + U.at.rounds_pending] = upending[id]!;
    units[o + U.at.next_player] = unext[id]!;
  }
  const P = VIEW.players;
  const players = new Int32Array(np * P.stride);
  for (let p = 0; p < np; p++) {
    players[p * P.stride + P.at.score] = s.score[p]!;
    players[p * P.stride + P.at.strength] = s.strength[p]!;
  }
  const meta = record(VIEW.meta, { round: s.round, rows: s.rows, cols: s.cols, voldemort_i: s.vi, voldemort_j: s.vj, nb_units: n });
  return { meta, players, spell: Int32Array.from(s.spell), settings: record(VIEW.settings, s.cfg), cells, units };
}

/**
 * The replay frame (HPFrame), written as JSON into `out`: g = one char per cell ('#' wall, 'B' book,
 * '0'-'3' owned, '.' free; a book on an owned cell shows as 'B'), u = per unit [type, player, row, col,
 * rounds_pending, next_player] flattened, v = Voldemort [row, col], s = overall strength per clan, m = magic
 * strength per clan, w = wizards per clan, sp = the spell ingredients. The match process writes it so, the
 * grid's chars straight into the bytes, the numbers as digits, never built as objects; frame() reads it back.
 */
export function writeFrame(s: HPState, out: JsonWriter): void {
  const { wall, book, owner, upos, utype, uplayer, upending, unext, cols } = s;
  out.raw('{"round":');
  out.number(s.round);
  out.raw(',"rows":');
  out.number(s.rows);
  out.raw(',"cols":');
  out.number(cols);
  out.raw(',"g":"');
  out.room(wall.length);
  const bytes = out.bytes;
  let at = out.length;
  // wall ? '#' : book ? 'B' : owner >= 0 ? '0' + owner : '.', without branches (wall and book are 0 or 1,
  // -x their mask): the cells' kinds are too mixed to predict (a 60x60 grid in 3.3 ms a match against 4.3).
  for (let k = 0; k < wall.length; k++) {
    const o = owner[k]!;
    const onBook = -book[k]!;
    const onWall = -wall[k]!;
    const free = ((48 + o + (o >> 31)) & ~onBook) | (66 /* B */ & onBook);
    bytes[at++] = (free & ~onWall) | (35 /* # */ & onWall);
  }
  out.length = at;
  out.raw('","u":[');
  const np = s.cfg.num_players;
  const w = new Array<number>(np).fill(0);
  for (let id = 0; id < utype.length; id++) {
    const k = upos[id]!;
    const pl = uplayer[id]!;
    if (id > 0) out.byte(44); /* , */
    out.number(utype[id]!);
    out.byte(44);
    out.number(pl);
    out.byte(44);
    out.number((k / cols) | 0);
    out.byte(44);
    out.number(k % cols);
    out.byte(44);
    out.number(upending[id]!);
    out.byte(44);
    out.number(unext[id]!);
    if (utype[id] === WIZARD && pl >= 0 && pl < np) w[pl]!++;
  }
  out.raw('],"v":[');
  out.number(s.vi);
  out.byte(44);
  out.number(s.vj);
  out.raw('],"s":');
  out.numbers(s.strength);
  out.raw(',"m":');
  out.numbers(w.map((x, p) => magicStrength(s, p, x)));
  out.raw(',"w":');
  out.numbers(w);
  out.raw(',"sp":');
  out.numbers(s.spell);
  out.byte(125); /* } */
}

/** The frame as objects: writeFrame's JSON read back (one description of a frame, see readBack). */
export const frame = readBack<HPState, HPFrame>(writeFrame);

// Generating the map costs about 8 ms, a copy 0.01 ms.
const firstState = rememberFirstStates((config: HPConfig, seed: number) => createState(config, new Rng(seed)));

const game = defineGame<typeof SETTINGS.table, HPState, HPOrder, HPFrame>({
  id: 'harry-potter',
  title: 'Harry Potter',
  engineVersion: 'harry-potter-2',
  nbPlayers: 4,
  defaultLimits: { cpuBudgetMs: 10000, memoryMb: 128 },
  folder: import.meta.url,

  settings: SETTINGS,
  view: VIEW,
  create(config, seed) {
    const first = firstState(config, seed);
    // A copy of every array, those the rounds share included: a caller may change what it is given.
    return { ...cloneState(first), cfg: config, wall: first.wall.slice(), utype: first.utype.slice() };
  },
  round: (s) => s.round,
  validateOrders,
  next(state, orders) {
    // Frozen players simply give no orders (their units stay, as in the original).
    return playRound(state, orders);
  },
  scores: (s) => Array.from(s.score),
  counters(s) {
    const np = s.cfg.num_players;
    // One pass over the units for the wizards per clan (countWizards walks them per clan).
    const { utype, uplayer } = s;
    const w = new Array<number>(np).fill(0);
    for (let id = 0; id < utype.length; id++) {
      const pl = uplayer[id]!;
      if (utype[id] === WIZARD && pl >= 0 && pl < np) w[pl]!++;
    }
    return {
      cells: Array.from(s.nbCells),
      wizards: w,
      magic: w.map((x, p) => magicStrength(s, p, x)),
      conversions: Array.from(s.scoreAcc, (x) => (s.cfg.points_for_converting_wizard ? x / s.cfg.points_for_converting_wizard : 0)),
    };
  },
  encodeView,
  frame,
  writeFrame,
});

export default game;
