// Moria's board for the one viewer: the cells of the statement (outside, cave,
// abyss, granite, rock being dug), caves tinted by the clan that conquered
// them, treasures, dwarves and wizards in their clan's colour, Sauron's orcs,
// trolls and Balrog, and what happened this round (attacks, deaths, captures,
// treasures picked). Drawn with one path per colour so a 60 × 60 board takes
// a few milliseconds at 32 rounds per second.

import type { DrawArgs, GameView, LegendItem, Replay } from '../../sdk/viewer/game-view.ts';
import { NEUTRAL_COLOR } from '../../sdk/viewer/game-view.ts';
import { pathDiamond } from '../../sdk/viewer/paths.ts';
import { wordsFor } from '../../sdk/viewer/lang.ts';
import { MORIA_WORDS } from './viewer-words.ts';
import {
  CELL_CAVE,
  CELL_GRANITE,
  CELL_NAMES,
  CELL_ROCK,
  UT,
  cellKind,
  cellOwner,
  cellTreasure,
  emptyMarks,
  frameOf,
  maxHealth,
  rockHitsLeft,
  rockResistance,
  roundMarks,
  unitKinds,
  type MoriaFrame,
  type RoundMarks,
} from './viewer/frame.ts';

/** The words of the page's language (the statement's own). */
const W = wordsFor(MORIA_WORDS);

const OUTSIDE = '#dde4e9';
const CAVE = '#ede3cd';
const ABYSS = '#110d17';
const GRANITE = '#5e6a78';
const GRANITE_FLECK = '#a3adb8';
const ROCK = '#8b6946';
/** The hole dwarves dig into a rock: it grows with every hit until the rock opens. */
const DUG_HOLE = '#d2bd9b';
const GOLD = '#ffd21f';
const GOLD_EDGE = '#5c4300';
const OUTLINE = '#161616';
const BALROG_BODY = '#1c1410';
const BALROG_FIRE = '#ff6a13';
const BALROG_REACH = 'rgba(255, 106, 19, 0.16)';
const BALROG_REACH_EDGE = 'rgba(170, 50, 0, 0.85)';
/** How much of the clan's colour shows on a conquered cave. */
const TINT = 0.5;

// Terrain keys, one colour each: the cell kinds, then caves conquered by clan 0-3.
const K_OWNED = 5;
const NB_KEYS = 9;
const TERRAIN: readonly string[] = [OUTSIDE, CAVE, ABYSS, GRANITE, ROCK];

// Reused between draws: no allocation per cell or per frame once warm.
let keys: Uint8Array = new Uint8Array(0);
let xs = new Float64Array(0);
let ys = new Float64Array(0);
let kinds: Uint8Array = new Uint8Array(0);
let kindsOf = '';
const marks = emptyMarks();
let marksReplay: Replay<MoriaFrame> | null = null;
let marksIndex = -1;

/** Conquered-cave colours: the cave mixed with each clan's colour (null where a colour is not #rgb / #rrggbb: drawn with alpha). */
let tints: (string | null)[] = [];
let tintsOf: readonly string[] | null = null;

function hexRgb(c: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c);
  if (!m) return null;
  const h = m[1]!.length === 3 ? m[1]!.replace(/./g, '$&$&') : m[1]!;
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

function tintsFor(colors: readonly string[]): (string | null)[] {
  if (colors !== tintsOf) {
    const base = hexRgb(CAVE)!;
    tints = [0, 1, 2, 3].map((seat) => {
      const c = hexRgb(clanColor(colors, seat));
      if (!c) return null;
      const mix = (k: number) => Math.round(base[k]! * (1 - TINT) + c[k]! * TINT);
      return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
    });
    tintsOf = colors;
  }
  return tints;
}

function kindsFor(f: MoriaFrame): Uint8Array {
  if (f.unitTypes !== kindsOf) {
    kinds = unitKinds(f);
    kindsOf = f.unitTypes;
  }
  return kinds;
}

function marksFor(args: DrawArgs<MoriaFrame>): RoundMarks {
  if (args.replay !== marksReplay || args.index !== marksIndex) {
    roundMarks(args.replay, args.index, marks);
    marksReplay = args.replay;
    marksIndex = args.index;
  }
  return marks;
}

// Shapes, added to the current path around a cell centre, s = cell size.

