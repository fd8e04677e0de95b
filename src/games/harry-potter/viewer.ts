// Harry Potter's board for the one replay viewer (contract:
// src/sdk/viewer/game-view.ts). Hogwarts' corridors on parchment,
// walls in dark stone, cells tinted with their clan's colour, books, each
// clan's wizards (round) and ghost (ghost-shaped), wizards being converted
// (a pie that fills with the new clan's colour), Voldemort with the 3×3
// square he attacks, and this round's battles, clan changes, kills and spells.
//
// Browser code: it reads only the replay (frame() in index.ts) and imports
// nothing that needs Node.

import type { DrawArgs, GameView, LegendItem, Replay, ReplayRound } from '../../sdk/viewer/game-view.ts';
import { strokeOutlined } from '../../sdk/viewer/paths.ts';

import { GHOST, WIZARD, type HPFrame } from './frame.ts';
import { wordsFor } from '../../sdk/viewer/lang.ts';
import { HARRY_POTTER_WORDS } from './viewer-words.ts';

export { GHOST, WIZARD, type HPFrame };
const UNIT_FIELDS = 6;

const CH_WALL = 35; // '#'
const CH_BOOK = 66; // 'B'
const CH_OWNER0 = 48; // '0'

export const CORRIDOR = '#f3ecda';
export const WALL = '#3b3446';
const GRID = 'rgba(60, 40, 20, 0.08)';
/** Clan colour painted over the corridor: light enough for units in that colour to stand out. */
const OWNED_ALPHA = 0.4;
const BOOK_COVER = '#7b3f12';
const BOOK_PAGES = '#fffaf0';
const OUTLINE = '#1d1a22';
const VOLDEMORT_AREA = 'rgba(25, 10, 35, 0.28)';
const SPARK = '#ffd21f';

// ---- Reading the replay ---------------------------------------------------

function frameOf(round: ReplayRound<HPFrame>): HPFrame {
  return round.frame;
}

function setting(replay: Replay<HPFrame>, key: string, fallback: number): number {
  const v = replay.config[key];
  return typeof v === 'number' && v > 0 ? v : fallback;
}

/** The words of the page's language (the statement's own). */
const W = wordsFor(HARRY_POTTER_WORDS);

/** The player's name, with the seat added when two seats share it (Demo vs Demo). */
function playerName(replay: Replay<HPFrame>, seat: number): string {
  const name = replay.players[seat]?.name ?? W.player(seat);
  const shared = replay.players.some((p, i) => i !== seat && p.name === name);
  return shared ? `${name} (${W.seat(seat)})` : name;
}

function evNum(e: unknown, key: string): number {
  const v = (e as Record<string, unknown> | null)?.[key];
  return typeof v === 'number' ? v : -1;
}

function evType(e: unknown): string {
  const v = (e as Record<string, unknown> | null)?.['t'];
  return typeof v === 'string' ? v : '';
}

/** Unit id on each cell (-1 = none), built once per frame for the tooltip. */
const unitGrids = new WeakMap<HPFrame, Int16Array>();

function unitGrid(f: HPFrame): Int16Array {
  let grid = unitGrids.get(f);
  if (!grid) {
    grid = new Int16Array(f.rows * f.cols).fill(-1);
    for (let o = 0, id = 0; o + UNIT_FIELDS <= f.u.length; o += UNIT_FIELDS, id++) {
      const i = f.u[o + 2]!;
      const j = f.u[o + 3]!;
      if (i >= 0 && i < f.rows && j >= 0 && j < f.cols) grid[i * f.cols + j] = id;
    }
    unitGrids.set(f, grid);
  }
  return grid;
}

// ---- Drawing pieces (the board and the legend share them) -----------------

