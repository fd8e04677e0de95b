// Configuration, order validation, views, frames, determinism and invariants (the engine's speed is in npm run bench games).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { game } from './helpers.ts';
import { GameConfigError, isOver } from '../../../src/sdk/types.ts';
import { CType } from '../../../src/games/bola-de-drac/consts.ts';
import { VIEW } from '../../../src/games/bola-de-drac/view.ts';
import { checkView } from '../../../src/sdk/view-layout.ts';
import type { Order, State } from '../../../src/games/bola-de-drac/engine.ts';
import { Rng } from '../../../src/sdk/rng.ts';

const NF = [false, false, false, false];

/** A whole match with random orders from a local generator; returns frames and the final state. */
function randomMatch(seed: number, over: Record<string, unknown> = {}) {
  const cfg = game.parseConfig(over);
  let s = game.create(cfg, seed);
  const r = new Rng(seed * 31 + 7);
  const frames: string[] = [JSON.stringify(game.frame(s))];
  const states: State[] = [s];
  while (!isOver(game, s.cfg, s)) {
    const orders: Order[][] = [0, 1, 2, 3].map(() => [[r.random(0, 9) === 0 ? 't' : 'm', r.random(0, 4)]]);
    s = game.next(s, orders, NF).state;
    frames.push(JSON.stringify(game.frame(s)));
    states.push(s);
  }
  return { s, frames, states };
}

describe('configuration', () => {
  test('defaults are the original cnf values', () => {
    const c = game.parseConfig();
    assert.equal(c.nb_rounds, 601);
    assert.equal(c.max_strength, 999);
    assert.equal(c.res_strength, 200);
    assert.equal(c.kamehame_penalty, 700);
    assert.equal(c.moving_penalty, 10);
    assert.equal(c.combat_penalty, 25);
    assert.equal(c.goku_regen_time, 60);
    assert.equal(c.kinton_life_time, 55);
    assert.deepEqual(game.defaultLimits, { cpuBudgetMs: 2000, memoryMb: 128 });
  });

  test('overrides by original key names; integers are numbers, as in every game', () => {
    const c = game.parseConfig({ nb_rounds: 11, nb_balls: 4 });
    assert.equal(c.nb_rounds, 11);
    assert.equal(c.nb_balls, 4);
    assert.throws(() => game.parseConfig({ nb_balls: '4' }), GameConfigError);
  });

  test('unknown keys and bad values are refused with a clear message', () => {
    assert.throws(
      () => game.parseConfig({ nb_round: 3 }),
      (e: Error) => e instanceof GameConfigError && /unknown setting "nb_round"/.test(e.message),
    );
    assert.throws(() => game.parseConfig({ nb_rounds: 0 }), GameConfigError);
    assert.throws(() => game.parseConfig({ nb_rounds: 2.5 }), GameConfigError);
    assert.throws(() => game.parseConfig({ nb_balls: 'many' }), GameConfigError);
    assert.throws(() => game.parseConfig({ nb_players: 3 }), GameConfigError);
    assert.throws(() => game.parseConfig({ res_strength: 1000 }), /res_strength/);
    assert.throws(() => game.parseConfig({ rows: 20 }), /both rows and cols/);
    assert.throws(() => game.parseConfig({ rows: 5, cols: 5 }), GameConfigError);
    assert.throws(() => game.parseConfig({ rows: 61, cols: 20 }), GameConfigError);
  });
});

