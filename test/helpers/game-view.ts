// What the tests of the games' board views share. A view
// (src/games/<id>/viewer.ts) is browser code type-checked with the DOM lib,
// so it is imported through a computed path the Node type-check does not
// follow, and used through the contract's shape as the Node side sees it
// (src/sdk/viewer/game-view.ts, with the context as `unknown`).

import assert from 'node:assert/strict';
import type { Replay, ReplayRound } from '../../src/sdk/replay-format.ts';

export interface ViewArgs<Frame = unknown> {
  ctx: unknown;
  width: number;
  height: number;
  replay: Replay<Frame>;
  index: number;
  round: ReplayRound<Frame>;
  prev: ReplayRound<Frame> | null;
  colors: readonly string[];
}

export interface ViewUnderTest {
  boardSize(replay: Replay): { rows: number; cols: number };
  draw(args: ViewArgs): void;
  counterLabels: Record<string, string>;
  legend: { label: string; swatch(ctx: unknown, size: number, colors: readonly string[]): void }[];
  describeCell(args: ViewArgs, row: number, col: number): string | null;
}

const url = (path: string) => new URL(`../../src/${path}`, import.meta.url).href;

/** A game's view module: its default export and whatever else the test reads of it (M). */
export async function importGameView<M extends object = object>(game: string): Promise<{ default: ViewUnderTest } & M> {
  return (await import(url(`games/${game}/viewer.ts`))) as { default: ViewUnderTest } & M;
}

/** The seat colours the viewer hands every view. */
export const PLAYER_COLORS = ((await import(url('sdk/viewer/game-view.ts'))) as { PLAYER_COLORS: readonly string[] }).PLAYER_COLORS;

/** The draw arguments of round `index`, as the viewer builds them. */
export function viewArgs<Frame>(replay: Replay<Frame>, index: number, ctx: unknown, width: number, height: number): ViewArgs<Frame> {
  return { ctx, width, height, replay, index, round: replay.rounds[index]!, prev: index > 0 ? replay.rounds[index - 1]! : null, colors: PLAYER_COLORS };
}

/** CanvasRenderingContext2D's methods: calling anything else is a drawing bug a real browser would throw on. */
const CONTEXT_METHODS = new Set([
  'arc',
  'arcTo',
  'beginPath',
  'bezierCurveTo',
  'clearRect',
  'clip',
  'closePath',
  'createConicGradient',
  'createImageData',
  'createLinearGradient',
  'createPattern',
  'createRadialGradient',
  'drawFocusIfNeeded',
  'drawImage',
  'ellipse',
  'fill',
  'fillRect',
  'fillText',
  'getContextAttributes',
  'getImageData',
  'getLineDash',
  'getTransform',
  'isContextLost',
  'isPointInPath',
  'isPointInStroke',
  'lineTo',
  'measureText',
  'moveTo',
  'putImageData',
  'quadraticCurveTo',
  'rect',
  'reset',
  'resetTransform',
  'restore',
  'rotate',
  'roundRect',
  'save',
  'scale',
  'setLineDash',
  'setTransform',
  'stroke',
  'strokeRect',
  'strokeText',
  'transform',
  'translate',
]);

export interface Call {
  name: string;
  args: unknown[];
}

/**
 * A stand-in for the 2D context: records every method call and property
 * write, fails on a method a real context lacks and on a number that is not
 * finite (a NaN coordinate is a drawing bug), and keeps the properties a
 * view leaves behind (restore() does not bring them back, so `balanced`
 * tells whether the view itself resets dash and alpha).
 */
export class RecordingContext {
  readonly calls: Call[] = [];
  readonly sets: { name: string; value: unknown }[] = [];
  /** Property values, starting from a real context's defaults. */
  readonly state: Record<string, unknown> = {
    fillStyle: '#000000',
    strokeStyle: '#000000',
    lineWidth: 1,
    lineCap: 'butt',
    lineJoin: 'miter',
    globalAlpha: 1,
    imageSmoothingEnabled: true,
    font: '10px sans-serif',
    textAlign: 'start',
    textBaseline: 'alphabetic',
  };
  depth = 0;
  lineDash: number[] = [];
  /** What draw() receives. */
  readonly ctx: unknown;

  /** `onCall` sees each call after it is recorded (to check or keep what one test needs); `canvas` is the context's canvas. */
  constructor(options: { canvas?: unknown; onCall?: (call: Call, rec: RecordingContext) => void } = {}) {
    if (options.canvas !== undefined) this.state.canvas = options.canvas;
    const rec = (name: string, args: unknown[]): unknown => {
      for (const a of args) if (typeof a === 'number') assert.ok(Number.isFinite(a), `${name}(${args.join(', ')})`);
      const call = { name, args };
      this.calls.push(call);
      if (name === 'save') this.depth++;
      else if (name === 'restore') this.depth--;
      else if (name === 'setLineDash') this.lineDash = (args[0] as number[]).slice();
      options.onCall?.(call, this);
      if (name === 'measureText') return { width: String(args[0]).length * 6 };
      if (name === 'getLineDash') return this.lineDash.slice();
      return undefined;
    };
    this.ctx = new Proxy(this.state, {
      get: (target, prop) => {
        if (typeof prop !== 'string') return undefined;
        if (prop in target) return target[prop];
        return CONTEXT_METHODS.has(prop) ? (...args: unknown[]) => rec(prop, args) : undefined;
      },
      set: (target, prop, value) => {
        if (typeof prop !== 'string') return false;
        if (typeof value === 'number') assert.ok(Number.isFinite(value), `${prop} = ${value}`);
        target[prop] = value;
        this.sets.push({ name: prop, value });
        return true;
      },
    });
  }

  count(name: string): number {
    let n = 0;
    for (const c of this.calls) if (c.name === name) n++;
    return n;
  }

  /** save/restore paired, no line dash and full opacity left behind. */
  get balanced(): boolean {
    return this.depth === 0 && this.lineDash.length === 0 && this.state.globalAlpha === 1;
  }
}
