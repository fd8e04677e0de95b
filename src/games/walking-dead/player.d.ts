/// <reference path="../../sdk/player-api.d.ts" />
/// <reference path="../../sdk/player-dir8.d.ts" />
// Generated from bot-api.ts by scripts/gen-player-dts.ts: edit the table there, not this file.

// The Walking Dead player API (the C++ State / Settings / Structs / Action /
// Player of EDA Q1 2022-23). Every function is a global and also a method of
// Player: `cell(i, j)` and `this.cell(i, j)` are the same.
//
// C++ → JavaScript:
//   Pos p(i, j)                   →  const p = Pos(i, j)              (a plain { i, j })
//   p + d, p += d                 →  pos_add(p, d)                    (a new Pos; d a Dir or a Pos)
//   p == q                        →  pos_eq(p, q)
//   vector<int>                   →  number[]
//   move(id, Up)                  →  move(id, Up) or move(id, Dir.Up)  (enum values are globals too)
//   cell(p).type == Waste         →  cell(p).type === Waste            (or CellType.Waste)
//   unit(id).type == Zombie       →  unit(id).type === Zombie          (or UnitType.Zombie)
//   Dir(d) / int(d)               →  directions are plain numbers 0..7
//   cerr << ...                   →  console.log(...)                  (your private log)

/** Street (walkable) or Waste (never walkable). */
declare const CellType: {
  readonly Street: 0;
  readonly Waste: 1;
};
type CellType = 0 | 1;
declare const Street: 0;
declare const Waste: 1;

/** Alive (in a clan; also while converting after a bite), Dead (killed in a fight, waiting to become a zombie), Zombie (moves in all 8 directions; alive units only Down, Right, Up, Left). */
declare const UnitType: {
  readonly Alive: 0;
  readonly Dead: 1;
  readonly Zombie: 2;
};
type UnitType = 0 | 1 | 2;
declare const Alive: 0;
declare const Dead: 1;
declare const Zombie: 2;

/** A cell (cell() outside the board: a warning and a default Street cell). */
interface Cell {
  /** Street or Waste. */
  type: CellType;
  /** The clan that owns this cell, or -1. */
  owner: number;
  /** The unit on this cell (alive, dead or zombie), or -1. */
  id: number;
  /** Whether there is food here (never together with a unit). */
  food: boolean;
  /** Street, no unit and no food. */
  is_empty(): boolean;
}

interface Unit {
  type: UnitType;
  /** Never changes, not even when the unit dies, turns into a zombie or comes back in another clan. */
  id: number;
  /** Its clan, or -1 for a zombie. Dead units keep the clan they died in. */
  player: number;
  /** Where it is ((-1, -1) only in odd moments, e.g. for a bad id). */
  pos: Pos;
  /** Rounds left before it becomes a zombie, or -1 if it is not converting (bitten alive units and dead units convert). */
  rounds_for_zombie: number;
}

// ---- Settings (default.cnf) ----
/** "TheWalkingDead 1.0". */
declare function version(): string;
declare function num_players(): number;
declare function num_rounds(): number;
declare function board_rows(): number;
declare function board_cols(): number;
declare function num_ini_units_per_clan(): number;
declare function num_ini_zombies(): number;
declare function num_ini_food(): number;
declare function clan_ini_strength(): number;
declare function points_for_killing_person(): number;
declare function points_for_killing_zombie(): number;
declare function points_per_owned_cell(): number;
declare function food_strength(): number;
declare function rounds_before_becoming_zombie(): number;

// ---- State ----
/** The unit with this id (a warning and the C++ default unit for a bad id: Alive, id -1, player -1, pos (0, 0), rounds -1). */
declare function unit(id: number): Unit;
/** Ids of the alive units of player pl (converting ones included), increasing. */
declare function alive_units(pl: number): number[];
/** Ids of the dead units of player pl, increasing. */
declare function dead_units(pl: number): number[];
/** Ids of the zombies, increasing. */
declare function zombies(): number[];
/** ⌊strength points of pl / alive units of pl⌋ (0 with no alive units): decides fights. */
declare function strength(pl: number): number;
/** Points for killed zombies and units plus one per owned cell, as of the end of the last round (0 in round 0). */
declare function score(pl: number): number;

// ---- Action: at most one command per unit and round (the first one counts) ----
/** Moves your alive unit id one cell in direction dir (Down, Right, Up or Left). Orders of the four players are interleaved at random, yours in the order you give them. */
declare function move(id: number, dir: Dir | number): void;

/** Extend this class and write play(), called once per round. Fields keep their values between rounds. */
declare class Player {
  play(): void;
  version(): string;
  num_players(): number;
  num_rounds(): number;
  board_rows(): number;
  board_cols(): number;
  num_ini_units_per_clan(): number;
  num_ini_zombies(): number;
  num_ini_food(): number;
  clan_ini_strength(): number;
  points_for_killing_person(): number;
  points_for_killing_zombie(): number;
  points_per_owned_cell(): number;
  food_strength(): number;
  rounds_before_becoming_zombie(): number;
  unit(id: number): Unit;
  alive_units(pl: number): number[];
  dead_units(pl: number): number[];
  zombies(): number[];
  strength(pl: number): number;
  score(pl: number): number;
  move(id: number, dir: Dir | number): void;
  static readonly Dir: typeof Dir;
  static readonly CellType: typeof CellType;
  static readonly UnitType: typeof UnitType;
}
