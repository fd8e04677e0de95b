// The Walking Dead API inside a bot's isolate, under the statement's names
// (the original package's State.hh, Settings.hh, Structs.hh, Action.hh).
// Decodes the typed arrays of index.ts encodeView:
//   info  = round, the 13 settings (CONFIG_KEYS order), strength points[np], score[np]
//   cells[p] = -1 waste, else (owner + 1) | 8 if food             (p = i*cols+j)
//   units[4*id..] = type, player, cell index (-1 = none), rounds_for_zombie
// Pure module: no Node APIs (bundled into the isolate).

import type { BotRuntime } from '../../../sandbox/bot-runtime.ts';
import { posWithin, definePosHelpers } from '../../game-kit/bot-pos.ts';

/** random_permutation(n) draws n swaps in this game (Random.hh of TWD). */
export const permutationFull = true;

const isInteger = Number.isInteger;
const floor = Math.floor;

const Dir = { Down: 0, DR: 1, Right: 2, RU: 3, Up: 4, UL: 5, Left: 6, LD: 7 };
const CellType = { Street: 0, Waste: 1 };
const UnitType = { Alive: 0, Dead: 1, Zombie: 2 };
const DI = [1, 1, 0, -1, -1, -1, 0, 1];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1];
const NSET = 13;

interface Pos {
  i: number;
  j: number;
}

class Cell {
  constructor(
    public type: number,
    public owner: number,
    public id: number,
    public food: boolean,
  ) {}
  /** Street, no unit, no food. */
  is_empty(): boolean {
    return this.type === CellType.Street && this.id === -1 && !this.food;
  }
}

class Unit {
  constructor(
    public type: number,
    public id: number,
    public player: number,
    public pos: Pos,
    public rounds_for_zombie: number,
  ) {}
}

