// The replay viewer: one for every game. It owns the canvas, the timeline,
// the controls, the scoreboard, the legend and the pointer tooltip; the
// game's own view (loaded from /assets/games/<id>/viewer.js) draws the board
// of one round and describes a cell. It draws only when something changed,
// and while playing paces rounds with requestAnimationFrame.

import { PLAYER_COLORS, type DrawArgs, type GameView, type Replay } from '../../../sdk/viewer/game-view.ts';
import { h, iconButton, ICONS, setAttr, setText, uniqueId } from './dom.ts';
import { isTextEntry, SHORTCUTS } from './keys.ts';
import { ReplayLoadError } from './load.ts';
import { Scoreboard } from './scoreboard.ts';
import { V } from './words.ts';

/** Rounds per second. 8 plays a 200-round match in 25 s. */
export const SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export const DEFAULT_SPEED = 8;

const views = new Map<string, Promise<GameView>>();

export function loadGameView(game: string): Promise<GameView> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(game)) return Promise.reject(new ReplayLoadError(`the replay names no known game ("${game}")`));
  let p = views.get(game);
  if (!p) {
    p = import(/* @vite-ignore */ `/assets/games/${game}/viewer.js`).then(
      (m: { default?: GameView }) => {
        const v = m.default;
        if (!v || typeof v.draw !== 'function' || typeof v.boardSize !== 'function')
          throw new ReplayLoadError(`the viewer of "${game}" does not export a game view`);
        return v;
      },
      (err: Error) => {
        throw new ReplayLoadError(`this site cannot draw "${game}" matches: its board viewer did not load (${err.message})`);
      },
    );
    // A failure is not cached: the next replay of that game tries again.
    p.catch(() => views.delete(game));
    views.set(game, p);
  }
  return p;
}

export interface ViewerOptions {
  /** Index into replay.rounds to show first. */
  index?: number;
  /** Where the replay came from (a file name), shown in the title line. */
  source?: string;
  colors?: readonly string[];
  /** The shown round once it stops changing (paused, seeked): for the URL's #round=. */
  onSettle?(round: number): void;
  /** A round the game view failed to draw (null once one draws again). */
  onDrawError?(message: string | null): void;
}

/** Viewers on the page; the keyboard drives the one last used (or holding the focus). */
const live = new Set<Viewer>();
let active: Viewer | null = null;

export class Viewer {
  /** The viewer's own element, inside the host (the [data-viewer] element). */
  readonly el: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  index = 0;
  playing = false;
  speed = DEFAULT_SPEED;

  private readonly ctx: CanvasRenderingContext2D;
  private readonly colors: readonly string[];
  private readonly board: { rows: number; cols: number };
  private readonly stage: HTMLElement;
  private readonly tip: HTMLElement;
  private readonly dialog: HTMLDialogElement;
  private readonly scoreboard: Scoreboard;
  private readonly c: {
    start: HTMLButtonElement;
    back: HTMLButtonElement;
    play: HTMLButtonElement;
    forward: HTMLButtonElement;
    end: HTMLButtonElement;
    scrub: HTMLInputElement;
    round: HTMLOutputElement;
    speed: HTMLSelectElement;
    help: HTMLButtonElement;
  };
  private readonly resize: ResizeObserver;
  /** The playback controls under the board (their height bounds the board's). */
  private readonly controls: HTMLElement;
  private size = { width: 0, height: 0, dpr: 0 };
  private raf = 0;
  private lastFrame = 0;
  /** Fraction of a round owed to the timeline, carried between frames. */
  private carry = 0;
  private dirty = true;
  private settleTimer = 0;
  private tipCell: { row: number; col: number; x: number; y: number } | null = null;
  private drawError: number | null = null;

