// The Walking Dead API inside a bot's isolate, under the statement's names
// (the original package's State.hh, Settings.hh, Structs.hh, Action.hh).
// Reads the view through its declaration (view.ts), as encodeView writes it.
// Pure module: no Node APIs (bundled into the isolate).

import type { BotRuntime } from '../../sdk/bot-runtime-types.ts';
import { VIEW } from './view.ts';
import { ijOf, posWithin, definePosHelpers, DIR8, DI8, DJ8, type Pos } from '../../sdk/bot-pos.ts';
import { collect, defineApi, dir8PosEntries, enumOf, fn, getters, installTable, record, section, type ApiImpl } from '../../sdk/api-table.ts';

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
const {
  meta: { at: M },
  settings: { at: S },
  players: { at: P, stride: PS },
  units: { at: U, stride: US },
  cells: { shift: CS, mask: CM },
} = VIEW;

/** The API a Walking Dead bot sees (player.d.ts is generated from it). */
export const API = defineApi({
  intro: `The Walking Dead player API (the C++ State / Settings / Structs / Action /
Player of EDA Q1 2022-23). Every function is a global and also a method of
Player: \`cell(i, j)\` and \`this.cell(i, j)\` are the same.

C++ → JavaScript:
  Pos p(i, j)                   →  const p = Pos(i, j)              (a plain { i, j })
  p + d, p += d                 →  pos_add(p, d)                    (a new Pos; d a Dir or a Pos)
  p == q                        →  pos_eq(p, q)
  vector<int>                   →  number[]
  move(id, Up)                  →  move(id, Up) or move(id, Dir.Up)  (enum values are globals too)
  cell(p).type == Waste         →  cell(p).type === Waste            (or CellType.Waste)
  unit(id).type == Zombie       →  unit(id).type === Zombie          (or UnitType.Zombie)
  Dir(d) / int(d)               →  directions are plain numbers 0..7
  cerr << ...                   →  console.log(...)                  (your private log)`,
  playerDoc: 'Extend this class and write play(), called once per round. Fields keep their values between rounds.',
  entries: [
    enumOf('Dir', Dir, '', { unscoped: true, declared: 'player-dir8.d.ts' }),
    enumOf('CellType', CellType, 'Street (walkable) or Waste (never walkable).', { unscoped: true }),
    enumOf(
      'UnitType',
      UnitType,
      'Alive (in a clan; also while converting after a bite), Dead (killed in a fight, waiting to become a zombie), Zombie (moves in all 8 directions; alive units only Down, Right, Up, Left).',
      { unscoped: true },
    ),
    ...dir8PosEntries(),
    record(
      'Cell',
      [
        ['type', 'CellType', 'Street or Waste.'],
        ['owner', 'number', 'The clan that owns this cell, or -1.'],
        ['id', 'number', 'The unit on this cell (alive, dead or zombie), or -1.'],
        ['food', 'boolean', 'Whether there is food here (never together with a unit).'],
        ['is_empty()', 'boolean', 'Street, no unit and no food.'],
      ],
      'A cell (cell() outside the board: a warning and a default Street cell).',
    ),
    record('Unit', [
      ['type', 'UnitType'],
      ['id', 'number', 'Never changes, not even when the unit dies, turns into a zombie or comes back in another clan.'],
      ['player', 'number', 'Its clan, or -1 for a zombie. Dead units keep the clan they died in.'],
      ['pos', 'Pos', 'Where it is ((-1, -1) only in odd moments, e.g. for a bad id).'],
      ['rounds_for_zombie', 'number', 'Rounds left before it becomes a zombie, or -1 if it is not converting (bitten alive units and dead units convert).'],
    ]),
    section('Settings (default.cnf)'),
    fn('version', [], 'string', '"TheWalkingDead 1.0".'),
    ...getters(Object.keys(S)),
    section('State'),
    fn(
      'unit',
      [['id', 'number']],
      'Unit',
      'The unit with this id (a warning and the C++ default unit for a bad id: Alive, id -1, player -1, pos (0, 0), rounds -1).',
    ),
    fn('alive_units', [['pl', 'number']], 'number[]', 'Ids of the alive units of player pl (converting ones included), increasing.'),
    fn('dead_units', [['pl', 'number']], 'number[]', 'Ids of the dead units of player pl, increasing.'),
    fn('zombies', [], 'number[]', 'Ids of the zombies, increasing.'),
    fn('strength', [['pl', 'number']], 'number', '⌊strength points of pl / alive units of pl⌋ (0 with no alive units): decides fights.'),
    fn('score', [['pl', 'number']], 'number', 'Points for killed zombies and units plus one per owned cell, as of the end of the last round (0 in round 0).'),
    section('Action: at most one command per unit and round (the first one counts)'),
    fn(
      'move',
      [
        ['id', 'number'],
        ['dir', 'Dir | number'],
      ],
      'void',
      'Moves your alive unit id one cell in direction dir (Down, Right, Up or Left). Orders of the four players are interleaved at random, yours in the order you give them.',
    ),
  ],
});

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
    ({ meta, settings, players, cells, units } = view as unknown as {
      meta: Int32Array;
      settings: Int32Array;
      players: Int32Array;
      cells: Uint8Array;
      units: Int16Array;
    });
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

  // Pos helpers (the C++ operators + and == of Structs.hh).
  const impl: ApiImpl = collect((r) => definePosHelpers(r, DI, DJ));
  const d = (name: string, f: ApiImpl[string]): void => {
    impl[name] = f;
  };

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

  installTable(rt, API, impl);
}
