// Harry Potter settings: the keys of the original default.cnf in snake case
// (the original default.cnf). NUM_PLAYERS is fixed to 4.

import { boardSide, type ConfigOf, defaultSettings, defineSettings, FOUR_PLAYERS, GameConfigError, roundsSetting } from '../../sdk/settings.ts';

export const SETTINGS = defineSettings({
  table: {
    num_players: FOUR_PLAYERS,
    num_rounds: roundsSetting(10000, 200),
    board_rows: boardSide('rows', 20, 120, 60),
    board_cols: boardSide('columns', 20, 120, 60),
    num_ini_wizards_per_clan: { kind: 'int', min: 0, max: 200, default: 20, doc: 'wizards each clan starts with' },
    num_ini_books: { kind: 'int', min: 0, max: 500, default: 50, doc: 'books on the board at any time' },
    clan_ini_magic_strength: { kind: 'int', min: 0, max: 1_000_000, default: 1000, doc: 'magic strength of each clan at the start' },
    points_for_converting_wizard: { kind: 'int', min: 0, max: 100_000, default: 100, doc: 'points for converting a wizard' },
    points_per_owned_cell: { kind: 'int', min: 0, max: 1000, default: 1, doc: 'points per owned cell each round' },
    book_magic_strength: { kind: 'int', min: 0, max: 100_000, default: 50, doc: 'magic strength a book gives' },
    rounds_for_converting: { kind: 'int', min: 1, max: 1000, default: 5, doc: 'rounds a wizard takes to convert (rounds_for_converting_wizard() in the API)' },
    rounds_attack_resting_ghost: { kind: 'int', min: 0, max: 1000, default: 15, doc: 'rounds a ghost rests after an attack' },
    rounds_spell_resting_ghost: { kind: 'int', min: 0, max: 1000, default: 60, doc: 'rounds a ghost rests after a spell' },
    rounds_no_attack_ghost: { kind: 'int', min: 0, max: 1000, default: 5, doc: 'rounds at the start when the ghost cannot attack' },
  },
  rounds: 'num_rounds',
  check(cfg) {
    // Everything must fit on the corridors (about half the board) with room to spare.
    const items = cfg.num_players * (1 + cfg.num_ini_wizards_per_clan) + cfg.num_ini_books;
    const room = Math.floor((cfg.board_rows * cfg.board_cols) / 8);
    if (items > room) {
      throw new GameConfigError(`harry-potter: ${items} units and books do not fit on a ${cfg.board_rows}x${cfg.board_cols} board (at most ${room})`);
    }
    return cfg;
  },
});

export type HPConfig = ConfigOf<typeof SETTINGS.table>;
export const DEFAULT_CONFIG: Readonly<HPConfig> = Object.freeze(defaultSettings(SETTINGS));
