// Bola de Drac's view against a real match: board size, counter labels, cell
// descriptions read from the frames, and drawing every round (and every
// legend swatch) on a recording stand-in for the canvas.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import type { MatchSeat } from '../../../src/match/types.ts';
import { importGameView, PLAYER_COLORS, RecordingContext, viewArgs, type ViewArgs, type ViewUnderTest } from '../../helpers/game-view.ts';

interface Frame {
  rows: number;
  cols: number;
  grid: string;
  gokus: number[];
}
type Ev = { e: string; p?: number; what?: string; at?: [number, number]; killed?: number[] };

const CONFIG = { rows: 15, cols: 31, nb_rounds: 150 };
let view: ViewUnderTest;
let replay: Replay;

function args(index: number, ctx: unknown, width = 900): ViewArgs {
  const { rows, cols } = view.boardSize(replay);
  return viewArgs(replay, index, ctx, width, Math.round((width * rows) / cols));
}

const frame = (index: number) => replay.rounds[index]!.frame as Frame;

before(async () => {
  view = (await importGameView('bola-de-drac')).default;
  const [demo, dummy, nul] = (await Promise.all(['Demo', 'Dummy', 'Null'].map((n) => builtinSeat('bola-de-drac', n)))) as [MatchSeat, MatchSeat, MatchSeat];
  // A random mover that throws a Kame Hame now and then, besides the Demo's.
  const randy = {
    filename: 'Randy.js',
    source: `export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Randy';
export default class extends Player { play() { const d = random(1, 4); if (random(0, 9) === 0) throw_kamehame(d); else move(d); } }
`,
  };
  // Seed 6 on this board has a Kame Hame, a fight, beans and clouds taken, deposits and revivals.
  ({ replay } = await playMatch({ game: 'bola-de-drac', seed: 6, config: CONFIG, seats: [demo, dummy, randy, nul] }, { host: 'inprocess' }));
  const kinds = new Set(replay.rounds.flatMap((r) => (r.events as Ev[]).map((e) => e.e + (e.what ? `:${e.what}` : ''))));
  for (const k of ['kamehame', 'combat', 'take:bean', 'take:kinton', 'take:ball', 'deposit', 'resurrect']) assert.ok(kinds.has(k), `the match has no ${k}`);
});

test('board size is the configured one', () => {
  assert.deepEqual(view.boardSize(replay), { rows: CONFIG.rows, cols: CONFIG.cols });
});

test('every counter label names a counter of every round', () => {
  const keys = Object.keys(view.counterLabels);
  assert.ok(keys.length > 0);
  for (const r of replay.rounds) for (const k of keys) assert.equal(r.counters[k]?.length, 4, `round ${r.round} counter ${k}`);
});

test('describeCell names the cell type and item of every cell', () => {
  const names: Record<string, RegExp> = {
    X: /^\(\d+, \d+\) rock/,
    '.': /^\(\d+, \d+\) empty/,
    C: /Hoi Poi capsule/,
    B: /dragon ball/,
    K: /Kinton cloud/,
    M: /magic bean/,
  };
  const seen = new Set<string>();
  for (const index of [0, 40, 75, replay.rounds.length - 1]) {
    const f = frame(index);
    const a = args(index, new RecordingContext().ctx);
    for (let i = 0; i < f.rows; i++) {
      for (let j = 0; j < f.cols; j++) {
        const ch = f.grid[i * f.cols + j]!;
        const text = view.describeCell(a, i, j);
        assert.ok(text?.startsWith(`(${i}, ${j}) `), String(text));
        assert.match(text!, names[ch]!, `round ${index} (${i}, ${j}) is '${ch}'`);
        seen.add(ch);
      }
    }
  }
  assert.deepEqual([...seen].sort(), ['.', 'B', 'C', 'K', 'M', 'X']);
  assert.equal(view.describeCell(args(0, {}), -1, 0), null);
  assert.equal(view.describeCell(args(0, {}), 0, CONFIG.cols), null);
});

