// Moria settings: the keys of the original default.cnf plus
// the constants Settings.hh hard-codes.

import { GameConfigError } from '../../game-kit/types.ts';

export interface MoriaConfig {
  nb_players: number;
  nb_rounds: number;
  nb_dwarves: number;
  nb_wizards: number;
  max_nb_orcs: number;
  nb_trolls: number;
  treasure_value: number;
  rock_resistance: number;
  rows: number;
  cols: number;
  /**
   * A fixed board instead of a generated one (the original's FIXED grid):
   * `rows` lines of `cols` characters, as in the original's output files:
   * O outside, C cave, T cave with a treasure, 0-3 cave owned by that clan,
   * G granite, A abyss, R rock, a.. rock with 1.. hits left. The units are
   * still placed at random from the seed.
   */
  board?: string;
}

export const DEFAULT_CONFIG: Readonly<MoriaConfig> = Object.freeze({
  nb_players: 4,
  nb_rounds: 200,
  nb_dwarves: 20,
  nb_wizards: 5,
  max_nb_orcs: 20,
  nb_trolls: 4,
  treasure_value: 10,
  rock_resistance: 5,
  rows: 60,
  cols: 60,
});

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

/** Allowed range per key. Settings.cc asserts nb_players == 4 and rows == cols == 60. */
const RANGES: Record<Exclude<keyof MoriaConfig, 'board'>, [number, number]> = {
  nb_players: [4, 4],
  nb_rounds: [1, 1000],
  nb_dwarves: [1, 20],
  nb_wizards: [0, 5],
  max_nb_orcs: [0, 20],
  nb_trolls: [0, 4],
  treasure_value: [0, 1000],
  rock_resistance: [1, 100],
  rows: [60, 60],
  cols: [60, 60],
};

export function parseConfig(overrides: Record<string, unknown> = {}): MoriaConfig {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new GameConfigError('moria: the configuration must be an object of key: value pairs');
  }
  const cfg: MoriaConfig = { ...DEFAULT_CONFIG };
  let board: unknown;
  for (const [key, value] of Object.entries(overrides)) {
    if (key === 'board') {
      board = value;
      continue;
    }
    if (!Object.hasOwn(RANGES, key)) {
      throw new GameConfigError(`moria: unknown setting "${key}" (known: ${Object.keys(RANGES).join(', ')}, board)`);
    }
    const [lo, hi] = RANGES[key as keyof typeof RANGES];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
      throw new GameConfigError(`moria: ${key} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(value)}`);
    }
    (cfg as unknown as Record<string, number>)[key] = value;
  }
  if (board !== undefined) cfg.board = parseBoard(board, cfg);
  return cfg;
}

/** Checks a fixed board and returns it as rows joined by newlines. */
export function parseBoard(value: unknown, cfg: MoriaConfig): string {
  const rows = Array.isArray(value) ? value : typeof value === 'string' ? value.trim().split(/\s+/) : null;
  if (!rows || !rows.every((r) => typeof r === 'string'))
    throw new GameConfigError('moria: board must be a string of rows (or an array of row strings)');
  if (rows.length !== cfg.rows) throw new GameConfigError(`moria: board has ${rows.length} rows, expected ${cfg.rows}`);
  const lastRock = String.fromCharCode(97 + cfg.rock_resistance - 2);
  for (const [i, row] of (rows as string[]).entries()) {
    if (row.length !== cfg.cols) throw new GameConfigError(`moria: board row ${i} has ${row.length} cells, expected ${cfg.cols}`);
    for (const ch of row)
      if (!/[OCTGAR0-3]/.test(ch) && !(ch >= 'a' && ch <= lastRock))
        throw new GameConfigError(`moria: board row ${i}: "${ch}" is not a cell (O C T 0-3 G A R a-${lastRock})`);
  }
  return (rows as string[]).join('\n');
}