function pathDwarf(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  const r = 0.36 * s;
  ctx.moveTo(cx + r, cy);
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
}

/** A pointed hat. */
function pathWizard(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  ctx.moveTo(cx, cy - 0.44 * s);
  ctx.lineTo(cx + 0.4 * s, cy + 0.36 * s);
  ctx.lineTo(cx - 0.4 * s, cy + 0.36 * s);
  ctx.closePath();
}

function pathOrc(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  pathDiamond(ctx, cx, cy, 0.42 * s);
}

function pathTroll(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  const h = 0.4 * s;
  ctx.rect(cx - h, cy - h, 2 * h, 2 * h);
}

/** An eight-pointed star, a little larger than its cell. */
const STAR: number[] = [];
for (let k = 0; k < 16; k++) {
  const r = k % 2 === 0 ? 0.58 : 0.3;
  const a = (k * Math.PI) / 8 - Math.PI / 2;
  STAR.push(r * Math.cos(a), r * Math.sin(a));
}
function pathBalrog(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  ctx.moveTo(cx + STAR[0]! * s, cy + STAR[1]! * s);
  for (let k = 2; k < STAR.length; k += 2) ctx.lineTo(cx + STAR[k]! * s, cy + STAR[k + 1]! * s);
  ctx.closePath();
}

const UNIT_PATHS = [pathDwarf, pathWizard, pathOrc, pathTroll, pathBalrog] as const;

function strokeOutline(ctx: CanvasRenderingContext2D, s: number) {
  ctx.lineWidth = Math.max(0.6, s * 0.08);
  ctx.strokeStyle = OUTLINE;
  ctx.stroke();
}

function drawBalrog(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  ctx.beginPath();
  pathBalrog(ctx, cx, cy, s);
  ctx.fillStyle = BALROG_BODY;
  ctx.fill();
  ctx.lineWidth = Math.max(0.8, s * 0.09);
  ctx.strokeStyle = BALROG_FIRE;
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(cx, cy, 0.17 * s, 0, 2 * Math.PI);
  ctx.fillStyle = BALROG_FIRE;
  ctx.fill();
}

/** The 3 × 3 cells where everything dies, under the Balrog. */
function drawBalrogReach(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, s: number) {
  ctx.fillStyle = BALROG_REACH;
  ctx.fillRect(x, y, w, h);
  ctx.lineWidth = Math.max(0.8, s * 0.08);
  ctx.strokeStyle = BALROG_REACH_EDGE;
  ctx.setLineDash([Math.max(2, s * 0.3), Math.max(1.5, s * 0.2)]);
  ctx.strokeRect(x, y, w, h);
  ctx.setLineDash([]);
}

/** A treasure: a small gold chest, square so it is never taken for the yellow clan's round dwarves. */
function fillChest(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  const w = Math.max(2.4, 0.5 * s);
  const h = 0.8 * w;
  const e = Math.max(0.6, 0.07 * s);
  ctx.fillStyle = GOLD_EDGE;
  ctx.fillRect(cx - w / 2 - e, cy - h / 2 - e, w + 2 * e, h + 2 * e);
  ctx.fillStyle = GOLD;
  ctx.fillRect(cx - w / 2, cy - h / 2, w, h);
}

function fillFlecks(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number) {
  const d = Math.max(1, 0.18 * Math.min(w, h));
  ctx.fillRect(x + 0.2 * w, y + 0.24 * h, d, d);
  ctx.fillRect(x + 0.6 * w, y + 0.58 * h, d, d);
}

/** The hole in a rock dug `done` times out of `resistance`. */
function fillHole(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, done: number, resistance: number) {
  const f = 0.15 + (0.6 * (done - 1)) / Math.max(1, resistance - 1);
  const hw = Math.max(1, f * w);
  const hh = Math.max(1, f * h);
  ctx.fillRect(x + (w - hw) / 2, y + (h - hh) / 2, hw, hh);
}

function pathCross(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) {
  const r = 0.3 * s;
  ctx.moveTo(cx - r, cy - r);
  ctx.lineTo(cx + r, cy + r);
  ctx.moveTo(cx + r, cy - r);
  ctx.lineTo(cx - r, cy + r);
}

