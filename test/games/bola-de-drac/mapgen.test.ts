// The board generator: playable boards of the original kind, deterministic per seed.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { game } from './helpers.ts';
import { CType } from '../../../src/games/bola-de-drac/consts.ts';
import { ORIGINAL_SIZES } from '../../../src/games/bola-de-drac/config.ts';
import type { State } from '../../../src/games/bola-de-drac/engine.ts';

function components(s: State): number {
  const seen = new Uint8Array(s.rows * s.cols);
  let comps = 0;
  for (let k = 0; k < s.grid.length; k++) {
    if (s.grid[k] === CType.Rock || seen[k]) continue;
    comps++;
    const stack = [k];
    seen[k] = 1;
    while (stack.length) {
      const c = stack.pop()!;
      for (const d of [c - s.cols, c + s.cols, c - 1, c + 1]) {
        if (!seen[d] && s.grid[d] !== CType.Rock) {
          seen[d] = 1;
          stack.push(d);
        }
      }
    }
  }
  return comps;
}

function count(s: State, t: number): number {
  let n = 0;
  for (const c of s.grid) if (c === t) n++;
  return n;
}

describe('map generator', () => {
  const cfg = game.parseConfig({});
  const seeds = Array.from({ length: 150 }, (_, i) => i * 7919 + 1);

  test('boards are surrounded by rocks', () => {
    for (const seed of seeds) {
      const s = game.create(cfg, seed);
      for (let i = 0; i < s.rows; i++) {
        for (let j = 0; j < s.cols; j++) {
          if (i === 0 || j === 0 || i === s.rows - 1 || j === s.cols - 1) assert.equal(s.grid[i * s.cols + j], CType.Rock, `seed ${seed} (${i},${j})`);
        }
      }
    }
  });

  test('all non-rock cells are connected, and there are rock walls inside', () => {
    for (const seed of seeds) {
      const s = game.create(cfg, seed);
      assert.equal(components(s), 1, `seed ${seed}`);
      const border = 2 * (s.rows + s.cols) - 4;
      const inner = count(s, CType.Rock) - border;
      const interior = (s.rows - 2) * (s.cols - 2);
      assert.ok(inner > interior * 0.1, `seed ${seed}: only ${inner} inner rocks`);
      assert.ok(inner < interior * 0.5, `seed ${seed}: ${inner} inner rocks leave too little room`);
    }
  });

  test('sizes are the original ones when not given, all four appear', () => {
    const seen = new Set<string>();
    for (const seed of seeds) {
      const s = game.create(cfg, seed);
      const key = `${s.rows}x${s.cols}`;
      assert.ok(
        ORIGINAL_SIZES.some(([r, c]) => r === s.rows && c === s.cols),
        key,
      );
      seen.add(key);
    }
    assert.equal(seen.size, ORIGINAL_SIZES.length);
  });

  test('given rows and cols are used', () => {
    for (const [rows, cols] of [
      [10, 11],
      [12, 25],
      [60, 60],
      [30, 11],
    ]) {
      for (let seed = 1; seed <= 10; seed++) {
        const s = game.create(game.parseConfig({ rows, cols }), seed);
        assert.equal(s.rows, rows);
        assert.equal(s.cols, cols);
        assert.equal(components(s), 1, `${rows}x${cols} seed ${seed}`);
        assert.equal(count(s, CType.Capsule), 3);
        assert.equal(s.gokus.filter((g) => g.alive).length, 4);
      }
    }
  });

  test('tiny boards with few items are playable', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = game.create(game.parseConfig({ rows: 7, cols: 7, nb_capsules: 1, nb_balls: 1, nb_beans: 0, nb_kintons: 0 }), seed);
      assert.equal(components(s), 1);
      assert.equal(count(s, CType.Capsule), 1);
      assert.equal(count(s, CType.Ball), 1);
      assert.equal(new Set(s.gokus.map((g) => g.pos)).size, 4);
    }
  });

  test('item counts follow the configuration', () => {
    for (const over of [
      {},
      { nb_capsules: 2, nb_balls: 4, nb_beans: 8, nb_kintons: 2 },
      { nb_capsules: 4, nb_balls: 3, nb_beans: 2, nb_kintons: 3 },
      { nb_beans: 0, nb_kintons: 0 },
    ]) {
      const c = game.parseConfig(over);
      for (const seed of seeds.slice(0, 40)) {
        const s = game.create(c, seed);
        assert.equal(count(s, CType.Capsule), c.nb_capsules);
        assert.equal(count(s, CType.Ball), c.nb_balls);
        assert.equal(count(s, CType.Bean), c.nb_beans);
        assert.equal(count(s, CType.Kinton), c.nb_kintons);
        assert.equal(s.beans.length / 3, c.nb_beans);
        assert.equal(s.kintons.length / 3, c.nb_kintons);
      }
    }
  });

  test('gokus start on distinct empty cells, away from each other, in mirror positions', () => {
    for (const seed of seeds) {
      const s = game.create(cfg, seed);
      const pos = s.gokus.map((g) => [Math.floor(g.pos / s.cols), g.pos % s.cols] as const);
      assert.equal(new Set(s.gokus.map((g) => g.pos)).size, 4);
      for (const g of s.gokus) assert.equal(s.grid[g.pos], CType.Empty);
      for (let a = 0; a < 4; a++) {
        for (let b = a + 1; b < 4; b++) {
          const d = Math.abs(pos[a]![0] - pos[b]![0]) + Math.abs(pos[a]![1] - pos[b]![1]);
          assert.ok(d >= 4, `seed ${seed}: gokus ${a} and ${b} too close`);
        }
      }
      // 1 mirrors 0 left-right, 2 mirrors 0 top-bottom, 3 both.
      const [i, j] = pos[0]!;
      assert.deepEqual(pos[1], [i, s.cols - 1 - j]);
      assert.deepEqual(pos[2], [s.rows - 1 - i, j]);
      assert.deepEqual(pos[3], [s.rows - 1 - i, s.cols - 1 - j]);
    }
  });

  test('walls are symmetric in both axes (fair for the four starts)', () => {
    for (const seed of seeds) {
      const s = game.create(cfg, seed);
      for (let i = 0; i < s.rows; i++) {
        for (let j = 0; j < s.cols; j++) {
          const rock = s.grid[i * s.cols + j] === CType.Rock;
          assert.equal(s.grid[i * s.cols + (s.cols - 1 - j)] === CType.Rock, rock);
          assert.equal(s.grid[(s.rows - 1 - i) * s.cols + j] === CType.Rock, rock);
        }
      }
    }
  });

  test('a new ball always finds room on generated boards (many deposits)', () => {
    for (const seed of seeds.slice(0, 20)) {
      const s = game.create(game.parseConfig({ nb_balls: 12, nb_capsules: 12, nb_beans: 16, nb_kintons: 16 }), seed);
      assert.equal(count(s, CType.Ball), 12);
      assert.equal(components(s), 1);
    }
  });
});
