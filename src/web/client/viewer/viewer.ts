// The replay viewer: one for every game. It owns the canvas, the timeline
// and the controls; the game's own view (loaded from
// /assets/games/<id>/viewer.js) draws the board of one round.

import { PLAYER_COLORS, type GameView, type Replay, type DrawArgs } from './game-view.ts';

const views = new Map<string, Promise<GameView>>();

export function loadGameView(game: string): Promise<GameView> {
  let p = views.get(game);
  if (!p) {
    p = import(/* @vite-ignore */ `/assets/games/${encodeURIComponent(game)}/viewer.js`).then((m: { default: GameView }) => m.default);
    views.set(game, p);
  }
  return p;
}

export class Viewer {
  readonly canvas: HTMLCanvasElement;
  index = 0;
  private readonly ctx: CanvasRenderingContext2D;

  constructor(
    readonly root: HTMLElement,
    readonly replay: Replay,
    readonly view: GameView,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'viewer-board';
    this.canvas.setAttribute('role', 'img');
    root.append(this.canvas);
    this.ctx = this.canvas.getContext('2d')!;
    new ResizeObserver(() => this.draw()).observe(root);
  }

  get last(): number {
    return this.replay.rounds.length - 1;
  }

  seek(index: number) {
    this.index = Math.max(0, Math.min(this.last, Math.round(index)));
    this.draw();
  }

  args(): DrawArgs {
    const rounds = this.replay.rounds;
    const { width, height } = this.size();
    return {
      ctx: this.ctx,
      width,
      height,
      replay: this.replay,
      index: this.index,
      round: rounds[this.index]!,
      prev: this.index > 0 ? rounds[this.index - 1]! : null,
      colors: PLAYER_COLORS,
    };
  }

  private size() {
    const { rows, cols } = this.view.boardSize(this.replay);
    const width = Math.max(100, this.root.clientWidth);
    return { width, height: Math.round((width * rows) / cols) };
  }

  draw() {
    const { width, height } = this.size();
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.ctx.clearRect(0, 0, width, height);
    this.view.draw(this.args());
    this.canvas.setAttribute('aria-label', `${this.replay.title}, round ${this.replay.rounds[this.index]!.round} of ${this.replay.rounds[this.last]!.round}`);
    this.root.dataset.round = String(this.replay.rounds[this.index]!.round);
  }
}