function drawBook(ctx: CanvasRenderingContext2D, x: number, y: number, s: number): void {
  // A closed book: cover with a strip of pages along the bottom and the right.
  const w = s * 0.62;
  const h = s * 0.72;
  const bx = x + (s - w) / 2;
  const by = y + (s - h) / 2;
  ctx.fillStyle = BOOK_COVER;
  ctx.fillRect(bx, by, w, h);
  if (s >= 7) {
    ctx.fillStyle = BOOK_PAGES;
    ctx.fillRect(bx + w * 0.22, by + h * 0.78, w * 0.72, h * 0.14);
    ctx.fillRect(bx + w * 0.22, by + h * 0.2, w * 0.5, h * 0.1);
  }
}

/** Disc radius of a wizard: a little larger on phone-sized cells so it stays visible. */
function wizardRadius(s: number): number {
  return s * (s < 8 ? 0.44 : 0.38);
}

/** Wizard: a disc in its clan's colour. */
function wizardPath(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const r = wizardRadius(s);
  ctx.moveTo(cx + r, cy);
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
}

function outlineWidth(s: number): number {
  return Math.max(0.6, s * 0.08);
}

/** A wizard being converted: its clan's disc with a wedge of the new clan's colour that grows as the conversion ends. */
function drawConverting(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number, from: string, to: string, done: number): void {
  const r = wizardRadius(s);
  ctx.fillStyle = from;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = to;
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  ctx.arc(cx, cy, r, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * Math.min(1, Math.max(0.1, done)));
  ctx.closePath();
  ctx.fill();
  // A dashed ring: the wizard is neither here nor there yet.
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = outlineWidth(s);
  ctx.setLineDash([s * 0.16, s * 0.1]);
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.stroke();
  ctx.setLineDash([]);
}

function sparklePath(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number): void {
  // Four-pointed star.
  const k = r * 0.35;
  ctx.moveTo(cx, cy - r);
  ctx.lineTo(cx + k, cy - k);
  ctx.lineTo(cx + r, cy);
  ctx.lineTo(cx + k, cy + k);
  ctx.lineTo(cx, cy + r);
  ctx.lineTo(cx - k, cy + k);
  ctx.lineTo(cx - r, cy);
  ctx.lineTo(cx - k, cy - k);
  ctx.closePath();
}

/** Ghost: a sheet with a round top and a wavy hem; pale while resting, solid with a sparkle when it may cast. */
function drawGhost(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number, color: string, resting: boolean): void {
  const hw = s * 0.4;
  const top = cy - s * 0.06;
  const bottom = cy + s * 0.42;
  const left = cx - hw;
  const wave = (2 * hw) / 3;
  ctx.beginPath();
  ctx.moveTo(left, bottom);
  ctx.lineTo(left, top);
  ctx.arc(cx, top, hw, Math.PI, 0);
  ctx.lineTo(cx + hw, bottom);
  for (let b = 0; b < 3; b++) {
    const x0 = cx + hw - b * wave;
    ctx.quadraticCurveTo(x0 - wave / 2, bottom - s * 0.16, x0 - wave, bottom);
  }
  ctx.closePath();
  if (resting) {
    // Pale sheet with its clan's colour as the outline: still readable on its own clan's cells.
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.fill();
    strokeOutlined(ctx, OUTLINE, Math.max(1.6, s * 0.2), color, Math.max(1, s * 0.12));
  } else {
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = OUTLINE;
    ctx.lineWidth = outlineWidth(s);
    ctx.stroke();
  }
  if (s >= 9) {
    ctx.fillStyle = resting ? OUTLINE : '#ffffff';
    ctx.beginPath();
    ctx.arc(cx - hw * 0.38, top, s * 0.09, 0, Math.PI * 2);
    ctx.arc(cx + hw * 0.38, top, s * 0.09, 0, Math.PI * 2);
    ctx.fill();
  }
  if (!resting) {
    ctx.beginPath();
    sparklePath(ctx, cx + hw * 0.7, cy - s * 0.3, Math.max(1.5, s * 0.2));
    ctx.fillStyle = SPARK;
    ctx.fill();
    ctx.strokeStyle = OUTLINE;
    ctx.lineWidth = Math.max(0.5, s * 0.04);
    ctx.stroke();
  }
}

