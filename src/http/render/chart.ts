// A server-rendered SVG line chart (no client code): the rating history on a
// player page. Accessible: role="img" with a <title> and <desc> the screen
// reader reads; the page puts the same numbers in a table next to it.

import { html, type Html } from './html.ts';

export interface ChartPoint {
  /** Plotted left to right in the order given. */
  y: number;
  /** The x-axis label of the point (e.g. "match 12"). */
  label: string;
}

export interface LineChartOptions {
  /** Unique on the page: the ids of the title and description derive from it. */
  id: string;
  title: string;
  description: string;
  points: ChartPoint[];
  width?: number;
  height?: number;
  /** Value format for the axis labels. */
  format?: (v: number) => string;
}

/** "Nice" axis ticks: about `count` round values covering [min, max]. */
export function ticks(min: number, max: number, count = 4): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(Number(v.toFixed(10)));
  return out;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

export function lineChart(o: LineChartOptions): Html {
  const width = o.width ?? 640;
  const height = o.height ?? 220;
  const fmt = o.format ?? ((v: number) => v.toFixed(1));
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const ys = o.points.map((p) => p.y);
  let min = Math.min(...ys);
  let max = Math.max(...ys);
  if (!(max > min)) {
    // One point or a flat line: give the axis some room.
    min -= 1;
    max += 1;
  }
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const x = (i: number) => pad.left + (o.points.length <= 1 ? innerW / 2 : (i / (o.points.length - 1)) * innerW);
  const y = (v: number) => pad.top + (1 - (v - min) / (max - min)) * innerH;
  const path = o.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(x(i))},${r1(y(p.y))}`).join(' ');
  const yTicks = ticks(min, max);
  const first = o.points[0];
  const last = o.points.at(-1);
  return html`<svg class="chart" id="${o.id}" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-labelledby="${o.id}-title ${o.id}-desc" preserveAspectRatio="xMidYMid meet">
<title id="${o.id}-title">${o.title}</title>
<desc id="${o.id}-desc">${o.description}</desc>
<g class="chart-grid" aria-hidden="true">${yTicks.map(
    (t) =>
      html`<line x1="${pad.left}" x2="${width - pad.right}" y1="${r1(y(t))}" y2="${r1(y(t))}"></line><text x="${pad.left - 6}" y="${r1(y(t)) + 4}" text-anchor="end">${fmt(t)}</text>`,
  )}</g>
<g class="chart-axis" aria-hidden="true"><line x1="${pad.left}" x2="${width - pad.right}" y1="${pad.top + innerH}" y2="${pad.top + innerH}"></line>${
    first ? html`<text x="${pad.left}" y="${height - 8}" text-anchor="start">${first.label}</text>` : ''
  }${last && o.points.length > 1 ? html`<text x="${width - pad.right}" y="${height - 8}" text-anchor="end">${last.label}</text>` : ''}</g>
<path class="chart-line" d="${path}" fill="none"></path>
<g class="chart-points">${o.points.map(
    (p, i) => html`<circle cx="${r1(x(i))}" cy="${r1(y(p.y))}" r="${o.points.length > 60 ? 1.5 : 3}"><title>${p.label}: ${fmt(p.y)}</title></circle>`,
  )}</g>
</svg>`;
}
