// Bola de Drac's pictures, shared by the board and the legend so a legend
// swatch is drawn exactly as the board draws that thing. Every function draws
// centred on (x, y) with `s` the cell size in CSS pixels; none allocates
// beyond what the canvas API itself does.

import { strokeOutlined } from '../../../sdk/viewer/paths.ts';

export const GROUND = '#eee6cf';
export const GRID_LINE = 'rgba(110, 90, 50, 0.13)';
export const ROCK = '#6d5f52';
export const ROCK_TOP = '#8d7e6e';
export const CAPSULE_CELL = '#ddd3f0';
const OUTLINE = '#1b1b1b';
/** Strength ring colour once the goku may throw a Kame Hame (strength ≥ kamehame_penalty). */
export const KI = '#00c8ff';
const TAU = Math.PI * 2;

export function rock(ctx: CanvasRenderingContext2D, x0: number, y0: number, w: number, h: number, lit: boolean): void {
  ctx.fillStyle = ROCK;
  ctx.fillRect(x0, y0, w, h);
  if (lit) {
    ctx.fillStyle = ROCK_TOP;
    ctx.fillRect(x0, y0, w, h * 0.2);
  }
}

/** A Hoi Poi capsule: a white and violet pill, the way Capsule Corp's look. */
export function capsule(ctx: CanvasRenderingContext2D, x: number, y: number, s: number): void {
  const hw = s * 0.36;
  const hh = s * 0.19;
  ctx.lineWidth = Math.max(1, s * 0.06);
  ctx.strokeStyle = OUTLINE;
  ctx.fillStyle = '#fafafa';
  ctx.beginPath();
  ctx.arc(x - hw + hh, y, hh, Math.PI / 2, (Math.PI * 3) / 2);
  ctx.lineTo(x, y - hh);
  ctx.lineTo(x, y + hh);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = '#8e6cc8';
  ctx.beginPath();
  ctx.arc(x + hw - hh, y, hh, -Math.PI / 2, Math.PI / 2);
  ctx.lineTo(x, y + hh);
  ctx.lineTo(x, y - hh);
  ctx.closePath();
  ctx.fill();
  ctx.beginPath();
  ctx.arc(x - hw + hh, y, hh, Math.PI / 2, (Math.PI * 3) / 2);
  ctx.arc(x + hw - hh, y, hh, -Math.PI / 2, Math.PI / 2);
  ctx.closePath();
  ctx.stroke();
}

function star(ctx: CanvasRenderingContext2D, x: number, y: number, outer: number, inner: number, points: number): void {
  ctx.beginPath();
  for (let k = 0; k < points * 2; k++) {
    const r = k % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (k * Math.PI) / points;
    if (k === 0) ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a));
    else ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
  }
  ctx.closePath();
}

/** A dragon ball: orange, with a red star (a dot when too small for one). */
export function dragonBall(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.fillStyle = '#ff9a1f';
  ctx.strokeStyle = '#a34d00';
  ctx.lineWidth = Math.max(1, r * 0.16);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, TAU);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#d0161b';
  if (r >= 5) {
    star(ctx, x, y + r * 0.05, r * 0.5, r * 0.2, 5);
    ctx.fill();
  } else {
    ctx.beginPath();
    ctx.arc(x, y, r * 0.35, 0, TAU);
    ctx.fill();
  }
  ctx.fillStyle = 'rgba(255, 255, 255, 0.75)';
  ctx.beginPath();
  ctx.arc(x - r * 0.45, y - r * 0.45, r * 0.2, 0, TAU);
  ctx.fill();
}

/** A magic bean (senzu): a small green bean lying aslant. */
export function bean(ctx: CanvasRenderingContext2D, x: number, y: number, s: number): void {
  ctx.fillStyle = '#8bc34a';
  ctx.strokeStyle = '#2e5c12';
  ctx.lineWidth = Math.max(1, s * 0.06);
  ctx.beginPath();
  ctx.ellipse(x, y, s * 0.3, s * 0.17, -Math.PI / 5, 0, TAU);
  ctx.fill();
  ctx.stroke();
  ctx.strokeStyle = 'rgba(46, 92, 18, 0.6)';
  ctx.beginPath();
  ctx.ellipse(x, y, s * 0.16, s * 0.07, -Math.PI / 5, Math.PI * 0.1, Math.PI * 0.9);
  ctx.stroke();
}

/** A Kinton cloud (the golden flying nimbus): three puffs, outlined as one shape. */
export function cloud(ctx: CanvasRenderingContext2D, x: number, y: number, s: number): void {
  const lw = Math.max(1, s * 0.06);
  const r1 = s * 0.17;
  const r2 = s * 0.22;
  // Outline: the puffs grown by the line width, then the puffs over them.
  for (let pass = 0; pass < 2; pass++) {
    const grow = pass === 0 ? lw : 0;
    ctx.fillStyle = pass === 0 ? '#b8860b' : '#ffd54f';
    ctx.beginPath();
    ctx.arc(x - s * 0.22, y + s * 0.05, r1 + grow, 0, TAU);
    ctx.moveTo(x + s * 0.22 + r1 + grow, y + s * 0.05);
    ctx.arc(x + s * 0.22, y + s * 0.05, r1 + grow, 0, TAU);
    ctx.moveTo(x + r2 + grow, y - s * 0.04);
    ctx.arc(x, y - s * 0.04, r2 + grow, 0, TAU);
    ctx.fill();
  }
}