/** A death mark: a cross in the dead unit's colour over a dark one, readable on any cell. */
function strokeCross(ctx: CanvasRenderingContext2D, s: number, color: string) {
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1.6, s * 0.2);
  ctx.strokeStyle = OUTLINE;
  ctx.stroke();
  ctx.lineWidth = Math.max(0.8, s * 0.1);
  ctx.strokeStyle = color;
  ctx.stroke();
  ctx.lineCap = 'butt';
}

function healthColor(frac: number): string {
  return frac > 0.6 ? '#4cd964' : frac > 0.3 ? '#ffcc00' : '#ff3b30';
}

const clanColor = (colors: readonly string[], seat: number): string => (seat >= 0 ? (colors[seat] ?? NEUTRAL_COLOR) : NEUTRAL_COLOR);

/** Fills the runs of cells with this key, one fillRect per run (the canvas' fast path). */
function fillRuns(ctx: CanvasRenderingContext2D, key: number, rows: number, cols: number) {
  for (let i = 0; i < rows; i++) {
    const row = i * cols;
    let j = 0;
    while (j < cols) {
      if (keys[row + j] !== key) {
        j++;
        continue;
      }
      let k = j + 1;
      while (k < cols && keys[row + k] === key) k++;
      ctx.fillRect(xs[j]!, ys[i]!, xs[k]! - xs[j]!, ys[i + 1]! - ys[i]!);
      j = k;
    }
  }
}

function boardSize(replay: Replay<MoriaFrame>): { rows: number; cols: number } {
  const f = frameOf(replay.rounds[0]!);
  return { rows: f.rows, cols: f.cols };
}

/** The board's geometry for one drawing: cell edges on whole pixels (xs, ys), cell size, centres. */
interface Grid {
  rows: number;
  cols: number;
  n: number;
  cw: number;
  ch: number;
  /** The smaller side of a cell. */
  s: number;
  cx(p: number): number;
  cy(p: number): number;
}

function gridFor(rows: number, cols: number, width: number, height: number): Grid {
  const n = rows * cols;
  if (keys.length < n) keys = new Uint8Array(n);
  if (xs.length < cols + 1) xs = new Float64Array(cols + 1);
  if (ys.length < rows + 1) ys = new Float64Array(rows + 1);
  // Cell edges on whole pixels, so neighbouring cells leave no seams.
  const cw = width / cols;
  const ch = height / rows;
  for (let j = 0; j <= cols; j++) xs[j] = Math.round(j * cw);
  for (let i = 0; i <= rows; i++) ys[i] = Math.round(i * ch);
  return {
    rows,
    cols,
    n,
    cw,
    ch,
    s: Math.min(cw, ch),
    cx: (p) => (xs[p % cols]! + xs[(p % cols) + 1]!) / 2,
    cy: (p) => (ys[Math.floor(p / cols)]! + ys[Math.floor(p / cols) + 1]!) / 2,
  };
}

/** Calls fn with the pixel box of every cell that passes `test`. */
function eachCell(g: Grid, test: (p: number) => boolean, fn: (p: number, x: number, y: number, w: number, h: number) => void) {
  for (let p = 0; p < g.n; p++) {
    if (!test(p)) continue;
    const i = Math.floor(p / g.cols);
    const j = p - i * g.cols;
    fn(p, xs[j]!, ys[i]!, xs[j + 1]! - xs[j]!, ys[i + 1]! - ys[i]!);
  }
}

/** Sorts every cell into its drawing key (keys[]); says which keys occur and how many treasures and dug rocks there are. */
function classifyCells(grid: string, n: number, res: number): { present: number; treasures: number; dug: number } {
  let present = 0;
  let treasures = 0;
  let dug = 0;
  for (let p = 0; p < n; p++) {
    const code = grid.charCodeAt(p);
    let key = cellKind(code);
    if (key === CELL_CAVE) {
      const o = cellOwner(code);
      if (o >= 0 && o < 4) key = K_OWNED + o;
      else if (cellTreasure(code)) treasures++;
    } else if (key === CELL_ROCK && rockHitsLeft(code, res) < res) dug++;
    keys[p] = key;
    present |= 1 << key;
  }
  return { present, treasures, dug };
}