export function install(rt: BotRuntime): void {
  let info: Int32Array<ArrayBufferLike> = new Int32Array(1 + NSET + 8);
  let cells: Int8Array<ArrayBufferLike> = new Int8Array(0);
  let units: Int16Array<ArrayBufferLike> = new Int16Array(0);
  let rows = 60;
  let cols = 60;
  let np = 4;
  let n = 0;
  let unitAt: Int16Array | null = null;
  let byType: number[][] | null = null; // [alive pl0..3, dead pl0..3, zombies]
  let given = new Set<number>();

  rt.onView((view) => {
    info = view['info'] as Int32Array;
    cells = view['cells'] as Int8Array;
    units = view['units'] as Int16Array;
    np = info[1]!;
    rows = info[3]!;
    cols = info[4]!;
    n = units.length >> 2;
    unitAt = null;
    byType = null;
    given = new Set<number>();
  });

  const isInt = (x: unknown): x is number => typeof x === 'number' && isInteger(x);
  const setting = (k: number): number => info[1 + k]!;
  const plOk = (pl: unknown): pl is number => isInt(pl) && pl >= 0 && pl < np;

  const posOk = (a: unknown, b?: unknown): boolean => posWithin(a, b, rows, cols);

  function getUnitAt(): Int16Array {
    if (!unitAt) {
      unitAt = new Int16Array(rows * cols).fill(-1);
      for (let id = 0; id < n; id++) {
        const p = units[4 * id + 2]!;
        if (p >= 0) unitAt[p] = id;
      }
    }
    return unitAt;
  }

  function lists(): number[][] {
    if (!byType) {
      const l: number[][] = [];
      for (let k = 0; k < 2 * np + 1; k++) l.push([]);
      for (let id = 0; id < n; id++) {
        const t = units[4 * id]!;
        const pl = units[4 * id + 1]!;
        if (t === UnitType.Zombie) l[2 * np]!.push(id);
        else if (pl >= 0 && pl < np) l[t * np + pl]!.push(id);
      }
      byType = l;
    }
    return byType;
  }

  const d = rt.define;
  d('Dir', Dir);
  d('CellType', CellType);
  d('UnitType', UnitType);
  // C++ enums are unscoped: `move(id, Up)`, `cell(p).type == Waste`, `u.type == Zombie` port as they are.
  for (const [k, v] of Object.entries(Dir)) d(k, v);
  for (const [k, v] of Object.entries(CellType)) d(k, v);
  for (const [k, v] of Object.entries(UnitType)) d(k, v);

  // Pos helpers (the C++ operators + and == of Structs.hh).
  definePosHelpers(rt, DI, DJ);

  // Settings.
  d('version', () => 'TheWalkingDead 1.0');
  d('num_players', () => setting(0));
  d('num_rounds', () => setting(1));
  d('board_rows', () => rows);
  d('board_cols', () => cols);
  d('num_ini_units_per_clan', () => setting(4));
  d('num_ini_zombies', () => setting(5));
  d('num_ini_food', () => setting(6));
  d('clan_ini_strength', () => setting(7));
  d('points_for_killing_person', () => setting(8));
  d('points_for_killing_zombie', () => setting(9));
  d('points_per_owned_cell', () => setting(10));
  d('food_strength', () => setting(11));
  d('rounds_before_becoming_zombie', () => setting(12));
  d('player_ok', (pl: unknown) => plOk(pl));
  d('pos_ok', posOk);

  // State.
  d('round', () => info[0]);
  d('cell', (a: unknown, b?: unknown) => {
    let i = a as number;
    let j = b as number;
    if (typeof a === 'object' && a !== null) {
      i = (a as Pos).i;
      j = (a as Pos).j;
    }
    if (!posOk(i, j)) {
      rt.warn(`cell requested for position (${String(i)}, ${String(j)})`);
      return new Cell(CellType.Street, -1, -1, false); // the C++ default Cell
    }
    const p = i * cols + j;
    const c = cells[p]!;
    if (c < 0) return new Cell(CellType.Waste, -1, -1, false);
    return new Cell(CellType.Street, (c & 7) - 1, getUnitAt()[p]!, (c & 8) !== 0);
  });
  d('unit', (id: unknown) => {
    if (!isInt(id) || id < 0 || id >= n) {
      rt.warn(`unit requested for identifier ${String(id)}`);
      return new Unit(UnitType.Alive, -1, -1, { i: 0, j: 0 }, -1); // the C++ default Unit
    }
    const o = 4 * id;
    const p = units[o + 2]!;
    const pos = p < 0 ? { i: -1, j: -1 } : { i: floor(p / cols), j: p % cols };
    return new Unit(units[o]!, id, units[o + 1]!, pos, units[o + 3]!);
  });
  d('alive_units', (pl: unknown) => {
    if (!plOk(pl)) {
      rt.warn(`alive units requested for player ${String(pl)}`);
      return [];
    }
    return lists()[pl]!.slice();
  });
  d('dead_units', (pl: unknown) => {
    if (!plOk(pl)) {
      rt.warn(`dead units requested for player ${String(pl)}`);
      return [];
    }
    return lists()[np + pl]!.slice();
  });
  d('zombies', () => lists()[2 * np]!.slice());
  d('strength', (pl: unknown) => {
    if (!plOk(pl)) {
      rt.warn(`strength requested for player ${String(pl)}`);
      return -1;
    }
    const alive = lists()[pl]!.length;
    return alive === 0 ? 0 : floor(info[1 + NSET + pl]! / alive);
  });
  d('score', (pl: unknown) => {
    if (!plOk(pl)) {
      rt.warn(`score requested for player ${String(pl)}`);
      return -1;
    }
    return info[1 + NSET + np + pl]!;
  });

  // Action. The first command for a unit counts; the host validates again.
  d('move', (id: unknown, dir: unknown) => {
    const idn = isInt(id) ? id : -1;
    const dn = isInt(dir) ? dir : -1;
    if (given.has(idn)) {
      rt.warn(`command already requested for unit ${idn}`);
      rt.order([idn, dn]); // still counts toward the 1000-orders limit; the host drops it
      return;
    }
    given.add(idn);
    rt.order([idn, dn]);
  });
}
