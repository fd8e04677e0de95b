// The Harry Potter API inside a bot's isolate, under the statement's names
// (State.hh, Settings.hh, Structs.hh, Action.hh).
// Reads the view through its declaration (view.ts), as encodeView writes it.
// Pure module: no Node APIs (bundled into the isolate).

import type { BotRuntime } from '../../sdk/bot-runtime-types.ts';
import { ijOf, posWithin, definePosHelpers, DIR8, DI8, DJ8, type Pos } from '../../sdk/bot-pos.ts';
import { collect, defineApi, dir8PosEntries, enumOf, fn, functionsOf, getters, installTable, record, section, type ApiImpl } from '../../sdk/api-table.ts';
import { SETTING_FIELDS, VIEW } from './view.ts';

/** random_permutation(n) draws n swaps in this game (Random.hh of HP). */
export const permutationFull = true;

const isInteger = Number.isInteger;
const floor = Math.floor;
const Int16ArrayCtor = Int16Array;

const Dir = DIR8;
const CellType = { Corridor: 0, Wall: 1 };
const UnitType = { Wizard: 0, Ghost: 1 };
const DI = DI8;
const DJ = DJ8;
const NP = 4;
// The view's indices, read once from its declaration (view.ts).
const {
  meta: { at: M },
  players: { at: P, stride: PS },
  settings: { at: S },
  units: { at: U, stride: UF },
  cells: { shift: CS, mask: CM },
} = VIEW;

/** The API a Harry Potter bot sees (player.d.ts is generated from it). */
export const API = defineApi({
  intro: `Harry Potter player API (the C++ State / Settings / Structs / Action / Player
of EDA Q1 2024-25). Every function is a global and also a method of Player:
\`cell(i, j)\` and \`this.cell(i, j)\` are the same.

C++ → JavaScript:
  Pos p(i, j)                   →  const p = Pos(i, j)              (a plain { i, j })
  p + d, p += d                 →  pos_add(p, d)                    (a new Pos; d a Dir or a Pos)
  p == q                        →  pos_eq(p, q)
  vector<int>                   →  number[]
  move(id, Up)                  →  move(id, Up) or move(id, Dir.Up)  (enum values are globals too)
  cell(p).type == Wall          →  cell(p).type === Wall             (or CellType.Wall)
  unit(id).is_in_conversion_process()
                                →  the same (a method of Unit), or is_in_conversion_process(unit(id))
  spell(id, {0,2,4,...})        →  spell(id, [0, 2, 4, ...])
  Dir(d) / int(d)               →  directions are plain numbers 0..7`,
  playerDoc: 'Extend this class and write play(), called once per round. Fields keep their values between rounds.',
  entries: [
    enumOf('Dir', Dir, '', { unscoped: true, declared: 'player-dir8.d.ts' }),
    enumOf('CellType', CellType, '', { unscoped: true }),
    enumOf('UnitType', UnitType, '', { unscoped: true }),
    ...dir8PosEntries(),
    record(
      'Cell',
      [
        ['type', 'CellType', 'Corridor or Wall.'],
        ['owner', 'number', 'The clan that owns this cell, or -1.'],
        ['id', 'number', 'The unit on this cell, or -1.'],
        ['book', 'boolean', 'Whether a book lies here.'],
        ['is_empty()', 'boolean', 'Corridor, no unit and no book.'],
      ],
      'A cell (cell() outside the board: a default Corridor cell).',
    ),
    record('Unit', [
      ['type', 'UnitType'],
      ['id', 'number', 'Never changes, not even when a wizard changes clan. Ghosts are 0..3 (ghost of player p = p), wizards 4..83.'],
      ['player', 'number', 'The clan it belongs to now.'],
      ['pos', 'Pos'],
      ['rounds_pending', 'number', 'Wizard: rounds before its conversion completes (0 = not converting). Ghost: rounds before it may cast a spell.'],
      ['next_player', 'number', 'Wizard: the clan it is converting to (-1 = none). Ghost: the last round it was attacked (-1 = never).'],
      ['is_in_conversion_process()', 'boolean', 'Wizard in a conversion process?'],
      ['rounds_for_converting()', 'number', 'Wizard: rounds before the conversion completes (-1 for a ghost).'],
      ['player_to_be_converted_to()', 'number', 'Wizard: the clan it converts to, or -1.'],
      ['last_attack_received()', 'number', 'Ghost: last round it was attacked, or -1 (-1 for a wizard).'],
      ['resting_rounds()', 'number', 'Ghost: rounds it must wait before casting (-1 for a wizard).'],
    ]),
    fn('is_in_conversion_process', [['u', 'Unit']], 'boolean', 'The Unit helpers as functions, for those who prefer them.'),
    fn('rounds_for_converting', [['u', 'Unit']], 'number'),
    fn('player_to_be_converted_to', [['u', 'Unit']], 'number'),
    fn('last_attack_received', [['u', 'Unit']], 'number'),
    fn('resting_rounds', [['u', 'Unit']], 'number'),
    section('Settings'),
    fn('version', [], 'string', '"HarryPotter 1.0".'),
    // default.cnf's rounds_for_converting is rounds_for_converting_wizard(): rounds_for_converting is the Unit helper.
    ...getters(SETTING_FIELDS.map((k) => (k === 'rounds_for_converting' ? 'rounds_for_converting_wizard' : k))),
    section('State'),
    fn('unit', [['id', 'number']], 'Unit', 'The unit with this id (a warning and a default unit with id -1 for a bad id).'),
    fn('wizards', [['pl', 'number']], 'number[]', 'Ids of the wizards of player pl, increasing.'),
    fn('ghost', [['pl', 'number']], 'number', 'Id of the ghost of player pl.'),
    fn('pos_voldemort', [], 'Pos', 'Where Voldemort is.'),
    fn('magic_strength', [['pl', 'number']], 'number', 'Overall magic points of pl / (1 + number of wizards of pl), rounded down.'),
    fn('score', [['pl', 'number']], 'number'),
    fn('spell_ingredients', [], 'number[]', "The 15 ingredients of this round's spell (naturals ≤ 30)."),
    section('Action: at most one command per unit and round (the first one counts)'),
    fn(
      'move',
      [
        ['id', 'number'],
        ['dir', 'Dir | number'],
      ],
      'void',
      'Moves unit id one cell in direction dir (wizards: Down, Right, Up, Left only).',
    ),
    fn(
      'spell',
      [
        ['id', 'number'],
        ['sol', 'number[]'],
      ],
      'void',
      "The ghost id tries to cast this round's spell: sol[k] = group 0..4 of ingredient k, 3 ingredients per group, equal sums.",
    ),
  ],
});