function drawVoldemortArea(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, s: number): void {
  ctx.fillStyle = VOLDEMORT_AREA;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = Math.max(0.75, s * 0.07);
  ctx.setLineDash([s * 0.3, s * 0.2]);
  ctx.strokeRect(x, y, w, h);
  ctx.setLineDash([]);
}

/** Voldemort: a black hood with red eyes, ringed in white so he shows on walls too. */
function drawVoldemort(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  // Bigger than a cell on phone-sized boards: the one unit everybody must see.
  const r = s * (s < 8 ? 0.75 : 0.5);
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fillStyle = '#050505';
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = Math.max(1, s * 0.1);
  ctx.stroke();
  ctx.fillStyle = '#ff2a2a';
  ctx.beginPath();
  const er = Math.max(0.6, s * 0.08);
  ctx.arc(cx - r * 0.35, cy - r * 0.1, er, 0, Math.PI * 2);
  ctx.arc(cx + r * 0.35, cy - r * 0.1, er, 0, Math.PI * 2);
  ctx.fill();
}

/** A ring around a unit that changed clan or reappeared this round. */
function haloPath(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const r = s * 0.55;
  ctx.moveTo(cx + r, cy);
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
}

function strokeHalos(ctx: CanvasRenderingContext2D, s: number): void {
  strokeOutlined(ctx, OUTLINE, Math.max(1.5, s * 0.2), '#ffffff', Math.max(0.75, s * 0.1));
}

function crossPath(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const r = s * 0.3;
  ctx.moveTo(cx - r, cy - r);
  ctx.lineTo(cx + r, cy + r);
  ctx.moveTo(cx + r, cy - r);
  ctx.lineTo(cx - r, cy + r);
}

function strokeCrosses(ctx: CanvasRenderingContext2D, s: number): void {
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = Math.max(1.5, s * 0.22);
  ctx.stroke();
  ctx.strokeStyle = '#b00000';
  ctx.lineWidth = Math.max(0.8, s * 0.12);
  ctx.stroke();
}

function fillSparks(ctx: CanvasRenderingContext2D, s: number): void {
  ctx.fillStyle = SPARK;
  ctx.fill();
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = Math.max(0.5, s * 0.05);
  ctx.stroke();
}

