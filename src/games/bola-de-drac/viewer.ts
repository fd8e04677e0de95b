// Bola de Drac's board for the one viewer: the maze of rocks, the Hoi Poi
// capsules, dragon balls, magic beans and Kinton clouds (and where a bean or a
// cloud will come back), each player's goku with its strength, ball and
// cloud, dead gokus where they fell, and this round's Kame Hame, fights and
// pickups. It reads only the replay (frames from index.ts frame(), events
// from engine.ts BdEvent).

import type { DrawArgs, GameView, LegendItem, Replay, ReplayRound } from '../../sdk/viewer/game-view.ts';
import { CELL_CHARS, CType, DI, DJ, type BdFrame } from './consts.ts';
import type { BdEvent } from './engine.ts';
import * as sp from './viewer/sprites.ts';
import { wordsFor } from '../../sdk/viewer/lang.ts';
import { BOLA_DE_DRAC_WORDS } from './viewer-words.ts';

// Per goku in the frame: i, j, alive (0/1), GType, deposited balls, strength, kinton life, regen time.
const G_I = 0;
const G_J = 1;
const G_ALIVE = 2;
const G_TYPE = 3;
const G_BALLS = 4;
const G_STRENGTH = 5;
const G_KINTON = 6;
const G_TIME = 7;
const GOKU_FIELDS = 8;
/** GType bits: 1 = on a Kinton cloud, 2 = with a ball. */
const ON_KINTON = 1;
const WITH_BALL = 2;

const ROCK = CELL_CHARS.charCodeAt(CType.Rock);
const CAPSULE = CELL_CHARS.charCodeAt(CType.Capsule);
const BALL = CELL_CHARS.charCodeAt(CType.Ball);
const KINTON = CELL_CHARS.charCodeAt(CType.Kinton);
const BEAN = CELL_CHARS.charCodeAt(CType.Bean);

/** The words of the page's language (the statement's own). */
const W = wordsFor(BOLA_DE_DRAC_WORDS);

const CELL_NAMES: Record<number, string> = {
  [CELL_CHARS.charCodeAt(CType.Empty)]: W.cells.empty,
  [ROCK]: W.cells.rock,
  [CAPSULE]: W.cells.capsule,
  [BALL]: W.cells.ball,
  [KINTON]: W.cells.kinton,
  [BEAN]: W.cells.bean,
};

/** Per replay, computed once: the board size, the rules' numbers, and when each bean or cloud spot was last emptied. */
interface Prep {
  rows: number;
  cols: number;
  maxStrength: number;
  kamehamePenalty: number;
  beanRegen: number;
  kintonRegen: number;
  /** Cells where a bean or a cloud lives (they never move), and which it is. */
  spotCell: Int32Array;
  spotIsBean: Uint8Array;
  /** Cell → spot index, or -1. */
  spotAt: Int16Array;
  /** [spot * rounds + index] = the round index its item was taken, or -1 while it is there. */
  takenAt: Int16Array;
  /** Cell edges in pixels for the last drawing size, snapped so neighbouring rocks leave no seams. */
  xs: Float64Array;
  ys: Float64Array;
  width: number;
  height: number;
}

const preps = new WeakMap<Replay<BdFrame>, Prep>();

function frameOf(round: ReplayRound<BdFrame>): BdFrame {
  return round.frame;
}

function num(config: Record<string, unknown>, key: string, fallback: number): number {
  const v = config[key];
  return typeof v === 'number' && v > 0 ? v : fallback;
}