  constructor(
    readonly host: HTMLElement,
    readonly replay: Replay,
    readonly view: GameView,
    private readonly opts: ViewerOptions = {},
  ) {
    this.colors = opts.colors ?? PLAYER_COLORS;
    const board = view.boardSize(replay);
    if (!(board.rows > 0 && board.cols > 0)) throw new ReplayLoadError(`the ${replay.game} viewer gives no board size for this replay`);
    this.board = board;
    const last = this.last;
    const lastRound = replay.rounds[last]!.round;

    this.canvas = h('canvas', { class: 'viewer-board', role: 'img' });
    this.ctx = this.canvas.getContext('2d')!;
    this.tip = h('div', { class: 'viewer-tip', role: 'tooltip', id: uniqueId('tip'), hidden: true });
    this.stage = h('div', { class: 'viewer-stage' }, this.canvas, this.tip);

    const scrubId = uniqueId('round');
    const speedId = uniqueId('speed');
    this.c = {
      start: iconButton(V.start, ICONS.start, { 'aria-keyshortcuts': 'Home', title: `${V.start} (Home)`, 'data-action': 'start' }),
      back: iconButton(V.back, ICONS.back, { 'aria-keyshortcuts': 'ArrowLeft', title: `${V.back} (←)`, 'data-action': 'back' }),
      play: iconButton(V.play, ICONS.play, {
        'aria-keyshortcuts': 'Space',
        title: `${V.play} (Space)`,
        class: 'viewer-btn viewer-play',
        'data-action': 'play',
      }),
      forward: iconButton(V.forward, ICONS.forward, { 'aria-keyshortcuts': 'ArrowRight', title: `${V.forward} (→)`, 'data-action': 'forward' }),
      end: iconButton(V.end, ICONS.end, { 'aria-keyshortcuts': 'End', title: `${V.end} (End)`, 'data-action': 'end' }),
      scrub: h('input', { type: 'range', id: scrubId, class: 'viewer-scrub', min: 0, max: last, step: 1, value: 0, 'data-action': 'scrub' }),
      round: h('output', { class: 'viewer-round', for: scrubId, 'data-round-indicator': '' }),
      speed: h(
        'select',
        { id: speedId, class: 'viewer-speed-select', 'aria-keyshortcuts': '+ -' },
        ...SPEEDS.map((s) => h('option', { value: s }, V.roundsPerSecond(Number(s)))),
      ),
      help: iconButton(V.shortcuts, ICONS.help, { 'aria-haspopup': 'dialog', 'aria-keyshortcuts': 'h', title: `${V.shortcuts} (h)`, 'data-action': 'help' }),
    };
    // Wide enough for the longest text, so the controls do not shift while playing.
    this.c.round.style.minWidth = `${`${V.round} ${lastRound} / ${lastRound}`.length * 0.62}em`;
    const controls = (this.controls = h(
      'div',
      { class: 'viewer-controls', role: 'group', 'aria-label': V.playback },
      h('div', { class: 'viewer-buttons' }, this.c.start, this.c.back, this.c.play, this.c.forward, this.c.end),
      h('div', { class: 'viewer-timeline' }, h('label', { for: scrubId, class: 'vh' }, V.round), this.c.scrub, this.c.round),
      h('div', { class: 'viewer-speed' }, h('label', { for: speedId }, V.speed), this.c.speed, this.c.help),
    ));

    this.scoreboard = new Scoreboard(replay, view, this.colors);
    this.dialog = this.helpDialog();
    const title = h(
      'p',
      { class: 'viewer-title' },
      h('strong', {}, replay.title || replay.game),
      V.seedRounds(replay.seed, lastRound),
      opts.source ? ` · ${opts.source}` : '',
    );
    this.el = h(
      'div',
      { class: 'viewer-body' },
      title,
      h('div', { class: 'viewer-main' }, this.stage, controls),
      h('div', { class: 'viewer-side' }, this.scoreboard.el, this.legend()),
      this.dialog,
    );
    host.append(this.el);
    host.dataset.game = replay.game;
    host.dataset.rounds = String(lastRound);
    this.wire();
    live.add(this);
    active = this;
    if (live.size === 1) document.addEventListener('keydown', onKeyDown);
    this.resize = new ResizeObserver(() => this.invalidate());
    this.resize.observe(this.stage);
    this.setSpeed(DEFAULT_SPEED);
    this.updatePlayButton();
    this.seek(opts.index ?? 0);
    this.render(); // at once, so data-round is right when the caller marks the viewer ready
  }

  get last(): number {
    return this.replay.rounds.length - 1;
  }

  get helpOpen(): boolean {
    return this.dialog.open;
  }

  /** Shows rounds[index] (clamped). */
  seek(index: number) {
    const i = Math.max(0, Math.min(this.last, Math.round(Number.isFinite(index) ? index : 0)));
    if (i !== this.index) {
      this.index = i;
      this.invalidate();
    }
    if (!this.playing) this.settle();
  }

