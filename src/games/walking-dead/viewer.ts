// The Walking Dead's board for the one replay viewer. It follows the
// original statement's visor (§2 "El Visor"): streets white, waste dark grey,
// owned cells in the owner's colour, alive units as circles, units being
// converted (bitten) as squares, dead units as crosses, zombies as squares
// with a black outline, food with a black outline. Two departures, because
// seat 0 is red here: zombies are grey-green (not red) and food is a purple
// diamond (not a red circle). Owned cells are a light tint so that units in
// the same colour stand out on them. §2 of statement.<lang>.md describes
// this board, departures included.

import type { DrawArgs, GameView, LegendItem, Replay, ReplayRound } from '../../sdk/viewer/game-view.ts';
import { pathDiamond, strokeOutlined } from '../../sdk/viewer/paths.ts';

import { UNIT_ALIVE, UNIT_DEAD, UNIT_ZOMBIE, type TwdFrame } from './frame.ts';
import { wordsFor } from '../../sdk/viewer/lang.ts';
import { WALKING_DEAD_WORDS } from './viewer-words.ts';

export { UNIT_ALIVE, UNIT_DEAD, UNIT_ZOMBIE, type TwdFrame };

const STREET = '#f7f6f2';
const WASTE = '#4a4a4a';
/** Over STREET, so an owned cell is a light version of its clan's colour. */
const OWNED_ALPHA = 0.42;
const OUTLINE = '#161616';
const ZOMBIE = '#667a34';
/** Zombie eyes and mouth: pale, so the dark square reads as a face. */
const ZOMBIE_FACE = '#e9f2c4';
/** Bitten units' border and the ring of bites and new zombies: a stronger zombie green. */
const ZOMBIE_MARK = '#7da52a';
const FOOD = '#8e44ad';
const TAU = Math.PI * 2;
const CODE_WASTE = 87; // 'W'
const CODE_OWNER0 = 48; // '0'
/** Below this cell size (CSS px) countdown digits and zombie eyes would be noise. */
const MIN_TEXT_CELL = 11;
const MIN_EYES_CELL = 8;

function frameOf(round: ReplayRound<TwdFrame>): TwdFrame {
  return round.frame;
}

/** The words of the page's language (the statement's own). */
const W = wordsFor(WALKING_DEAD_WORDS);

function playerName(replay: Replay<TwdFrame>, pl: number): string {
  return replay.players[pl]?.name ?? W.player(pl);
}

// ---- Symbols. Each one is a path builder (several can share one path, so
// the board fills a whole batch at once) and a painter; the legend draws its
// swatches with the very same functions.

function outlineWidth(s: number): number {
  return Math.max(0.75, s * 0.08);
}

/** Adds a shape centred on (cx, cy), for a cell of size s, to the current path. */
type PathFn = (ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number) => void;
/** Fills or strokes the current path, in color for a cell of size s. */
type PaintFn = (ctx: CanvasRenderingContext2D, color: string, s: number) => void;

function pathCircle(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const r = 0.4 * s;
  ctx.moveTo(cx + r, cy);
  ctx.arc(cx, cy, r, 0, TAU);
}

function pathSquare(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const h = 0.38 * s;
  ctx.rect(cx - h, cy - h, 2 * h, 2 * h);
}

function pathCross(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const h = 0.34 * s;
  ctx.moveTo(cx - h, cy - h);
  ctx.lineTo(cx + h, cy + h);
  ctx.moveTo(cx + h, cy - h);
  ctx.lineTo(cx - h, cy + h);
}

function pathFood(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  pathDiamond(ctx, cx, cy, 0.32 * s);
}

function pathZombieEyes(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  const e = Math.max(1, 0.12 * s);
  ctx.rect(cx - 0.2 * s, cy - 0.14 * s, e, e);
  ctx.rect(cx + 0.2 * s - e, cy - 0.14 * s, e, e);
  ctx.rect(cx - 0.16 * s, cy + 0.12 * s, 0.32 * s, Math.max(1, 0.07 * s));
}

function pathRing(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number): void {
  // Just outside the cell, so the unit inside stays readable.
  const r = 0.62 * s;
  ctx.moveTo(cx + r, cy);
  ctx.arc(cx, cy, r, 0, TAU);
}

/** Fills the current path in color and outlines it: alive units, zombies, food. */
function paintOutlined(ctx: CanvasRenderingContext2D, color: string, s: number): void {
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = outlineWidth(s);
  ctx.stroke();
}

