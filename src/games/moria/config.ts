// Moria settings: the keys of the original default.cnf plus
// the constants Settings.hh hard-codes.

import { boardSide, type ConfigOf, defaultSettings, defineSettings, FOUR_PLAYERS, GameConfigError, roundsSetting } from '../../sdk/settings.ts';

/** Ranges: Settings.cc asserts nb_players == 4 and rows == cols == 60. */
export const SETTINGS = defineSettings({
  table: {
    nb_players: FOUR_PLAYERS,
    nb_rounds: roundsSetting(1000, 200),
    nb_dwarves: { kind: 'int', min: 1, max: 20, default: 20, doc: 'dwarves per player' },
    nb_wizards: { kind: 'int', min: 0, max: 5, default: 5, doc: 'wizards per player' },
    max_nb_orcs: { kind: 'int', min: 0, max: 20, default: 20, doc: 'orcs on the board at most' },
    nb_trolls: { kind: 'int', min: 0, max: 4, default: 4, doc: 'trolls' },
    treasure_value: { kind: 'int', min: 0, max: 1000, default: 10, doc: 'points per treasure (a cave cell is worth 1)' },
    rock_resistance: { kind: 'int', min: 1, max: 100, default: 5, doc: 'hits a rock cell takes to dig' },
    rows: boardSide('rows', 60, 60, 60),
    cols: boardSide('columns', 60, 60, 60),
    board: {
      kind: 'text',
      maxChars: 8000,
      doc: 'a fixed board instead of a generated one (the original FIXED grid): rows lines of cols characters, O outside, C cave, T cave with a treasure, 0-3 cave owned by that clan, G granite, A abyss, R rock, a.. rock with 1.. hits left; the units are still placed from the seed',
    },
  },
  rounds: 'nb_rounds',
  check(cfg) {
    if (cfg.board !== undefined) cfg.board = parseBoard(cfg.board, cfg);
    return cfg;
  },
});

export type MoriaConfig = ConfigOf<typeof SETTINGS.table>;
export const DEFAULT_CONFIG: Readonly<MoriaConfig> = Object.freeze(defaultSettings(SETTINGS));

/** Hard-coded in Settings.hh (not configurable in the original either). */
export const CONST = Object.freeze({
  dwarves_health: 100,
  wizards_health: 50,
  orcs_health: 75,
  trolls_health: 500,
  min_damage_dwarves: 20,
  max_damage_dwarves: 40,
  min_damage_orcs: 15,
  max_damage_orcs: 30,
  min_damage_trolls: 50,
  max_damage_trolls: 150,
  ini_treasures: 80,
  inv_prob_abyss: 25,
  inv_prob_orc: 50,
});

/** Checks a fixed board and returns it as rows joined by newlines. */
export function parseBoard(value: string, cfg: Pick<MoriaConfig, 'rows' | 'cols' | 'rock_resistance'>): string {
  const rows = value.trim().split(/\s+/);
  if (rows.length !== cfg.rows) throw new GameConfigError(`moria: board has ${rows.length} rows, expected ${cfg.rows}`);
  const lastRock = String.fromCharCode(97 + cfg.rock_resistance - 2);
  for (const [i, row] of rows.entries()) {
    if (row.length !== cfg.cols) throw new GameConfigError(`moria: board row ${i} has ${row.length} cells, expected ${cfg.cols}`);
    for (const ch of row)
      if (!/[OCTGAR0-3]/.test(ch) && !(ch >= 'a' && ch <= lastRock))
        throw new GameConfigError(`moria: board row ${i}: "${ch}" is not a cell (O C T 0-3 G A R a-${lastRock})`);
  }
  return rows.join('\n');
}
