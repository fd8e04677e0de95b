// The Moria API inside a bot's isolate, under the statement's names
// (State.hh, Settings.hh, Structs.hh, Action.hh of the original package).
// Reads the view through its declaration (view.ts), as encodeView writes it.
// Pure module: no Node APIs (bundled into the isolate).

import type { BotRuntime } from '../../sdk/bot-runtime-types.ts';
import { defineApi, enumOf, fn, getters, installTable, record, section, type ApiImpl } from '../../sdk/api-table.ts';
import { ijOf, posWithin, type Pos } from '../../sdk/bot-pos.ts';
import { CONST } from './config.ts';
import { VIEW } from './view.ts';

export const permutationFull = false;

// Globals are captured once: in a node:vm context every global lookup is slow.
const isInteger = Number.isInteger;
const Int16Array16 = Int16Array;
const floor = Math.floor;

const Dir = { Bottom: 0, BR: 1, Right: 2, RT: 3, Top: 4, TL: 5, Left: 6, LB: 7, None: 8, DirSize: 9 };
const CellType = { Outside: 0, Cave: 1, Abyss: 2, Granite: 3, Rock: 4, CellTypeSize: 5 };
const UnitType = { Dwarf: 0, Wizard: 1, Orc: 2, Troll: 3, Balrog: 4, UnitTypeSize: 5 };
const DI = [1, 1, 0, -1, -1, -1, 0, 1, 0];
const DJ = [0, 1, 1, 1, 0, -1, -1, -1, 0];

// The view's indices, read once from its declaration (view.ts).
const {
  meta: { at: M },
  players: { at: P, stride: PS },
  units: { at: U, stride: US },
  cells: { shift: CS, mask: CM },
} = VIEW;

// The settings the view carries, then the ones the original fixes (Settings.hh's constants).
const SETTINGS = [...Object.keys(M).filter((k) => k !== 'round'), ...Object.keys(CONST)];

/** The API a Moria bot sees (player.d.ts is generated from it). */
export const API = defineApi({
  intro: `Moria player API (the C++ State / Settings / Action / Player of P44849).
Every function is a global and also a method of Player: \`cell(i, j)\` and
\`this.cell(i, j)\` are the same.

C++ → JavaScript:
  Pos p(i, j)           →  const p = Pos(i, j)            (a plain { i, j })
  p + d, p += d         →  pos_add(p, d)                  (a new Pos)
  p == q                →  pos_eq(p, q)
  vector<int>           →  number[]
  cell(p).type == Rock  →  cell(p).type === CellType.Rock
  Dir(d) / int(d)       →  directions are plain numbers 0..8`,
  entries: [
    enumOf(
      'Dir',
      Dir,
      'Bottom, BR, Right, RT, Top, TL, Left, LB, None (0..8). Offsets: Bottom (+1,0), BR (+1,+1), Right (0,+1), RT (-1,+1), Top (-1,0), TL (-1,-1), Left (0,-1), LB (+1,-1).',
      { notInType: ['DirSize'] },
    ),
    enumOf('CellType', CellType),
    enumOf('UnitType', UnitType),
    fn(
      'pos_add',
      [
        ['p', 'Pos'],
        ['d', 'Dir | number'],
      ],
      'Pos',
      'p + d: the neighbouring position in direction d (None: the same position).',
      { cpp: 'operator+' },
    ),
    fn(
      'pos_eq',
      [
        ['p', 'Pos'],
        ['q', 'Pos'],
      ],
      'boolean',
      'p == q.',
      { cpp: 'operator==' },
    ),
    fn('dir_ok', [['d', 'number']], 'boolean', 'Is d a valid direction (0..8)?'),
    record(
      'Cell',
      [
        ['type', 'CellType'],
        ['owner', 'number', 'The clan that currently conquers this cave, or -1.'],
        ['id', 'number', 'The unit on this cell, or -1.'],
        ['turns', 'number', 'Rock: hits still needed to open it (rock_resistance at first).'],
        ['treasure', 'boolean', 'A cave with a treasure.'],
      ],
      'A cell (cell() off the board: a warning and a default cell).',
    ),
    record('Unit', [
      ['type', 'UnitType'],
      ['id', 'number'],
      ['player', 'number', "Clan 0..3, or -1 for Sauron's units."],
      ['health', 'number', 'Health points (meaningless for the Balrog).'],
      ['pos', 'Pos'],
    ]),
    record(
      'Movement',
      [
        ['id', 'number'],
        ['dir', 'Dir | number'],
      ],
      'A movement, for command({ id, dir }).',
    ),
    section('Action'),
    fn(
      'command',
      [
        ['id', 'number'],
        ['dir', 'Dir | number'],
      ],
      'void',
      `Orders unit id to move (or attack, or dig) in direction dir. Only the first
command per unit and round counts (a second one is ignored with a warning,
as is a direction outside 0..8). More than 1000 commands in one round abort
your player. Give them from most to least urgent: they run in this order.`,
      { overloads: [[['m', 'Movement']]] },
    ),
    section('State'),
    fn('unit', [['id', 'number']], 'Unit', 'Unit id. An invalid id or a dead orc: a warning and a default unit (id -1).'),
    fn('nb_units', [], 'number', 'Number of unit ids (4*25 + 20 orcs + 4 trolls + 1 Balrog = 125 by default).'),
    fn('dwarves', [['pl', 'number']], 'number[]', 'Ids of the dwarves of player pl (ids 25*pl..25*pl+19 at first; captured units change clan).'),
    fn('wizards', [['pl', 'number']], 'number[]', 'Ids of the wizards of player pl.'),
    fn('orcs', [], 'number[]', 'Ids of the orcs alive (ids 100..119).'),
    fn('trolls', [], 'number[]', 'Ids of the trolls (120..123).'),
    fn('balrog_id', [], 'number', 'Id of the Balrog (124).'),
    fn('nb_cells', [['pl', 'number']], 'number', 'Cells currently conquered by player pl.'),
    fn('nb_treasures', [['pl', 'number']], 'number', 'Treasures accumulated by player pl.'),
    section('Settings'),
    fn('version', [], 'string'),
    ...getters(SETTINGS),
  ],
});

