/// <reference path="player-api.d.ts" />

// The eight directions of The Walking Dead and Harry Potter, and the C++
// operators on Pos and Dir (p + d, p == q) as functions.

/** Down, DR, Right, RU, Up, UL, Left, LD (0..7). Offsets: Down (+1,0), DR (+1,+1), Right (0,+1), RU (-1,+1), Up (-1,0), UL (-1,-1), Left (0,-1), LD (+1,-1). */
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

/** p + d: the neighbouring position in direction d; or p + q for a Pos q. */
declare function pos_add(p: Pos, d: Dir | number | Pos): Pos;
/** p == q. */
declare function pos_eq(p: Pos, q: Pos): boolean;
/** Is d a valid direction (0..7)? */
declare function dir_ok(d: number): boolean;

interface Player {
  pos_add(p: Pos, d: Dir | number | Pos): Pos;
  pos_eq(p: Pos, q: Pos): boolean;
  dir_ok(d: number): boolean;
}
