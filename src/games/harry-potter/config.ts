// Harry Potter settings: the keys of the original default.cnf in snake case
// (game-facts §2, "default.cnf"). NUM_PLAYERS is fixed to 4.

import { GameConfigError } from '../../game-kit/types.ts';

export interface HPConfig {
  num_players: number;
  num_rounds: number;
  board_rows: number;
  board_cols: number;
  num_ini_wizards_per_clan: number;
  num_ini_books: number;
  clan_ini_magic_strength: number;
  points_for_converting_wizard: number;
  points_per_owned_cell: number;
  book_magic_strength: number;
  /** ROUNDS_FOR_CONVERTING in the cnf; the API getter is rounds_for_converting_wizard(). */
  rounds_for_converting: number;
  rounds_attack_resting_ghost: number;
  rounds_spell_resting_ghost: number;
  rounds_no_attack_ghost: number;
}

export const DEFAULT_CONFIG: Readonly<HPConfig> = Object.freeze({
  num_players: 4,
  num_rounds: 200,
  board_rows: 60,
  board_cols: 60,
  num_ini_wizards_per_clan: 20,
  num_ini_books: 50,
  clan_ini_magic_strength: 1000,
  points_for_converting_wizard: 100,
  points_per_owned_cell: 1,
  book_magic_strength: 50,
  rounds_for_converting: 5,
  rounds_attack_resting_ghost: 15,
  rounds_spell_resting_ghost: 60,
  rounds_no_attack_ghost: 5,
});

/** [min, max] accepted for each key. */
const RANGES: Record<keyof HPConfig, [number, number]> = {
  num_players: [4, 4],
  num_rounds: [1, 10000],
  board_rows: [20, 120],
  board_cols: [20, 120],
  num_ini_wizards_per_clan: [0, 200],
  num_ini_books: [0, 500],
  clan_ini_magic_strength: [0, 1_000_000],
  points_for_converting_wizard: [0, 100_000],
  points_per_owned_cell: [0, 1000],
  book_magic_strength: [0, 100_000],
  rounds_for_converting: [1, 1000],
  rounds_attack_resting_ghost: [0, 1000],
  rounds_spell_resting_ghost: [0, 1000],
  rounds_no_attack_ghost: [0, 1000],
};

export function parseConfig(overrides: Record<string, unknown> = {}): HPConfig {
  const cfg: HPConfig = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(RANGES, key)) {
      throw new GameConfigError(`harry-potter: unknown setting "${key}" (known: ${Object.keys(RANGES).join(', ')})`);
    }
    const k = key as keyof HPConfig;
    const [lo, hi] = RANGES[k];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
      throw new GameConfigError(`harry-potter: ${key} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(value)}`);
    }
    cfg[k] = value;
  }
  // Everything must fit on the corridors (about half the board) with room to spare.
  const items = cfg.num_players * (1 + cfg.num_ini_wizards_per_clan) + cfg.num_ini_books;
  const room = Math.floor((cfg.board_rows * cfg.board_cols) / 8);
  if (items > room) {
    throw new GameConfigError(
      `harry-potter: ${items} units and books do not fit on a ${cfg.board_rows}x${cfg.board_cols} board (at most ${room})`,
    );
  }
  return cfg;
}
