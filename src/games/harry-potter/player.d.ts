/// <reference path="../../sdk/player-api.d.ts" />
/// <reference path="../../sdk/player-dir8.d.ts" />
// Generated from bot-api.ts by scripts/gen-player-dts.ts: edit the table there, not this file.

// Harry Potter player API (the C++ State / Settings / Structs / Action / Player
// of EDA Q1 2024-25). Every function is a global and also a method of Player:
// `cell(i, j)` and `this.cell(i, j)` are the same.
//
// C++ → JavaScript:
//   Pos p(i, j)                   →  const p = Pos(i, j)              (a plain { i, j })
//   p + d, p += d                 →  pos_add(p, d)                    (a new Pos; d a Dir or a Pos)
//   p == q                        →  pos_eq(p, q)
//   vector<int>                   →  number[]
//   move(id, Up)                  →  move(id, Up) or move(id, Dir.Up)  (enum values are globals too)
//   cell(p).type == Wall          →  cell(p).type === Wall             (or CellType.Wall)
//   unit(id).is_in_conversion_process()
//                                 →  the same (a method of Unit), or is_in_conversion_process(unit(id))
//   spell(id, {0,2,4,...})        →  spell(id, [0, 2, 4, ...])
//   Dir(d) / int(d)               →  directions are plain numbers 0..7

declare const CellType: {
  readonly Corridor: 0;
  readonly Wall: 1;
};
type CellType = 0 | 1;
declare const Corridor: 0;
declare const Wall: 1;

declare const UnitType: {
  readonly Wizard: 0;
  readonly Ghost: 1;
};
type UnitType = 0 | 1;
declare const Wizard: 0;
declare const Ghost: 1;

/** A cell (cell() outside the board: a default Corridor cell). */
interface Cell {
  /** Corridor or Wall. */
  type: CellType;
  /** The clan that owns this cell, or -1. */
  owner: number;
  /** The unit on this cell, or -1. */
  id: number;
  /** Whether a book lies here. */
  book: boolean;
  /** Corridor, no unit and no book. */
  is_empty(): boolean;
}

interface Unit {
  type: UnitType;
  /** Never changes, not even when a wizard changes clan. Ghosts are 0..3 (ghost of player p = p), wizards 4..83. */
  id: number;
  /** The clan it belongs to now. */
  player: number;
  pos: Pos;
  /** Wizard: rounds before its conversion completes (0 = not converting). Ghost: rounds before it may cast a spell. */
  rounds_pending: number;
  /** Wizard: the clan it is converting to (-1 = none). Ghost: the last round it was attacked (-1 = never). */
  next_player: number;
  /** Wizard in a conversion process? */
  is_in_conversion_process(): boolean;
  /** Wizard: rounds before the conversion completes (-1 for a ghost). */
  rounds_for_converting(): number;
  /** Wizard: the clan it converts to, or -1. */
  player_to_be_converted_to(): number;
  /** Ghost: last round it was attacked, or -1 (-1 for a wizard). */
  last_attack_received(): number;
  /** Ghost: rounds it must wait before casting (-1 for a wizard). */
  resting_rounds(): number;
}

/** The Unit helpers as functions, for those who prefer them. */
declare function is_in_conversion_process(u: Unit): boolean;
declare function rounds_for_converting(u: Unit): number;
declare function player_to_be_converted_to(u: Unit): number;
declare function last_attack_received(u: Unit): number;
declare function resting_rounds(u: Unit): number;

// ---- Settings ----
/** "HarryPotter 1.0". */
declare function version(): string;
declare function num_players(): number;
declare function num_rounds(): number;
declare function board_rows(): number;
declare function board_cols(): number;
declare function num_ini_wizards_per_clan(): number;
declare function num_ini_books(): number;
declare function clan_ini_magic_strength(): number;
declare function points_for_converting_wizard(): number;
declare function points_per_owned_cell(): number;
declare function book_magic_strength(): number;
declare function rounds_for_converting_wizard(): number;
declare function rounds_attack_resting_ghost(): number;
declare function rounds_spell_resting_ghost(): number;
declare function rounds_no_attack_ghost(): number;

// ---- State ----
/** The unit with this id (a warning and a default unit with id -1 for a bad id). */
declare function unit(id: number): Unit;
/** Ids of the wizards of player pl, increasing. */
declare function wizards(pl: number): number[];
/** Id of the ghost of player pl. */
declare function ghost(pl: number): number;
/** Where Voldemort is. */
declare function pos_voldemort(): Pos;
/** Overall magic points of pl / (1 + number of wizards of pl), rounded down. */
declare function magic_strength(pl: number): number;
declare function score(pl: number): number;
/** The 15 ingredients of this round's spell (naturals ≤ 30). */
declare function spell_ingredients(): number[];

// ---- Action: at most one command per unit and round (the first one counts) ----
/** Moves unit id one cell in direction dir (wizards: Down, Right, Up, Left only). */
declare function move(id: number, dir: Dir | number): void;
/** The ghost id tries to cast this round's spell: sol[k] = group 0..4 of ingredient k, 3 ingredients per group, equal sums. */
declare function spell(id: number, sol: number[]): void;

/** Extend this class and write play(), called once per round. Fields keep their values between rounds. */
declare class Player {
  play(): void;
  is_in_conversion_process(u: Unit): boolean;
  rounds_for_converting(u: Unit): number;
  player_to_be_converted_to(u: Unit): number;
  last_attack_received(u: Unit): number;
  resting_rounds(u: Unit): number;
  version(): string;
  num_players(): number;
  num_rounds(): number;
  board_rows(): number;
  board_cols(): number;
  num_ini_wizards_per_clan(): number;
  num_ini_books(): number;
  clan_ini_magic_strength(): number;
  points_for_converting_wizard(): number;
  points_per_owned_cell(): number;
  book_magic_strength(): number;
  rounds_for_converting_wizard(): number;
  rounds_attack_resting_ghost(): number;
  rounds_spell_resting_ghost(): number;
  rounds_no_attack_ghost(): number;
  unit(id: number): Unit;
  wizards(pl: number): number[];
  ghost(pl: number): number;
  pos_voldemort(): Pos;
  magic_strength(pl: number): number;
  score(pl: number): number;
  spell_ingredients(): number[];
  move(id: number, dir: Dir | number): void;
  spell(id: number, sol: number[]): void;
  static readonly Dir: typeof Dir;
  static readonly CellType: typeof CellType;
  static readonly UnitType: typeof UnitType;
}
