// Harry Potter's view (src/games/harry-potter/viewer.ts) over a real match:
// its board size, counters, cell descriptions, every round drawn into a
// recording fake of the 2D canvas context (cells painted where the frame puts
// them), the legend, and the browser bundle.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import { bundled } from '../../../src/http/assets.ts';
import { GHOST, WIZARD } from '../../../src/games/harry-potter/engine.ts';
import type { HPFrame } from '../../../src/games/harry-potter/frame.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { importGameView, PLAYER_COLORS, RecordingContext, viewArgs, type ViewArgs, type ViewUnderTest } from '../../helpers/game-view.ts';

interface ViewModule {
  WIZARD: number;
  GHOST: number;
  WALL: string;
  CORRIDOR: string;
  parseRgb(css: string): [number, number, number] | null;
  ownedTint(rgb: [number, number, number]): [number, number, number];
}
type Frame = HPFrame;
const viewerFile = new URL('../../../src/games/harry-potter/viewer.ts', import.meta.url);

const ROWS = 30;
const COLS = 40;
// Demo, Dummy, Demo, Null: the two Demos are told apart by seat.
const NAMES = ['Demo (seat 0)', 'Dummy', 'Demo (seat 2)', 'Null'];

/** The cell layer: the view paints one pixel per cell into a scratch canvas it makes from the board's document. */
interface FakeImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}
const scratch = {
  created: 0,
  /** The last image put into the scratch canvas. */
  image: null as FakeImage | null,
};
const fakeDocument = {
  createElement(tag: string) {
    assert.equal(tag, 'canvas');
    scratch.created++;
    const canvas = {
      width: 0,
      height: 0,
      getContext: (kind: string) => {
        assert.equal(kind, '2d');
        return {
          createImageData: (w: number, h: number): FakeImage => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
          putImageData: (image: FakeImage, x: number, y: number) => {
            assert.deepEqual([image.width, image.height, x, y], [canvas.width, canvas.height, 0, 0]);
            scratch.image = image;
          },
        };
      },
    };
    return canvas;
  },
};

/** The shared recorder, with the canvas whose document makes the scratch canvas, and the cell layers drawn. */
function recordingContext() {
  const drawnImages: number[][] = [];
  const rec = new RecordingContext({
    canvas: { ownerDocument: fakeDocument },
    onCall: ({ name, args }, r) => {
      if (name !== 'drawImage') return;
      assert.equal(r.state.imageSmoothingEnabled, false, 'cells are scaled up without blurring');
      drawnImages.push(args.slice(1) as number[]);
    },
  });
  return Object.assign(rec, { drawnImages });
}

let replay: Replay;
let mod: { default: ViewUnderTest } & ViewModule;
let view: ViewUnderTest;

before(async () => {
  mod = await importGameView<ViewModule>('harry-potter');
  view = mod.default;
  const seats = await Promise.all(['Demo', 'Dummy', 'Demo', 'Null'].map((n) => builtinSeat('harry-potter', n)));
  // Ghosts rest only 5 rounds at the start so Dummy's ghost casts spells before the last 50 rounds.
  const config = {
    num_rounds: 90,
    board_rows: ROWS,
    board_cols: COLS,
    num_ini_wizards_per_clan: 8,
    num_ini_books: 20,
    rounds_spell_resting_ghost: 5,
  };
  replay = (await playMatch({ game: 'harry-potter', seed: 11, config, seats }, { host: 'inprocess' })).replay;
});

const frameAt = (index: number) => replay.rounds[index]!.frame as Frame;

function argsAt(index: number, ctx: unknown, width: number, height: number): ViewArgs {
  return viewArgs(replay, index, ctx, width, height);
}

test("the unit types are the engine's, the board is the configured size and the counters named are the ones the game reports", () => {
  assert.equal(mod.WIZARD, WIZARD);
  assert.equal(mod.GHOST, GHOST);
  assert.deepEqual(view.boardSize(replay), { rows: ROWS, cols: COLS });
  assert.deepEqual(Object.keys(view.counterLabels), ['cells', 'wizards', 'magic', 'conversions']);
  for (const round of replay.rounds) {
    for (const key of Object.keys(view.counterLabels)) {
      assert.ok(Array.isArray(round.counters[key]) && round.counters[key]!.length === 4, `round ${round.round}: counter ${key}`);
    }
  }
});