/** Terrain: one fill per kind of cell, owned caves tinted with their clan's colour. */
function drawTerrain(ctx: CanvasRenderingContext2D, g: Grid, present: number, colors: readonly string[]) {
  const tint = tintsFor(colors);
  for (let key = 0; key < NB_KEYS; key++) {
    if (!(present & (1 << key))) continue;
    if (key < K_OWNED) ctx.fillStyle = TERRAIN[key]!;
    else {
      const t = tint[key - K_OWNED];
      if (t) ctx.fillStyle = t;
      else {
        ctx.fillStyle = CAVE;
        fillRuns(ctx, key, g.rows, g.cols);
        ctx.globalAlpha = TINT;
        ctx.fillStyle = clanColor(colors, key - K_OWNED);
      }
    }
    fillRuns(ctx, key, g.rows, g.cols);
    ctx.globalAlpha = 1;
  }
}

/** Textures: granite flecks, holes in rock being dug, treasures. */
function drawTextures(ctx: CanvasRenderingContext2D, g: Grid, grid: string, res: number, cells: { present: number; treasures: number; dug: number }) {
  if (g.s >= 5 && cells.present & (1 << CELL_GRANITE)) {
    ctx.fillStyle = GRANITE_FLECK;
    eachCell(
      g,
      (p) => keys[p] === CELL_GRANITE,
      (_p, x, y, w, h) => fillFlecks(ctx, x, y, w, h),
    );
  }
  if (cells.dug > 0) {
    ctx.fillStyle = DUG_HOLE;
    eachCell(
      g,
      (p) => keys[p] === CELL_ROCK && rockHitsLeft(grid.charCodeAt(p), res) < res,
      (p, x, y, w, h) => fillHole(ctx, x, y, w, h, res - rockHitsLeft(grid.charCodeAt(p), res), res),
    );
  }
  if (cells.treasures > 0)
    eachCell(
      g,
      (p) => cellTreasure(grid.charCodeAt(p)),
      (_p, x, y, w, h) => fillChest(ctx, x + w / 2, y + h / 2, g.s),
    );
}

/** The Balrog's deadly reach, under everything else; returns the Balrog's cell (-1: none). */
function drawBalrogArea(ctx: CanvasRenderingContext2D, g: Grid, units: readonly number[], uk: Uint8Array): number {
  let balrog = -1;
  for (let id = uk.length - 1; id >= 0 && balrog < 0; id--) if (uk[id] === UT.Balrog) balrog = id;
  const bp = balrog >= 0 ? units[3 * balrog + 2]! : -1;
  if (bp >= 0) {
    const bi = Math.floor(bp / g.cols);
    const bj = bp % g.cols;
    const i0 = Math.max(0, bi - 1);
    const i1 = Math.min(g.rows, bi + 2);
    const j0 = Math.max(0, bj - 1);
    const j1 = Math.min(g.cols, bj + 2);
    drawBalrogReach(ctx, xs[j0]!, ys[i0]!, xs[j1]! - xs[j0]!, ys[i1]! - ys[i0]!, g.s);
  }
  return bp;
}

/** Units, one path per kind and clan; a little larger on phone-sized cells to stay legible. */
function drawUnits(
  ctx: CanvasRenderingContext2D,
  g: Grid,
  units: readonly number[],
  uk: Uint8Array,
  colors: readonly string[],
  nbSeats: number,
  balrogAt: number,
) {
  const us = g.s < 8 ? g.s * 1.15 : g.s;
  for (let kind = UT.Dwarf; kind <= UT.Troll; kind++) {
    const clans = kind === UT.Dwarf || kind === UT.Wizard;
    for (let seat = clans ? 0 : -1; seat < (clans ? nbSeats : 0); seat++) {
      ctx.beginPath();
      let any = false;
      for (let id = 0; id < uk.length; id++) {
        const p = units[3 * id + 2]!;
        if (p < 0 || uk[id] !== kind || (clans && units[3 * id] !== seat)) continue;
        UNIT_PATHS[kind](ctx, g.cx(p), g.cy(p), us);
        any = true;
      }
      if (!any) continue;
      ctx.fillStyle = clanColor(colors, seat);
      ctx.fill();
      strokeOutline(ctx, us);
    }
  }
  if (balrogAt >= 0) drawBalrog(ctx, g.cx(balrogAt), g.cy(balrogAt), us);
}