function prepare(replay: Replay<BdFrame>): Prep {
  let p = preps.get(replay);
  if (p) return p;
  const first = frameOf(replay.rounds[0]!);
  const { rows, cols } = first;
  const cells: number[] = [];
  const beans: number[] = [];
  const spotAt = new Int16Array(rows * cols).fill(-1);
  for (let k = 0; k < first.grid.length; k++) {
    const c = first.grid.charCodeAt(k);
    if (c === BEAN || c === KINTON) {
      spotAt[k] = cells.length;
      cells.push(k);
      beans.push(c === BEAN ? 1 : 0);
    }
  }
  const n = replay.rounds.length;
  const takenAt = new Int16Array(cells.length * n).fill(-1);
  for (let s = 0; s < cells.length; s++) {
    const want = beans[s] ? BEAN : KINTON;
    for (let r = 0; r < n; r++) {
      if (frameOf(replay.rounds[r]!).grid.charCodeAt(cells[s]!) === want) continue;
      const before = r > 0 ? takenAt[s * n + r - 1]! : -1;
      takenAt[s * n + r] = before >= 0 ? before : r;
    }
  }
  const cfg = replay.config;
  p = {
    rows,
    cols,
    maxStrength: num(cfg, 'max_strength', 999),
    kamehamePenalty: num(cfg, 'kamehame_penalty', 700),
    beanRegen: num(cfg, 'bean_regen_time', 60),
    kintonRegen: num(cfg, 'kinton_regen_time', 60),
    spotCell: Int32Array.from(cells),
    spotIsBean: Uint8Array.from(beans),
    spotAt,
    takenAt,
    xs: new Float64Array(cols + 1),
    ys: new Float64Array(rows + 1),
    width: -1,
    height: -1,
  };
  preps.set(replay, p);
  return p;
}

function layout(p: Prep, width: number, height: number): void {
  if (p.width === width && p.height === height) return;
  for (let j = 0; j <= p.cols; j++) p.xs[j] = Math.round((j * width) / p.cols);
  for (let i = 0; i <= p.rows; i++) p.ys[i] = Math.round((i * height) / p.rows);
  p.width = width;
  p.height = height;
}

/**
 * Rounds until a bean or cloud taken in the round of index `taken` shows
 * again: its timer starts at the regen time and already ticks at the end of
 * that round, so it is back at index taken + regen − 1 (0: due, it comes back
 * once no goku or ball is on the cell).
 */
function waitLeft(p: Prep, spot: number, index: number, nRounds: number): number {
  const taken = p.takenAt[spot * nRounds + index]!;
  if (taken < 0) return 0;
  const regen = p.spotIsBean[spot] ? p.beanRegen : p.kintonRegen;
  return Math.max(0, regen - 1 - (index - taken));
}

function playerName(replay: Replay<BdFrame>, seat: number): string {
  return replay.players[seat]?.name ?? W.player(seat + 1);
}

/** Units keep a readable size on a phone, where a 43-column board has 8 px cells. */
function unitSize(cell: number): number {
  return Math.max(cell, 12);
}

/** Where things go on the canvas this frame: cell size, unit size, cell centres and the snapped cell edges. */
interface Board {
  rows: number;
  cols: number;
  cw: number;
  ch: number;
  /** Cell size. */
  s: number;
  /** Unit size. */
  u: number;
  cx: (j: number) => number;
  cy: (i: number) => number;
  xs: Float64Array;
  ys: Float64Array;
}

/** The ground, and the grid's hairlines when cells are large enough. */
function drawGround(ctx: CanvasRenderingContext2D, b: Board, width: number, height: number): void {
  ctx.fillStyle = sp.GROUND;
  ctx.fillRect(0, 0, width, height);
  if (b.s >= 10) {
    // Hairlines as 1 px rectangles on the snapped edges: far cheaper to fill than a stroked path across the board.
    ctx.fillStyle = sp.GRID_LINE;
    for (let j = 1; j < b.cols; j++) ctx.fillRect(b.xs[j]!, 0, 1, height);
    for (let i = 1; i < b.rows; i++) ctx.fillRect(0, b.ys[i]!, width, 1);
  }
}

/** Rocks (lit on top where open ground is above) and the capsules' floor. */
function drawCells(ctx: CanvasRenderingContext2D, b: Board, grid: string): void {
  const { rows, cols, xs, ys } = b;
  for (let i = 0, k = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++, k++) {
      const c = grid.charCodeAt(k);
      if (c === ROCK) sp.rock(ctx, xs[j]!, ys[i]!, xs[j + 1]! - xs[j]!, ys[i + 1]! - ys[i]!, i === 0 || grid.charCodeAt(k - cols) !== ROCK);
      else if (c === CAPSULE) {
        ctx.fillStyle = sp.CAPSULE_CELL;
        ctx.fillRect(xs[j]!, ys[i]!, xs[j + 1]! - xs[j]!, ys[i + 1]! - ys[i]!);
      }
    }
  }
}