test('describeCell names the cell type, its owner, a book, the unit on it (converting, resting) and Voldemort', () => {
  const seen = { wall: 0, owned: 0, book: 0, wizard: 0, converting: 0, ghostResting: 0, ghostReady: 0, voldemort: 0 };
  for (let index = 0; index < replay.rounds.length; index += 3) {
    const f = frameAt(index);
    const args = argsAt(index, null, COLS * 10, ROWS * 10);
    const unitAt = new Map<number, number>();
    for (let id = 0; id * 6 < f.u.length; id++) unitAt.set(f.u[id * 6 + 2]! * f.cols + f.u[id * 6 + 3]!, id);
    for (let i = 0; i < f.rows; i++) {
      for (let j = 0; j < f.cols; j++) {
        const text = view.describeCell(args, i, j);
        assert.ok(text, `(${i}, ${j})`);
        assert.ok(text.startsWith(`(${i}, ${j}) `), text);
        const c = f.g[i * f.cols + j]!;
        if (c === '#') {
          assert.match(text, /^\(\d+, \d+\) wall(;|$)/);
          seen.wall++;
        } else assert.match(text, /^\(\d+, \d+\) corridor/);
        if (c >= '0' && c <= '3') {
          assert.ok(text.includes(`, owned by ${NAMES[Number(c)]!}`), text);
          seen.owned++;
        } else assert.ok(!text.includes('owned by'), text);
        if (c === 'B') {
          assert.ok(text.includes(', book'), text);
          seen.book++;
        }
        const id = unitAt.get(i * f.cols + j);
        if (id !== undefined) {
          const [type, pl, , , pending, next] = f.u.slice(id * 6, id * 6 + 6) as [number, number, number, number, number, number];
          if (type === WIZARD) {
            assert.ok(text.includes(`; wizard ${id} of ${NAMES[pl]!}`), text);
            if (pending > 0) {
              assert.ok(text.includes(`(converting to ${NAMES[next]!}, ${pending} round${pending === 1 ? '' : 's'} left)`), text);
              seen.converting++;
            } else seen.wizard++;
          } else {
            assert.ok(text.includes(`; ghost ${id} of ${NAMES[pl]!} (`), text);
            if (pending > 0) {
              assert.ok(text.includes(`resting, can cast a spell in ${pending} round`), text);
              seen.ghostResting++;
            } else {
              assert.ok(text.includes('(can cast a spell'), text);
              seen.ghostReady++;
            }
          }
        } else assert.ok(!/wizard|ghost/.test(text), text);
        const [vi, vj] = f.v;
        if (vi === i && vj === j) {
          assert.ok(text.endsWith('; Voldemort'), text);
          seen.voldemort++;
        } else if (Math.abs(vi - i) <= 1 && Math.abs(vj - j) <= 1) assert.ok(text.endsWith("; in Voldemort's reach"), text);
        else assert.ok(!text.includes('Voldemort'), text);
      }
    }
    assert.equal(view.describeCell(args, -1, 0), null);
    assert.equal(view.describeCell(args, f.rows, 0), null);
  }
  // The match shows every case the tooltip knows.
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} seen in the match`);
});

test("every round draws at desktop and phone sizes: each cell painted in its type's or its clan's colour, units batched, state restored", () => {
  const kinds = new Set(replay.rounds.flatMap((r) => r.events.map((e) => (e as { t: string }).t)));
  for (const t of ['attack', 'convert', 'kill', 'respawn', 'spell']) assert.ok(kinds.has(t), `the match has no ${t} event`);
  const rgb = (css: string) => mod.parseRgb(css)!;
  const expected: Record<string, [number, number, number]> = {
    '#': rgb(mod.WALL),
    '.': rgb(mod.CORRIDOR),
    B: rgb(mod.CORRIDOR),
  };
  PLAYER_COLORS.forEach((c, p) => (expected[String(p)] = mod.ownedTint(rgb(c))));
  for (let index = 0; index < replay.rounds.length; index++) {
    const f = frameAt(index);
    const ctx = recordingContext();
    scratch.image = null;
    view.draw(argsAt(index, ctx.ctx, 600, 450));
    assert.ok(ctx.balanced, `round ${index}: save/restore, dash and alpha left as found`);
    assert.deepEqual(ctx.drawnImages, [[0, 0, 600, 450]], `round ${index}: one cell layer over the whole board`);
    const data = scratch.image!.data;
    for (let k = 0; k < f.rows * f.cols; k++) {
      const want = expected[f.g[k]!]!;
      assert.deepEqual([data[4 * k], data[4 * k + 1], data[4 * k + 2], data[4 * k + 3]], [...want, 255], `round ${index}, cell ${k} '${f.g[k]}'`);
    }
    // Units in a few batched paths, not one fill per cell.
    assert.ok(ctx.count('fill') < 40 + f.u.length / 6, `round ${index}: ${ctx.count('fill')} fills`);

    const phone = recordingContext();
    view.draw(argsAt(index, phone.ctx, 360, (360 * ROWS) / COLS));
    assert.ok(phone.balanced);
  }
  // One scratch canvas for the whole match (same board size).
  assert.equal(scratch.created, 1);
  assert.deepEqual(mod.parseRgb('rgb(1, 2, 3)'), [1, 2, 3]);
  assert.deepEqual(mod.parseRgb('#0a0'), [0, 170, 0]);
});

test('every legend swatch draws, with distinct labels, and the view bundles for the browser', async () => {
  assert.ok(view.legend.length >= 10);
  assert.equal(new Set(view.legend.map((l) => l.label)).size, view.legend.length);
  for (const item of view.legend) {
    for (const size of [14, 24]) {
      const ctx = recordingContext();
      item.swatch(ctx.ctx, size, PLAYER_COLORS);
      assert.ok(ctx.balanced, item.label);
      assert.ok(ctx.count('fill') + ctx.count('fillRect') + ctx.count('stroke') > 0, item.label);
    }
  }
  const { js } = await bundled(viewerFile.pathname);
  assert.ok(js.body.length > 1000);
  assert.ok(!js.body.toString().includes('node:'), 'no Node module in the browser bundle');
});
