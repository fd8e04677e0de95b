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

import { defaultSettings, defineSettings, FOUR_PLAYERS, GameConfigError, type ConfigOf, type SettingsTable } from '../../sdk/settings.ts';
import { parseCnf } from './cnf.ts';

export const EDITIONS = [2012, 2015] as const;
/** Longest accepted map text. */
export const MAX_MAP_CHARS = 20000;

/** The board sizes of the original maps (demo/maze/zigzag, cnord, and the two others). */
export const ORIGINAL_SIZES: readonly (readonly [number, number])[] = [
  [15, 31],
  [20, 38],
  [19, 19],
  [15, 43],
];

export const MIN_SIDE = 7;
export const MAX_SIDE = 60;

/** Items of one kind a board can hold (a map decides its own counts, up to a full board). */
const MAX_ITEMS = MAX_SIDE * MAX_SIDE;
/** Items of one kind the generator places (it keeps boards roomy). */
const GENERATED_MAX: Readonly<Record<'nb_capsules' | 'nb_balls' | 'nb_beans' | 'nb_kintons', number>> = {
  nb_capsules: 12,
  nb_balls: 12,
  nb_beans: 16,
  nb_kintons: 16,
};

const TABLE = {
  nb_players: FOUR_PLAYERS,
  nb_rounds: { kind: 'int', min: 1, max: 20001, default: 601, doc: "rounds of a match (the last round's number)" },
  nb_capsules: { kind: 'int', min: 1, max: MAX_ITEMS, default: 3, doc: 'Hoi Poi capsules' },
  nb_balls: { kind: 'int', min: 1, max: MAX_ITEMS, default: 2, doc: 'dragon balls on the board at a time' },
  nb_beans: { kind: 'int', min: 0, max: MAX_ITEMS, default: 4, doc: 'magic beans' },
  nb_kintons: { kind: 'int', min: 0, max: MAX_ITEMS, default: 4, doc: 'kinton clouds' },
  goku_regen_time: { kind: 'int', min: 1, max: 1000, default: 60, doc: 'rounds a dead goku waits to come back' },
  bean_regen_time: { kind: 'int', min: 1, max: 1000, default: 60, doc: 'rounds an eaten bean takes to reappear' },
  kinton_regen_time: { kind: 'int', min: 1, max: 1000, default: 60, doc: 'rounds a taken kinton takes to reappear' },
  kinton_life_time: { kind: 'int', min: 1, max: 1000, default: 55, doc: 'rounds a kinton carries its goku' },
  max_strength: { kind: 'int', min: 1, max: 100000, default: 999, doc: 'strength a goku can reach' },
  res_strength: { kind: 'int', min: 1, max: 100000, default: 200, doc: 'strength of a goku when it comes back' },
  moving_penalty: { kind: 'int', min: 0, max: 100000, default: 10, doc: 'strength a move on foot costs' },
  kamehame_penalty: { kind: 'int', min: 0, max: 100000, default: 700, doc: 'strength a Kame Hame costs' },
  combat_penalty: { kind: 'int', min: 0, max: 100000, default: 25, doc: 'strength a combat costs the loser' },
  rows: { kind: 'int', min: 0, max: MAX_SIDE, default: 0, doc: 'rows of the board; 0 with cols 0: one of the original sizes, from the seed' },
  cols: { kind: 'int', min: 0, max: MAX_SIDE, default: 0, doc: 'columns of the board; 0 with rows 0: one of the original sizes, from the seed' },
  edition: {
    kind: 'int',
    min: 2012,
    max: 2015,
    default: 2015,
    doc: 'the rules: 2015 (the statement) or 2012 (the original engine, plays nb_rounds - 1 rounds)',
  },
  map: { kind: 'text', maxChars: MAX_MAP_CHARS, default: '', doc: 'a whole board in the original .cnf format instead of a generated one' },
} as const satisfies SettingsTable;

export type BdConfig = ConfigOf<typeof TABLE>;

export const SETTINGS = defineSettings({
  table: TABLE,
  rounds: 'nb_rounds',
  check(cfg: BdConfig, given: ReadonlySet<string>): BdConfig {
    if (cfg.map.trim() === '') cfg.map = '';
    if (!(EDITIONS as readonly number[]).includes(cfg.edition)) {
      throw new GameConfigError(`bola-de-drac: edition must be ${EDITIONS.join(' or ')}, got ${cfg.edition}`);
    }
    return cfg.map !== '' ? withMap(cfg, given) : checkGenerated(cfg);
  },
});

export const DEFAULT_CONFIG: Readonly<BdConfig> = Object.freeze(defaultSettings(SETTINGS));
type IntKey = Exclude<keyof BdConfig, 'map'>;
const RANGES = SETTINGS.table;

function checkGenerated(cfg: BdConfig): BdConfig {
  for (const [key, max] of Object.entries(GENERATED_MAX)) {
    const value = cfg[key as keyof typeof GENERATED_MAX];
    if (value > max) throw new GameConfigError(`bola-de-drac: ${key} must be at most ${max} on a generated board (a map may hold more), got ${value}`);
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

/** Keys the board of a map decides (an explicit value must agree with it). */
const BOARD_KEYS = ['rows', 'cols', 'nb_capsules', 'nb_balls', 'nb_beans', 'nb_kintons', 'nb_players'] as const;

/**
 * A fixed board: the parameters written in the map's preamble replace the
 * defaults (explicit keys still win), and the counts the board decides must
 * agree with it.
 */
function withMap(cfg: BdConfig, given: ReadonlySet<string>): BdConfig {
  let cnf;
  try {
    cnf = parseCnf(cfg.map);
  } catch (err) {
    throw new GameConfigError(`bola-de-drac: map: ${(err as Error).message}`);
  }
  for (const [key, value] of Object.entries(cnf.params)) {
    if (!Object.hasOwn(RANGES, key)) continue;
    if (given.has(key)) {
      if ((BOARD_KEYS as readonly string[]).includes(key) && cfg[key as IntKey] !== value) {
        throw new GameConfigError(`bola-de-drac: ${key} = ${cfg[key as IntKey]} but the map says ${value}`);
      }
      continue;
    }
    if ((BOARD_KEYS as readonly string[]).includes(key)) continue; // checked against the board below
    const { min: lo, max: hi } = RANGES[key as IntKey];
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
