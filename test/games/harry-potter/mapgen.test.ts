// Board generation and determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import game from '../../../src/games/harry-potter/index.ts';
import { GHOST, WIZARD, isSpellSolutionCorrect } from '../../../src/games/harry-potter/engine.ts';
import { openComponents as countComponents } from '../../../src/sdk/grid.ts';
import { GameConfigError, isOver } from '../../../src/sdk/types.ts';
import { Rng } from '../../../src/sdk/rng.ts';
import { solveSpell } from './helpers.ts';

function check(cond: unknown, message: string): asserts cond {
  assert.ok(cond, message);
}

const cfg = game.parseConfig({});

test('boards: one 4-connected corridor component, free border, at most half walls, in snakes', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const s = game.create(cfg, seed);
    const { rows, cols } = s;
    assert.equal(countComponents(s.wall, rows, cols), 1, `seed ${seed}`);
    let walls = 0;
    for (let k = 0; k < rows * cols; k++) walls += s.wall[k]!;
    check(walls > 0.1 * rows * cols && walls <= 0.5 * rows * cols, `seed ${seed}: ${walls} wall cells`);
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        if (i === 0 || j === 0 || i === rows - 1 || j === cols - 1) assert.equal(s.wall[i * cols + j], 0, 'the border is corridor');
      }
    // Snakes are one cell thick: no 2x2 block of walls.
    for (let i = 0; i + 1 < rows; i++)
      for (let j = 0; j + 1 < cols; j++) {
        const k = i * cols + j;
        check(!(s.wall[k] && s.wall[k + 1] && s.wall[k + cols] && s.wall[k + cols + 1]), `seed ${seed}: 2x2 wall block at ${i},${j}`);
      }
  }
});