/** Attacks: a slash from the attacker's edge into its victim, over both. */
function drawAttacks(ctx: CanvasRenderingContext2D, g: Grid, attacks: readonly number[]) {
  if (g.s < 6 || attacks.length === 0) return;
  ctx.beginPath();
  for (let k = 0; k < attacks.length; k += 2) {
    const ax = g.cx(attacks[k]!);
    const ay = g.cy(attacks[k]!);
    const dx = g.cx(attacks[k + 1]!) - ax;
    const dy = g.cy(attacks[k + 1]!) - ay;
    ctx.moveTo(ax + 0.3 * dx, ay + 0.3 * dy);
    ctx.lineTo(ax + 0.8 * dx, ay + 0.8 * dy);
  }
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1.5, g.s * 0.16);
  ctx.strokeStyle = 'rgba(20, 20, 20, 0.55)';
  ctx.stroke();
  ctx.lineWidth = Math.max(0.7, g.s * 0.07);
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.stroke();
  ctx.lineCap = 'butt';
}

/** Health of hurt units, when cells are big enough to read a bar. */
function drawHealth(ctx: CanvasRenderingContext2D, g: Grid, units: readonly number[], uk: Uint8Array) {
  if (g.s < 7) return;
  const bh = Math.max(1.5, Math.round(g.s * 0.14));
  for (let id = 0; id < uk.length; id++) {
    const p = units[3 * id + 2]!;
    const max = maxHealth(uk[id]!);
    const h = units[3 * id + 1]!;
    if (p < 0 || max <= 0 || h >= max) continue;
    const x = xs[p % g.cols]! + 0.1 * g.cw;
    const w = 0.8 * g.cw;
    const y = ys[Math.floor(p / g.cols) + 1]! - bh - 0.5;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
    ctx.fillRect(x - 0.5, y - 0.5, w + 1, bh + 1);
    ctx.fillStyle = healthColor(h / max);
    ctx.fillRect(x, y, (w * Math.max(0, h)) / max, bh);
  }
}

/** This round's captures (ringed in the former clan's colour), treasures picked (a gold ring) and deaths (a cross). */
function drawRoundMarks(ctx: CanvasRenderingContext2D, g: Grid, m: RoundMarks, units: readonly number[], colors: readonly string[]) {
  const { s } = g;
  if (m.captured.length > 0) {
    ctx.lineWidth = Math.max(1, s * 0.12);
    for (let k = 0; k < m.captured.length; k += 2) {
      const p = units[3 * m.captured[k]! + 2]!;
      if (p < 0) continue;
      ctx.beginPath();
      ctx.arc(g.cx(p), g.cy(p), 0.52 * s, 0, 2 * Math.PI);
      ctx.strokeStyle = clanColor(colors, m.captured[k + 1]!);
      ctx.stroke();
    }
  }
  if (m.gold.length > 0) {
    ctx.beginPath();
    for (const p of m.gold) {
      ctx.moveTo(g.cx(p) + 0.5 * s, g.cy(p));
      ctx.arc(g.cx(p), g.cy(p), 0.5 * s, 0, 2 * Math.PI);
    }
    ctx.lineWidth = Math.max(1, s * 0.12);
    ctx.strokeStyle = GOLD;
    ctx.stroke();
  }
  for (let k = 0; k < m.deaths.length; k += 4) {
    const p = m.deaths[k]!;
    ctx.beginPath();
    pathCross(ctx, g.cx(p), g.cy(p), Math.max(s, 5));
    strokeCross(ctx, s, clanColor(colors, m.deaths[k + 1]!));
  }
}

function draw(args: DrawArgs<MoriaFrame>): void {
  const { ctx, width, height, colors } = args;
  const f = frameOf(args.round);
  const g = gridFor(f.rows, f.cols, width, height);
  const res = rockResistance(args.replay);
  const cells = classifyCells(f.grid, g.n, res);
  const uk = kindsFor(f);
  ctx.save();
  drawTerrain(ctx, g, cells.present, colors);
  drawTextures(ctx, g, f.grid, res, cells);
  const balrogAt = drawBalrogArea(ctx, g, f.units, uk);
  drawUnits(ctx, g, f.units, uk, colors, args.replay.players.length, balrogAt);
  const m = marksFor(args);
  drawAttacks(ctx, g, m.attacks);
  drawHealth(ctx, g, f.units, uk);
  drawRoundMarks(ctx, g, m, f.units, colors);
  ctx.restore();
}