/** A spell: rings in the caster's colour spreading from its ghost. */
function drawSpellBurst(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number, color: string): void {
  ctx.strokeStyle = color;
  for (let k = 1; k <= 3; k++) {
    ctx.globalAlpha = 1 - k * 0.25;
    ctx.lineWidth = Math.max(1, s * (0.28 - k * 0.06));
    ctx.beginPath();
    ctx.arc(cx, cy, s * (0.5 + k * 0.55), 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

// ---- The board ------------------------------------------------------------

// The cells are painted as one pixel each into a small scratch canvas, then
// scaled up in a single drawImage: a 60×60 board is 3600 array writes and one
// draw call instead of a rectangle per run of cells.

/** [r, g, b] of '#rgb', '#rrggbb' or 'rgb(a)(r, g, b...)' (what a context gives back for any CSS colour). */
export function parseRgb(css: string): [number, number, number] | null {
  let m = /^#([0-9a-f]{6})$/i.exec(css);
  if (m) {
    const n = parseInt(m[1]!, 16);
    return [n >> 16, (n >> 8) & 255, n & 255];
  }
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(css);
  if (m) return [parseInt(m[1]! + m[1]!, 16), parseInt(m[2]! + m[2]!, 16), parseInt(m[3]! + m[3]!, 16)];
  m = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/i.exec(css);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  return null;
}

/** A clan's colour laid over the corridor at OWNED_ALPHA, as an opaque colour. */
export function ownedTint(color: [number, number, number]): [number, number, number] {
  const base = parseRgb(CORRIDOR)!;
  return [0, 1, 2].map((c) => Math.round(base[c]! * (1 - OWNED_ALPHA) + color[c]! * OWNED_ALPHA)) as [number, number, number];
}

function cssOf([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** Colour of a clan's cells as CSS, any CSS colour accepted (normalised by the context when not hex). */
function tintCss(ctx: CanvasRenderingContext2D, color: string): string {
  let rgb = parseRgb(color);
  if (!rgb) {
    const saved = ctx.fillStyle;
    ctx.fillStyle = color;
    rgb = parseRgb(String(ctx.fillStyle)) ?? [136, 136, 136];
    ctx.fillStyle = saved;
  }
  return cssOf(ownedTint(rgb));
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function packRgb([r, g, b]: [number, number, number]): number {
  return littleEndian ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}

/** Pixel per frame char ('#', '.', 'B', '0'..'9'), rebuilt when the colours change. */
let palette: Uint32Array | null = null;
let paletteKey = '';

function paletteFor(ctx: CanvasRenderingContext2D, colors: readonly string[]): Uint32Array {
  const key = colors.join('|');
  if (palette && key === paletteKey) return palette;
  const corridor = packRgb(parseRgb(CORRIDOR)!);
  const table = new Uint32Array(128).fill(corridor);
  table[CH_WALL] = packRgb(parseRgb(WALL)!);
  for (let p = 0; p < colors.length && p < 10; p++) table[CH_OWNER0 + p] = packRgb(parseRgb(tintCss(ctx, colors[p]!))!);
  palette = table;
  paletteKey = key;
  return table;
}

/** Writes one pixel per cell of the frame's grid string. */
export function paintCells(g: string, table: Uint32Array, out: Uint32Array): void {
  const n = Math.min(g.length, out.length);
  for (let k = 0; k < n; k++) out[k] = table[g.charCodeAt(k) & 127]!;
}

let scratch: { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; image: ImageData; pixels: Uint32Array } | null = null;

function drawCells(ctx: CanvasRenderingContext2D, f: HPFrame, colors: readonly string[], width: number, height: number): void {
  const { rows, cols } = f;
  if (!scratch || scratch.image.width !== cols || scratch.image.height !== rows) {
    const canvas = ctx.canvas.ownerDocument.createElement('canvas');
    canvas.width = cols;
    canvas.height = rows;
    const sctx = canvas.getContext('2d')!;
    const image = sctx.createImageData(cols, rows);
    scratch = { canvas, ctx: sctx, image, pixels: new Uint32Array(image.data.buffer) };
  }
  paintCells(f.g, paletteFor(ctx, colors), scratch.pixels);
  scratch.ctx.putImageData(scratch.image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch.canvas, 0, 0, width, height);
}

function drawBoard(args: DrawArgs<HPFrame>): void {
  const { ctx, width, height, colors, round, replay } = args;
  const f = frameOf(round);
  const { rows, cols, g, u } = f;
  const cw = width / cols;
  const ch = height / rows;
  const s = Math.min(cw, ch);
  const cx = (j: number) => (j + 0.5) * cw;
  const cy = (i: number) => (i + 0.5) * ch;

  ctx.save();
  ctx.lineJoin = 'round';
  drawCells(ctx, f, colors, width, height);

  // Faint grid on big boards: thin rectangles, far cheaper than stroked lines.
  if (s >= 10) {
    ctx.fillStyle = GRID;
    for (let i = 1; i < rows; i++) ctx.fillRect(0, Math.round(i * ch), width, 1);
    for (let j = 1; j < cols; j++) ctx.fillRect(Math.round(j * cw), 0, 1, height);
  }

  for (let k = g.indexOf('B'); k !== -1; k = g.indexOf('B', k + 1)) {
    const i = (k / cols) | 0;
    const j = k - i * cols;
    drawBook(ctx, j * cw + (cw - s) / 2, i * ch + (ch - s) / 2, s);
  }

  // Voldemort's 3×3 square under the units (nobody stands in it after his attack).
  const [vi, vj] = f.v;
  const ai0 = Math.max(0, vi - 1);
  const aj0 = Math.max(0, vj - 1);
  const ai1 = Math.min(rows, vi + 2);
  const aj1 = Math.min(cols, vj + 2);
  if (ai1 > ai0 && aj1 > aj0) drawVoldemortArea(ctx, aj0 * cw, ai0 * ch, (aj1 - aj0) * cw, (ai1 - ai0) * ch, s);

  // Wizards not converting: one path per clan.
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = outlineWidth(s);
  for (let p = 0; p < colors.length; p++) {
    ctx.beginPath();
    let any = false;
    for (let o = 0; o + UNIT_FIELDS <= u.length; o += UNIT_FIELDS) {
      if (u[o] !== WIZARD || u[o + 1] !== p || u[o + 4]! > 0) continue;
      wizardPath(ctx, cx(u[o + 3]!), cy(u[o + 2]!), s);
      any = true;
    }
    if (!any) continue;
    ctx.fillStyle = colors[p]!;
    ctx.fill();
    ctx.stroke();
  }
  const convertRounds = setting(replay, 'rounds_for_converting', 5);
  for (let o = 0; o + UNIT_FIELDS <= u.length; o += UNIT_FIELDS) {
    const pending = u[o + 4]!;
    if (u[o] === WIZARD && pending > 0) {
      const from = colors[u[o + 1]!] ?? '#888888';
      const to = colors[u[o + 5]!] ?? '#888888';
      drawConverting(ctx, cx(u[o + 3]!), cy(u[o + 2]!), s, from, to, 1 - pending / convertRounds);
    } else if (u[o] === GHOST) {
      drawGhost(ctx, cx(u[o + 3]!), cy(u[o + 2]!), s, colors[u[o + 1]!] ?? '#888888', pending > 0);
    }
  }

  drawEvents(args, f, cw, ch, s);
  drawVoldemort(ctx, cx(vj), cy(vi), s);
  ctx.restore();
}

/** This round's events, over the units: battles, clan changes, kills, spells. */
function drawEvents(args: DrawArgs<HPFrame>, f: HPFrame, cw: number, ch: number, s: number): void {
  const { ctx, round, prev, colors } = args;
  const events = round.events;
  if (!events.length) return;
  const u = f.u;
  const n = (u.length / UNIT_FIELDS) | 0;
  const ux = (id: number) => (u[id * UNIT_FIELDS + 3]! + 0.5) * cw;
  const uy = (id: number) => (u[id * UNIT_FIELDS + 2]! + 0.5) * ch;

  // Units that changed clan or reappeared.
  ctx.beginPath();
  let halos = 0;
  for (const e of events) {
    const t = evType(e);
    if (t !== 'convert' && t !== 'respawn') continue;
    const id = evNum(e, 'id');
    if (id < 0 || id >= n) continue;
    haloPath(ctx, ux(id), uy(id), s);
    halos++;
  }
  if (halos) strokeHalos(ctx, s);

  // Where Voldemort killed a unit: the cell it stood on before this round.
  const pu = prev ? frameOf(prev).u : null;
  if (pu) {
    ctx.beginPath();
    let kills = 0;
    for (const e of events) {
      if (evType(e) !== 'kill') continue;
      const id = evNum(e, 'id');
      if (id < 0 || (id + 1) * UNIT_FIELDS > pu.length) continue;
      crossPath(ctx, (pu[id * UNIT_FIELDS + 3]! + 0.5) * cw, (pu[id * UNIT_FIELDS + 2]! + 0.5) * ch, s);
      kills++;
    }
    if (kills) strokeCrosses(ctx, s);
  }

  // Battles (wizard against wizard, or a wizard attacking a ghost): a spark between the two.
  ctx.beginPath();
  let sparks = 0;
  for (const e of events) {
    const t = evType(e);
    const a = t === 'attack' ? evNum(e, 'a') : t === 'ghost' ? evNum(e, 'by') : -1;
    const d = t === 'attack' ? evNum(e, 'd') : t === 'ghost' ? evNum(e, 'id') : -1;
    if (a < 0 || d < 0 || a >= n || d >= n) continue;
    const ax = ux(a);
    const ay = uy(a);
    const dx = ux(d);
    const dy = uy(d);
    // Next to each other: between them; otherwise one moved on after the battle: on the defender.
    const near = Math.abs(ax - dx) <= cw * 1.01 && Math.abs(ay - dy) <= ch * 1.01;
    sparklePath(ctx, near ? (ax + dx) / 2 : dx, near ? (ay + dy) / 2 : dy, Math.max(2, s * 0.3));
    sparks++;
  }
  if (sparks) fillSparks(ctx, s);

  for (const e of events) {
    if (evType(e) !== 'spell') continue;
    const id = evNum(e, 'id');
    if (id < 0 || id >= n) continue;
    drawSpellBurst(ctx, ux(id), uy(id), s, colors[evNum(e, 'pl')] ?? '#888888');
  }
}

// ---- Tooltip --------------------------------------------------------------

function describeCell(args: DrawArgs<HPFrame>, row: number, col: number): string | null {
  const f = frameOf(args.round);
  if (!f || row < 0 || col < 0 || row >= f.rows || col >= f.cols) return null;
  const { replay } = args;
  const k = row * f.cols + col;
  const c = f.g.charCodeAt(k);
  const parts: string[] = [];
  let text = `(${row}, ${col}) `;
  if (c === CH_WALL) text += W.wall;
  else {
    text += W.corridor;
    // A book hides its cell's owner in the frame.
    if (c >= CH_OWNER0 && c < CH_OWNER0 + 10) text += W.ownedBy(playerName(replay, c - CH_OWNER0));
    if (c === CH_BOOK) text += W.book;
  }
  parts.push(text);

  const id = unitGrid(f)[k]!;
  if (id >= 0) {
    const o = id * UNIT_FIELDS;
    const pl = f.u[o + 1]!;
    const pending = f.u[o + 4]!;
    if (f.u[o] === WIZARD) {
      let w = W.wizard(id, playerName(replay, pl));
      if (pending > 0) w += W.converting(playerName(replay, f.u[o + 5]!), W.rounds(pending));
      parts.push(w);
    } else {
      let w = `${W.ghost(id, playerName(replay, pl))} (${pending > 0 ? W.resting(W.rounds(pending)) : W.canCast}`;
      const last = f.u[o + 5]!;
      const safe = last >= 0 ? setting(replay, 'rounds_no_attack_ghost', 5) - (f.round - last) : 0;
      if (safe > 0) w += W.safe(W.rounds(safe));
      parts.push(w + ')');
    }
  }
  const [vi, vj] = f.v;
  if (vi === row && vj === col) parts.push(W.voldemort);
  else if (Math.abs(vi - row) <= 1 && Math.abs(vj - col) <= 1) parts.push(W.voldemortReach);
  return parts.join('; ');
}

// ---- Legend ---------------------------------------------------------------

function swatchBox(ctx: CanvasRenderingContext2D, size: number, fill: string): void {
  ctx.fillStyle = fill;
  ctx.fillRect(0, 0, size, size);
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.25)';
  ctx.lineWidth = 1;
  ctx.strokeRect(0.5, 0.5, size - 1, size - 1);
}

export const legend: LegendItem[] = [
  { label: W.legend.corridor, swatch: (ctx, size) => swatchBox(ctx, size, CORRIDOR) },
  { label: W.legend.wall, swatch: (ctx, size) => swatchBox(ctx, size, WALL) },
  {
    label: W.legend.owned,
    swatch: (ctx, size, colors) => {
      swatchBox(ctx, size, CORRIDOR);
      const h = size / 2;
      for (let p = 0; p < 4; p++) {
        ctx.fillStyle = tintCss(ctx, colors[p] ?? '#888888');
        ctx.fillRect((p % 2) * h, ((p / 2) | 0) * h, h, h);
      }
    },
  },
  {
    label: W.legend.book,
    swatch: (ctx, size) => {
      swatchBox(ctx, size, CORRIDOR);
      drawBook(ctx, 0, 0, size);
    },
  },
  {
    label: W.legend.wizard,
    swatch: (ctx, size, colors) => {
      const h = size / 2;
      ctx.strokeStyle = OUTLINE;
      ctx.lineWidth = outlineWidth(h);
      for (let p = 0; p < 4; p++) {
        ctx.beginPath();
        wizardPath(ctx, (p % 2) * h + h / 2, ((p / 2) | 0) * h + h / 2, h);
        ctx.fillStyle = colors[p] ?? '#888888';
        ctx.fill();
        ctx.stroke();
      }
    },
  },
  {
    label: W.legend.converting,
    swatch: (ctx, size, colors) => drawConverting(ctx, size / 2, size / 2, size, colors[0] ?? '#888888', colors[1] ?? '#888888', 0.6),
  },
  {
    label: W.legend.ghostReady,
    swatch: (ctx, size, colors) => drawGhost(ctx, size / 2, size / 2, size, colors[0] ?? '#888888', false),
  },
  {
    label: W.legend.ghostResting,
    swatch: (ctx, size, colors) => drawGhost(ctx, size / 2, size / 2, size, colors[1] ?? '#888888', true),
  },
  {
    label: W.legend.voldemort,
    swatch: (ctx, size) => {
      swatchBox(ctx, size, CORRIDOR);
      drawVoldemortArea(ctx, 0, 0, size, size, size / 3);
      drawVoldemort(ctx, size / 2, size / 2, size / 3);
    },
  },
  {
    label: W.legend.battle,
    swatch: (ctx, size) => {
      ctx.beginPath();
      sparklePath(ctx, size / 2, size / 2, size * 0.4);
      fillSparks(ctx, size / 2);
    },
  },
  {
    label: W.legend.changed,
    swatch: (ctx, size, colors) => {
      const s = size / 1.2;
      ctx.beginPath();
      wizardPath(ctx, size / 2, size / 2, s);
      ctx.fillStyle = colors[2] ?? '#888888';
      ctx.fill();
      ctx.strokeStyle = OUTLINE;
      ctx.lineWidth = outlineWidth(s);
      ctx.stroke();
      ctx.beginPath();
      haloPath(ctx, size / 2, size / 2, s);
      strokeHalos(ctx, s);
    },
  },
  {
    label: W.legend.killed,
    swatch: (ctx, size) => {
      ctx.beginPath();
      crossPath(ctx, size / 2, size / 2, size);
      strokeCrosses(ctx, size / 2);
    },
  },
  {
    label: W.legend.spell,
    swatch: (ctx, size, colors) => drawSpellBurst(ctx, size / 2, size / 2, size / 3.5, colors[3] ?? '#888888'),
  },
];

const view: GameView<HPFrame> = {
  boardSize(replay: Replay<HPFrame>) {
    const f = replay.rounds[0] ? frameOf(replay.rounds[0]) : null;
    return {
      rows: f?.rows ?? setting(replay, 'board_rows', 60),
      cols: f?.cols ?? setting(replay, 'board_cols', 60),
    };
  },
  draw: drawBoard,
  counterLabels: W.counters,
  legend,
  describeCell,
};

export default view;
