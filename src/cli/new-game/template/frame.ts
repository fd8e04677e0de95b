// The frame __TITLE__ stores in replays for every round, for the engine and the
// viewer (no DOM, no Node): enough to draw the board, nothing more.

export interface Frame {
  round: number;
  rows: number;
  cols: number;
  /** One character per cell, row-major: '.' nobody's, '0'..'3' painted by that player. */
  board: string;
  /** Per player: its unit's cell (i*cols+j). */
  pos: number[];
}
