// The Walking Dead's board view against a real (short) match: its size, its
// counters, its tooltips, and draw() over every round on a recording fake of
// the 2D canvas context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import type { MatchSeat } from '../../../src/match/types.ts';
import { UType } from '../../../src/games/walking-dead/engine.ts';
import { importGameView, PLAYER_COLORS, RecordingContext, viewArgs, type ViewArgs } from '../../helpers/game-view.ts';

// What the test reads of the view module besides the view.
interface ViewerModule {
  UNIT_ALIVE: number;
  UNIT_DEAD: number;
  UNIT_ZOMBIE: number;
}
const viewer = await importGameView<ViewerModule>('walking-dead');
const view = viewer.default;

interface Frame {
  rows: number;
  cols: number;
  grid: string;
  food: number[];
  units: number[];
}

const RANDY: MatchSeat = {
  filename: 'Randy.js',
  source: `
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Randy';
export default class extends Player {
  play() {
    for (const id of alive_units(me())) move(id, 2 * random(0, 3));
  }
}`,
};

const CONFIG = {
  board_rows: 20,
  board_cols: 30,
  num_rounds: 60,
  num_ini_units_per_clan: 6,
  num_ini_zombies: 8,
  num_ini_food: 10,
  rounds_before_becoming_zombie: 4,
};

const { replay } = await playMatch(
  {
    game: 'walking-dead',
    seed: 5,
    config: CONFIG,
    seats: [await builtinSeat('walking-dead', 'Dummy'), await builtinSeat('walking-dead', 'Demo'), RANDY, await builtinSeat('walking-dead', 'Null')],
  },
  { host: 'inprocess' },
);
const NAMES = replay.players.map((p) => p.name);

function argsFor(index: number, ctx: unknown, width = 600, height = 400): ViewArgs {
  return viewArgs(replay, index, ctx, width, height);
}

function frameAt(index: number): Frame {
  return replay.rounds[index]!.frame as Frame;
}

test('the mirrored unit types are the engine’s', () => {
  assert.equal(viewer.UNIT_ALIVE, UType.Alive);
  assert.equal(viewer.UNIT_DEAD, UType.Dead);
  assert.equal(viewer.UNIT_ZOMBIE, UType.Zombie);
});

test('boardSize is the configured board', () => {
  assert.deepEqual(view.boardSize(replay), { rows: CONFIG.board_rows, cols: CONFIG.board_cols });
  const f = frameAt(0);
  assert.deepEqual([f.rows, f.cols], [CONFIG.board_rows, CONFIG.board_cols]);
});

test('every counter label names a counter of every round', () => {
  const keys = Object.keys(view.counterLabels);
  assert.deepEqual(keys.sort(), ['alive', 'cells', 'dead', 'strength']);
  for (const r of replay.rounds) for (const k of keys) assert.equal(r.counters[k]?.length, 4, `round ${r.round} counter ${k}`);
});

test('draw runs over every round, with finite coordinates on the board and balanced save/restore', () => {
  const width = 600;
  const height = 400;
  const cell = Math.min(width / CONFIG.board_cols, height / CONFIG.board_rows);
  const coordCalls = new Set(['rect', 'fillRect', 'moveTo', 'lineTo', 'arc', 'fillText', 'strokeText']);
  for (let i = 0; i < replay.rounds.length; i++) {
    const { ctx, calls, sets } = new RecordingContext();
    view.draw(argsFor(i, ctx, width, height));
    let depth = 0;
    let arcs = 0;
    for (const c of calls) {
      if (c.name === 'save') depth++;
      if (c.name === 'restore') depth--;
      assert.ok(depth >= 0, `round ${i}: restore without save`);
      if (c.name === 'arc') arcs++;
      if (!coordCalls.has(c.name)) continue;
      const nums = c.args.filter((a) => typeof a === 'number') as number[];
      for (const n of nums) assert.ok(Number.isFinite(n), `round ${i}: ${c.name}(${c.args.join(', ')})`);
      // The first two numbers are x, y (fillText's text is not a number): on
      // the board, give or take the rings drawn just outside a cell.
      const [x, y] = [nums[0]!, nums[1]!];
      assert.ok(x >= -cell && x <= width + cell && y >= -cell && y <= height + cell, `round ${i}: ${c.name}(${c.args.join(', ')}) off the board`);
    }
    assert.equal(depth, 0, `round ${i}: save/restore unbalanced`);
    // Every alive unit that is not bitten is one circle (rings are circles too).
    const f = frameAt(i);
    let plainAlive = 0;
    for (let u = 0; u < f.units.length / 4; u++) if (f.units[4 * u] === UType.Alive && f.units[4 * u + 3]! < 0) plainAlive++;
    assert.ok(arcs >= plainAlive, `round ${i}: ${arcs} arcs for ${plainAlive} alive units`);
    // Every clan's colour is used (its cells and units).
    const styles = new Set(sets.filter((s) => s.name === 'fillStyle' || s.name === 'strokeStyle').map((s) => s.value));
    for (let pl = 0; pl < 4; pl++) assert.ok(styles.has(PLAYER_COLORS[pl]), `round ${i}: colour of clan ${pl} never used`);
  }
});

