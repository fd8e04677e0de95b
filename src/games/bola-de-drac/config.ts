// Bola de Drac 2015: the parameters of a match, named as in the original
// default.cnf (game-facts §4 "Parameters"). Defaults are those of the shipped
// demo.cnf (601 rounds, 3 capsules, 2 balls, 4 beans, 4 kintons) with the
// constants every cnf shares (regen 60, life 55, max 999, res 200, penalties
// 10 / 700 / 25). The original shipped fixed maps; here the board is generated
// from the seed, so `rows`/`cols` default to 0 = "pick one of the original
// sizes (15x31, 20x38, 19x19, 15x43) from the seed".

import { GameConfigError } from '../types.ts';

export interface BdConfig {
  nb_players: number;
  nb_rounds: number;
  nb_capsules: number;
  nb_balls: number;
  nb_beans: number;
  nb_kintons: number;
  goku_regen_time: number;
  bean_regen_time: number;
  kinton_regen_time: number;
  kinton_life_time: number;
  max_strength: number;
  res_strength: number;
  moving_penalty: number;
  kamehame_penalty: number;
  combat_penalty: number;
  /** 0 = chosen from the seed among the original sizes (with cols = 0). */
  rows: number;
  /** 0 = chosen from the seed among the original sizes (with rows = 0). */
  cols: number;
}

export const DEFAULT_CONFIG: Readonly<BdConfig> = Object.freeze({
  nb_players: 4,
  nb_rounds: 601,
  nb_capsules: 3,
  nb_balls: 2,
  nb_beans: 4,
  nb_kintons: 4,
  goku_regen_time: 60,
  bean_regen_time: 60,
  kinton_regen_time: 60,
  kinton_life_time: 55,
  max_strength: 999,
  res_strength: 200,
  moving_penalty: 10,
  kamehame_penalty: 700,
  combat_penalty: 25,
  rows: 0,
  cols: 0,
});

/** The board sizes of the original maps (demo/maze/zigzag, cnord, and the two others). */
export const ORIGINAL_SIZES: readonly (readonly [number, number])[] = [
  [15, 31],
  [20, 38],
  [19, 19],
  [15, 43],
];

export const MIN_SIDE = 7;
export const MAX_SIDE = 60;

/** Inclusive ranges accepted per key. */
const RANGES: Record<keyof BdConfig, [number, number]> = {
  nb_players: [4, 4],
  nb_rounds: [1, 20001],
  nb_capsules: [1, 12],
  nb_balls: [1, 12],
  nb_beans: [0, 16],
  nb_kintons: [0, 16],
  goku_regen_time: [1, 1000],
  bean_regen_time: [1, 1000],
  kinton_regen_time: [1, 1000],
  kinton_life_time: [1, 1000],
  max_strength: [1, 100000],
  res_strength: [1, 100000],
  moving_penalty: [0, 100000],
  kamehame_penalty: [0, 100000],
  combat_penalty: [0, 100000],
  rows: [0, MAX_SIDE],
  cols: [0, MAX_SIDE],
};

export function parseConfig(overrides: Record<string, unknown> = {}): BdConfig {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new GameConfigError('bola-de-drac: the configuration must be an object of key → integer');
  }
  const cfg: BdConfig = { ...DEFAULT_CONFIG };
  for (const [key, raw] of Object.entries(overrides)) {
    if (!Object.prototype.hasOwnProperty.call(RANGES, key)) {
      throw new GameConfigError(`bola-de-drac: unknown parameter "${key}" (known: ${Object.keys(RANGES).join(', ')})`);
    }
    const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    const [lo, hi] = RANGES[key as keyof BdConfig];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
      throw new GameConfigError(`bola-de-drac: ${key} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(raw)}`);
    }
    cfg[key as keyof BdConfig] = value;
  }
  if (cfg.res_strength > cfg.max_strength) {
    throw new GameConfigError(`bola-de-drac: res_strength (${cfg.res_strength}) must not exceed max_strength (${cfg.max_strength})`);
  }
  if ((cfg.rows === 0) !== (cfg.cols === 0)) {
    throw new GameConfigError('bola-de-drac: give both rows and cols, or neither (0 = size chosen from the seed)');
  }
  if (cfg.rows !== 0 && (cfg.rows < MIN_SIDE || cfg.cols < MIN_SIDE)) {
    throw new GameConfigError(`bola-de-drac: rows and cols must be at least ${MIN_SIDE}`);
  }
  if (cfg.rows !== 0) {
    const inner = (cfg.rows - 2) * (cfg.cols - 2);
    const items = cfg.nb_capsules + cfg.nb_balls + cfg.nb_beans + cfg.nb_kintons + cfg.nb_players;
    // The generator keeps at least ~half the inner cells empty; items must fit with room to spare.
    if (items * 4 > inner) {
      throw new GameConfigError(`bola-de-drac: a ${cfg.rows}x${cfg.cols} board is too small for ${items} items and gokus`);
    }
  }
  return cfg;
}
