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

// The view: two typed arrays.
//   g: Int8Array(rows*cols), CType per cell, row-major.
//   m: Int32Array: META_LEN header, then GOKU_LEN per player, then BEAN_LEN per
//      bean, then BEAN_LEN per kinton cloud.
export const META = {
  round: 0,
  rows: 1,
  cols: 2,
  nb_players: 3,
  nb_rounds: 4,
  nb_capsules: 5,
  nb_balls: 6,
  nb_beans: 7,
  nb_kintons: 8,
  goku_regen_time: 9,
  bean_regen_time: 10,
  kinton_regen_time: 11,
  kinton_life_time: 12,
  max_strength: 13,
  res_strength: 14,
  moving_penalty: 15,
  kamehame_penalty: 16,
  combat_penalty: 17,
} as const;
export const META_LEN = 18;
/** Per goku: i, j, type (GType), balls, strength, kinton, alive (0/1), time. */
export const GOKU_LEN = 8;
/** Per bean or kinton cloud: i, j, present (0/1), time. */
export const BEAN_LEN = 4;
