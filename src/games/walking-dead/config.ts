// The Walking Dead: parameters, named as in the original default.cnf (in
// snake case), with the values of that file.

import { GameConfigError } from '../../game-kit/types.ts';

export interface TwdConfig {
  num_players: number;
  num_rounds: number;
  board_rows: number;
  board_cols: number;
  num_ini_units_per_clan: number;
  num_ini_zombies: number;
  num_ini_food: number;
  clan_ini_strength: number;
  points_for_killing_person: number;
  points_for_killing_zombie: number;
  points_per_owned_cell: number;
  food_strength: number;
  rounds_before_becoming_zombie: number;
}

export const DEFAULT_CONFIG: Readonly<TwdConfig> = Object.freeze({
  num_players: 4,
  num_rounds: 200,
  board_rows: 60,
  board_cols: 60,
  num_ini_units_per_clan: 20,
  num_ini_zombies: 10,
  num_ini_food: 15,
  clan_ini_strength: 1000,
  points_for_killing_person: 50,
  points_for_killing_zombie: 10,
  points_per_owned_cell: 1,
  food_strength: 50,
  rounds_before_becoming_zombie: 5,
});

/** Accepted range of every key (inclusive). */
const RANGES: Record<keyof TwdConfig, [number, number]> = {
  num_players: [4, 4],
  num_rounds: [1, 10000],
  board_rows: [12, 120],
  board_cols: [12, 120],
  num_ini_units_per_clan: [1, 100],
  num_ini_zombies: [0, 200],
  num_ini_food: [0, 200],
  clan_ini_strength: [0, 1_000_000],
  points_for_killing_person: [0, 100_000],
  points_for_killing_zombie: [0, 100_000],
  points_per_owned_cell: [0, 1000],
  food_strength: [0, 100_000],
  rounds_before_becoming_zombie: [1, 1000],
};

export function parseConfig(overrides: Record<string, unknown> = {}): TwdConfig {
  const cfg: TwdConfig = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!Object.hasOwn(RANGES, key)) {
      throw new GameConfigError(`walking-dead: unknown config key "${key}" (known: ${Object.keys(RANGES).join(', ')})`);
    }
    const k = key as keyof TwdConfig;
    const [lo, hi] = RANGES[k];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
      throw new GameConfigError(`walking-dead: ${key} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(value)}`);
    }
    cfg[k] = value;
  }
  // Everything placed at the start must fit comfortably in the streets
  // (about half of the board).
  const items = cfg.num_players * cfg.num_ini_units_per_clan + cfg.num_ini_zombies + cfg.num_ini_food;
  if (items * 4 > cfg.board_rows * cfg.board_cols) {
    throw new GameConfigError(
      `walking-dead: ${items} units and food items do not fit on a ${cfg.board_rows}x${cfg.board_cols} board (at most a quarter of the cells)`,
    );
  }
  return cfg;
}
