// Map generator, determinism, configuration, order validation, views and speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import game from '../../../src/games/walking-dead/index.ts';
import { generateWaste } from '../../../src/games/walking-dead/mapgen.ts';
import { openComponents as streetComponents } from '../../../src/sdk/grid.ts';
import { UType, type TwdOrder } from '../../../src/games/walking-dead/engine.ts';
import { Rng } from '../../../src/sdk/rng.ts';
import { LibcRand } from '../../../src/sdk/libc-rand.ts';
import { GameConfigError, isOver } from '../../../src/sdk/types.ts';

const cfg = game.parseConfig({});
const noOrders = () => [[], [], [], []] as TwdOrder[][];
const F = [false, false, false, false];

test('generated boards: one 4-connected street component, waste never on the border, snakes as in the original', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const s = game.create(cfg, seed);
    const { rows, cols, waste } = s;
    assert.equal(streetComponents(waste, rows, cols), 1, `seed ${seed}`);
    let w = 0;
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        const c = i * cols + j;
        w += waste[c]!;
        if (i === 0 || j === 0 || i === rows - 1 || j === cols - 1) assert.equal(waste[c], 0, 'border is street');
        // No 2x2 block of waste: snakes are one cell wide and never touch each other.
        if (i + 1 < rows && j + 1 < cols) assert.ok(!(waste[c] && waste[c + 1] && waste[c + cols] && waste[c + cols + 1]));
      }
    // Target 50%, but snakes stop when they cannot go on: the original's boards
    // have 12% to 29% of waste (seeds 1 to 300, which these boards equal).
    assert.ok(w > 0.1 * rows * cols && w <= 0.5 * rows * cols + 8, `waste ${w}`);
  }
});

test('initial position: 20 alive units per clan owning their cells, 10 zombies, 15 food, each at a regeneration position; scores 0', () => {
  for (let seed = 1; seed <= 10; seed++) {
    const s = game.create(cfg, seed);
    const c = game.counters(s);
    assert.deepEqual(c['alive'], [20, 20, 20, 20]);
    assert.deepEqual(c['cells'], [20, 20, 20, 20]);
    assert.deepEqual(c['strength'], [50, 50, 50, 50], '1000 points / 20 units');
    assert.deepEqual(game.scores(s), [0, 0, 0, 0], 'the original counts no score before the first round');
    let zombies = 0;
    for (let u = 0; u < s.uType.length; u++) {
      if (s.uType[u] === UType.Zombie) zombies++;
      if (u < 80) assert.equal(s.uPlayer[u], Math.floor(u / 20), 'ids 0..79 player by player');
    }
    assert.equal(zombies, 10);
    assert.equal(s.uType.length, 90);
    let food = 0;
    for (const f of s.food) food += f;
    assert.equal(food, 15);
    // Units and food were placed with no unit in the 5x5 around them (there is
    // plenty of room at the start); food near food is allowed, as in the original.
    const items: number[] = [];
    for (let k = 0; k < s.food.length; k++) if (s.food[k] || s.cellUnit[k] !== -1) items.push(k);
    for (const a of items)
      for (const b of items) {
        if (a === b || (s.food[a] && s.food[b])) continue;
        const di = Math.abs(Math.floor(a / 60) - Math.floor(b / 60));
        const dj = Math.abs((a % 60) - (b % 60));
        assert.ok(di > 2 || dj > 2, `items ${a} and ${b} too close (seed ${seed})`);
      }
  }
});

test('parseConfig: defaults of default.cnf; unknown keys and bad values are rejected', () => {
  assert.equal(cfg.num_rounds, 200);
  assert.equal(cfg.rounds_before_becoming_zombie, 5);
  assert.equal(game.parseConfig({ num_rounds: 50 }).num_rounds, 50);
  assert.throws(() => game.parseConfig({ nb_rounds: 5 }), GameConfigError);
  assert.throws(() => game.parseConfig({ num_rounds: -1 }), GameConfigError);
  assert.throws(() => game.parseConfig({ food_strength: 1.5 }), GameConfigError);
  assert.throws(() => game.parseConfig({ board_rows: '60' }), GameConfigError);
  assert.throws(() => game.parseConfig({ num_players: 3 }), GameConfigError);
  assert.throws(() => game.parseConfig({ board_rows: 12, board_cols: 12 }), /do not fit/);
});