/** Beans and clouds taken earlier: faded where they will come back, with how much of the wait has passed. */
function drawRespawning(ctx: CanvasRenderingContext2D, b: Board, p: Prep, index: number, n: number): void {
  for (let spot = 0; spot < p.spotCell.length; spot++) {
    const k = p.spotCell[spot]!;
    if (p.takenAt[spot * n + index]! < 0) continue;
    const regen = p.spotIsBean[spot] ? p.beanRegen : p.kintonRegen;
    const i = Math.floor(k / b.cols);
    const j = k - i * b.cols;
    sp.respawning(ctx, b.cx(j), b.cy(i), b.s, p.spotIsBean[spot] === 1, 1 - waitLeft(p, spot, index, n) / regen);
  }
}

/** Capsules, dragon balls, beans and clouds. */
function drawItems(ctx: CanvasRenderingContext2D, b: Board, grid: string): void {
  const { rows, cols, cx, cy, s } = b;
  for (let i = 0, k = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++, k++) {
      const c = grid.charCodeAt(k);
      if (c === CAPSULE) sp.capsule(ctx, cx(j), cy(i), Math.max(s, 11));
      else if (c === BALL) sp.dragonBall(ctx, cx(j), cy(i), Math.max(s * 0.3, 3.5));
      else if (c === BEAN) sp.bean(ctx, cx(j), cy(i), Math.max(s, 10));
      else if (c === KINTON) sp.cloud(ctx, cx(j), cy(i), Math.max(s, 10));
    }
  }
}