test('the legend swatches draw', () => {
  assert.ok(view.legend.length >= 8);
  for (const item of view.legend) {
    const { ctx, calls } = new RecordingContext();
    item.swatch(ctx, 18, PLAYER_COLORS);
    assert.ok(
      calls.some((c) => c.name === 'fillRect'),
      `${item.label}: no cell drawn`,
    );
  }
});

test('describeCell names the cell type, its owner, food and the unit on it', () => {
  const seen = new Set<string>();
  for (let i = 0; i < replay.rounds.length; i++) {
    const f = frameAt(i);
    const args = argsFor(i, null);
    const unitAt = new Map<number, number>();
    for (let u = 0; u < f.units.length / 4; u++) if (f.units[4 * u + 2]! >= 0) unitAt.set(f.units[4 * u + 2]!, u);
    const food = new Set(f.food);
    for (let c = 0; c < f.rows * f.cols; c++) {
      const row = Math.floor(c / f.cols);
      const col = c % f.cols;
      const text = view.describeCell(args, row, col)!;
      assert.ok(text.startsWith(`(${row}, ${col}) `), text);
      const ch = f.grid[c]!;
      if (ch === 'W') {
        assert.match(text, /^\(\d+, \d+\) waste$/);
        seen.add('waste');
      } else if (ch === '.') {
        assert.ok(text.includes(') street') && !text.includes('owned by'), text);
        seen.add('street');
      } else {
        assert.ok(text.includes(`) street, owned by ${NAMES[Number(ch)]}`), text);
        seen.add('owned');
      }
      assert.equal(text.includes('; food'), food.has(c), text);
      if (food.has(c)) seen.add('food');
      const u = unitAt.get(c);
      if (u === undefined) continue;
      const [type, clan, , left] = f.units.slice(4 * u, 4 * u + 4) as [number, number, number, number];
      const rounds = left === 1 ? '1 round' : `${left} rounds`;
      if (type === UType.Zombie) {
        assert.ok(text.includes(`; zombie ${u}`), text);
        seen.add('zombie');
      } else if (type === UType.Dead) {
        assert.ok(text.includes(`; dead unit ${u} of ${NAMES[clan]}, zombie in ${rounds}`), text);
        seen.add('dead');
      } else if (left >= 0) {
        assert.ok(text.includes(`; unit ${u} of ${NAMES[clan]}, bitten: zombie in ${rounds}`), text);
        seen.add('bitten');
      } else {
        assert.ok(text.includes(`; unit ${u} of ${NAMES[clan]}`) && !text.includes('bitten:'), text);
        seen.add('alive');
      }
    }
  }
  assert.equal(view.describeCell(argsFor(0, null), CONFIG.board_rows, 0), null);
  assert.equal(view.describeCell(argsFor(0, null), 0, -1), null);
  // The match (fixed seed) has every kind, so each branch above was checked.
  assert.deepEqual([...seen].sort(), ['alive', 'bitten', 'dead', 'food', 'owned', 'street', 'waste', 'zombie']);
});

test('describeCell tells what happened on the cell this round', () => {
  let fights = 0;
  let bites = 0;
  for (let i = 1; i < replay.rounds.length; i++) {
    const f = frameAt(i);
    for (const raw of replay.rounds[i]!.events) {
      const e = raw as { k: string; a: number; d: number; w: number; u: number; z: number };
      if (e.k === 'fight') {
        const loser = e.w === e.a ? e.d : e.a;
        const c = f.units[4 * loser + 2]!;
        const text = view.describeCell(argsFor(i, null), Math.floor(c / f.cols), c % f.cols)!;
        // The winner's clan when it fought: it may be a zombie by the end of the round.
        assert.ok(text.includes(`this round: killed in a fight by ${NAMES[frameAt(i - 1).units[4 * e.w + 1]!]}`), text);
        fights++;
      } else if (e.k === 'bite') {
        const c = f.units[4 * e.u + 2]!;
        const text = view.describeCell(argsFor(i, null), Math.floor(c / f.cols), c % f.cols)!;
        assert.ok(text.includes(`this round: bitten by zombie ${e.z}`), text);
        bites++;
      }
    }
  }
  assert.ok(fights > 0 && bites > 0, `the match has ${fights} fights and ${bites} bites`);
});