function playerName(replay: Replay<MoriaFrame>, seat: number): string {
  const name = replay.players[seat]?.name ?? W.player(seat);
  // Two seats with the same bot: say which.
  const twin = replay.players.some((p, k) => k !== seat && p.name === name);
  return twin ? `${name} (${W.player(seat)})` : name;
}

function unitText(replay: Replay<MoriaFrame>, kind: number, player: number, health: number): string {
  if (kind === UT.Balrog) return W.theBalrog;
  const who = kind === UT.Dwarf || kind === UT.Wizard ? W.unitOf(W.units[kind]!, playerName(replay, player)) : W.units[kind]!;
  return `${who}, ${W.hp(health, maxHealth(kind))}`;
}

function describeCell(args: DrawArgs<MoriaFrame>, row: number, col: number): string | null {
  const f = frameOf(args.round);
  if (row < 0 || col < 0 || row >= f.rows || col >= f.cols) return null;
  const { replay } = args;
  const p = row * f.cols + col;
  const code = f.grid.charCodeAt(p);
  const kind = cellKind(code);
  let text = `(${row}, ${col}) ${W.cells[kind] ?? CELL_NAMES[kind]}`;
  const owner = cellOwner(code);
  if (owner >= 0) text += W.conqueredBy(playerName(replay, owner));
  if (cellTreasure(code)) text += W.treasure;
  if (kind === CELL_ROCK) {
    const res = rockResistance(replay);
    const left = rockHitsLeft(code, res);
    if (left < res) text += W.dug(res - left, res);
  }
  const uk = kindsFor(f);
  const m = marksFor(args);
  for (let id = 0; id < uk.length; id++) {
    if (f.units[3 * id + 2] !== p) continue;
    text += `; ${unitText(replay, uk[id]!, f.units[3 * id]!, f.units[3 * id + 1]!)}`;
    for (let k = 0; k < m.captured.length; k += 2) if (m.captured[k] === id) text += W.capturedFrom(playerName(replay, m.captured[k + 1]!));
    break;
  }
  for (let k = 0; k < m.deaths.length; k += 4) {
    if (m.deaths[k] !== p) continue;
    const dk = m.deaths[k + 2]!;
    const who = dk === UT.Dwarf || dk === UT.Wizard ? W.unitOf(W.units[dk]!, playerName(replay, m.deaths[k + 1]!)) : W.units[dk]!;
    text += `; ${W.diedHere(who, dk === UT.Orc ? 'orc' : 'other')}`;
  }
  return text;
}

// Legend swatches, drawn with the board's own functions.

function cellSwatch(color: string) {
  return (ctx: CanvasRenderingContext2D, size: number) => {
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, size, size);
  };
}

function unitSwatch(kind: number) {
  return (ctx: CanvasRenderingContext2D, size: number, colors: readonly string[]) => {
    ctx.fillStyle = CAVE;
    ctx.fillRect(0, 0, size, size);
    const c = size / 2;
    if (kind === UT.Balrog) return drawBalrog(ctx, c, c, size * 0.8);
    ctx.beginPath();
    UNIT_PATHS[kind]!(ctx, c, c, size);
    ctx.fillStyle = kind === UT.Dwarf || kind === UT.Wizard ? clanColor(colors, 0) : NEUTRAL_COLOR;
    ctx.fill();
    strokeOutline(ctx, size);
  };
}

/** A legend swatch: a dwarf on a cell, in a ring of radius radius × its size. */
function ringedDwarf(ctx: CanvasRenderingContext2D, size: number, ground: string, color: string, radius: number, ring: string): void {
  ctx.fillStyle = ground;
  ctx.fillRect(0, 0, size, size);
  const c = size / 2;
  ctx.beginPath();
  pathDwarf(ctx, c, c, size * 0.8);
  ctx.fillStyle = color;
  ctx.fill();
  strokeOutline(ctx, size * 0.8);
  ctx.beginPath();
  ctx.arc(c, c, radius * size * 0.8, 0, 2 * Math.PI);
  ctx.lineWidth = Math.max(1, size * 0.1);
  ctx.strokeStyle = ring;
  ctx.stroke();
}

