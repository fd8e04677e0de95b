// What Harry Potter stores in a replay for every round, and the engine's
// constants the viewer needs: the engine and the viewer both import them
// from here (no DOM, no Node).

/** What frame() in index.ts returns for one round. */
export interface HPFrame {
  round: number;
  rows: number;
  cols: number;
  /** One char per cell: '#' wall, 'B' book, '0'-'3' owned corridor, '.' free corridor. */
  g: string;
  /** Per unit (index = id): type, player, row, col, rounds_pending, next_player. */
  u: number[];
  /** Voldemort [row, col]. */
  v: [number, number];
  s: number[];
  m: number[];
  w: number[];
  sp: number[];
}

/** Unit types (utype). */
export const WIZARD = 0;
export const GHOST = 1;
