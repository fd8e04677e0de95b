// The Walking Dead API inside a bot's isolate, under the statement's names
// (the original package's State.hh, Settings.hh, Structs.hh, Action.hh).
// Reads the view through its declaration (view.ts), as encodeView writes it.
// Pure module: no Node APIs (bundled into the isolate).

import type { BotRuntime } from '../../../sandbox/bot-runtime.ts';
import { VIEW } from './view.ts';
import { ijOf, posWithin, definePosHelpers, defineUnscopedEnums, DIR8, DI8, DJ8, type Pos } from '../../game-kit/bot-pos.ts';

/** random_permutation(n) draws n swaps in this game (Random.hh of TWD). */
export const permutationFull = true;

const isInteger = Number.isInteger;
const floor = Math.floor;

const Dir = DIR8;
const CellType = { Street: 0, Waste: 1 };
const UnitType = { Alive: 0, Dead: 1, Zombie: 2 };
const DI = DI8;
const DJ = DJ8;
// The view's indices, read once from its declaration (view.ts).
const { meta: { at: M }, settings: { at: S }, players: { at: P, stride: PS }, units: { at: U, stride: US }, cells: { shift: CS, mask: CM } } = VIEW;

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
  let meta: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.meta.stride);
  let settings: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.settings.stride);
  let players: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let cells: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  let units: Int16Array<ArrayBufferLike> = new Int16Array(0);
  let rows = 60;
  let cols = 60;
  let np = 4;
  let n = 0;
  let unitAt: Int16Array | null = null;
  let byType: number[][] | null = null; // [alive pl0..3, dead pl0..3, zombies]
  let given = new Set<number>();

  rt.onView((view) => {
    ({ meta, settings, players, cells, units } = view as unknown as { meta: Int32Array; settings: Int32Array; players: Int32Array; cells: Uint8Array; units: Int16Array });
    np = settings[S.num_players]!;
    rows = settings[S.board_rows]!;
    cols = settings[S.board_cols]!;
    n = units.length / US;
    unitAt = null;
    byType = null;
    given = new Set<number>();
  });

  const isInt = (x: unknown): x is number => typeof x === 'number' && isInteger(x);
  const plOk = (pl: unknown): pl is number => isInt(pl) && pl >= 0 && pl < np;

  const posOk = (a: unknown, b?: unknown): boolean => posWithin(a, b, rows, cols);

  function getUnitAt(): Int16Array {
    if (!unitAt) {
      unitAt = new Int16Array(rows * cols).fill(-1);
      for (let id = 0; id < n; id++) {
        const p = units[US * id + U.pos]!;
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
        const t = units[US * id + U.type]!;
        const pl = units[US * id + U.player]!;
        if (t === UnitType.Zombie) l[2 * np]!.push(id);
        else if (pl >= 0 && pl < np) l[t * np + pl]!.push(id);
      }
      byType = l;
    }
    return byType;
  }

  const d = rt.define;
  defineUnscopedEnums(rt, { Dir, CellType, UnitType });

  // Pos helpers (the C++ operators + and == of Structs.hh).
  definePosHelpers(rt, DI, DJ);

  // Settings.
  d('version', () => 'TheWalkingDead 1.0');
  // A getter per setting, under default.cnf's names (num_rounds(), board_rows()...).
  for (const key of Object.keys(S) as (keyof typeof S)[]) d(key, () => settings[S[key]]);
  d('player_ok', (pl: unknown) => plOk(pl));
  d('pos_ok', posOk);

  // State.
  d('round', () => meta[M.round]);
  d('cell', (a: unknown, b?: unknown) => {
    const [i, j] = ijOf(a, b);
    if (!posOk(i, j)) {
      rt.warn(`cell requested for position (${String(i)}, ${String(j)})`);
      return new Cell(CellType.Street, -1, -1, false); // the C++ default Cell
    }
    const p = i * cols + j;
    const c = cells[p]!;
    if ((c >> CS.waste) & CM.waste) return new Cell(CellType.Waste, -1, -1, false);
    return new Cell(CellType.Street, ((c >> CS.owner1) & CM.owner1) - 1, getUnitAt()[p]!, ((c >> CS.food) & CM.food) !== 0);
  });
  d('unit', (id: unknown) => {
    if (!isInt(id) || id < 0 || id >= n) {
      rt.warn(`unit requested for identifier ${String(id)}`);
      return new Unit(UnitType.Alive, -1, -1, { i: 0, j: 0 }, -1); // the C++ default Unit
    }
    const o = US * id;
    const p = units[o + U.pos]!;
    const pos = p < 0 ? { i: -1, j: -1 } : { i: floor(p / cols), j: p % cols };
    return new Unit(units[o + U.type]!, id, units[o + U.player]!, pos, units[o + U.rounds_for_zombie]!);
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
    return alive === 0 ? 0 : floor(players[PS * pl + P.points]! / alive);
  });
  d('score', (pl: unknown) => {
    if (!plOk(pl)) {
      rt.warn(`score requested for player ${String(pl)}`);
      return -1;
    }
    return players[PS * pl + P.score]!;
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