const legend: LegendItem[] = [
  { label: W.legend.outside, swatch: cellSwatch(OUTSIDE) },
  { label: W.legend.cave, swatch: cellSwatch(CAVE) },
  {
    label: W.legend.conquered,
    swatch(ctx, size, colors) {
      const h = size / 2;
      const tint = tintsFor(colors);
      for (let q = 0; q < 4; q++) {
        const x = (q % 2) * h;
        const y = Math.floor(q / 2) * h;
        ctx.fillStyle = tint[q] ?? CAVE;
        ctx.fillRect(x, y, h, h);
        if (tint[q]) continue;
        ctx.globalAlpha = TINT;
        ctx.fillStyle = clanColor(colors, q);
        ctx.fillRect(x, y, h, h);
        ctx.globalAlpha = 1;
      }
    },
  },
  {
    label: W.legend.treasure,
    swatch(ctx, size) {
      ctx.fillStyle = CAVE;
      ctx.fillRect(0, 0, size, size);
      fillChest(ctx, size / 2, size / 2, size);
    },
  },
  { label: W.legend.rock, swatch: cellSwatch(ROCK) },
  {
    label: W.legend.rockDug,
    swatch(ctx, size) {
      ctx.fillStyle = ROCK;
      ctx.fillRect(0, 0, size, size);
      ctx.fillStyle = DUG_HOLE;
      fillHole(ctx, 0, 0, size, size, 3, 5);
    },
  },
  {
    label: W.legend.granite,
    swatch(ctx, size) {
      ctx.fillStyle = GRANITE;
      ctx.fillRect(0, 0, size, size);
      ctx.fillStyle = GRANITE_FLECK;
      fillFlecks(ctx, 0, 0, size, size);
    },
  },
  { label: W.legend.abyss, swatch: cellSwatch(ABYSS) },
  { label: W.legend.dwarf, swatch: unitSwatch(UT.Dwarf) },
  { label: W.legend.wizard, swatch: unitSwatch(UT.Wizard) },
  { label: W.legend.orc, swatch: unitSwatch(UT.Orc) },
  { label: W.legend.troll, swatch: unitSwatch(UT.Troll) },
  { label: W.legend.balrog, swatch: unitSwatch(UT.Balrog) },
  {
    label: W.legend.balrogReach,
    swatch(ctx, size) {
      ctx.fillStyle = CAVE;
      ctx.fillRect(0, 0, size, size);
      drawBalrogReach(ctx, 1, 1, size - 2, size - 2, size / 3);
    },
  },
  {
    label: W.legend.health,
    swatch(ctx, size, colors) {
      unitSwatch(UT.Dwarf)(ctx, size, colors);
      const bh = Math.max(2, Math.round(size * 0.14));
      ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
      ctx.fillRect(0.1 * size - 0.5, size - bh - 1, 0.8 * size + 1, bh + 1);
      ctx.fillStyle = healthColor(0.45);
      ctx.fillRect(0.1 * size, size - bh - 0.5, 0.8 * size * 0.45, bh);
    },
  },
  {
    label: W.legend.attack,
    swatch(ctx, size) {
      ctx.fillStyle = CAVE;
      ctx.fillRect(0, 0, size, size);
      ctx.beginPath();
      ctx.moveTo(size * 0.15, size * 0.85);
      ctx.lineTo(size * 0.85, size * 0.15);
      ctx.lineCap = 'round';
      ctx.lineWidth = Math.max(1.5, size * 0.16);
      ctx.strokeStyle = 'rgba(20, 20, 20, 0.55)';
      ctx.stroke();
      ctx.lineWidth = Math.max(0.7, size * 0.07);
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.stroke();
      ctx.lineCap = 'butt';
    },
  },
  {
    label: W.legend.killed,
    swatch(ctx, size, colors) {
      ctx.fillStyle = CAVE;
      ctx.fillRect(0, 0, size, size);
      ctx.beginPath();
      pathCross(ctx, size / 2, size / 2, size);
      strokeCross(ctx, size, clanColor(colors, 0));
    },
  },
  {
    label: W.legend.captured,
    swatch: (ctx, size, colors) => ringedDwarf(ctx, size, OUTSIDE, clanColor(colors, 1), 0.52, clanColor(colors, 0)),
  },
  {
    label: W.legend.treasurePicked,
    swatch: (ctx, size, colors) => ringedDwarf(ctx, size, CAVE, clanColor(colors, 0), 0.5, GOLD),
  },
];

const view: GameView<MoriaFrame> = {
  boardSize,
  draw,
  counterLabels: W.counters,
  legend,
  describeCell,
};

export default view;
