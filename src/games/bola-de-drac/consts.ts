// Enums and the layout of the bots' view, shared by the engine and the bot
// API (pure: bundled into the isolates too). Values as in the original
// Board.hh / PosDir.hh (2012, hecrj/bola-de-drac).

/** enum Dir { None, Top, Bottom, Left, Right } */
export const Dir = { None: 0, Top: 1, Bottom: 2, Left: 3, Right: 4 } as const;
/** Row / column offsets per Dir. */
export const DI = [0, -1, 1, 0, 0] as const;
export const DJ = [0, 0, 0, -1, 1] as const;
export const DIR_CHARS = 'ntblr';

/** enum CType { Empty, Rock, Capsule, Ball, Kinton, Bean } */
export const CType = { Empty: 0, Rock: 1, Capsule: 2, Ball: 3, Kinton: 4, Bean: 5 } as const;
/** One character per CType, for frames and ASCII pictures. */
export const CELL_CHARS = '.XCBKM';

/** enum GType { Normal, On_Kinton, With_Ball, On_Kinton_With_Ball } */
export const GType = { Normal: 0, On_Kinton: 1, With_Ball: 2, On_Kinton_With_Ball: 3 } as const;

export const ORDER_MOVE = 'm';
export const ORDER_THROW = 't';

/** The parameters of a match, in the order the original's .cnf files print them (before rows and cols). */
export const MATCH_PARAMS = [
  'nb_players',
  'nb_rounds',
  'nb_capsules',
  'nb_balls',
  'nb_beans',
  'nb_kintons',
  'goku_regen_time',
  'bean_regen_time',
  'kinton_regen_time',
  'kinton_life_time',
  'max_strength',
  'res_strength',
  'moving_penalty',
  'kamehame_penalty',
  'combat_penalty',
] as const;

/** What index.ts frame() returns. */
export interface BdFrame {
  round: number;
  rows: number;
  cols: number;
  /** One CELL_CHARS character per cell, row-major. */
  grid: string;
  /** GOKU_FIELDS numbers per player, see G_*. */
  gokus: number[];
}