/** Cell, with the C++ helper is_empty() as a method. */
class Cell {
  constructor(
    public type: number,
    public owner: number,
    public id: number,
    public book: boolean,
  ) {}
  is_empty(): boolean {
    return this.type === CellType.Corridor && this.id === -1 && !this.book;
  }
}

/** Unit, with the C++ helpers as methods (also exposed as global functions taking the unit). */
class Unit {
  constructor(
    public type: number,
    public id: number,
    public player: number,
    public pos: Pos,
    public rounds_pending: number,
    public next_player: number,
  ) {}
  is_in_conversion_process(): boolean {
    return this.type === UnitType.Wizard && this.rounds_pending > 0;
  }
  rounds_for_converting(): number {
    return this.type !== UnitType.Wizard ? -1 : this.rounds_pending;
  }
  player_to_be_converted_to(): number {
    return this.type !== UnitType.Wizard || this.next_player === -1 ? -1 : this.next_player;
  }
  last_attack_received(): number {
    return this.type === UnitType.Wizard ? -1 : this.next_player;
  }
  resting_rounds(): number {
    return this.type === UnitType.Wizard ? -1 : this.rounds_pending;
  }
}

/** The names of Unit's helper methods. */
type UnitMethod = { [K in keyof Unit]: Unit[K] extends () => unknown ? K : never }[keyof Unit];

