// The two editions (config `edition`) and fixed boards (config `map`, the
// original .cnf format).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import game from '../../../src/games/bola-de-drac/index.ts';
import { toCnf } from '../../../src/games/bola-de-drac/engine.ts';
import { GameConfigError, isOver } from '../../../src/sdk/types.ts';
import { arbiterState } from './golden.ts';

const BOARD = `boladedrac v1
nb_rounds 11
names ? ? ? ?
round 0
XXXXXXXXX
X..C....X
X.XX.XB.X
X.......X
XXXXXXXXX
beans
3 1 y 0
kintons
1 7 n 4
normal 1 1 0 a 0 999 0 0
with_ball 2 6 0 a 1 500 0 0
on_kinton 3 7 0 a 2 20 5 0
normal 3 4 7 d 0 0 0 0
`;

describe('editions', () => {
  test('2015 (the default) plays nb_rounds rounds, 2012 nb_rounds - 1', () => {
    for (const [edition, rounds] of [
      [2015, 9],
      [2012, 8],
    ]) {
      let s = game.create(game.parseConfig({ nb_rounds: 9, edition }), 3);
      let n = 0;
      while (!isOver(game, s.cfg, s)) {
        s = game.next(s, [[], [], [], []], [false, false, false, false]).state;
        n++;
      }
      assert.equal(n, rounds, `edition ${edition}`);
    }
    assert.equal(game.parseConfig({}).edition, 2015);
    assert.throws(() => game.parseConfig({ edition: 2013 }), GameConfigError);
  });
});

describe('fixed boards', () => {
  test('a .cnf board is read as the original reads it: parameters, items, gokus in any state', () => {
    const cfg = game.parseConfig({ map: BOARD });
    assert.equal(cfg.rows, 5);
    assert.equal(cfg.cols, 9);
    assert.equal(cfg.nb_rounds, 11);
    assert.equal(cfg.nb_balls, 2, 'one free, one carried');
    assert.equal(cfg.nb_capsules, 1);
    assert.equal(cfg.nb_beans, 1);
    assert.equal(cfg.nb_kintons, 1);
    const s = game.create(cfg, 1);
    assert.equal(
      arbiterState(s),
      'round 0\nXXXXXXXXX\nX..C....X\nX.XX.XB.X\nX.......X\nXXXXXXXXX\nbeans\n3 1 y 0\nkintons\n1 7 n 4\nnormal 1 1 0 a 0 999 0\nwith_ball 2 6 0 a 1 500 0\non_kinton 3 7 0 a 2 20 5\nnormal 3 4 7 d 0 0 0\n',
    );
    assert.equal(s.gokus[3]!.alive, false);
    assert.equal(s.occ[2 * 9 + 6], 1, 'a carrier may stand on a free ball');
  });

  test("explicit keys win over the board's preamble; counts the board decides must agree", () => {
    assert.equal(game.parseConfig({ map: BOARD, nb_rounds: 21 }).nb_rounds, 21);
    assert.throws(() => game.parseConfig({ map: BOARD, nb_balls: 3 }), /nb_balls/);
    assert.throws(() => game.parseConfig({ map: BOARD, rows: 6 }), /rows/);
  });

  test('a broken board is a GameConfigError naming the problem', () => {
    const bad: [string, RegExp][] = [
      [BOARD.replace('X..C....X', 'X..C.....'), /border/],
      [BOARD.replace('X..C....X', 'X..C..Q.X'), /unknown cell/],
      [BOARD.replace('3 1 y 0', '1 3 y 0'), /not on a free empty cell/],
      [BOARD.replace('normal 3 4 7 d 0 0 0 0', 'normal 3 4 7 d 0 5 0 0'), /dead/],
      [BOARD.replace('normal 1 1 0 a 0 999 0 0', 'normal 2 6 0 a 0 999 0 0'), /cannot be on|shares/],
      [BOARD.replace('on_kinton 3 7 0 a 2 20 5 0', 'on_kinton 3 7 0 a 2 20 0 0'), /kinton/],
      [BOARD.replace('normal 3 4 7 d 0 0 0 0\n', ''), /4 goku lines/],
    ];
    for (const [text, why] of bad)
      assert.throws(
        () => game.parseConfig({ map: text }),
        (e: Error) => e instanceof GameConfigError && why.test(e.message),
        String(why),
      );
  });

  test('a generated board printed as .cnf reads back as the same state', () => {
    for (const seed of [1, 2, 3, 4]) {
      const s = game.create(game.parseConfig({}), seed);
      const t = game.create(game.parseConfig({ map: toCnf(s) }), seed);
      assert.equal(arbiterState(t), arbiterState(s));
      assert.deepEqual(game.parseConfig({ map: toCnf(s) }).nb_rounds, 601);
    }
  });
});