test('a smaller configured board is generated and playable', () => {
  const small = game.parseConfig({ board_rows: 30, board_cols: 30, num_ini_units_per_clan: 5, num_ini_zombies: 4, num_ini_food: 5, num_rounds: 20 });
  let s = game.create(small, 4);
  assert.equal(streetComponents(s.waste, 30, 30), 1);
  while (!isOver(game, s.cfg, s)) s = game.next(s, noOrders(), F).state;
  assert.equal(s.round, 20);
});

test("validateOrders: the first order per unit id counts; only orders for the player's own units (alive or dead) reach the engine", () => {
  const s = game.create(cfg, 5);
  s.uType[3] = UType.Dead; // a dead unit of player 0
  const raw: unknown = [
    [0, 0],
    [0, 2], // second for unit 0
    [25, 0], // player 1's unit
    [85, 0], // a zombie
    [1, 9], // bad dir: kept as -1, it takes its turn and does nothing
    [1, 0], // second for unit 1, whose first order was invalid
    [4, 1], // diagonal: kept, does nothing
    [3, 2], // dead unit: kept, does nothing
    'garbage',
    null,
    [1.5, 0],
    [1e9, 0],
    [1e9, 0], // second for that id
    [2, 4, 'extra'],
  ];
  const v = game.validateOrders(s, 0, raw);
  assert.deepEqual(v.orders, [
    [0, 0],
    [1, -1],
    [4, 1],
    [3, 2],
    [2, 4],
  ]);
  // Nine drops explained; the three second orders are dropped without a word (the API warned, as the original's Action does).
  assert.equal(v.warnings.length, 9);
  assert.doesNotMatch(v.warnings.join('\n'), /already/);
  assert.match(v.warnings.join('\n'), /diagonally/);
  assert.match(v.warnings.join('\n'), /dead/);
  assert.deepEqual(game.validateOrders(s, 0, { not: 'a list' }).orders, []);
  assert.deepEqual(game.validateOrders(s, 1, [[25, 6]]).orders, [[25, 6]]);
});

test('the frames of a whole match gzip well under 1 MB', () => {
  let s = game.create(cfg, 11);
  const frames: unknown[] = [game.frame(s)];
  while (!isOver(game, s.cfg, s)) {
    s = game.next(s, noOrders(), F).state;
    frames.push(game.frame(s));
  }
  const size = gzipSync(JSON.stringify(frames)).length;
  assert.ok(size < 400_000, `${size} bytes`);
});

test('the generator only uses the streams it is given: the game Rng and glibc rand(), which starts at seed 1 in every match', () => {
  assert.deepEqual(generateWaste(40, 40, new Rng(9)), generateWaste(40, 40, new Rng(9)));
  assert.deepEqual(generateWaste(40, 40, new Rng(9)), generateWaste(40, 40, new Rng(9), new LibcRand(1)));
  assert.notDeepEqual(generateWaste(40, 40, new Rng(9)), generateWaste(40, 40, new Rng(9), new LibcRand(2)), 'the turning shuffles come from rand()');
  const s = game.create(cfg, 9);
  assert.deepEqual(s.waste, generateWaste(60, 60, new Rng(9)), "a match board is the generator's with a fresh rand()");
});

test('create: the first state of a seed is kept, and each caller gets its own copy of every array', () => {
  const first = game.create(cfg, 41);
  const again = game.create(cfg, 41);
  assert.deepEqual(again, first);
  for (const [k, v] of Object.entries(first)) if (ArrayBuffer.isView(v)) assert.notEqual(v, (again as unknown as Record<string, unknown>)[k], k);
  first.waste.fill(1);
  first.owner.fill(3);
  first.uPos.fill(0);
  first.rng.next();
  const third = game.create(cfg, 41);
  assert.deepEqual(third, again, 'a change to one copy leaves the kept state as it was');
  assert.notDeepEqual(game.create(cfg, 42).waste, third.waste);
  const other = game.parseConfig({ num_ini_food: cfg.num_ini_food + 1 });
  assert.notDeepEqual(game.create(other, 41).food, third.food, 'another config is another state');
});
