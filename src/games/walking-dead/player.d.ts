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

/** Down, DR, Right, RU, Up, UL, Left, LD (0..7). Offsets: Down (+1,0), DR (+1,+1), Right (0,+1), RU (-1,+1), Up (-1,0), UL (-1,-1), Left (0,-1), LD (+1,-1). Alive units only move Down, Right, Up, Left; zombies move in all 8. */
declare const Dir: {
  readonly Down: 0;
  readonly DR: 1;
  readonly Right: 2;
  readonly RU: 3;
  readonly Up: 4;
  readonly UL: 5;
  readonly Left: 6;
  readonly LD: 7;
};
type Dir = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
declare const Down: 0;
declare const DR: 1;
declare const Right: 2;
declare const RU: 3;
declare const Up: 4;
declare const UL: 5;
declare const Left: 6;
declare const LD: 7;

/** Street (walkable) or Waste (never walkable). */
declare const CellType: { readonly Street: 0; readonly Waste: 1 };
type CellType = 0 | 1;
declare const Street: 0;
declare const Waste: 1;

/** Alive (in a clan; also while converting after a bite), Dead (killed in a fight, waiting to become a zombie), Zombie. */
declare const UnitType: { readonly Alive: 0; readonly Dead: 1; readonly Zombie: 2 };
type UnitType = 0 | 1 | 2;
declare const Alive: 0;
declare const Dead: 1;
declare const Zombie: 2;

/** A board position: row i (0 = top), column j (0 = left). */
interface Pos {
  i: number;
  j: number;
}
/** Makes a Pos (like the C++ constructor Pos(i, j)). */
declare function Pos(i: number, j: number): Pos;
/** p + d: the neighbouring position in direction d; or p + q for a Pos q. */
declare function pos_add(p: Pos, d: Dir | number | Pos): Pos;
/** p == q. */
declare function pos_eq(p: Pos, q: Pos): boolean;
/** Is d a valid direction (0..7)? */
declare function dir_ok(d: number): boolean;

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
declare function player_ok(pl: number): boolean;
/** Is (i, j) on the board? Also pos_ok(p). */
declare function pos_ok(i: number, j: number): boolean;
declare function pos_ok(p: Pos): boolean;

// ---- State ----
/** The current round: 0 before the first one is played, up to num_rounds()-1. */
declare function round(): number;
/** The cell at (i, j) or p (a warning and a default Street cell outside the board). */
declare function cell(i: number, j: number): Cell;
declare function cell(p: Pos): Cell;
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
/** Fraction of the CPU budget used by pl (0..1), or -1 once it is out. */
declare function status(pl: number): number;

// ---- Player ----
/** Your player number, 0..3. */
declare function me(): number;
/** A random integer in [l, u] from your own generator (seeded per match). */
declare function random(l: number, u: number): number;
/** A random permutation of 0..n-1. */
declare function random_permutation(n: number): number[];

// ---- Action: at most one command per unit and round (the first one counts) ----
/** Moves your alive unit id one cell in direction dir (Down, Right, Up or Left). Orders of the four players are interleaved at random, yours in the order you give them. */
declare function move(id: number, dir: Dir | number): void;

/** Extend this class and write play(), called once per round. Fields keep their values between rounds. */
declare class Player {
  play(): void;
  me(): number;
  random(l: number, u: number): number;
  random_permutation(n: number): number[];
  status(pl: number): number;
  round(): number;
  cell(i: number, j: number): Cell;
  cell(p: Pos): Cell;
  unit(id: number): Unit;
  alive_units(pl: number): number[];
  dead_units(pl: number): number[];
  zombies(): number[];
  strength(pl: number): number;
  score(pl: number): number;
  move(id: number, dir: Dir | number): void;
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
  player_ok(pl: number): boolean;
  pos_ok(i: number, j: number): boolean;
  pos_ok(p: Pos): boolean;
  pos_add(p: Pos, d: Dir | number | Pos): Pos;
  pos_eq(p: Pos, q: Pos): boolean;
  dir_ok(d: number): boolean;
  static readonly Dir: typeof Dir;
  static readonly CellType: typeof CellType;
  static readonly UnitType: typeof UnitType;
}