test('seed 30 gives, bit for bit, the initial board of the original game (Joc-Algorismia-2024 default.res)', async () => {
  const { readFileSync } = await import('node:fs');
  const expected = readFileSync(new URL('./fixtures/seed30-round0.txt', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  const s = game.create(cfg, 30);
  const got: string[] = [];
  for (let i = 0; i < 60; i++) {
    let line = '';
    for (let j = 0; j < 60; j++) {
      const k = i * 60 + j;
      line += s.wall[k] ? 'W' : s.owner[k]! >= 0 ? String(s.owner[k]) : '.';
    }
    got.push(line);
  }
  assert.deepEqual(got, expected);
  assert.deepEqual(Array.from(s.spell), [7, 6, 5, 7, 10, 5, 6, 9, 5, 5, 8, 9, 5, 6, 7]);
  assert.deepEqual([s.vi, s.vj], [52, 30]);
  const pos = (id: number) => [Math.floor(s.upos[id]! / 60), s.upos[id]! % 60];
  assert.deepEqual([0, 1, 2, 3, 4, 5, 43, 83].map(pos), [
    [44, 39],
    [31, 44],
    [55, 30],
    [55, 16],
    [45, 24],
    [15, 53],
    [6, 15],
    [52, 24],
  ]);
  const bookCells: number[][] = [];
  for (let k = 0; k < 3600; k++) if (s.book[k]) bookCells.push([Math.floor(k / 60), k % 60]);
  assert.equal(bookCells.length, 50);
  assert.deepEqual(bookCells.slice(0, 4), [
    [0, 8],
    [0, 19],
    [0, 53],
    [5, 44],
  ]);
  assert.deepEqual(bookCells.at(-1), [59, 7]);
});

test('initial units, books, spell and Voldemort are placed as in the original', () => {
  for (let seed = 1; seed <= 15; seed++) {
    const s = game.create(cfg, seed);
    const { rows, cols } = s;
    assert.equal(s.utype.length, 84);
    for (let id = 0; id < 84; id++) {
      assert.equal(s.utype[id], id < 4 ? GHOST : WIZARD);
      assert.equal(s.uplayer[id], id < 4 ? id : Math.floor((id - 4) / 20));
      assert.equal(s.cellId[s.upos[id]!], id);
      assert.equal(s.owner[s.upos[id]!], s.uplayer[id]);
      assert.equal(s.wall[s.upos[id]!], 0);
      assert.equal(s.upending[id], id < 4 ? 60 : 0);
      assert.equal(s.unext[id], -1);
    }
    assert.equal(
      s.book.reduce((a, b) => a + b, 0),
      50,
    );
    assert.deepEqual(Array.from(s.nbCells), [21, 21, 21, 21]);
    assert.deepEqual(Array.from(s.strength), [1000, 1000, 1000, 1000]);
    check(s.vi >= 1 && s.vj >= 1 && s.vi <= rows - 2 && s.vj <= cols - 2, 'Voldemort is not on the border');
    for (let i = s.vi - 2; i <= s.vi + 2; i++)
      for (let j = s.vj - 2; j <= s.vj + 2; j++)
        if (i >= 0 && j >= 0 && i < rows && j < cols) assert.equal(s.cellId[i * cols + j], -1, 'no unit near Voldemort');
    assert.equal(s.spell.length, 15);
    check(
      s.spell.every((x) => x >= 1 && x <= 30),
      `ingredients ${s.spell}`,
    );
    const sol = solveSpell(s.spell);
    check(sol && isSpellSolutionCorrect(s.spell, sol), 'the spell has a solution');
  }
});

test('every round draws new ingredients that always have a solution', () => {
  let s = game.create(cfg, 3);
  const seen = new Set<string>();
  for (let r = 0; r < 60; r++) {
    s = game.next(s, [[], [], [], []], [false, false, false, false]).state;
    const sol = solveSpell(s.spell);
    check(sol && isSpellSolutionCorrect(s.spell, sol), `round ${r}`);
    check(
      s.spell.every((x) => x >= 1 && x <= 30),
      'ingredients are naturals ≤ 30',
    );
    seen.add(Array.from(s.spell).join(','));
  }
  check(seen.size > 50, 'ingredients change');
});

test('a whole match replays identically from the seed and the orders', () => {
  const play = () => {
    let s = game.create(cfg, 2024);
    const rng = new Rng(9);
    const frames: unknown[] = [game.frame(s)];
    const events: unknown[] = [];
    while (!isOver(game, s.cfg, s)) {
      const o: unknown[][] = [[], [], [], []];
      for (let id = 0; id < 84; id++) o[s.uplayer[id]!]!.push([0, id, 2 * rng.random(0, 3)]);
      const valid = o.map((x, p) => game.validateOrders(s, p, x).orders);
      const r = game.next(s, valid, [false, false, false, false]);
      check(r.state !== s, 'a new state');
      s = r.state;
      frames.push(game.frame(s));
      events.push(r.events);
    }
    return { frames, events, scores: game.scores(s) };
  };
  const x = play();
  const y = play();
  assert.deepEqual(x, y);
});

test('parseConfig: defaults, overrides, unknown keys and bad values', () => {
  assert.equal(cfg.num_rounds, 200);
  assert.equal(cfg.rounds_attack_resting_ghost, 15);
  assert.equal(game.parseConfig({ num_rounds: 50 }).num_rounds, 50);
  assert.throws(() => game.parseConfig({ nb_rounds: 50 }), GameConfigError);
  assert.throws(() => game.parseConfig({ num_rounds: -1 }), GameConfigError);
  assert.throws(() => game.parseConfig({ num_rounds: '5' }), GameConfigError);
  assert.throws(() => game.parseConfig({ num_players: 3 }), GameConfigError);
  assert.throws(() => game.parseConfig({ board_rows: 20, board_cols: 20, num_ini_wizards_per_clan: 100 }), GameConfigError);
  // A small board still generates a playable match.
  const small = game.parseConfig({ board_rows: 24, board_cols: 30, num_ini_wizards_per_clan: 5, num_ini_books: 10 });
  let s = game.create(small, 4);
  assert.equal(countComponents(s.wall, 24, 30), 1);
  for (let r = 0; r < 20; r++) s = game.next(s, [[], [], [], []], [false, false, false, false]).state;
});

test('validateOrders keeps the first order per unit, valid or not (as the original), and explains every drop but a second command (silent, as in the original)', () => {
  const s = game.create(cfg, 1);
  const r = game.validateOrders(s, 1, [
    [0, 24, 2], // wizard of player 1 (ids 24..43)
    [0, 24, 4], // second order for the same unit: ignored
    [0, 4, 2], // not ours
    [0, 25, 1], // wizard diagonal: kept, it does nothing
    [0, 26, 8], // bad dir: kept, it does nothing
    [0, 999, 0],
    [1, 25, [0, 1]], // unit 25 already has its (invalid) command
    [1, 1, [0, null]], // malformed solution: kept as a wrong one
    [1, 1, Array(15).fill(0)], // the ghost already has a command
    'garbage',
    [7, 1, 0],
    null,
  ]);
  assert.deepEqual(r.orders, [
    [0, 24, 2],
    [0, 25, 1],
    [0, 26, 8],
    [1, 1, [0, -1]],
  ]);
  assert.equal(r.warnings.length, 7);
  assert.doesNotMatch(r.warnings.join('\n'), /already/);
  assert.equal(game.validateOrders(s, 0, 'nope').orders.length, 0);
  assert.equal(game.validateOrders(s, 0, { length: 3 }).warnings.length, 1);
});

test('frames are compact: a 200-round replay of frames gzips well under 1 MB', async () => {
  const { gzipSync } = await import('node:zlib');
  let s = game.create(cfg, 6);
  const frames: unknown[] = [game.frame(s)];
  const rng = new Rng(1);
  while (!isOver(game, s.cfg, s)) {
    const o: unknown[][] = [[], [], [], []];
    for (let id = 0; id < 84; id++) o[s.uplayer[id]!]!.push([0, id, s.utype[id] === GHOST ? rng.random(0, 7) : 2 * rng.random(0, 3)]);
    s = game.next(
      s,
      o.map((x, p) => game.validateOrders(s, p, x).orders),
      [false, false, false, false],
    ).state;
    frames.push(game.frame(s));
  }
  const size = gzipSync(JSON.stringify(frames)).length;
  check(size < 400_000, `${size} bytes gzip'd`);
});

test('a frozen player gives no orders: its units stay where they are (unless Voldemort interferes)', () => {
  const s = game.create(cfg, 13);
  const o: unknown[][] = [[], [], [], []];
  for (let id = 0; id < 84; id++) o[s.uplayer[id]!]!.push([0, id, 2]);
  const valid = o.map((x, p) => game.validateOrders(s, p, x).orders);
  valid[1] = [];
  const { state, events } = game.next(s, valid, [false, true, false, false]);
  const killed = new Set((events as { t: string; id: number }[]).filter((e) => e.t === 'kill').map((e) => e.id));
  for (let id = 0; id < 84; id++) {
    if (s.uplayer[id] === 1 && !killed.has(id) && state.uplayer[id] === 1) assert.equal(state.upos[id], s.upos[id], `unit ${id}`);
  }
  const json = JSON.stringify(events);
  assert.deepEqual(JSON.parse(json), events, 'events are plain JSON');
});
