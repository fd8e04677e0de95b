// Bola de Drac 2015: the parameters of a match, named as in the original
// .cnf files (2012, hecrj/bola-de-drac). Defaults are those of the shipped
// demo.cnf (601 rounds, 3 capsules, 2 balls, 4 beans, 4 kintons) with the
// constants every cnf shares (regen 60, life 55, max 999, res 200, penalties
// 10 / 700 / 25). The original shipped fixed maps; here the board is generated
// from the seed, so `rows`/`cols` default to 0 = "pick one of the original
// sizes (15x31, 20x38, 19x19, 15x43) from the seed". A fixed board can still
// be given, as the text of a .cnf file in the original's format (`map`).
//
// `edition` selects the rules: 2015 (the statement in this folder, default)
// or 2012 (the original engine of 2012, hecrj/bola-de-drac, for comparisons:
// it plays nb_rounds - 1 rounds). See FIDELITY.md.

import { GameConfigError } from '../../game-kit/types.ts';
import { parseCnf } from './cnf.ts';

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
  /** 2015 (default) or 2012: which edition's rules (FIDELITY.md). */
  edition: number;
  /** '' (a board generated from the seed) or a whole board in the original .cnf format. */
  map: string;
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
  edition: 2015,
  map: '',
});

export const EDITIONS = [2012, 2015] as const;
/** Longest accepted map text. */
export const MAX_MAP_CHARS = 20000;

type IntKey = Exclude<keyof BdConfig, 'map'>;

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
const RANGES: Record<IntKey, [number, number]> = {
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
  edition: [2012, 2015],
};

export function parseConfig(overrides: Record<string, unknown> = {}): BdConfig {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new GameConfigError('bola-de-drac: the configuration must be an object of key → integer');
  }
  const cfg: BdConfig = { ...DEFAULT_CONFIG };
  const given = new Set<string>();
  const hasMap = typeof overrides['map'] === 'string' && overrides['map'].trim() !== '';
  for (const [key, raw] of Object.entries(overrides)) {
    if (key === 'map') {
      if (typeof raw !== 'string' || raw.length > MAX_MAP_CHARS) {
        throw new GameConfigError(`bola-de-drac: map must be the text of a .cnf board (at most ${MAX_MAP_CHARS} characters)`);
      }
      cfg.map = raw.trim() === '' ? '' : raw;
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(RANGES, key)) {
      throw new GameConfigError(`bola-de-drac: unknown parameter "${key}" (known: ${[...Object.keys(RANGES), 'map'].join(', ')})`);
    }
    const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    // With a map, the board decides its own counts and sizes (checked against it in withMap).
    const [lo, hi] = hasMap && (BOARD_KEYS as readonly string[]).includes(key) ? [0, 1e6] : RANGES[key as IntKey];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
      throw new GameConfigError(`bola-de-drac: ${key} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(raw)}`);
    }
    cfg[key as IntKey] = value;
    given.add(key);
  }
  if (!(EDITIONS as readonly number[]).includes(cfg.edition)) {
    throw new GameConfigError(`bola-de-drac: edition must be ${EDITIONS.join(' or ')}, got ${cfg.edition}`);
  }
  if (cfg.map !== '') return withMap(cfg, given);
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

/** Keys the board of a map decides (an explicit value must agree with it). */
const BOARD_KEYS = ['rows', 'cols', 'nb_capsules', 'nb_balls', 'nb_beans', 'nb_kintons', 'nb_players'] as const;

/**
 * A fixed board: the parameters written in the map's preamble replace the
 * defaults (explicit keys still win), and the counts the board decides must
 * agree with it.
 */
function withMap(cfg: BdConfig, given: Set<string>): BdConfig {
  let cnf;
  try {
    cnf = parseCnf(cfg.map);
  } catch (err) {
    throw new GameConfigError(`bola-de-drac: map: ${(err as Error).message}`);
  }
  for (const [key, value] of Object.entries(cnf.params)) {
    if (!Object.prototype.hasOwnProperty.call(RANGES, key)) continue;
    if (given.has(key)) {
      if ((BOARD_KEYS as readonly string[]).includes(key) && cfg[key as IntKey] !== value) {
        throw new GameConfigError(`bola-de-drac: ${key} = ${cfg[key as IntKey]} but the map says ${value}`);
      }
      continue;
    }
    if ((BOARD_KEYS as readonly string[]).includes(key)) continue; // checked against the board below
    const [lo, hi] = RANGES[key as IntKey];
    if (value < lo || value > hi) throw new GameConfigError(`bola-de-drac: map: ${key} must be in [${lo}, ${hi}], got ${value}`);
    cfg[key as IntKey] = value;
  }
  const board: Record<(typeof BOARD_KEYS)[number], number> = {
    rows: cnf.rows,
    cols: cnf.cols,
    nb_capsules: cnf.capsules,
    nb_balls: cnf.balls,
    nb_beans: cnf.beans.length,
    nb_kintons: cnf.kintons.length,
    nb_players: cnf.gokus.length,
  };
  for (const key of BOARD_KEYS) {
    if (given.has(key) && cfg[key] !== board[key]) throw new GameConfigError(`bola-de-drac: ${key} = ${cfg[key]} but the map has ${board[key]}`);
    cfg[key] = board[key];
  }
  if (cfg.nb_players !== 4) throw new GameConfigError('bola-de-drac: the map must hold 4 gokus');
  if (cfg.rows > MAX_SIDE || cfg.cols > MAX_SIDE) throw new GameConfigError(`bola-de-drac: map: at most ${MAX_SIDE} rows and columns`);
  if (cfg.res_strength > cfg.max_strength) {
    throw new GameConfigError(`bola-de-drac: res_strength (${cfg.res_strength}) must not exceed max_strength (${cfg.max_strength})`);
  }
  if (cnf.round >= cfg.nb_rounds) throw new GameConfigError(`bola-de-drac: map: round ${cnf.round} is not before nb_rounds ${cfg.nb_rounds}`);
  for (const g of cnf.gokus) {
    if (g.strength > cfg.max_strength) throw new GameConfigError(`bola-de-drac: map: a goku's strength ${g.strength} exceeds max_strength`);
    if (g.time > cfg.goku_regen_time) throw new GameConfigError(`bola-de-drac: map: a goku's regeneration time ${g.time} exceeds goku_regen_time`);
  }
  return cfg;
}