export function install(rt: BotRuntime): void {
  let cells: Uint16Array<ArrayBufferLike> = new Uint16Array(0);
  let units: Int16Array<ArrayBufferLike> = new Int16Array(0);
  let meta: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.meta.stride);
  let players: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let np = 4;
  let rows = 60;
  let cols = 60;
  let firstOrc = 100;
  let firstTroll = 120;
  let balrog = 124;
  let nd = 20;
  let perPlayer = 25;
  // Per-view caches, built on first use.
  let unitAt: Int16Array<ArrayBufferLike> | null = null;
  let byPlayer: { d: number[][]; w: number[][] } | null = null;
  // Orders given this round (Action: one per unit).
  let given = new Set<number>();

  rt.onView((view) => {
    ({ cells, units, meta, players } = view as unknown as { cells: Uint16Array; units: Int16Array; meta: Int32Array; players: Int32Array });
    const grid = view['grid'] as Int16Array | undefined;
    np = meta[M.nb_players]!;
    nd = meta[M.nb_dwarves]!;
    perPlayer = nd + meta[M.nb_wizards]!;
    rows = meta[M.rows]!;
    cols = meta[M.cols]!;
    firstOrc = np * perPlayer;
    firstTroll = firstOrc + meta[M.max_nb_orcs]!;
    balrog = firstTroll + meta[M.nb_trolls]!;
    unitAt = grid ?? null;
    byPlayer = null;
    given = new Set<number>();
  });

  const isInt = (x: unknown): x is number => typeof x === 'number' && isInteger(x);
  const typeOf = (id: number): number =>
    id < firstOrc ? (id % perPlayer < nd ? UnitType.Dwarf : UnitType.Wizard) : id < firstTroll ? UnitType.Orc : id < balrog ? UnitType.Troll : UnitType.Balrog;

  const posOk = (a: unknown, b?: unknown): boolean => posWithin(a, b, rows, cols);

  function getUnitAt(): Int16Array<ArrayBufferLike> {
    if (!unitAt) {
      unitAt = new Int16Array16(rows * cols).fill(-1);
      for (let id = 0; US * id < units.length; id++) {
        const p = units[US * id + U.pos]!;
        if (p >= 0) unitAt[p] = id;
      }
    }
    return unitAt;
  }

  function lists() {
    if (!byPlayer) {
      const d: number[][] = [];
      const w: number[][] = [];
      for (let pl = 0; pl < np; pl++) {
        d.push([]);
        w.push([]);
      }
      for (let id = 0; id < firstOrc; id++) {
        const pl = units[US * id + U.player]!;
        if (pl < 0 || pl >= np || units[US * id + U.pos]! < 0) continue;
        (typeOf(id) === UnitType.Dwarf ? d : w)[pl]!.push(id);
      }
      byPlayer = { d, w };
    }
    return byPlayer;
  }

  const impl: ApiImpl = {};
  const d = (name: string, f: ApiImpl[string]): void => {
    impl[name] = f;
  };

  // Pos helpers (C++ operators + == on Pos and Dir).
  d('Pos', (i: number, j: number): Pos => ({ i, j }));
  d('pos_add', (p: Pos, dir: number): Pos => ({ i: p.i + (DI[dir] ?? 0), j: p.j + (DJ[dir] ?? 0) }));
  d('pos_eq', (a: Pos, b: Pos): boolean => a.i === b.i && a.j === b.j);
  d('dir_ok', (dir: unknown): boolean => isInt(dir) && dir >= 0 && dir <= 8);

  // Settings.
  d('version', () => 'Moria 1.1');
  // The settings the view carries (nb_rounds(), rows()...), under their own names.
  for (const key of Object.keys(M) as (keyof typeof M)[]) if (key !== 'round') d(key, () => meta[M[key]]);
  // The settings the original fixes (Settings.hh's constants).
  for (const [key, value] of Object.entries(CONST)) d(key, () => value);
  d('player_ok', (pl: unknown) => isInt(pl) && pl >= 0 && pl < np);
  d('pos_ok', posOk);

  // State.
  d('round', () => meta[M.round]);
  d('nb_units', () => balrog + 1);
  /** The cell at index p, as the API's Cell. */
  const cellAt = (p: number) => {
    const c = cells[p]!;
    return {
      type: (c >> CS.type) & CM.type,
      owner: ((c >> CS.owner1) & CM.owner1) - 1,
      id: getUnitAt()[p]!,
      turns: (c >> CS.turns) & CM.turns,
      treasure: ((c >> CS.treasure) & CM.treasure) === 1,
    };
  };
  d('cell', (a: unknown, b?: unknown) => {
    // cell(i, j) on the board, the common call, without the arrays ijOf and posOk make.
    if (typeof a === 'number' && typeof b === 'number' && a >= 0 && b >= 0 && a < rows && b < cols && isInteger(a) && isInteger(b)) return cellAt(a * cols + b);
    const [i, j] = ijOf(a, b);
    if (!posOk(i, j)) {
      rt.warn(`cell: position (${String(i)}, ${String(j)}) is not on the board`);
      return { type: CellType.Cave, owner: -1, id: -1, turns: 0, treasure: false };
    }
    return cellAt(i * cols + j);
  });
  d('unit', (id: unknown) => {
    if (!isInt(id) || id < 0 || id > balrog || units[US * id + U.pos]! < 0) {
      rt.warn(`unit: id out of range or dead unit: ${String(id)}`);
      return { type: UnitType.UnitTypeSize, id: -1, player: -1, health: 0, pos: { i: -1, j: -1 } };
    }
    const p = units[US * id + U.pos]!;
    return {
      type: typeOf(id),
      id,
      player: units[US * id + U.player]!,
      health: units[US * id + U.health]!,
      pos: { i: floor(p / cols), j: p % cols },
    };
  });
  d('dwarves', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < np ? lists().d[pl]!.slice() : []));
  d('wizards', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < np ? lists().w[pl]!.slice() : []));
  d('orcs', () => {
    const out: number[] = [];
    for (let id = firstOrc; id < firstTroll; id++) if (units[US * id + U.pos]! >= 0) out.push(id);
    return out;
  });
  d('trolls', () => {
    const out: number[] = [];
    for (let id = firstTroll; id < balrog; id++) out.push(id);
    return out;
  });
  d('balrog_id', () => balrog);
  d('nb_cells', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < np ? players[PS * pl + P.nb_cells]! : -1));
  d('nb_treasures', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < np ? players[PS * pl + P.nb_treasures]! : -1));

  // Action: command(id, dir) or command({ id, dir }). Every call counts toward
  // the 1000-orders abort; the host validates again.
  d('command', (a: unknown, b?: unknown) => {
    let id = a;
    let dir = b;
    if (typeof a === 'object' && a !== null) {
      id = (a as { id: unknown }).id;
      dir = (a as { dir: unknown }).dir;
    }
    const idn = isInt(id) ? id : -1;
    const dn = isInt(dir) ? dir : -1;
    rt.order([idn, dn]);
    if (dn < 0 || dn > 8) {
      rt.warn(`command: direction ${String(dir)} out of range for unit ${String(id)}`);
      return;
    }
    if (given.has(idn)) {
      rt.warn(`command: another command for unit ${idn} already requested`);
      return;
    }
    given.add(idn);
  });

  installTable(rt, API, impl);
}
