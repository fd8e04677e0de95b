/// <reference path="../../sdk/player-api.d.ts" />
// Generated from bot-api.ts by scripts/gen-player-dts.ts: edit the table there, not this file.

// Moria player API (the C++ State / Settings / Action / Player of P44849).
// Every function is a global and also a method of Player: `cell(i, j)` and
// `this.cell(i, j)` are the same.
//
// C++ → JavaScript:
//   Pos p(i, j)           →  const p = Pos(i, j)            (a plain { i, j })
//   p + d, p += d         →  pos_add(p, d)                  (a new Pos)
//   p == q                →  pos_eq(p, q)
//   vector<int>           →  number[]
//   cell(p).type == Rock  →  cell(p).type === CellType.Rock
//   Dir(d) / int(d)       →  directions are plain numbers 0..8

/** Bottom, BR, Right, RT, Top, TL, Left, LB, None (0..8). Offsets: Bottom (+1,0), BR (+1,+1), Right (0,+1), RT (-1,+1), Top (-1,0), TL (-1,-1), Left (0,-1), LB (+1,-1). */
declare const Dir: {
  readonly Bottom: 0;
  readonly BR: 1;
  readonly Right: 2;
  readonly RT: 3;
  readonly Top: 4;
  readonly TL: 5;
  readonly Left: 6;
  readonly LB: 7;
  readonly None: 8;
  readonly DirSize: 9;
};
type Dir = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

declare const CellType: {
  readonly Outside: 0;
  readonly Cave: 1;
  readonly Abyss: 2;
  readonly Granite: 3;
  readonly Rock: 4;
  readonly CellTypeSize: 5;
};
type CellType = 0 | 1 | 2 | 3 | 4 | 5;

declare const UnitType: {
  readonly Dwarf: 0;
  readonly Wizard: 1;
  readonly Orc: 2;
  readonly Troll: 3;
  readonly Balrog: 4;
  readonly UnitTypeSize: 5;
};
type UnitType = 0 | 1 | 2 | 3 | 4 | 5;

/** p + d: the neighbouring position in direction d (None: the same position). */
declare function pos_add(p: Pos, d: Dir | number): Pos;
/** p == q. */
declare function pos_eq(p: Pos, q: Pos): boolean;
/** Is d a valid direction (0..8)? */
declare function dir_ok(d: number): boolean;

/** A cell (cell() off the board: a warning and a default cell). */
interface Cell {
  type: CellType;
  /** The clan that currently conquers this cave, or -1. */
  owner: number;
  /** The unit on this cell, or -1. */
  id: number;
  /** Rock: hits still needed to open it (rock_resistance at first). */
  turns: number;
  /** A cave with a treasure. */
  treasure: boolean;
}

interface Unit {
  type: UnitType;
  id: number;
  /** Clan 0..3, or -1 for Sauron's units. */
  player: number;
  /** Health points (meaningless for the Balrog). */
  health: number;
  pos: Pos;
}

/** A movement, for command({ id, dir }). */
interface Movement {
  id: number;
  dir: Dir | number;
}

// ---- Action ----
/**
 * Orders unit id to move (or attack, or dig) in direction dir. Only the first
 * command per unit and round counts (a second one is ignored with a warning,
 * as is a direction outside 0..8). More than 1000 commands in one round abort
 * your player. Give them from most to least urgent: they run in this order.
 */
declare function command(id: number, dir: Dir | number): void;
declare function command(m: Movement): void;

// ---- State ----
/** Unit id. An invalid id or a dead orc: a warning and a default unit (id -1). */
declare function unit(id: number): Unit;
/** Number of unit ids (4*25 + 20 orcs + 4 trolls + 1 Balrog = 125 by default). */
declare function nb_units(): number;
/** Ids of the dwarves of player pl (ids 25*pl..25*pl+19 at first; captured units change clan). */
declare function dwarves(pl: number): number[];
/** Ids of the wizards of player pl. */
declare function wizards(pl: number): number[];
/** Ids of the orcs alive (ids 100..119). */
declare function orcs(): number[];
/** Ids of the trolls (120..123). */
declare function trolls(): number[];
/** Id of the Balrog (124). */
declare function balrog_id(): number;
/** Cells currently conquered by player pl. */
declare function nb_cells(pl: number): number;
/** Treasures accumulated by player pl. */
declare function nb_treasures(pl: number): number;

// ---- Settings ----
declare function version(): string;
declare function nb_players(): number;
declare function nb_rounds(): number;
declare function nb_dwarves(): number;
declare function nb_wizards(): number;
declare function max_nb_orcs(): number;
declare function nb_trolls(): number;
declare function treasure_value(): number;
declare function rock_resistance(): number;
declare function rows(): number;
declare function cols(): number;
declare function dwarves_health(): number;
declare function wizards_health(): number;
declare function orcs_health(): number;
declare function trolls_health(): number;
declare function min_damage_dwarves(): number;
declare function max_damage_dwarves(): number;
declare function min_damage_orcs(): number;
declare function max_damage_orcs(): number;
declare function min_damage_trolls(): number;
declare function max_damage_trolls(): number;
declare function ini_treasures(): number;
declare function inv_prob_abyss(): number;
declare function inv_prob_orc(): number;

/** Extend this class and write play(): it is called once per round. Fields keep their values between rounds. */
declare class Player {
  play(): void;
  pos_add(p: Pos, d: Dir | number): Pos;
  pos_eq(p: Pos, q: Pos): boolean;
  dir_ok(d: number): boolean;
  command(id: number, dir: Dir | number): void;
  command(m: Movement): void;
  unit(id: number): Unit;
  nb_units(): number;
  dwarves(pl: number): number[];
  wizards(pl: number): number[];
  orcs(): number[];
  trolls(): number[];
  balrog_id(): number;
  nb_cells(pl: number): number;
  nb_treasures(pl: number): number;
  version(): string;
  nb_players(): number;
  nb_rounds(): number;
  nb_dwarves(): number;
  nb_wizards(): number;
  max_nb_orcs(): number;
  nb_trolls(): number;
  treasure_value(): number;
  rock_resistance(): number;
  rows(): number;
  cols(): number;
  dwarves_health(): number;
  wizards_health(): number;
  orcs_health(): number;
  trolls_health(): number;
  min_damage_dwarves(): number;
  max_damage_dwarves(): number;
  min_damage_orcs(): number;
  max_damage_orcs(): number;
  min_damage_trolls(): number;
  max_damage_trolls(): number;
  ini_treasures(): number;
  inv_prob_abyss(): number;
  inv_prob_orc(): number;
  static readonly Dir: typeof Dir;
  static readonly CellType: typeof CellType;
  static readonly UnitType: typeof UnitType;
}
