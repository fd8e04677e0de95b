// The bot-side API of Bola de Drac, under the names of the original Board.hh /
// Action.hh / PosDir.hh (2012, hecrj/bola-de-drac): runs inside each bot's isolate, so
// it imports only pure modules. Documented for students in player.d.ts.

import type { BotRuntime } from '../../sdk/bot-runtime-types.ts';
import type { BotView } from '../../sdk/types.ts';
import { CType, DI, DJ, Dir, GType, ORDER_MOVE, ORDER_THROW } from './consts.ts';
import { VIEW } from './view.ts';
import { defineApi, enumOf, fn, getters, installTable, record, section, type ApiImpl } from '../../sdk/api-table.ts';

// The view's indices, read once from its declaration (view.ts).
const {
  meta: { at: M },
  gokus: { at: G, stride: GS },
  beans: { at: B, stride: BS },
} = VIEW;

/** The API a Bola de Drac bot sees (player.d.ts is generated from it). */
export const API = defineApi({
  intro: `Bola de Drac 2015: the player API, as globals (also methods of Player:
\`cell(i, j)\` and \`this.cell(i, j)\` are the same). Names follow the original
C++ Board.hh / Action.hh / PosDir.hh. C++ operators become helpers:
\`p + d\` is \`dest(p, d)\`, \`Pos(i, j)\` builds a position, \`a == b\` on
positions is \`a.i === b.i && a.j === b.j\`.

Rules in short: each player has one goku. Gokus without a Kinton cloud act
only in even rounds (the first round is round 0); on a cloud they act every
round. An action is move(d) or throw_kamehame(d); only the first one of a
round counts. Score = balls(id) * (max_strength() + 1) + strength(id).`,
  playerDoc: 'Your player: extend it and write play(); fields keep their values between rounds.',
  playDoc: 'Called once per round.',
  entries: [
    enumOf('Dir', Dir, 'enum Dir { None, Top, Bottom, Left, Right }'),
    enumOf('CType', CType, 'enum CType { Empty, Rock, Capsule, Ball, Kinton, Bean }: what a cell holds.'),
    enumOf('GType', GType, 'enum GType { Normal, On_Kinton, With_Ball, On_Kinton_With_Ball }: the state of a goku.'),
    record(
      'Cell',
      [
        ['pos', 'Pos'],
        ['type', 'CType'],
        ['id', 'number'],
      ],
      'A cell: its position, its content, and the player whose goku stands on it (-1 if none). cell() outside the board: a warning and a Rock.',
      { readonly: true },
    ),
    record(
      'Goku',
      [
        ['id', 'number'],
        ['pos', 'Pos', 'Where it is (where it died, while dead).'],
        ['type', 'GType'],
        ['balls', 'number', 'Dragon balls deposited so far.'],
        ['strength', 'number'],
        ['kinton', 'number', 'Rounds of Kinton cloud life left (0 when not on a cloud).'],
        ['alive', 'boolean'],
        ['time', 'number', 'Rounds before it may come back, while dead.'],
      ],
      "A goku (one per player; its id is the player's id).",
      { readonly: true },
    ),
    record(
      'Kinton_Cloud',
      [
        ['pos', 'Pos'],
        ['present', 'boolean'],
        ['time', 'number'],
      ],
      'A Kinton cloud spot: present, or coming back in `time` rounds (and only when no goku stands there).',
      { readonly: true },
    ),
    record(
      'Magic_Bean',
      [
        ['pos', 'Pos'],
        ['present', 'boolean'],
        ['time', 'number'],
      ],
      'A magic bean spot: present, or coming back in `time` rounds (and only when no goku stands there).',
      { readonly: true },
    ),
    section('Parameters of the match'),
    ...getters(
      Object.keys(M).filter((k) => k !== 'round'),
      {
        goku_regen_time: 'Rounds an eliminated goku waits before it may come back.',
        kinton_life_time: 'Rounds a Kinton cloud lasts once ridden.',
        res_strength: 'Strength of a goku when it comes back.',
        moving_penalty: 'Paid by a goku on foot for moving in rounds ≡ 2 (mod 4).',
        kamehame_penalty: 'Paid for a Kame Hame; a goku with less strength cannot throw one.',
        combat_penalty: 'Paid by the winner of a combat.',
      },
    ),
    section('The state of the match'),
    fn(
      'pos_ok',
      [
        ['i', 'number'],
        ['j', 'number'],
        ['d', 'Dir'],
      ],
      'boolean',
      'Whether the position one step from (i, j), or p, in direction d is on the board.',
      {
        overloads: [
          [
            ['p', 'Pos'],
            ['d', 'Dir'],
          ],
        ],
      },
    ),
    fn(
      'dest',
      [
        ['p', 'Pos'],
        ['d', 'Dir'],
      ],
      'Pos',
      'The position one step from p in direction d (the C++ p + d).',
    ),
    fn('goku', [['id', 'number']], 'Goku', 'The goku of a player.'),
    fn('balls', [['id', 'number']], 'number', 'Dragon balls deposited by a player.'),
    fn('strength', [['id', 'number']], 'number'),
    fn('score', [['id', 'number']], 'number', 'balls(id) * (max_strength() + 1) + strength(id).'),
    fn('name', [['id', 'number']], 'string', 'A player\'s name (the isolate only knows "player0".."player3").'),
    fn('beans', [], 'readonly Magic_Bean[]'),
    fn('kintons', [], 'readonly Kinton_Cloud[]'),
    fn('has_kinton', [['t', 'GType']], 'boolean'),
    fn('has_ball', [['t', 'GType']], 'boolean'),
    fn('take_ball', [['t', 'GType']], 'GType', 'The GType after taking a ball.'),
    fn('jump_on_kinton', [['t', 'GType']], 'GType', 'The GType after jumping on a Kinton cloud.'),
    section('Actions: one per round; the first one asked counts, later ones are ignored with a warning'),
    fn('move', [['d', 'Dir']], 'void', 'Moves your goku one cell in direction d (into a goku: a combat).'),
    fn('throw_kamehame', [['d', 'Dir']], 'void', 'Throws a Kame Hame ray in direction d: it eliminates every goku up to the next rock.'),
  ],
});