/** Where each living goku came from: a faint trail in its colour. */
function drawTrails(ctx: CanvasRenderingContext2D, b: Board, gokus: readonly number[], pg: readonly number[], colors: readonly string[]): void {
  const { cx, cy } = b;
  const np = Math.floor(gokus.length / GOKU_FIELDS);
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(2, b.s * 0.22);
  for (let q = 0; q < np; q++) {
    const o = q * GOKU_FIELDS;
    if (!gokus[o + G_ALIVE] || !pg[o + G_ALIVE]) continue;
    const di = gokus[o + G_I]! - pg[o + G_I]!;
    const dj = gokus[o + G_J]! - pg[o + G_J]!;
    if (Math.abs(di) + Math.abs(dj) !== 1) continue;
    ctx.strokeStyle = colors[q] ?? '#555555';
    ctx.globalAlpha = 0.35;
    ctx.beginPath();
    ctx.moveTo(cx(pg[o + G_J]!), cy(pg[o + G_I]!));
    ctx.lineTo(cx(gokus[o + G_J]!), cy(gokus[o + G_I]!));
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.lineCap = 'butt';
}

/** This round's Kame Hame rays and combats. */
function drawAttacks(ctx: CanvasRenderingContext2D, b: Board, events: readonly BdEvent[]): void {
  const { cx, cy } = b;
  for (const ev of events) {
    if (ev.e === 'kamehame') {
      // To the far edge of the last cell before the rock.
      const d = DI[ev.d] !== undefined ? ev.d : 0;
      sp.beam(ctx, cx(ev.from[1]), cy(ev.from[0]), cx(ev.to[1]) + DJ[d]! * b.cw * 0.4, cy(ev.to[0]) + DI[d]! * b.ch * 0.4, b.s);
    } else if (ev.e === 'combat') sp.clash(ctx, cx(ev.at[1]), cy(ev.at[0]), b.u);
  }
}

/** The dead gokus where they fell, then the living ones with their strength, ball and cloud. */
function drawGokus(ctx: CanvasRenderingContext2D, b: Board, gokus: readonly number[], p: Prep, colors: readonly string[]): void {
  const { cx, cy, u } = b;
  const np = Math.floor(gokus.length / GOKU_FIELDS);
  for (let q = 0; q < np; q++) {
    const o = q * GOKU_FIELDS;
    if (!gokus[o + G_ALIVE]) sp.deadGoku(ctx, cx(gokus[o + G_J]!), cy(gokus[o + G_I]!), u, colors[q] ?? '#555555');
  }
  const look: sp.GokuLook = { color: '', label: null, strength: 0, ki: false, ball: false, kinton: false };
  for (let q = 0; q < np; q++) {
    const o = q * GOKU_FIELDS;
    if (!gokus[o + G_ALIVE]) continue;
    const t = gokus[o + G_TYPE]!;
    const strength = gokus[o + G_STRENGTH]!;
    look.color = colors[q] ?? '#555555';
    look.label = u >= 15 ? String(q + 1) : null;
    look.strength = strength / p.maxStrength;
    look.ki = strength >= p.kamehamePenalty;
    look.ball = (t & WITH_BALL) !== 0;
    look.kinton = (t & ON_KINTON) !== 0;
    sp.goku(ctx, cx(gokus[o + G_J]!), cy(gokus[o + G_I]!), u, look);
  }
}

/** Rings where a ball was taken or deposited, a goku came back, or a new ball appeared. */
function drawRings(ctx: CanvasRenderingContext2D, b: Board, events: readonly BdEvent[], colors: readonly string[]): void {
  const { cx, cy, u } = b;
  for (const ev of events) {
    if (ev.e === 'take' || ev.e === 'deposit') sp.ring(ctx, cx(ev.at[1]), cy(ev.at[0]), u, colors[ev.p] ?? '#555555', false);
    else if (ev.e === 'resurrect') sp.ring(ctx, cx(ev.at[1]), cy(ev.at[0]), u, colors[ev.p] ?? '#555555', true);
    else if (ev.e === 'ball') sp.ring(ctx, cx(ev.at[1]), cy(ev.at[0]), u, '#e07000', true);
  }
}

function draw(args: DrawArgs<BdFrame>): void {
  const { ctx, width, height, replay, index, round, prev, colors } = args;
  const p = prepare(replay);
  layout(p, width, height);
  const f = frameOf(round);
  const { rows, cols } = f;
  const cw = width / cols;
  const ch = height / rows;
  const s = Math.min(cw, ch);
  const b: Board = { rows, cols, cw, ch, s, u: unitSize(s), cx: (j) => (j + 0.5) * cw, cy: (i) => (i + 0.5) * ch, xs: p.xs, ys: p.ys };
  const events = round.events as BdEvent[];
  drawGround(ctx, b, width, height);
  drawCells(ctx, b, f.grid);
  drawRespawning(ctx, b, p, index, replay.rounds.length);
  drawItems(ctx, b, f.grid);
  if (prev) drawTrails(ctx, b, f.gokus, frameOf(prev).gokus, colors);
  drawAttacks(ctx, b, events);
  drawGokus(ctx, b, f.gokus, p, colors);
  drawRings(ctx, b, events, colors);
}

function describeCell(args: DrawArgs<BdFrame>, row: number, col: number): string | null {
  const { replay, round, index } = args;
  const p = prepare(replay);
  const f = frameOf(round);
  if (row < 0 || col < 0 || row >= f.rows || col >= f.cols) return null;
  const k = row * f.cols + col;
  const parts: string[] = [];
  const c = f.grid.charCodeAt(k);
  let cell = CELL_NAMES[c] ?? W.unknown;
  const spot = p.spotAt[k]!;
  if (spot >= 0 && p.takenAt[spot * replay.rounds.length + index]! >= 0) {
    const what = p.spotIsBean[spot] ? W.cells.bean : W.cells.kinton;
    const left = waitLeft(p, spot, index, replay.rounds.length);
    const when = left > 0 ? W.backIn(left) : W.backWhenFree;
    cell += c === BALL ? W.spot(what, when) : ` (${what} ${when})`;
  }
  parts.push(`(${row}, ${col}) ${cell}`);
  const g = f.gokus;
  // The living goku first: a dead one only marks where it fell.
  for (const wantAlive of [1, 0]) {
    for (let q = 0; q * GOKU_FIELDS < g.length; q++) {
      const o = q * GOKU_FIELDS;
      if (g[o + G_I] !== row || g[o + G_J] !== col || g[o + G_ALIVE] !== wantAlive) continue;
      const who = W.goku(playerName(replay, q));
      const balls = g[o + G_BALLS]!;
      const deposited = W.deposited(balls);
      if (wantAlive) {
        const t = g[o + G_TYPE]!;
        let text = `${who}, ${W.strength(g[o + G_STRENGTH]!)}`;
        if (t & WITH_BALL) text += W.carrying;
        if (t & ON_KINTON) text += W.onKinton(g[o + G_KINTON]!);
        parts.push(`${text}, ${deposited}`);
      } else {
        const time = g[o + G_TIME]!;
        // The timer ticks at the end of each round; a goku revives once it is 0, at the end of an odd round only.
        const back = round.frozen[q] ? W.frozen : W.revives(Math.max(1, time));
        parts.push(`${who}, ${W.dead(back)}, ${deposited}`);
      }
    }
  }
  return parts.join('; ');
}

function boardSize(replay: Replay<BdFrame>): { rows: number; cols: number } {
  const f = frameOf(replay.rounds[0]!);
  return { rows: f.rows, cols: f.cols };
}

/** A swatch as one cell of the board: the ground, then the picture centred in it. */
function cellSwatch(picture: (ctx: CanvasRenderingContext2D, s: number, colors: readonly string[]) => void): LegendItem['swatch'] {
  return (ctx, size, colors) => {
    ctx.fillStyle = sp.GROUND;
    ctx.fillRect(0, 0, size, size);
    picture(ctx, size, colors);
  };
}

function lookOf(colors: readonly string[], over: Partial<sp.GokuLook>): sp.GokuLook {
  return { color: colors[0] ?? '#555555', label: null, strength: 0.6, ki: false, ball: false, kinton: false, ...over };
}

const legend: LegendItem[] = [
  { label: W.legend.rock, swatch: (ctx, s) => sp.rock(ctx, 0, 0, s, s, true) },
  { label: W.legend.empty, swatch: cellSwatch(() => {}) },
  {
    label: W.legend.capsule,
    swatch: (ctx, s) => {
      ctx.fillStyle = sp.CAPSULE_CELL;
      ctx.fillRect(0, 0, s, s);
      sp.capsule(ctx, s / 2, s / 2, s);
    },
  },
  { label: W.legend.ball, swatch: cellSwatch((ctx, s) => sp.dragonBall(ctx, s / 2, s / 2, s * 0.3)) },
  { label: W.legend.bean, swatch: cellSwatch((ctx, s) => sp.bean(ctx, s / 2, s / 2, s)) },
  { label: W.legend.kinton, swatch: cellSwatch((ctx, s) => sp.cloud(ctx, s / 2, s / 2, s)) },
  { label: W.legend.respawning, swatch: cellSwatch((ctx, s) => sp.respawning(ctx, s / 2, s / 2, s, true, 0.6)) },
  { label: W.legend.goku, swatch: cellSwatch((ctx, s, colors) => sp.goku(ctx, s / 2, s / 2, s, lookOf(colors, {}))) },
  { label: W.legend.ki, swatch: cellSwatch((ctx, s, colors) => sp.goku(ctx, s / 2, s / 2, s, lookOf(colors, { strength: 0.9, ki: true }))) },
  { label: W.legend.withBall, swatch: cellSwatch((ctx, s, colors) => sp.goku(ctx, s / 2, s / 2, s, lookOf(colors, { ball: true }))) },
  { label: W.legend.onKinton, swatch: cellSwatch((ctx, s, colors) => sp.goku(ctx, s / 2, s * 0.38, s * 0.8, lookOf(colors, { kinton: true }))) },
  { label: W.legend.deadGoku, swatch: cellSwatch((ctx, s, colors) => sp.deadGoku(ctx, s / 2, s / 2, s, colors[0] ?? '#555555')) },
  { label: W.legend.kameHame, swatch: cellSwatch((ctx, s) => sp.beam(ctx, s * 0.3, s / 2, s * 0.7, s / 2, s)) },
  { label: W.legend.fight, swatch: cellSwatch((ctx, s) => sp.clash(ctx, s / 2, s / 2, s * 0.6)) },
  { label: W.legend.ring, swatch: cellSwatch((ctx, s, colors) => sp.ring(ctx, s / 2, s / 2, s * 0.85, colors[0] ?? '#555555', false)) },
];

const view: GameView<BdFrame> = {
  boardSize,
  draw,
  counterLabels: W.counters,
  legend,
  describeCell,
};

export default view;
