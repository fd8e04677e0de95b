// The contract between the one viewer and each game's drawing code
// (src/games/<id>/viewer.ts, default export). The viewer owns the canvas,
// the controls, the timeline and the scoreboard; a game view only draws one
// round of its board from the replay and names its counters. It reads
// nothing but the replay.

import type { Replay, ReplayRound } from '../replay-format.ts';

export type { Replay, ReplayRound };

export interface DrawArgs<Frame = unknown> {
  ctx: CanvasRenderingContext2D;
  /** Drawing area in CSS pixels (the context is already scaled for the device pixel ratio). */
  width: number;
  height: number;
  replay: Replay<Frame>;
  /** Index into replay.rounds (0 = the initial state). */
  index: number;
  round: ReplayRound<Frame>;
  /** The round before (null at index 0): to show moves, deaths, conversions. */
  prev: ReplayRound<Frame> | null;
  /** Colour per seat (PLAYER_COLORS unless the page overrides it). */
  colors: readonly string[];
}

export interface LegendItem {
  label: string;
  /** Draws the swatch into a size × size box at the origin. */
  swatch(ctx: CanvasRenderingContext2D, size: number, colors: readonly string[]): void;
}

/** Frame is the game's frame type, from its DOM-free frame module (the engine's `frame(state)` returns it). */
export interface GameView<Frame = unknown> {
  /** Board size in cells: the viewer sizes the canvas to this aspect ratio. */
  boardSize(replay: Replay<Frame>): { rows: number; cols: number };
  /** Draws round `index` filling width × height. */
  draw(args: DrawArgs<Frame>): void;
  /** Scoreboard labels of the counters the game reports, in display order (e.g. { cells: 'cells' }). Counters not named are not shown. */
  counterLabels: Record<string, string>;
  /** What the board's symbols mean, shown beside the board. */
  legend: LegendItem[];
  /** A one-line description of a cell for the pointer tooltip ("(12, 30) cave, owned by Gimli; dwarf 80 hp"). */
  describeCell?(args: DrawArgs<Frame>, row: number, col: number): string | null;
}

/** Seat colours: distinct, readable on light and dark cells, and told apart with common colour blindness. */
export const PLAYER_COLORS: readonly string[] = ['#d62728', '#1f77b4', '#2ca02c', '#e6a100'];
/** Non-player units (Sauron, zombies, ghosts...). */
export const NEUTRAL_COLOR = '#555555';
