// Moria (Salvador Roura, UPC EDA Q1 2019-20, Jutge P44849).
// Rules: the original engine's (repository alvaroarino/JOC-EDA-2019-2020, folder
// game19/), state for state; statement.en.md in this folder; FIDELITY.md.

import { Rng } from '../../sdk/rng.ts';
import { defineGame } from '../../sdk/types.ts';
import { record } from '../../sdk/view-layout.ts';
import { charCodesToString } from '../../sdk/grid.ts';
import { VIEW } from './view.ts';
import type { MoriaFrame } from './viewer/frame.ts';
import { CONST, SETTINGS, type MoriaConfig } from './config.ts';
import { blankState, CT, generateUnits, layout, NONE_DIR, playRound, UT, type MoriaOrder, type MoriaState } from './engine.ts';
import { generateGrid, readGrid } from './mapgen.ts';

const CB = VIEW.cells.shift;
const U = VIEW.units;
const P = VIEW.players;

/**
 * The original's Board constructor: the board's generator is seeded with the
 * seed, makes the board (or reads the fixed one), then places the units.
 */
export function createState(cfg: MoriaConfig, seed: number): MoriaState {
  const rng = new Rng(seed);
  const s = blankState(cfg, seed);
  if (cfg.board !== undefined) readGrid(s, cfg.board);
  else generateGrid(s, rng);
  if (!generateUnits(s, rng)) throw new Error(`moria: no room for the units (seed ${seed})`);
  s.seed = rng.seed;
  return s;
}

/** One grid char per cell, as in the original .res: O C T 0-3 G A R a-d. */
export function gridString(s: MoriaState): string {
  const res = s.cfg.rock_resistance;
  // Each array read from the state once, out of the loop: states of several shapes make each s.x a polymorphic load.
  const { type, treasure, owner, turns } = s;
  const codes = new Uint8Array(type.length);
  for (let p = 0; p < type.length; p++) {
    let c: number;
    switch (type[p] as CT) {
      case CT.Outside:
        c = 79; // O
        break;
      case CT.Cave:
        c = treasure[p] ? 84 : owner[p]! >= 0 ? 48 + owner[p]! : 67; // T, 0-3, C
        break;
      case CT.Abyss:
        c = 65; // A
        break;
      case CT.Granite:
        c = 71; // G
        break;
      default: {
        // R at full resistance, else 'a'+turns-1 (a..d by default).
        const t = turns[p]!;
        c = t >= res ? 82 : 97 + Math.min(25, Math.max(0, t - 1));
      }
    }
    codes[p] = c;
  }
  return charCodesToString(codes);
}

export function scoresOf(s: MoriaState): number[] {
  return Array.from(s.nbCells, (c, pl) => c + s.cfg.treasure_value * s.nbTreasures[pl]!);
}

const game = defineGame({
  id: 'moria',
  title: 'Moria',
  engineVersion: 'moria-2',
  nbPlayers: 4,
  defaultLimits: { cpuBudgetMs: 10000, memoryMb: 128 },
  folder: import.meta.url,

  settings: SETTINGS,
  view: VIEW,
  create: createState,
  round: (s: MoriaState) => s.round,

  validateOrders(s: MoriaState, player: number, raw: unknown) {
    const orders: MoriaOrder[] = [];
    const warnings: string[] = [];
    if (!Array.isArray(raw)) return { orders, warnings: ['orders must be an array'] };
    const L = layout(s.cfg);
    const seen = new Set<number>();
    for (const o of raw as unknown[]) {
      if (!Array.isArray(o) || o.length < 2 || !Number.isInteger(o[0]) || !Number.isInteger(o[1])) {
        warnings.push(`malformed order ${JSON.stringify(o)?.slice(0, 60)}`);
        continue;
      }
      const id = o[0] as number;
      const dir = o[1] as number;
      if (dir < 0 || dir > NONE_DIR) {
        warnings.push(`direction ${dir} out of range for unit ${id}`);
        continue;
      }
      // A second order for a unit is dropped without a word here: the API already wrote what the original
      // writes for it (its Action's warning, or nothing in Harry Potter), and the original engine never sees it.
      if (seen.has(id)) continue;
      seen.add(id);
      if (id < 0 || id >= L.firstOrc || s.upos[id]! < 0) {
        warnings.push(`id out of range or dead unit: ${id}`);
        continue;
      }
      if (s.uplayer[id] !== player) {
        warnings.push(`unit ${id} does not belong to player ${player}`);
        continue;
      }
      if (s.utype[id] === UT.Wizard && dir % 2 === 1) {
        warnings.push(`wizard ${id} cannot move diagonally`);
        continue;
      }
      if (dir === NONE_DIR) continue; // None: dropped (it still used the unit's one order)
      orders.push([id, dir]);
    }
    return { orders, warnings };
  },

  next(s: MoriaState, orders: MoriaOrder[][]) {
    return playRound(s, orders);
  },

  scores: scoresOf,

  counters: (s: MoriaState) => ({ cells: Array.from(s.nbCells), treasures: Array.from(s.nbTreasures) }),

  encodeView(s: MoriaState) {
    // Each array read from the state once, out of the loops (see gridString).
    const { type, owner, treasure, turns, uplayer, uhealth, upos } = s;
    const n = type.length;
    const cells = new Uint16Array(n);
    for (let p = 0; p < n; p++) cells[p] = (type[p]! << CB.type) | ((owner[p]! + 1) << CB.owner1) | (treasure[p]! << CB.treasure) | (turns[p]! << CB.turns);
    const nu = s.utype.length;
    const units = new Int16Array(nu * U.stride);
    for (let id = 0; id < nu; id++) {
      const o = id * U.stride;
      units[o + U.at.player] = uplayer[id]!;
      units[o + U.at.health] = uhealth[id]!;
      units[o + U.at.pos] = upos[id]!;
    }
    const np = s.nbCells.length;
    const players = new Int32Array(np * P.stride);
    for (let pl = 0; pl < np; pl++) {
      players[pl * P.stride + P.at.nb_cells] = s.nbCells[pl]!;
      players[pl * P.stride + P.at.nb_treasures] = s.nbTreasures[pl]!;
    }
    const { round, cfg: c } = s;
    const meta = record(VIEW.meta, {
      round,
      nb_players: c.nb_players,
      nb_rounds: c.nb_rounds,
      nb_dwarves: c.nb_dwarves,
      nb_wizards: c.nb_wizards,
      max_nb_orcs: c.max_nb_orcs,
      nb_trolls: c.nb_trolls,
      treasure_value: c.treasure_value,
      rock_resistance: c.rock_resistance,
      rows: c.rows,
      cols: c.cols,
    });
    // The grid's own unit ids (the original's Cell::id), not derived from the
    // positions: they differ where a killed troll walked before its rebirth.
    return { meta, players, cells, units, grid: s.unitAt.slice() };
  },

  frame(s: MoriaState): MoriaFrame {
    const { utype, uplayer, uhealth, upos } = s;
    const units: number[] = [];
    for (let id = 0; id < utype.length; id++) units.push(uplayer[id]!, uhealth[id]!, upos[id]!);
    return {
      round: s.round,
      rows: s.cfg.rows,
      cols: s.cfg.cols,
      grid: gridString(s),
      /** Per unit id: player, health, pos (i*cols+j, -1 = not on the board). Types by id: see unitTypes. */
      units,
      unitTypes: Array.from(s.utype).join(''),
      nbCells: Array.from(s.nbCells),
      nbTreasures: Array.from(s.nbTreasures),
    };
  },
});

export { CONST };
export default game;