/** Where a bean or a cloud will come back: its faded picture and how much of the wait has passed. */
export function respawning(ctx: CanvasRenderingContext2D, x: number, y: number, s: number, isBean: boolean, progress: number): void {
  ctx.globalAlpha = 0.28;
  if (isBean) bean(ctx, x, y, s);
  else cloud(ctx, x, y, s);
  ctx.globalAlpha = 1;
  if (progress > 0) {
    ctx.strokeStyle = 'rgba(60, 60, 60, 0.55)';
    ctx.lineWidth = Math.max(1, s * 0.06);
    ctx.beginPath();
    ctx.arc(x, y, s * 0.4, -Math.PI / 2, -Math.PI / 2 + TAU * Math.min(1, progress));
    ctx.stroke();
  }
}

/** Black or white, whichever reads better on a colour given as #rrggbb. */
const inkCache = new Map<string, string>();
export function inkOn(color: string): string {
  let ink = inkCache.get(color);
  if (ink === undefined) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
    const lum = m ? (0.299 * parseInt(m[1]!, 16) + 0.587 * parseInt(m[2]!, 16) + 0.114 * parseInt(m[3]!, 16)) / 255 : 0;
    ink = lum > 0.6 ? '#111111' : '#ffffff';
    inkCache.set(color, ink);
  }
  return ink;
}

export interface GokuLook {
  color: string;
  /** Seat number shown inside (null: none). */
  label: string | null;
  /** strength / max_strength, 0..1. */
  strength: number;
  ki: boolean;
  ball: boolean;
  kinton: boolean;
}

/** A living goku: a disc in its player's colour inside a strength ring; a ball at its shoulder when it carries one; a cloud under it when it rides one. */
export function goku(ctx: CanvasRenderingContext2D, x: number, y: number, s: number, g: GokuLook): void {
  if (g.kinton) cloud(ctx, x, y + s * 0.3, s * 1.3);
  const r = s * 0.33;
  // The ring: a faint track, then the strength left, clockwise from the top.
  const rr = s * 0.43;
  ctx.lineWidth = Math.max(1.5, s * 0.1);
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.18)';
  ctx.beginPath();
  ctx.arc(x, y, rr, 0, TAU);
  ctx.stroke();
  if (g.strength > 0) {
    ctx.strokeStyle = g.ki ? KI : '#262626';
    ctx.beginPath();
    ctx.arc(x, y, rr, -Math.PI / 2, -Math.PI / 2 + TAU * Math.min(1, g.strength));
    ctx.stroke();
  }
  ctx.fillStyle = g.color;
  ctx.strokeStyle = OUTLINE;
  ctx.lineWidth = Math.max(1, s * 0.06);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, TAU);
  ctx.fill();
  ctx.stroke();
  if (g.label !== null) {
    ctx.fillStyle = inkOn(g.color);
    ctx.font = `bold ${Math.round(s * 0.4)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(g.label, x, y + s * 0.02);
  }
  if (g.ball) dragonBall(ctx, x + s * 0.3, y - s * 0.3, s * 0.17);
}

/** A dead goku, where it fell: a faded dashed circle crossed out, in its player's colour. */
export function deadGoku(ctx: CanvasRenderingContext2D, x: number, y: number, s: number, color: string): void {
  const r = s * 0.3;
  ctx.globalAlpha = 0.75;
  ctx.lineWidth = Math.max(1, s * 0.07);
  ctx.strokeStyle = color;
  ctx.setLineDash([Math.max(1.5, s * 0.12), Math.max(1.5, s * 0.09)]);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, TAU);
  ctx.stroke();
  ctx.setLineDash([]);
  const d = r * 0.62;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(x - d, y - d);
  ctx.lineTo(x + d, y + d);
  ctx.moveTo(x + d, y - d);
  ctx.lineTo(x - d, y + d);
  strokeOutlined(ctx, OUTLINE, Math.max(2, s * 0.16), color, Math.max(1, s * 0.09));
  ctx.lineCap = 'butt';
  ctx.globalAlpha = 1;
}

/** A Kame Hame ray from centre to centre: a cyan glow with a white core. */
export function beam(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number, s: number): void {
  ctx.lineCap = 'round';
  ctx.strokeStyle = 'rgba(0, 200, 255, 0.4)';
  ctx.lineWidth = s * 0.62;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.lineWidth = Math.max(1, s * 0.2);
  ctx.stroke();
  ctx.lineCap = 'butt';
}

/** A fight: a jagged yellow burst behind the fighters. */
export function clash(ctx: CanvasRenderingContext2D, x: number, y: number, s: number): void {
  star(ctx, x, y, s * 0.8, s * 0.45, 8);
  ctx.fillStyle = 'rgba(255, 235, 59, 0.75)';
  ctx.fill();
  ctx.strokeStyle = 'rgba(230, 81, 0, 0.9)';
  ctx.lineWidth = Math.max(1, s * 0.05);
  ctx.stroke();
}

/** Something happened on this cell (a pickup, a deposit, a new ball, a revival): a thin ring. */
export function ring(ctx: CanvasRenderingContext2D, x: number, y: number, s: number, color: string, dashed: boolean): void {
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1, s * 0.07);
  if (dashed) ctx.setLineDash([Math.max(1.5, s * 0.1), Math.max(1.5, s * 0.08)]);
  ctx.beginPath();
  ctx.arc(x, y, s * 0.54, 0, TAU);
  ctx.stroke();
  if (dashed) ctx.setLineDash([]);
}
