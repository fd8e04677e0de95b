// What The Walking Dead stores in a replay for every round, and the unit
// types the engine and the viewer share (no DOM, no Node).

/** What index.ts's frame() returns for one round. */
export interface TwdFrame {
  round: number;
  rows: number;
  cols: number;
  /** Row-major, one char per cell: 'W' waste, '.' street nobody owns, '0'..'3' street owned by that clan. */
  grid: string;
  /** Cell indexes (row * cols + col) holding food. */
  food: number[];
  /** Four numbers per unit id: type (UNIT_*), clan (-1 for zombies), cell (-1: a killed zombie waiting to come back), rounds left before becoming a zombie (-1: not converting). */
  units: number[];
  /** Strength points per clan. */
  points: number[];
  strength: number[];
  alive: number[];
}

/** Unit types, as the engine's UType. */
export const UNIT_ALIVE = 0;
export const UNIT_DEAD = 1;
export const UNIT_ZOMBIE = 2;
