// The bot-side API of Bola de Drac, under the names of the original Board.hh /
// Action.hh / PosDir.hh (2012, hecrj/bola-de-drac): runs inside each bot's isolate, so
// it imports only pure modules. Documented for students in player.d.ts.

import type { BotRuntime } from '../../../sandbox/bot-runtime.ts';
import type { BotView } from '../../game-kit/types.ts';
import { CType, DI, DJ, Dir, GType, ORDER_MOVE, ORDER_THROW } from './consts.ts';
import { VIEW } from './view.ts';

// The view's indices, read once from its declaration (view.ts).
const { meta: { at: M }, gokus: { at: G, stride: GS }, beans: { at: B, stride: BS } } = VIEW;

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
  /** Goku id per cell (alive gokus only), -1 elsewhere. */
  let occ = new Int8Array(0);
  let cellCache: (Cell | undefined)[] = [];
  let gokuCache: (Goku | undefined)[] = [];
  let beansCache: readonly Item[] | null = null;
  let kintonsCache: readonly Item[] | null = null;
  let acted = false;

  function decode(view: BotView): void {
    ({ meta: m, cells: g, gokus: gk, beans: beanSpots, kintons: kintonSpots } = view as unknown as { meta: Int32Array; cells: Int8Array; gokus: Int32Array; beans: Int32Array; kintons: Int32Array });
    rows = m[M.rows]!;
    cols = m[M.cols]!;
    np = m[M.nb_players]!;
    if (occ.length !== rows * cols) occ = new Int8Array(rows * cols);
    occ.fill(-1);
    for (let p = 0; p < np; p++) {
      const o = p * GS;
      if (gk[o + G.alive]) occ[gk[o + G.i]! * cols + gk[o + G.j]!] = p;
    }
    cellCache = new Array(rows * cols);
    gokuCache = new Array(np);
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

  // Parameters (Board.hh getters).
  const param = (key: keyof typeof M) => () => m[M[key]]!;
  for (const key of Object.keys(M) as (keyof typeof M)[]) rt.define(key, param(key));

  rt.define('Pos', Pos);
  rt.define('Dir', { ...Dir });
  rt.define('CType', { ...CType });
  rt.define('GType', { ...GType });

  rt.define('player_ok', (pl: unknown) => typeof pl === 'number' && isInteger(pl) && pl >= 0 && pl < np);

  /** pos_ok(i, j), pos_ok(p), pos_ok(i, j, d), pos_ok(p, d). */
  rt.define('pos_ok', (a: unknown, b?: unknown, c?: unknown) => {
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
  rt.define('dest', (p: unknown, d: unknown) => {
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
    let c = cellCache[k];
    if (!c) {
      c = freeze({ pos: freeze({ i, j }), type: g[k]!, id: occ[k]! });
      cellCache[k] = c;
    }
    return c;
  }
  /** cell(i, j) or cell(p). */
  rt.define('cell', (a: unknown, b?: unknown) => (isPos(a) ? cellAt(a.i, a.j) : cellAt(num(a), num(b))));

  function gokuOf(id: unknown): Goku {
    if (typeof id !== 'number' || !isInteger(id) || id < 0 || id >= np) {
      rt.warn(`goku(${String(id)}): not a player id`);
      return freeze({ id: -1, pos: freeze({ i: -1, j: -1 }), type: GType.Normal, balls: 0, strength: 0, kinton: 0, alive: false, time: 0 });
    }
    let x = gokuCache[id];
    if (!x) {
      const o = id * GS;
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
  rt.define('goku', gokuOf);
  rt.define('balls', (id: unknown) => gokuOf(id).balls);
  rt.define('strength', (id: unknown) => gokuOf(id).strength);
  rt.define('score', (id: unknown) => {
    const x = gokuOf(id);
    return x.balls * (m[M.max_strength]! + 1) + x.strength;
  });
  // The names the four bots declared (PLAYER_NAME), as the original Board::name(id).
  rt.define('name', (id: unknown) => (typeof id === 'number' && isInteger(id) && id >= 0 && id < np ? rt.playerName(id) : ''));

  /** Bean and kinton spots share one record layout. */
  function items(spots: Int32Array<ArrayBufferLike>): readonly Item[] {
    const out: Item[] = [];
    for (let o = 0; o < spots.length; o += BS) out.push(freeze({ pos: freeze({ i: spots[o + B.i]!, j: spots[o + B.j]! }), present: spots[o + B.present] === 1, time: spots[o + B.time]! }));
    return freeze(out);
  }
  rt.define('beans', () => (beansCache ??= items(beanSpots)));
  rt.define('kintons', () => (kintonsCache ??= items(kintonSpots)));

  // GType helpers (Board.hh).
  rt.define('has_kinton', (t: unknown) => t === GType.On_Kinton || t === GType.On_Kinton_With_Ball);
  rt.define('has_ball', (t: unknown) => t === GType.With_Ball || t === GType.On_Kinton_With_Ball);
  rt.define('take_ball', (t: unknown) => (t === GType.Normal ? GType.With_Ball : t === GType.On_Kinton ? GType.On_Kinton_With_Ball : t));
  rt.define('jump_on_kinton', (t: unknown) => (t === GType.Normal ? GType.On_Kinton : t === GType.With_Ball ? GType.On_Kinton_With_Ball : t));

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
  rt.define('move', (d: unknown) => act(ORDER_MOVE, 'move', d));
  rt.define('throw_kamehame', (d: unknown) => act(ORDER_THROW, 'throw_kamehame', d));
}