  /** The index of round number `round` (rounds are numbered from 0, one per entry, but do not assume it). */
  indexOfRound(round: number): number {
    const i = this.replay.rounds.findIndex((r) => r.round === round);
    return i >= 0 ? i : Math.max(0, Math.min(this.last, round));
  }

  step(delta: number) {
    this.pause();
    this.seek(this.index + delta);
  }

  play() {
    if (this.playing) return;
    if (this.index >= this.last) this.seek(0);
    this.playing = true;
    this.lastFrame = 0;
    this.carry = 0;
    this.updatePlayButton();
    this.schedule();
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.updatePlayButton();
    this.settle();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed: number) {
    if (!(SPEEDS as readonly number[]).includes(speed)) return;
    this.speed = speed;
    this.c.speed.value = String(speed);
    this.host.dataset.speed = String(speed);
  }

  faster() {
    this.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(this.speed as (typeof SPEEDS)[number]) + 1)]!);
  }

  slower() {
    this.setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(this.speed as (typeof SPEEDS)[number]) - 1)]!);
  }

  openHelp() {
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** Removes the viewer from the page (another replay replaces it). */
  destroy() {
    this.playing = false;
    cancelAnimationFrame(this.raf);
    clearTimeout(this.settleTimer);
    this.resize.disconnect();
    window.removeEventListener('resize', this.invalidate);
    document.removeEventListener('pointerdown', this.onOutsidePointer, true);
    if (this.dialog.open) this.dialog.close();
    this.el.remove();
    live.delete(this);
    if (active === this) active = null;
    if (live.size === 0) document.removeEventListener('keydown', onKeyDown);
  }

  args(): DrawArgs {
    const rounds = this.replay.rounds;
    return {
      ctx: this.ctx,
      width: this.size.width,
      height: this.size.height,
      replay: this.replay,
      index: this.index,
      round: rounds[this.index]!,
      prev: this.index > 0 ? rounds[this.index - 1]! : null,
      colors: this.colors,
    };
  }

  private wire() {
    const { c } = this;
    const click = (b: HTMLButtonElement, fn: () => void) =>
      b.addEventListener('click', () => {
        if (b.getAttribute('aria-disabled') !== 'true') fn();
      });
    click(c.start, () => this.seek(0));
    click(c.back, () => this.step(-1));
    click(c.play, () => this.toggle());
    click(c.forward, () => this.step(1));
    click(c.end, () => this.seek(this.last));
    click(c.help, () => this.openHelp());
    c.scrub.addEventListener('input', () => this.seek(Number(c.scrub.value)));
    c.speed.addEventListener('change', () => this.setSpeed(Number(c.speed.value)));
    const claim = () => (active = this);
    this.el.addEventListener('pointerdown', claim);
    this.el.addEventListener('focusin', claim);
    window.addEventListener('resize', this.invalidate);

    if (this.view.describeCell) {
      this.canvas.classList.add('viewer-describes');
      this.canvas.setAttribute('aria-describedby', this.tip.id);
      this.canvas.addEventListener('pointermove', (e) => {
        if (e.pointerType === 'mouse') this.showTip(this.cellAt(e));
      });
      this.canvas.addEventListener('pointerleave', (e) => {
        if (e.pointerType === 'mouse') this.hideTip();
      });
      // Touch and pen: a tap shows the cell, a second tap on it (or a tap elsewhere) hides it.
      this.canvas.addEventListener('pointerdown', (e) => {
        if (e.pointerType === 'mouse') return;
        const cell = this.cellAt(e);
        if (cell && this.tipCell && !this.tip.hidden && cell.row === this.tipCell.row && cell.col === this.tipCell.col) this.hideTip();
        else this.showTip(cell);
      });
      document.addEventListener('pointerdown', this.onOutsidePointer, true);
    }
  }

  private onOutsidePointer = (e: PointerEvent) => {
    if (e.target !== this.canvas && !this.tip.hidden) this.hideTip();
  };

  private helpDialog(): HTMLDialogElement {
    const titleId = uniqueId('help-title');
    const keys = (list: string[]) => list.flatMap((k, i) => (i ? [' / ', h('kbd', {}, k)] : [h('kbd', {}, k)]));
    return h(
      'dialog',
      { class: 'viewer-help', 'aria-labelledby': titleId, 'data-help': '' },
      h('h2', { id: titleId }, V.shortcuts),
      h('table', {}, h('tbody', {}, ...SHORTCUTS.map((s) => h('tr', {}, h('th', { scope: 'row' }, ...keys(s.keys)), h('td', {}, s.action))))),
      h('p', { class: 'hint' }, V.noEffectTyping),
      h('form', { method: 'dialog' }, h('button', { type: 'submit' }, V.close)),
    );
  }

  private legend(): HTMLElement | null {
    const items = this.view.legend ?? [];
    if (items.length === 0) return null;
    const size = 18;
    const dpr = window.devicePixelRatio || 1;
    const titleId = uniqueId('legend');
    const list = h('ul', { class: 'viewer-legend-list' });
    for (const item of items) {
      const swatch = h('canvas', {
        width: Math.round(size * dpr),
        height: Math.round(size * dpr),
        'aria-hidden': 'true',
        style: `width:${size}px;height:${size}px`,
      });
      const ctx = swatch.getContext('2d');
      if (ctx) {
        ctx.scale(dpr, dpr);
        try {
          item.swatch(ctx, size, this.colors);
        } catch (err) {
          console.warn(`legend swatch "${item.label}": ${(err as Error).message}`);
        }
      }
      list.append(h('li', {}, swatch, h('span', {}, item.label)));
    }
    return h(
      'section',
      { class: 'viewer-legend', 'aria-labelledby': titleId, 'data-legend': '' },
      h('p', { class: 'viewer-side-title', id: titleId }, V.legend),
      list,
    );
  }

  private invalidate = () => {
    this.dirty = true;
    this.schedule();
  };

  private schedule() {
    if (!this.raf) this.raf = requestAnimationFrame(this.tick);
  }

  private tick = (now: number) => {
    this.raf = 0;
    if (this.playing) {
      // A long gap (a hidden tab, a slow frame) does not turn into a jump.
      const dt = this.lastFrame ? Math.min(now - this.lastFrame, 100) : 0;
      this.lastFrame = now;
      this.carry += (dt * this.speed) / 1000;
      const steps = Math.floor(this.carry);
      if (steps > 0) {
        this.carry -= steps;
        this.index = Math.min(this.last, this.index + steps);
        this.dirty = true;
        if (this.index >= this.last) this.pause();
      }
    }
    if (this.dirty) this.render();
    if (this.playing) this.schedule();
  };

  /**
   * Sizes the canvas to the board's aspect: the stage's width, and no taller
   * than the window leaves under the stage with the controls below it, so
   * that a viewer starting in the first screen (a match page under its facts)
   * shows its controls without scrolling; one starting further down fits a
   * window. Never under 240 px.
   */
  private layout() {
    const { rows, cols } = this.board;
    const stageTop = this.stage.getBoundingClientRect().top + window.scrollY;
    const room = stageTop < window.innerHeight * 0.6 ? window.innerHeight - stageTop : window.innerHeight;
    const below = this.controls.offsetHeight + 16;
    const maxHeight = Math.max(240, room - below);
    let width = Math.max(100, this.stage.clientWidth);
    if ((width * rows) / cols > maxHeight) width = (maxHeight * cols) / rows;
    width = Math.floor(width);
    const height = Math.floor((width * rows) / cols);
    const dpr = window.devicePixelRatio || 1;
    if (width === this.size.width && height === this.size.height && dpr === this.size.dpr) return;
    this.size = { width, height, dpr };
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
  }

  private render() {
    this.dirty = false;
    this.layout();
    const { width, height, dpr } = this.size;
    const round = this.replay.rounds[this.index]!;
    const lastRound = this.replay.rounds[this.last]!.round;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.ctx.clearRect(0, 0, width, height);
    try {
      this.view.draw(this.args());
      if (this.drawError !== null) {
        this.drawError = null;
        this.opts.onDrawError?.(null);
      }
    } catch (err) {
      this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.ctx.fillStyle = '#fff';
      this.ctx.font = '16px system-ui, sans-serif';
      this.ctx.fillText(`Round ${round.round} could not be drawn.`, 12, 28);
      if (this.drawError !== this.index) {
        this.drawError = this.index;
        this.opts.onDrawError?.(`The ${this.replay.title} view could not draw round ${round.round}: ${(err as Error).message}`);
      }
    }
    setAttr(this.canvas, 'aria-label', V.board(this.replay.title, round.round, lastRound));

    const { c } = this;
    if (c.scrub.value !== String(this.index)) c.scrub.value = String(this.index);
    setAttr(c.scrub, 'aria-valuetext', V.roundOf(round.round, lastRound));
    setText(c.round, `${V.round} ${round.round} / ${lastRound}`);
    for (const b of [c.start, c.back]) setAttr(b, 'aria-disabled', this.index === 0 ? 'true' : null);
    for (const b of [c.forward, c.end]) setAttr(b, 'aria-disabled', this.index === this.last ? 'true' : null);
    this.scoreboard.update(this.index);
    if (!this.tip.hidden && this.tipCell) this.showTip(this.tipCell);
    this.host.dataset.round = String(round.round);
  }

  private updatePlayButton() {
    const { play } = this.c;
    const label = this.playing ? V.pause : V.play;
    play.setAttribute('aria-label', label);
    play.title = `${label} (Space)`;
    play.innerHTML = this.playing ? ICONS.pause : ICONS.play;
    this.host.dataset.playing = String(this.playing);
  }

  private settle() {
    clearTimeout(this.settleTimer);
    const onSettle = this.opts.onSettle;
    if (!onSettle) return;
    // Debounced: scrubbing or holding → must not flood the history.
    this.settleTimer = window.setTimeout(() => {
      if (!this.playing) onSettle(this.replay.rounds[this.index]!.round);
    }, 300);
  }

  private cellAt(e: PointerEvent) {
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (x < 0 || y < 0 || x >= rect.width || y >= rect.height) return null;
    return { row: Math.floor((y / rect.height) * this.board.rows), col: Math.floor((x / rect.width) * this.board.cols), x, y };
  }

  private showTip(cell: { row: number; col: number; x: number; y: number } | null) {
    let text: string | null = null;
    if (cell) {
      try {
        text = this.view.describeCell?.(this.args(), cell.row, cell.col) ?? null;
      } catch (err) {
        text = `(${cell.row}, ${cell.col}): ${(err as Error).message}`;
      }
    }
    if (!cell || !text) return this.hideTip();
    this.tipCell = cell;
    setText(this.tip, text);
    this.tip.hidden = false;
    // Beside the pointer, flipped to stay inside the board.
    const gap = 14;
    const left = this.canvas.offsetLeft + cell.x;
    const top = this.canvas.offsetTop + cell.y;
    const w = this.tip.offsetWidth;
    const ht = this.tip.offsetHeight;
    const x = left + gap + w > this.stage.clientWidth ? Math.max(0, left - gap - w) : left + gap;
    const y = cell.y + gap + ht > this.size.height ? Math.max(0, top - gap - ht) : top + gap;
    this.tip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  private hideTip() {
    this.tipCell = null;
    this.tip.hidden = true;
  }
}

function onKeyDown(e: KeyboardEvent) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const target = e.target instanceof HTMLElement ? e.target : null;
  const v = [...live].find((x) => target && x.host.contains(target)) ?? active ?? live.values().next().value;
  if (!v || v.helpOpen) return; // an open dialog handles its own keys (Esc closes it)
  if (target?.closest('dialog[open]')) return;
  if (isTextEntry(target)) return;
  // A focused range, button or link keeps its own keys.
  const onRange = target instanceof HTMLInputElement && target.type === 'range';
  const activates =
    target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || target instanceof HTMLInputElement || target?.tagName === 'SUMMARY';
  switch (e.key) {
    case ' ':
      if (activates) return;
      v.toggle();
      break;
    case 'k':
    case 'K':
      v.toggle();
      break;
    case 'ArrowLeft':
    case 'ArrowRight':
      if (onRange) return;
      v.step((e.key === 'ArrowLeft' ? -1 : 1) * (e.shiftKey ? 10 : 1));
      break;
    case 'Home':
    case 'End':
      if (onRange) return;
      v.seek(e.key === 'Home' ? 0 : v.last);
      break;
    case '+':
    case '=':
      v.faster();
      break;
    case '-':
    case '_':
      v.slower();
      break;
    case 'h':
    case 'H':
    case '?':
      v.openHelp();
      break;
    default:
      return;
  }
  e.preventDefault();
}
