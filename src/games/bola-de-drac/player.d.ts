/// <reference path="../../sdk/player-api.d.ts" />
// Generated from bot-api.ts by scripts/gen-player-dts.ts: edit the table there, not this file.

// Bola de Drac 2015: the player API, as globals (also methods of Player:
// `cell(i, j)` and `this.cell(i, j)` are the same). Names follow the original
// C++ Board.hh / Action.hh / PosDir.hh. C++ operators become helpers:
// `p + d` is `dest(p, d)`, `Pos(i, j)` builds a position, `a == b` on
// positions is `a.i === b.i && a.j === b.j`.
//
// Rules in short: each player has one goku. Gokus without a Kinton cloud act
// only in even rounds (the first round is round 0); on a cloud they act every
// round. An action is move(d) or throw_kamehame(d); only the first one of a
// round counts. Score = balls(id) * (max_strength() + 1) + strength(id).

/** enum Dir { None, Top, Bottom, Left, Right } */
declare const Dir: {
  readonly None: 0;
  readonly Top: 1;
  readonly Bottom: 2;
  readonly Left: 3;
  readonly Right: 4;
};
type Dir = 0 | 1 | 2 | 3 | 4;

/** enum CType { Empty, Rock, Capsule, Ball, Kinton, Bean }: what a cell holds. */
declare const CType: {
  readonly Empty: 0;
  readonly Rock: 1;
  readonly Capsule: 2;
  readonly Ball: 3;
  readonly Kinton: 4;
  readonly Bean: 5;
};
type CType = 0 | 1 | 2 | 3 | 4 | 5;

/** enum GType { Normal, On_Kinton, With_Ball, On_Kinton_With_Ball }: the state of a goku. */
declare const GType: {
  readonly Normal: 0;
  readonly On_Kinton: 1;
  readonly With_Ball: 2;
  readonly On_Kinton_With_Ball: 3;
};
type GType = 0 | 1 | 2 | 3;

/** A cell: its position, its content, and the player whose goku stands on it (-1 if none). cell() outside the board: a warning and a Rock. */
interface Cell {
  readonly pos: Pos;
  readonly type: CType;
  readonly id: number;
}

/** A goku (one per player; its id is the player's id). */
interface Goku {
  readonly id: number;
  /** Where it is (where it died, while dead). */
  readonly pos: Pos;
  readonly type: GType;
  /** Dragon balls deposited so far. */
  readonly balls: number;
  readonly strength: number;
  /** Rounds of Kinton cloud life left (0 when not on a cloud). */
  readonly kinton: number;
  readonly alive: boolean;
  /** Rounds before it may come back, while dead. */
  readonly time: number;
}

/** A Kinton cloud spot: present, or coming back in `time` rounds (and only when no goku stands there). */
interface Kinton_Cloud {
  readonly pos: Pos;
  readonly present: boolean;
  readonly time: number;
}

/** A magic bean spot: present, or coming back in `time` rounds (and only when no goku stands there). */
interface Magic_Bean {
  readonly pos: Pos;
  readonly present: boolean;
  readonly time: number;
}

// ---- Parameters of the match ----
declare function rows(): number;
declare function cols(): number;
declare function nb_players(): number;
declare function nb_rounds(): number;
declare function nb_capsules(): number;
declare function nb_balls(): number;
declare function nb_beans(): number;
declare function nb_kintons(): number;
/** Rounds an eliminated goku waits before it may come back. */
declare function goku_regen_time(): number;
declare function bean_regen_time(): number;
declare function kinton_regen_time(): number;
/** Rounds a Kinton cloud lasts once ridden. */
declare function kinton_life_time(): number;
declare function max_strength(): number;
/** Strength of a goku when it comes back. */
declare function res_strength(): number;
/** Paid by a goku on foot for moving in rounds ≡ 2 (mod 4). */
declare function moving_penalty(): number;
/** Paid for a Kame Hame; a goku with less strength cannot throw one. */
declare function kamehame_penalty(): number;
/** Paid by the winner of a combat. */
declare function combat_penalty(): number;

// ---- The state of the match ----
/** Whether the position one step from (i, j), or p, in direction d is on the board. */
declare function pos_ok(i: number, j: number, d: Dir): boolean;
declare function pos_ok(p: Pos, d: Dir): boolean;
/** The position one step from p in direction d (the C++ p + d). */
declare function dest(p: Pos, d: Dir): Pos;
/** The goku of a player. */
declare function goku(id: number): Goku;
/** Dragon balls deposited by a player. */
declare function balls(id: number): number;
declare function strength(id: number): number;
/** balls(id) * (max_strength() + 1) + strength(id). */
declare function score(id: number): number;
/** A player's name (the isolate only knows "player0".."player3"). */
declare function name(id: number): string;
declare function beans(): readonly Magic_Bean[];
declare function kintons(): readonly Kinton_Cloud[];
declare function has_kinton(t: GType): boolean;
declare function has_ball(t: GType): boolean;
/** The GType after taking a ball. */
declare function take_ball(t: GType): GType;
/** The GType after jumping on a Kinton cloud. */
declare function jump_on_kinton(t: GType): GType;

// ---- Actions: one per round; the first one asked counts, later ones are ignored with a warning ----
/** Moves your goku one cell in direction d (into a goku: a combat). */
declare function move(d: Dir): void;
/** Throws a Kame Hame ray in direction d: it eliminates every goku up to the next rock. */
declare function throw_kamehame(d: Dir): void;

/** Your player: extend it and write play(); fields keep their values between rounds. */
declare class Player {
  /** Called once per round. */
  play(): void;
  rows(): number;
  cols(): number;
  nb_players(): number;
  nb_rounds(): number;
  nb_capsules(): number;
  nb_balls(): number;
  nb_beans(): number;
  nb_kintons(): number;
  goku_regen_time(): number;
  bean_regen_time(): number;
  kinton_regen_time(): number;
  kinton_life_time(): number;
  max_strength(): number;
  res_strength(): number;
  moving_penalty(): number;
  kamehame_penalty(): number;
  combat_penalty(): number;
  pos_ok(i: number, j: number, d: Dir): boolean;
  pos_ok(p: Pos, d: Dir): boolean;
  dest(p: Pos, d: Dir): Pos;
  goku(id: number): Goku;
  balls(id: number): number;
  strength(id: number): number;
  score(id: number): number;
  name(id: number): string;
  beans(): readonly Magic_Bean[];
  kintons(): readonly Kinton_Cloud[];
  has_kinton(t: GType): boolean;
  has_ball(t: GType): boolean;
  take_ball(t: GType): GType;
  jump_on_kinton(t: GType): GType;
  move(d: Dir): void;
  throw_kamehame(d: Dir): void;
  static readonly Dir: typeof Dir;
  static readonly CType: typeof CType;
  static readonly GType: typeof GType;
}