test('describeCell tells each goku: owner, strength, ball, cloud, or dead', () => {
  let alive = 0;
  let dead = 0;
  let withBall = 0;
  let onKinton = 0;
  for (let index = 0; index < replay.rounds.length; index++) {
    const g = frame(index).gokus;
    const a = args(index, {});
    for (let q = 0; q < 4; q++) {
      const [i, j, isAlive, type, balls, strength] = g.slice(q * 8, q * 8 + 6) as number[];
      const text = view.describeCell(a, i!, j!)!;
      const name = replay.players[q]!.name;
      if (isAlive) {
        alive++;
        assert.ok(text.includes(`goku of ${name}, strength ${strength}`), text);
        assert.equal(text.includes(`goku of ${name}, strength ${strength}, carrying a dragon ball`), (type! & 2) !== 0, text);
        if (type! & 2) withBall++;
        if (type! & 1) {
          onKinton++;
          assert.match(text, /on a Kinton cloud \(\d+ rounds left\)/);
        }
      } else {
        dead++;
        assert.match(text, new RegExp(`goku of ${name}, dead \\(revives in \\d+ or more rounds\\), ${balls} balls? deposited`));
      }
    }
  }
  assert.ok(alive > 0 && dead > 0 && withBall > 0 && onKinton > 0, `alive ${alive} dead ${dead} ball ${withBall} kinton ${onKinton}`);
});

test('a taken bean is described as coming back, and shows again when the countdown says', () => {
  const regen = replay.config.bean_regen_time as number;
  let checked = 0;
  for (let index = 1; index < replay.rounds.length; index++) {
    for (const e of replay.rounds[index]!.events as Ev[]) {
      if (e.e !== 'take' || e.what !== 'bean') continue;
      const [i, j] = e.at!;
      const text = view.describeCell(args(index, {}), i, j)!;
      assert.match(text, new RegExp(`magic bean back in ${regen - 1} rounds`), text);
      const back = index + regen - 1;
      if (back >= replay.rounds.length) continue;
      // Back on time unless a goku stands there (then it waits, and says so).
      const f = frame(back);
      const occupied = [0, 1, 2, 3].some((q) => f.gokus[q * 8 + 2] === 1 && f.gokus[q * 8] === i && f.gokus[q * 8 + 1] === j);
      if (occupied) continue;
      assert.equal(f.grid[i * f.cols + j], 'M', `bean at (${i}, ${j}) taken at ${index} is back at ${back}`);
      assert.equal(frame(back - 1).grid[i * f.cols + j], '.', `bean at (${i}, ${j}) not back before ${back}`);
      assert.match(view.describeCell(args(back - 1, {}), i, j)!, /magic bean back in 1 round\)/);
      checked++;
    }
  }
  assert.ok(checked > 0);
});

test('draw runs over every round at desktop and phone widths, leaving alpha and dashes reset', () => {
  for (const width of [900, 360]) {
    const rec = new RecordingContext();
    for (let index = 0; index < replay.rounds.length; index++) {
      view.draw(args(index, rec.ctx, width));
      assert.equal(rec.state.globalAlpha, 1, `round ${index}`);
      assert.deepEqual(rec.lineDash, [], `round ${index}`);
    }
    // Every cell is drawn: one fillRect per rock at least.
    const rocks = [...frame(0).grid].filter((c) => c === 'X').length;
    assert.ok(rec.count('fillRect') >= rocks * replay.rounds.length);
  }
});

test('the Kame Hame of the match is drawn as a ray', () => {
  const index = replay.rounds.findIndex((r) => (r.events as Ev[]).some((e) => e.e === 'kamehame'));
  const { ctx, calls } = new RecordingContext();
  view.draw({ ...args(index, ctx), round: { ...replay.rounds[index]!, events: [] } });
  const without = calls.length;
  calls.length = 0;
  view.draw(args(index, ctx));
  assert.ok(calls.length > without, 'the ray adds drawing');
});

test('every legend swatch draws', () => {
  assert.ok(view.legend.length >= 10);
  for (const item of view.legend) {
    const { ctx, calls } = new RecordingContext();
    item.swatch(ctx, 24, PLAYER_COLORS);
    assert.ok(calls.length > 0, item.label);
    assert.ok(item.label.length > 0);
  }
});