/** A bitten unit still plays; its zombie-green border says it is turning. */
function paintBitten(ctx: CanvasRenderingContext2D, color: string, s: number): void {
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = ZOMBIE_MARK;
  ctx.lineWidth = Math.max(1, s * 0.12);
  ctx.stroke();
}

function paintDead(ctx: CanvasRenderingContext2D, color: string, s: number): void {
  ctx.lineCap = 'round';
  strokeOutlined(ctx, OUTLINE, Math.max(2.5, s * 0.26), color, Math.max(1.25, s * 0.14));
  ctx.lineCap = 'butt';
}

function paintZombieEyes(ctx: CanvasRenderingContext2D): void {
  ctx.fillStyle = ZOMBIE_FACE;
  ctx.fill();
}

function paintRing(ctx: CanvasRenderingContext2D, color: string, s: number): void {
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1, s * 0.09);
  ctx.stroke();
}

function setCountdownFont(ctx: CanvasRenderingContext2D, s: number): void {
  ctx.font = `bold ${Math.round(s * 0.52)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
}

/** Rounds left before becoming a zombie, white on a dark halo (readable on every clan colour). */
function drawCountdown(ctx: CanvasRenderingContext2D, cx: number, cy: number, s: number, n: number): void {
  const text = String(n);
  const y = cy + 0.04 * s;
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = Math.max(2, s * 0.16);
  ctx.strokeText(text, cx, y);
  ctx.fillStyle = '#ffffff';
  ctx.fillText(text, cx, y);
}

// ---- What happened this round, as rings around cells.

/** A mark's ring colour: a clan, or the zombies (-1). */
type MarkVisitor = (cell: number, clan: number, what: string) => void;

function num(v: unknown): number {
  return typeof v === 'number' ? v : -1;
}

/**
 * Calls visit for each cell where something worth seeing happened during this
 * round: a clan won a fight (the loser's cell) or killed a zombie (where the
 * zombie stood), a unit appeared or joined a clan, a zombie bit a unit or a
 * unit became a zombie. Eating food is left out: the food moving is enough.
 */
function visitMarks(args: DrawArgs<TwdFrame>, visit: MarkVisitor): void {
  const units = frameOf(args.round).units;
  const prevUnits = args.prev ? frameOf(args.prev).units : null;
  const name = (pl: number) => playerName(args.replay, pl);
  // A fighter's clan as it was when it fought: by the end of the round the
  // winner may have become a zombie (clan -1) or switched clans.
  const clanBefore = (u: number) => (prevUnits ?? units)[4 * u + 1] ?? -1;
  for (const raw of args.round.events) {
    const e = raw as Record<string, unknown>;
    switch (e.k) {
      case 'fight': {
        const winner = num(e.w);
        const loser = winner === num(e.a) ? num(e.d) : num(e.a);
        const clan = clanBefore(winner);
        visit(units[4 * loser + 2] ?? -1, clan, W.killedInFight(name(clan), Boolean(e.surprise)));
        break;
      }
      case 'zkill': {
        const clan = clanBefore(num(e.u));
        const at = prevUnits?.[4 * num(e.z) + 2] ?? -1;
        visit(at, clan, W.zombieKilled(name(clan)));
        break;
      }
      case 'spawn':
        visit(num(e.p), num(e.pl), W.appeared(num(e.u), name(num(e.pl))));
        break;
      case 'switch':
        visit(units[4 * num(e.u) + 2] ?? -1, num(e.to), W.switched(num(e.u), name(num(e.from)), name(num(e.to))));
        break;
      case 'bite':
        visit(units[4 * num(e.u) + 2] ?? -1, -1, W.bittenBy(num(e.z)));
        break;
      case 'zombie':
        visit(num(e.p), -1, W.becameZombie);
        break;
    }
  }
}

// ---- The board.

// Reused between draws: the marks of the current draw (cell, clan) pairs.
let markCells = new Int32Array(64);
let markClans = new Int8Array(64);
let markCount = 0;

function collectMark(cell: number, clan: number): void {
  if (cell < 0) return;
  if (markCount === markCells.length) {
    const cells = new Int32Array(markCount * 2);
    cells.set(markCells);
    const clans = new Int8Array(markCount * 2);
    clans.set(markClans);
    markCells = cells;
    markClans = clans;
  }
  markCells[markCount] = cell;
  markClans[markCount++] = clan;
}

/** Fills every run of cells whose grid char is `code` as one path (no seams between neighbours). */
function fillCellRuns(ctx: CanvasRenderingContext2D, grid: string, rows: number, cols: number, code: number, cw: number, ch: number): void {
  ctx.beginPath();
  for (let i = 0; i < rows; i++) {
    const y0 = Math.round(i * ch);
    const y1 = Math.round((i + 1) * ch);
    const base = i * cols;
    let j = 0;
    while (j < cols) {
      if (grid.charCodeAt(base + j) !== code) {
        j++;
        continue;
      }
      let k = j + 1;
      while (k < cols && grid.charCodeAt(base + k) === code) k++;
      const x0 = Math.round(j * cw);
      ctx.rect(x0, y0, Math.round(k * cw) - x0, y1 - y0);
      j = k;
    }
  }
  ctx.fill();
}

// The cells as one pixel each, scaled up by a single drawImage: several times
// faster than filling thousands of rects. Where there is no OffscreenCanvas
// the cells are filled as rect runs instead.
let cellCanvas: OffscreenCanvas | null = null;
let cellCtx: OffscreenCanvasRenderingContext2D | null = null;
let cellImage: ImageData | null = null;
let cellPixels = new Uint32Array(0);
/** Pixel value per grid char code, for the colours in paletteKey. */
const palette = new Uint32Array(128);
let paletteKey = '';

/** Samples each cell colour as the canvas itself blends it (any CSS colour works). */
function fillPalette(c: OffscreenCanvasRenderingContext2D, colors: readonly string[]): void {
  const sample = (color: string | null, owner: string | null): number => {
    c.globalAlpha = 1;
    c.fillStyle = color ?? STREET;
    c.fillRect(0, 0, 1, 1);
    if (owner) {
      c.globalAlpha = OWNED_ALPHA;
      c.fillStyle = owner;
      c.fillRect(0, 0, 1, 1);
      c.globalAlpha = 1;
    }
    return new Uint32Array(c.getImageData(0, 0, 1, 1).data.buffer)[0]!;
  };
  palette.fill(sample(STREET, null));
  palette[CODE_WASTE] = sample(WASTE, null);
  for (let pl = 0; pl < 4 && pl < colors.length; pl++) palette[CODE_OWNER0 + pl] = sample(STREET, colors[pl]!);
}

function drawCellsAsImage(ctx: CanvasRenderingContext2D, f: TwdFrame, colors: readonly string[], width: number, height: number): boolean {
  if (typeof OffscreenCanvas === 'undefined') return false;
  const { rows, cols, grid } = f;
  if (!cellCanvas || !cellCtx || !cellImage || cellCanvas.width !== cols || cellCanvas.height !== rows) {
    cellCanvas = new OffscreenCanvas(cols, rows);
    // Read back once per palette, written every draw: a CPU-side canvas suits it.
    cellCtx = cellCanvas.getContext('2d', { willReadFrequently: true });
    if (!cellCtx) return false;
    cellImage = cellCtx.createImageData(cols, rows);
    cellPixels = new Uint32Array(cellImage.data.buffer);
    paletteKey = '';
  }
  const key = colors.join(' ');
  if (key !== paletteKey) {
    fillPalette(cellCtx, colors);
    paletteKey = key;
  }
  const n = rows * cols;
  for (let c = 0; c < n; c++) cellPixels[c] = palette[grid.charCodeAt(c) & 127]!;
  cellCtx.putImageData(cellImage, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(cellCanvas, 0, 0, width, height);
  ctx.imageSmoothingEnabled = true;
  return true;
}

function drawCellsAsRects(ctx: CanvasRenderingContext2D, f: TwdFrame, colors: readonly string[], width: number, height: number): void {
  const { rows, cols, grid } = f;
  const cw = width / cols;
  const ch = height / rows;
  ctx.fillStyle = STREET;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = WASTE;
  fillCellRuns(ctx, grid, rows, cols, CODE_WASTE, cw, ch);
  ctx.globalAlpha = OWNED_ALPHA;
  for (let pl = 0; pl < 4 && pl < colors.length; pl++) {
    ctx.fillStyle = colors[pl]!;
    fillCellRuns(ctx, grid, rows, cols, CODE_OWNER0 + pl, cw, ch);
  }
  ctx.globalAlpha = 1;
}

/**
 * Adds path() around the cell of every unit on the board that pick() selects
 * (by its type, its clan and the rounds it has left before it turns) to the
 * current path.
 */
function pathUnits(
  ctx: CanvasRenderingContext2D,
  f: TwdFrame,
  cw: number,
  ch: number,
  path: PathFn,
  pick: (type: number, clan: number, left: number) => boolean,
): void {
  const { units, cols } = f;
  const s = Math.min(cw, ch);
  for (let u = 0; u < units.length >> 2; u++) {
    const c = units[4 * u + 2]!;
    if (c < 0 || !pick(units[4 * u]!, units[4 * u + 1]!, units[4 * u + 3]!)) continue;
    const i = (c / cols) | 0;
    path(ctx, (c - i * cols + 0.5) * cw, (i + 0.5) * ch, s);
  }
}

function draw(args: DrawArgs<TwdFrame>): void {
  const { ctx, width, height, colors } = args;
  const f = frameOf(args.round);
  const { rows, cols, units, food } = f;
  const cw = width / cols;
  const ch = height / rows;
  const s = Math.min(cw, ch);
  const nUnits = units.length >> 2;
  const nClans = Math.min(colors.length, 4);
  ctx.save();

  if (!drawCellsAsImage(ctx, f, colors, width, height)) drawCellsAsRects(ctx, f, colors, width, height);

  ctx.beginPath();
  for (let k = 0; k < food.length; k++) {
    const c = food[k]!;
    const i = (c / cols) | 0;
    pathFood(ctx, (c - i * cols + 0.5) * cw, (i + 0.5) * ch, s);
  }
  paintOutlined(ctx, FOOD, s);

  // One pass per (kind, clan) batch: a few hundred units at most, so
  // re-scanning beats building per-frame lists.
  for (let pl = 0; pl < nClans; pl++) {
    const color = colors[pl]!;
    ctx.beginPath();
    pathUnits(ctx, f, cw, ch, pathCircle, (type, clan, left) => type === UNIT_ALIVE && clan === pl && left < 0);
    paintOutlined(ctx, color, s);
    ctx.beginPath();
    pathUnits(ctx, f, cw, ch, pathSquare, (type, clan, left) => type === UNIT_ALIVE && clan === pl && left >= 0);
    paintBitten(ctx, color, s);
    ctx.beginPath();
    pathUnits(ctx, f, cw, ch, pathCross, (type, clan) => type === UNIT_DEAD && clan === pl);
    paintDead(ctx, color, s);
  }

  const isZombie = (type: number) => type === UNIT_ZOMBIE;
  ctx.beginPath();
  pathUnits(ctx, f, cw, ch, pathSquare, isZombie);
  paintOutlined(ctx, ZOMBIE, s);
  if (s >= MIN_EYES_CELL) {
    ctx.beginPath();
    pathUnits(ctx, f, cw, ch, pathZombieEyes, isZombie);
    paintZombieEyes(ctx);
  }

  if (s >= MIN_TEXT_CELL) {
    setCountdownFont(ctx, s);
    for (let u = 0; u < nUnits; u++) {
      const c = units[4 * u + 2]!;
      const left = units[4 * u + 3]!;
      if (c < 0 || left < 0 || units[4 * u] === UNIT_ZOMBIE) continue;
      const i = (c / cols) | 0;
      drawCountdown(ctx, (c - i * cols + 0.5) * cw, (i + 0.5) * ch, s, left);
    }
  }

  markCount = 0;
  visitMarks(args, collectMark);
  for (let m = 0; m < markCount; m++) {
    const c = markCells[m]!;
    const clan = markClans[m]!;
    const i = (c / cols) | 0;
    ctx.beginPath();
    pathRing(ctx, (c - i * cols + 0.5) * cw, (i + 0.5) * ch, s);
    paintRing(ctx, clan >= 0 ? (colors[clan] ?? OUTLINE) : ZOMBIE_MARK, s);
  }

  ctx.restore();
}

// ---- Legend, tooltip, view.

function swatchCell(ctx: CanvasRenderingContext2D, size: number): void {
  ctx.fillStyle = STREET;
  ctx.fillRect(0, 0, size, size);
}

/** A legend entry: one piece on a street cell, drawn as the board draws it (a unit in the first clan's colour), with a countdown of n rounds if given. */
function pieceSwatch(label: string, path: PathFn, paint: PaintFn, n?: number): LegendItem {
  return {
    label,
    swatch(ctx, size, colors) {
      swatchCell(ctx, size);
      ctx.beginPath();
      path(ctx, size / 2, size / 2, size);
      paint(ctx, colors[0] ?? OUTLINE, size);
      if (n !== undefined && size >= MIN_TEXT_CELL) {
        setCountdownFont(ctx, size);
        drawCountdown(ctx, size / 2, size / 2, size, n);
      }
    },
  };
}

const legend: LegendItem[] = [
  { label: W.legend.street, swatch: (ctx, size) => swatchCell(ctx, size) },
  {
    label: W.legend.waste,
    swatch(ctx, size) {
      ctx.fillStyle = WASTE;
      ctx.fillRect(0, 0, size, size);
    },
  },
  {
    label: W.legend.owned,
    swatch(ctx, size, colors) {
      swatchCell(ctx, size);
      const h = size / 2;
      ctx.globalAlpha = OWNED_ALPHA;
      for (let pl = 0; pl < 4 && pl < colors.length; pl++) {
        ctx.fillStyle = colors[pl]!;
        ctx.fillRect((pl % 2) * h, (pl >> 1) * h, h, h);
      }
      ctx.globalAlpha = 1;
    },
  },
  pieceSwatch(W.legend.food, pathFood, (ctx, _color, s) => paintOutlined(ctx, FOOD, s)),
  pieceSwatch(W.legend.alive, pathCircle, paintOutlined),
  pieceSwatch(W.legend.bitten, pathSquare, paintBitten, 3),
  pieceSwatch(W.legend.dead, pathCross, paintDead, 5),
  {
    label: W.legend.zombie,
    swatch(ctx, size) {
      swatchCell(ctx, size);
      ctx.beginPath();
      pathSquare(ctx, size / 2, size / 2, size);
      paintOutlined(ctx, ZOMBIE, size);
      if (size >= MIN_EYES_CELL) {
        ctx.beginPath();
        pathZombieEyes(ctx, size / 2, size / 2, size);
        paintZombieEyes(ctx);
      }
    },
  },
  {
    label: W.legend.clanRing,
    swatch(ctx, size, colors) {
      // A smaller cell, so that the ring (which overlaps the neighbours on the board) fits.
      const s = size * 0.78;
      swatchCell(ctx, size);
      ctx.beginPath();
      pathCross(ctx, size / 2, size / 2, s);
      paintDead(ctx, colors[1] ?? OUTLINE, s);
      ctx.beginPath();
      pathRing(ctx, size / 2, size / 2, s);
      paintRing(ctx, colors[0] ?? OUTLINE, s);
    },
  },
  {
    label: W.legend.greenRing,
    swatch(ctx, size) {
      const s = size * 0.78;
      swatchCell(ctx, size);
      ctx.beginPath();
      pathSquare(ctx, size / 2, size / 2, s);
      paintOutlined(ctx, ZOMBIE, s);
      ctx.beginPath();
      pathRing(ctx, size / 2, size / 2, s);
      paintRing(ctx, ZOMBIE_MARK, s);
    },
  },
];

function describeUnit(replay: Replay<TwdFrame>, units: number[], u: number): string {
  const type = units[4 * u];
  const clan = units[4 * u + 1]!;
  const left = units[4 * u + 3]!;
  const rounds = W.rounds(left);
  if (type === UNIT_ZOMBIE) return W.zombie(u);
  if (type === UNIT_DEAD) return W.deadUnit(u, playerName(replay, clan), rounds);
  return `${W.unit(u, playerName(replay, clan))}${left >= 0 ? W.bitten(rounds) : ''}`;
}

function describeCell(args: DrawArgs<TwdFrame>, row: number, col: number): string | null {
  const f = frameOf(args.round);
  if (row < 0 || col < 0 || row >= f.rows || col >= f.cols) return null;
  const c = row * f.cols + col;
  const code = f.grid.charCodeAt(c);
  const parts: string[] = [];
  if (code === CODE_WASTE) parts.push(`(${row}, ${col}) ${W.waste}`);
  else if (code >= CODE_OWNER0 && code < CODE_OWNER0 + 4) parts.push(`(${row}, ${col}) ${W.streetOwnedBy(playerName(args.replay, code - CODE_OWNER0))}`);
  else parts.push(`(${row}, ${col}) ${W.street}`);
  if (f.food.includes(c)) parts.push(W.food);
  for (let u = 0; u < f.units.length >> 2; u++) if (f.units[4 * u + 2] === c) parts.push(describeUnit(args.replay, f.units, u));
  visitMarks(args, (cell, _clan, what) => {
    if (cell === c) parts.push(W.thisRound(what));
  });
  return parts.join('; ');
}

const view: GameView<TwdFrame> = {
  boardSize(replay) {
    const f = replay.rounds[0] ? frameOf(replay.rounds[0]) : null;
    const rows = typeof replay.config.board_rows === 'number' ? replay.config.board_rows : (f?.rows ?? 60);
    const cols = typeof replay.config.board_cols === 'number' ? replay.config.board_cols : (f?.cols ?? 60);
    return { rows, cols };
  },
  draw,
  counterLabels: W.counters,
  legend,
  describeCell,
};

export default view;