interface Pos {
  i: number;
  j: number;
}
interface Cell {
  pos: Pos;
  type: number;
  id: number;
}
interface Goku {
  id: number;
  pos: Pos;
  type: number;
  balls: number;
  strength: number;
  kinton: number;
  alive: boolean;
  time: number;
}
interface Item {
  pos: Pos;
  present: boolean;
  time: number;
}

export function install(rt: BotRuntime): void {
  const freeze = Object.freeze;
  const isInteger = Number.isInteger;
  const floor = Math.floor;

  let m: Int32Array<ArrayBufferLike> = new Int32Array(VIEW.meta.stride);
  let g: Int8Array<ArrayBufferLike> = new Int8Array(0);
  let gk: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let beanSpots: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let kintonSpots: Int32Array<ArrayBufferLike> = new Int32Array(0);
  let rows = 0;
  let cols = 0;
  let np = 0;
  /** The cell of each alive goku (-1 for a dead one), this round: cell()'s `id`, without a board-sized array to fill each round. */
  let gokuCell = new Int32Array(0);
  // The objects handed out are frozen snapshots and stay valid while what they
  // describe is unchanged: kept from round to round, made again only when the
  // view differs (most cells and gokus do not change in a round), so a round
  // costs no allocation for what did not change.
  let cellCache: (Cell | undefined)[] = [];
  const gokuCache: (Goku | undefined)[] = [];
  let beansCache: readonly Item[] | null = null;
  let kintonsCache: readonly Item[] | null = null;
  let acted = false;

  function decode(view: BotView): void {
    ({
      meta: m,
      cells: g,
      gokus: gk,
      beans: beanSpots,
      kintons: kintonSpots,
    } = view as unknown as { meta: Int32Array; cells: Int8Array; gokus: Int32Array; beans: Int32Array; kintons: Int32Array });
    if (rows !== m[M.rows] || cols !== m[M.cols]) {
      rows = m[M.rows]!;
      cols = m[M.cols]!;
      cellCache = new Array(rows * cols);
    }
    np = m[M.nb_players]!;
    if (gokuCell.length !== np) gokuCell = new Int32Array(np);
    for (let p = 0; p < np; p++) {
      const o = p * GS;
      gokuCell[p] = gk[o + G.alive] ? gk[o + G.i]! * cols + gk[o + G.j]! : -1;
    }
    beansCache = null;
    kintonsCache = null;
    acted = false;
  }
  rt.onView(decode);

  const num = (x: unknown): number => (typeof x === 'number' ? x : NaN);
  const Pos = (i: unknown, j: unknown): Pos => ({ i: num(i), j: num(j) });
  const isPos = (p: unknown): p is Pos => typeof p === 'object' && p !== null && typeof (p as Pos).i === 'number' && typeof (p as Pos).j === 'number';
  const okIJ = (i: number, j: number): boolean => isInteger(i) && isInteger(j) && i >= 0 && i < rows && j >= 0 && j < cols;
  const isDir = (d: unknown): d is number => typeof d === 'number' && isInteger(d) && d >= 0 && d <= 4;

  const impl: ApiImpl = {};
  const def = (name: string, f: ApiImpl[string]): void => {
    impl[name] = f;
  };

  // Parameters (Board.hh getters).
  const param = (key: keyof typeof M) => () => m[M[key]]!;
  for (const key of Object.keys(M) as (keyof typeof M)[]) def(key, param(key));

  def('Pos', Pos);

  def('player_ok', (pl: unknown) => typeof pl === 'number' && isInteger(pl) && pl >= 0 && pl < np);

  /** pos_ok(i, j), pos_ok(p), pos_ok(i, j, d), pos_ok(p, d). */
  def('pos_ok', (a: unknown, b?: unknown, c?: unknown) => {
    if (isPos(a)) {
      if (b === undefined) return okIJ(a.i, a.j);
      if (!isDir(b)) return false;
      return okIJ(a.i + DI[b]!, a.j + DJ[b]!);
    }
    const i = num(a);
    const j = num(b);
    if (c === undefined) return okIJ(i, j);
    if (!isDir(c)) return false;
    return okIJ(i + DI[c]!, j + DJ[c]!);
  });

  /** The position p + d (may be outside the board: check with pos_ok). */
  def('dest', (p: unknown, d: unknown) => {
    if (!isPos(p)) throw new Error('dest(p, d): p must be a Pos {i, j}');
    const k = isDir(d) ? d : 0;
    if (!isDir(d)) rt.warn(`dest: invalid direction ${String(d)}, using None`);
    return { i: p.i + DI[k]!, j: p.j + DJ[k]! };
  });

  function cellAt(i: number, j: number): Cell {
    if (!okIJ(i, j)) {
      rt.warn(`cell(${i}, ${j}) is outside the board: answered as a Rock`);
      return freeze({ pos: freeze({ i, j }), type: CType.Rock, id: -1 });
    }
    const k = i * cols + j;
    const type = g[k]!;
    let id = -1;
    for (let p = 0; p < np; p++) if (gokuCell[p] === k) id = p;
    let c = cellCache[k];
    if (!c || c.type !== type || c.id !== id) {
      c = freeze({ pos: freeze({ i, j }), type, id });
      cellCache[k] = c;
    }
    return c;
  }
  /** cell(i, j) or cell(p). */
  def('cell', (a: unknown, b?: unknown) => (isPos(a) ? cellAt(a.i, a.j) : cellAt(num(a), num(b))));

  function gokuOf(id: unknown): Goku {
    if (typeof id !== 'number' || !isInteger(id) || id < 0 || id >= np) {
      rt.warn(`goku(${String(id)}): not a player id`);
      return freeze({ id: -1, pos: freeze({ i: -1, j: -1 }), type: GType.Normal, balls: 0, strength: 0, kinton: 0, alive: false, time: 0 });
    }
    const o = id * GS;
    let x = gokuCache[id];
    if (
      !x ||
      x.pos.i !== gk[o + G.i] ||
      x.pos.j !== gk[o + G.j] ||
      x.type !== gk[o + G.type] ||
      x.balls !== gk[o + G.balls] ||
      x.strength !== gk[o + G.strength] ||
      x.kinton !== gk[o + G.kinton] ||
      x.alive !== (gk[o + G.alive] === 1) ||
      x.time !== gk[o + G.time]
    ) {
      x = freeze({
        id,
        pos: freeze({ i: gk[o + G.i]!, j: gk[o + G.j]! }),
        type: gk[o + G.type]!,
        balls: gk[o + G.balls]!,
        strength: gk[o + G.strength]!,
        kinton: gk[o + G.kinton]!,
        alive: gk[o + G.alive] === 1,
        time: gk[o + G.time]!,
      });
      gokuCache[id] = x;
    }
    return x;
  }
  def('goku', gokuOf);
  def('balls', (id: unknown) => gokuOf(id).balls);
  def('strength', (id: unknown) => gokuOf(id).strength);
  def('score', (id: unknown) => {
    const x = gokuOf(id);
    return x.balls * (m[M.max_strength]! + 1) + x.strength;
  });
  // The names the four bots declared (PLAYER_NAME), as the original Board::name(id).
  def('name', (id: unknown) => (typeof id === 'number' && isInteger(id) && id >= 0 && id < np ? rt.playerName(id) : ''));

  /** Bean and kinton spots share one record layout. */
  function items(spots: Int32Array<ArrayBufferLike>): readonly Item[] {
    const out: Item[] = [];
    for (let o = 0; o < spots.length; o += BS)
      out.push(freeze({ pos: freeze({ i: spots[o + B.i]!, j: spots[o + B.j]! }), present: spots[o + B.present] === 1, time: spots[o + B.time]! }));
    return freeze(out);
  }
  def('beans', () => (beansCache ??= items(beanSpots)));
  def('kintons', () => (kintonsCache ??= items(kintonSpots)));

  // GType helpers (Board.hh).
  def('has_kinton', (t: unknown) => t === GType.On_Kinton || t === GType.On_Kinton_With_Ball);
  def('has_ball', (t: unknown) => t === GType.With_Ball || t === GType.On_Kinton_With_Ball);
  def('take_ball', (t: unknown) => (t === GType.Normal ? GType.With_Ball : t === GType.On_Kinton ? GType.On_Kinton_With_Ball : t));
  def('jump_on_kinton', (t: unknown) => (t === GType.Normal ? GType.On_Kinton : t === GType.With_Ball ? GType.On_Kinton_With_Ball : t));

  // Actions (Action.hh): one per round, the first one asked wins.
  function act(kind: string, what: string, d: unknown): void {
    const dir = typeof d === 'number' ? floor(d) : NaN;
    if (!isDir(dir)) {
      rt.warn(`${what}: invalid direction ${String(d)}; ignored`);
      return;
    }
    if (acted) {
      rt.warn(`${what}: an action was already requested for this goku; ignored`);
      return;
    }
    acted = true;
    rt.order([kind, dir]);
  }
  def('move', (d: unknown) => act(ORDER_MOVE, 'move', d));
  def('throw_kamehame', (d: unknown) => act(ORDER_THROW, 'throw_kamehame', d));
  installTable(rt, API, impl);
}