describe('validateOrders', () => {
  const s = game.create(game.parseConfig(), 3);
  test('garbage is dropped with a warning each', () => {
    const raw: unknown = [null, 5, 'move', ['fly', 1], ['move'], ['move', 9], ['move', 1.5], ['move', '2'], { a: 1 }];
    const v = game.validateOrders(s, 0, raw);
    assert.deepEqual(v.orders, []);
    assert.equal(v.warnings.length, 9);
    assert.deepEqual(game.validateOrders(s, 0, 'nope').orders, []);
    assert.deepEqual(game.validateOrders(s, 0, undefined), { orders: [], warnings: [] });
  });

  test('both spellings of both actions', () => {
    assert.deepEqual(game.validateOrders(s, 1, [['throw_kamehame', 3]]).orders, [['t', 3]]);
    assert.deepEqual(game.validateOrders(s, 1, [['t', 0]]).orders, [['t', 0]]);
    assert.deepEqual(game.validateOrders(s, 1, [['move', 4]]).orders, [['m', 4]]);
  });

  test('a bad first order does not block a good one; a second good one is dropped', () => {
    const v = game.validateOrders(s, 2, [
      ['move', 7],
      ['move', 2],
      ['move', 3],
    ]);
    assert.deepEqual(v.orders, [['m', 2]]);
    assert.equal(v.warnings.length, 1, 'the bad direction; the second good one is dropped silently');
  });
});

describe('view and frame', () => {
  test('encodeView carries the board, parameters, gokus, beans and kintons in small typed arrays, as view.ts declares them', () => {
    const s = game.create(game.parseConfig(), 5);
    const v = game.encodeView(s);
    assert.deepEqual(Object.keys(v).sort(), ['beans', 'cells', 'gokus', 'kintons', 'meta']);
    assert.deepEqual(checkView(VIEW, v), []);
    assert.equal(v['cells']!.length, s.rows * s.cols);
    const m = v['meta'] as Int32Array;
    assert.equal(m[VIEW.meta.at.rows], s.rows);
    assert.equal(m[VIEW.meta.at.max_strength], 999);
    assert.equal(m[VIEW.meta.at.nb_beans], 4);
    const G = VIEW.gokus;
    const gokus = v['gokus'] as Int32Array;
    assert.equal(gokus.length, 4 * G.stride);
    assert.equal(gokus[G.stride + G.at.i]! * s.cols + gokus[G.stride + G.at.j]!, s.gokus[1]!.pos);
    assert.equal(gokus[G.stride + G.at.strength], 999);
    assert.equal(v['beans']!.length, 4 * VIEW.beans.stride);
  });

  test('frame: grid string with one char per cell and flat goku numbers', () => {
    const s = game.create(game.parseConfig(), 5);
    const f = game.frame(s) as { grid: string; gokus: number[]; rows: number; cols: number };
    assert.equal(f.grid.length, f.rows * f.cols);
    assert.equal(f.gokus.length, 32);
    assert.match(f.grid, /^[.XCBKM]+$/);
  });

  test('a default match replay (all frames) gzips well under 1 MB', () => {
    const { frames } = randomMatch(17);
    const size = gzipSync(JSON.stringify(frames.map((f) => JSON.parse(f)))).length;
    assert.ok(size < 300_000, `${size} bytes`);
  });
});

describe('determinism and invariants', () => {
  test('invariants hold every round of random matches', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { states } = randomMatch(seed, { nb_rounds: 601 });
      for (const s of states) {
        const free = s.grid.reduce((n, c) => n + (c === CType.Ball ? 1 : 0), 0);
        const carried = s.gokus.filter((g) => g.alive && g.ball).length;
        assert.equal(free + carried, s.cfg.nb_balls, `round ${s.round}: balls on the board`);
        assert.equal(
          s.grid.reduce((n, c) => n + (c === CType.Capsule ? 1 : 0), 0),
          s.cfg.nb_capsules,
        );
        for (let p = 0; p < 4; p++) {
          const g = s.gokus[p]!;
          assert.ok(g.strength >= 0 && g.strength <= 999);
          if (g.alive) {
            assert.equal(s.occ[g.pos], p);
            assert.ok(s.grid[g.pos] === CType.Empty || s.grid[g.pos] === CType.Capsule || (s.grid[g.pos] === CType.Ball && g.ball));
          } else {
            assert.equal(g.strength, 0);
            assert.equal(g.kinton, 0);
            assert.equal(g.ball, false);
          }
        }
        assert.equal(
          s.occ.reduce((n, c) => n + (c >= 0 ? 1 : 0), 0),
          s.gokus.filter((g) => g.alive).length,
        );
      }
    }
  });
});
