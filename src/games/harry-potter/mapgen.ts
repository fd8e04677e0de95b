// Board generation (Board::generate_random_board): eight wall
// "snakes" covering up to half the board, redrawn until the corridors form one
// 4-connected component; then ghosts, wizards, books, the spell and Voldemort,
// all placed through the regeneration-position rule. Everything draws from the
// game Rng, so a seed always gives the same board.

import type { Rng } from '../../sdk/rng.ts';
import { openComponents } from '../../sdk/grid.ts';
import type { HPConfig } from './config.ts';
import { GHOST, WIZARD, generateSpellIngredients, regenPosition, type HPState } from './engine.ts';

const NUM_WALLS = 8;
const WALL_FRACTION = 0.5;
// Up, Down, Left, Right (the order of dir_permutation's base vector).
const WDI = [-1, 1, 0, 0] as const;
const WDJ = [0, 0, -1, 1] as const;

/** The wall plan: 0 = corridor, k = cell of snake k (1..8). */
export function generateWalls(rows: number, cols: number, rng: Rng): Uint8Array {
  const numWallCells = Math.trunc(WALL_FRACTION * rows * cols);
  for (let attempt = 0; ; attempt++) {
    const plan = new Uint8Array(rows * cols);
    let remaining = numWallCells;
    for (let pendingWalls = NUM_WALLS; pendingWalls > 0; pendingWalls--) {
      const length = pendingWalls !== 1 ? Math.trunc(remaining / pendingWalls) : remaining;
      remaining -= generateWall(plan, rows, cols, rng, pendingWalls, length);
    }
    if (openComponents(plan, rows, cols) === 1) return plan;
    if (attempt > 10_000) throw new Error('harry-potter: could not generate a connected board');
  }
}

function interior(rows: number, cols: number, i: number, j: number): boolean {
  return i >= 1 && i <= rows - 2 && j >= 1 && j <= cols - 2;
}

/** Board::pos_ok_for_wall: interior, free, touches no other snake, at most 2 cells of its own among its 8 neighbours. */
function okForWall(plan: Uint8Array, rows: number, cols: number, sid: number, i: number, j: number): boolean {
  if (!interior(rows, cols, i, j) || plan[i * cols + j] !== 0) return false;
  let own = 0;
  for (let di = -1; di <= 1; di++) {
    for (let dj = -1; dj <= 1; dj++) {
      if (di === 0 && dj === 0) continue;
      const v = plan[(i + di) * cols + j + dj]!;
      if (v !== 0 && v !== sid) return false;
      if (v === sid) own++;
    }
  }
  return own <= 2;
}

/** Board::pos_ok_for_initial_wall: interior, free, no wall at all among its 8 neighbours. */
function okForInitialWall(plan: Uint8Array, rows: number, cols: number, i: number, j: number): boolean {
  if (!interior(rows, cols, i, j) || plan[i * cols + j] !== 0) return false;
  for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) if (plan[(i + di) * cols + j + dj] !== 0) return false;
  return true;
}

/** Board::generate_wall: returns how many cells the snake got. */
function generateWall(plan: Uint8Array, rows: number, cols: number, rng: Rng, sid: number, length: number): number {
  let last = rng.random(0, 3);
  let i = 0;
  let j = 0;
  for (let tries = 0; ; tries++) {
    i = rng.random(1, rows - 2);
    j = rng.random(1, cols - 2);
    if (okForInitialWall(plan, rows, cols, i, j)) break;
    if (tries > 1_000_000) return 0;
  }
  plan[i * cols + j] = sid;
  let filled = 1;
  while (length > 0) {
    // dir_permutation(): a random order of {Up, Down, Left, Right}; the first valid one is where it may turn.
    const perm = rng.permutation(4, true);
    let turn = -1;
    for (let x = 0; x < 4; x++) {
      const d = perm[x]!;
      if (okForWall(plan, rows, cols, sid, i + WDI[d]!, j + WDJ[d]!)) {
        turn = d;
        break;
      }
    }
    // Straight on with probability 7/8 (the draw happens first, always).
    if (rng.random(1, 8) !== 1 && okForWall(plan, rows, cols, sid, i + WDI[last]!, j + WDJ[last]!)) {
      i += WDI[last]!;
      j += WDJ[last]!;
    } else if (turn >= 0) {
      last = turn;
      i += WDI[turn]!;
      j += WDJ[turn]!;
    } else return filled;
    plan[i * cols + j] = sid;
    length--;
    filled++;
  }
  return filled;
}

/** The whole round-0 state. Ids: ghosts 0..3 (ghost pl belongs to pl), then 20 wizards per clan in player order. */
export function createState(cfg: HPConfig, rng: Rng): HPState {
  const rows = cfg.board_rows;
  const cols = cfg.board_cols;
  const np = cfg.num_players;
  const plan = generateWalls(rows, cols, rng);
  const wall = new Uint8Array(rows * cols);
  for (let k = 0; k < wall.length; k++) wall[k] = plan[k] ? 1 : 0;
  const n = np * (1 + cfg.num_ini_wizards_per_clan);
  const s: HPState = {
    cfg,
    rows,
    cols,
    round: 0,
    rng,
    wall,
    owner: new Int8Array(rows * cols).fill(-1),
    cellId: new Int16Array(rows * cols).fill(-1),
    book: new Uint8Array(rows * cols),
    utype: new Uint8Array(n),
    uplayer: new Int8Array(n),
    upos: new Int32Array(n),
    upending: new Int32Array(n),
    unext: new Int32Array(n).fill(-1),
    strength: new Int32Array(np).fill(cfg.clan_ini_magic_strength),
    scoreAcc: new Int32Array(np),
    nbCells: new Int32Array(np),
    score: new Int32Array(np),
    spell: new Int32Array(0),
    vi: -1, // off the board until it is placed last
    vj: -1,
  };
  let id = 0;
  const place = (type: number, pl: number, pending: number): void => {
    const k = regenPosition(s, rng);
    s.utype[id] = type;
    s.uplayer[id] = pl;
    s.upos[id] = k;
    s.upending[id] = pending;
    s.cellId[k] = id;
    s.owner[k] = pl;
    s.nbCells[pl]!++;
    id++;
  };
  for (let pl = 0; pl < np; pl++) place(GHOST, pl, cfg.rounds_spell_resting_ghost);
  for (let pl = 0; pl < np; pl++) for (let w = 0; w < cfg.num_ini_wizards_per_clan; w++) place(WIZARD, pl, 0);
  for (let b = 0; b < cfg.num_ini_books; b++) s.book[regenPosition(s, rng)] = 1;
  s.spell = generateSpellIngredients(rng);
  const v = regenPosition(s, rng, true);
  s.vi = (v / cols) | 0;
  s.vj = v % cols;
  // The score is 0 in round 0 (update_score runs only in next()); nb_cells already counts.
  return s;
}