export function install(rt: BotRuntime): void {
  let cells: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  let units: Int16Array<ArrayBufferLike> = new Int16Array(0);
  let meta: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.meta.stride);
  let players: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let spell: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let settings: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.settings.stride);
  let rows = 60;
  let cols = 60;
  let n = 0;
  let unitAt: Int16Array | null = null;
  let wizardLists: number[][] | null = null;

  rt.onView((view) => {
    ({ cells, units, meta, players, spell, settings } = view as unknown as {
      cells: Uint8Array;
      units: Int16Array;
      meta: Int32Array;
      players: Int32Array;
      spell: Int32Array;
      settings: Int32Array;
    });
    rows = meta[M.rows]!;
    cols = meta[M.cols]!;
    n = meta[M.nb_units]!;
    unitAt = null;
    wizardLists = null;
  });

  const isInt = (x: unknown): x is number => typeof x === 'number' && isInteger(x);

  const posOk = (a: unknown, b?: unknown): boolean => posWithin(a, b, rows, cols);

  function getUnitAt(): Int16Array {
    if (!unitAt) {
      unitAt = new Int16ArrayCtor(rows * cols).fill(-1);
      for (let id = 0; id < n; id++) unitAt[units[UF * id + U.i]! * cols + units[UF * id + U.j]!] = id;
    }
    return unitAt;
  }

  function lists(): number[][] {
    if (!wizardLists) {
      const w: number[][] = [[], [], [], []];
      for (let id = 0; id < n; id++) if (units[UF * id + U.type] === UnitType.Wizard) w[units[UF * id + U.player]!]?.push(id);
      wizardLists = w;
    }
    return wizardLists;
  }

  function makeUnit(id: number): Unit {
    const o = UF * id;
    return new Unit(
      units[o + U.type]!,
      id,
      units[o + U.player]!,
      { i: units[o + U.i]!, j: units[o + U.j]! },
      units[o + U.rounds_pending]!,
      units[o + U.next_player]!,
    );
  }

  // Pos helpers (C++ operators + and == on Pos and Dir).
  const impl: ApiImpl = collect((r) => definePosHelpers(r, DI, DJ));
  const d = (name: string, f: ApiImpl[string]): void => {
    impl[name] = f;
  };

  // Unit helpers as functions too: is_in_conversion_process(unit(id)) is the method of the Unit it is given.
  for (const f of functionsOf(API)) {
    if (f.params.length !== 1 || f.params[0]![1] !== 'Unit') continue;
    const method = f.name as UnitMethod;
    d(method, (u: Unit) => (Unit.prototype[method] as (this: Unit) => unknown).call(u));
  }

  // Settings.
  d('version', () => 'HarryPotter 1.0');
  // A getter per setting, under default.cnf's names (num_rounds(), board_rows()...) but one.
  for (const key of SETTING_FIELDS) d(key === 'rounds_for_converting' ? 'rounds_for_converting_wizard' : key, () => settings[S[key]]);
  d('player_ok', (pl: unknown) => isInt(pl) && pl >= 0 && pl < NP);
  d('pos_ok', posOk);

  // State.
  d('round', () => meta[M.round]);
  d('cell', (a: unknown, b?: unknown) => {
    let p: number;
    // cell(i, j) on the board, the common call, without the arrays ijOf and posOk make.
    if (typeof a === 'number' && typeof b === 'number' && a >= 0 && b >= 0 && a < rows && b < cols && isInteger(a) && isInteger(b)) p = a * cols + b;
    else {
      const [i, j] = ijOf(a, b);
      if (!posOk(i, j)) return new Cell(CellType.Corridor, -1, -1, false); // the C++ default Cell
      p = i * cols + j;
    }
    const c = cells[p]!;
    return new Cell((c >> CS.wall) & CM.wall, ((c >> CS.owner1) & CM.owner1) - 1, getUnitAt()[p]!, ((c >> CS.book) & CM.book) !== 0);
  });
  d('unit', (id: unknown) => {
    // Silent, as in the original (its warning is commented out): players call unit(-1) freely.
    if (!isInt(id) || id < 0 || id >= n) return new Unit(UnitType.Wizard, -1, -1, { i: 0, j: 0 }, -1, -1);
    return makeUnit(id);
  });
  d('wizards', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < NP ? lists()[pl]!.slice() : []));
  d('ghost', (pl: unknown) => {
    if (!(isInt(pl) && pl >= 0 && pl < NP)) return -1;
    for (let id = 0; id < n; id++) if (units[UF * id + U.type] === UnitType.Ghost && units[UF * id + U.player] === pl) return id;
    return -1;
  });
  d('pos_voldemort', (): Pos => ({ i: meta[M.voldemort_i]!, j: meta[M.voldemort_j]! }));
  d('magic_strength', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < NP ? floor(players[PS * pl + P.strength]! / (1 + lists()[pl]!.length)) : -1));
  d('score', (pl: unknown) => (isInt(pl) && pl >= 0 && pl < NP ? players[PS * pl + P.score]! : -1));
  d('spell_ingredients', (): number[] => {
    const out: number[] = [];
    for (let k = 0; k < spell.length; k++) out.push(spell[k]!);
    return out;
  });

  // Action. Every call counts toward the 1000-orders abort; the host validates again and keeps a unit's
  // first order. A second one is silent, as in the original package (its warning is commented out).
  d('move', (id: unknown, dir: unknown) => {
    const idn = isInt(id) ? id : -1;
    const dn = isInt(dir) ? dir : -1;
    rt.order([0, idn, dn]);
  });
  d('spell', (id: unknown, sol: unknown) => {
    const idn = isInt(id) ? id : -1;
    const arr: number[] = [];
    if (sol && typeof (sol as ArrayLike<unknown>).length === 'number') {
      const s = sol as ArrayLike<unknown>;
      for (let k = 0; k < s.length && k < 64; k++) arr.push(isInt(s[k]) ? (s[k] as number) : -1);
    }
    rt.order([1, idn, arr]);
  });

  installTable(rt, API, impl);
}
