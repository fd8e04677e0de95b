// The Walking Dead: parameters, named as in the original default.cnf (in
// snake case), with the values of that file.

import { boardSide, type ConfigOf, defaultSettings, defineSettings, FOUR_PLAYERS, GameConfigError, roundsSetting } from '../../sdk/settings.ts';

export const SETTINGS = defineSettings({
  table: {
    num_players: FOUR_PLAYERS,
    num_rounds: roundsSetting(10000, 200),
    board_rows: boardSide('rows', 12, 120, 60),
    board_cols: boardSide('columns', 12, 120, 60),
    num_ini_units_per_clan: { kind: 'int', min: 1, max: 100, default: 20, doc: 'units each clan starts with' },
    num_ini_zombies: { kind: 'int', min: 0, max: 200, default: 10, doc: 'zombies at the start' },
    num_ini_food: { kind: 'int', min: 0, max: 200, default: 15, doc: 'food items on the board at any time' },
    clan_ini_strength: { kind: 'int', min: 0, max: 1_000_000, default: 1000, doc: 'strength points of each clan at the start' },
    points_for_killing_person: { kind: 'int', min: 0, max: 100_000, default: 50, doc: 'points for killing a unit of another clan' },
    points_for_killing_zombie: { kind: 'int', min: 0, max: 100_000, default: 10, doc: 'points for killing a zombie' },
    points_per_owned_cell: { kind: 'int', min: 0, max: 1000, default: 1, doc: 'points per owned cell each round' },
    food_strength: { kind: 'int', min: 0, max: 100_000, default: 50, doc: 'strength points a food item gives' },
    rounds_before_becoming_zombie: { kind: 'int', min: 1, max: 1000, default: 5, doc: 'rounds a bitten unit takes to become a zombie' },
  },
  rounds: 'num_rounds',
  check(cfg) {
    // Everything placed at the start must fit comfortably in the streets
    // (about half of the board).
    const items = cfg.num_players * cfg.num_ini_units_per_clan + cfg.num_ini_zombies + cfg.num_ini_food;
    if (items * 4 > cfg.board_rows * cfg.board_cols) {
      throw new GameConfigError(
        `walking-dead: ${items} units and food items do not fit on a ${cfg.board_rows}x${cfg.board_cols} board (at most a quarter of the cells)`,
      );
    }
    return cfg;
  },
});

export type TwdConfig = ConfigOf<typeof SETTINGS.table>;
export const DEFAULT_CONFIG: Readonly<TwdConfig> = Object.freeze(defaultSettings(SETTINGS));
