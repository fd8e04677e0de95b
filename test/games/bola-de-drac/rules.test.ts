// One test per rule of the 2015 statement (statement.ca.md), on hand-built boards.
import { isOver } from '../../../src/sdk/types.ts';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { build, scripted, step, at, cellAt, countFreeBalls, M, T, game } from './helpers.ts';
import { CType, Dir } from '../../../src/games/bola-de-drac/consts.ts';
import type { State } from '../../../src/games/bola-de-drac/engine.ts';

const { Top, Bottom, Left, Right, None } = Dir;

const ROOM = ['XXXXXXXXXX', 'X........X', 'X........X', 'X........X', 'X........X', 'X........X', 'XXXXXXXXXX'];

function withChar(pic: string[], i: number, j: number, c: string): string[] {
  return pic.map((row, r) => (r === i ? row.slice(0, j) + c + row.slice(j + 1) : row));
}
function picture(...marks: [number, number, string][]): string[] {
  let pic = ROOM;
  for (const [i, j, c] of marks) pic = withChar(pic, i, j, c);
  return pic;
}

describe('initial state', () => {
  test('every goku starts at max_strength with no balls, round 0', () => {
    const s = game.create(game.parseConfig({}), 42);
    assert.equal(game.round(s), 0);
    for (const g of s.gokus) {
      assert.equal(g.strength, 999);
      assert.equal(g.balls, 0);
      assert.equal(g.alive, true);
      assert.equal(g.ball, false);
      assert.equal(g.kinton, 0);
    }
    assert.deepEqual(game.scores(s), [999, 999, 999, 999]);
  });
});

describe('actions and parity', () => {
  test('a goku without Kinton moves in round 0 (the first round) and even rounds', () => {
    let s = build(picture([2, 2, '0']));
    s = step(s, [M(Right)]).state;
    assert.deepEqual(at(s, 0), [2, 3]);
    assert.equal(s.round, 1);
  });

  test('a goku without Kinton cannot act in odd rounds', () => {
    const s = build(picture([2, 2, '0']), { round: 1 });
    const t = step(s, [M(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 2]);
    const u = scripted(build(picture([2, 2, '0'], [2, 6, '1']), { round: 3 }), [0, 1, 2, 3], [0]);
    const v = step(u, [T(Right)]);
    assert.equal(v.state.gokus[1]!.alive, true, 'no Kame Hame in an odd round without Kinton');
    assert.equal(v.state.gokus[0]!.strength, 999);
  });

  test('a goku on a Kinton cloud acts in every round', () => {
    const s = build(picture([2, 2, '0']), { round: 1, gokus: { 0: { kinton: 10 } } });
    const t = step(s, [M(Bottom)]).state;
    assert.deepEqual(at(t, 0), [3, 2]);
  });

  test('gokus cannot move into rocks', () => {
    const s = build(picture([1, 1, '0']));
    const t = step(s, [M(Top)]).state;
    assert.deepEqual(at(t, 0), [1, 1]);
    const u = step(build(picture([1, 1, '0'])), [M(Left)]).state;
    assert.deepEqual(at(u, 0), [1, 1]);
  });

  test('Dir None is no action', () => {
    const t = step(build(picture([2, 2, '0'])), [M(None)]).state;
    assert.deepEqual(at(t, 0), [2, 2]);
  });

  test('only the first action asked counts (validateOrders)', () => {
    const s = build(picture([2, 2, '0']));
    const v = game.validateOrders(s, 0, [
      ['move', Right],
      ['throw_kamehame', Left],
      ['m', Top],
    ]);
    assert.deepEqual(v.orders, [['m', Right]]);
    assert.equal(v.warnings.length, 0, "dropped silently: the API already warned, as the original's Action does");
  });
});

describe('movement penalty', () => {
  test('in a round ≡ 2 (mod 4) a goku on foot pays moving_penalty', () => {
    const t = step(build(picture([2, 2, '0']), { round: 2 }), [M(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 3]);
    assert.equal(t.gokus[0]!.strength, 989);
  });

  test('in other even rounds moving is free', () => {
    for (const round of [0, 4, 8]) {
      const t = step(build(picture([2, 2, '0']), { round }), [M(Right)]).state;
      assert.equal(t.gokus[0]!.strength, 999, `round ${round}`);
    }
  });

  test('in a round ≡ 2 (mod 4) a goku with less than moving_penalty cannot move', () => {
    const t = step(build(picture([2, 2, '0']), { round: 6, gokus: { 0: { strength: 9 } } }), [M(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 2]);
    assert.equal(t.gokus[0]!.strength, 9);
  });

  test('a goku with no strength and no Kinton still moves in rounds ≡ 0 (mod 4)', () => {
    const t = step(build(picture([2, 2, '0']), { round: 4, gokus: { 0: { strength: 0 } } }), [M(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 3]);
  });

  test('a goku on a Kinton cloud never pays for moving', () => {
    const t = step(build(picture([2, 2, '0']), { round: 2, gokus: { 0: { kinton: 5, strength: 3 } } }), [M(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 3]);
    assert.equal(t.gokus[0]!.strength, 3);
  });

  test('the penalty does not depend on carrying a ball', () => {
    const t = step(build(picture([2, 2, '0']), { round: 2, gokus: { 0: { ball: true } } }), [M(Right)]).state;
    assert.equal(t.gokus[0]!.strength, 989);
  });
});

describe('dragon balls and capsules', () => {
  test('passing over a ball takes it', () => {
    const t = step(build(picture([2, 2, '0'], [2, 3, 'B'])), [M(Right)]);
    assert.equal(t.state.gokus[0]!.ball, true);
    assert.equal(cellAt(t.state, 2, 3), CType.Empty);
    assert.ok(t.events.some((e: any) => e.e === 'take' && e.what === 'ball'));
  });

  test('a goku with a ball passing over another ball leaves it', () => {
    const t = step(build(picture([2, 2, '0'], [2, 3, 'B']), { gokus: { 0: { ball: true } } }), [M(Right)]).state;
    assert.equal(t.gokus[0]!.ball, true);
    assert.equal(cellAt(t, 2, 3), CType.Ball);
  });

  test('passing over a capsule with a ball deposits it, and a new ball appears at random', () => {
    const s = build(picture([2, 2, '0'], [2, 3, 'C'], [5, 8, 'B']), { cfg: { nb_balls: 2 }, gokus: { 0: { ball: true } } });
    const t = step(s, [M(Right)]);
    assert.equal(t.state.gokus[0]!.balls, 1);
    assert.equal(t.state.gokus[0]!.ball, false);
    assert.equal(cellAt(t.state, 2, 3), CType.Capsule);
    assert.equal(countFreeBalls(t.state), 2, 'the number of balls on the board stays nb_balls');
    assert.ok(t.events.some((e: any) => e.e === 'deposit' && e.p === 0));
  });

  test('passing over a capsule without a ball does nothing', () => {
    const t = step(build(picture([2, 2, '0'], [2, 3, 'C'])), [M(Right)]).state;
    assert.equal(t.gokus[0]!.balls, 0);
    assert.equal(countFreeBalls(t), 0);
  });

  test('new balls appear on empty cells with no goku in the 5x5 around, never on bean or kinton spots', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const s = build(picture([2, 2, '0'], [2, 3, 'C'], [4, 6, 'M'], [4, 7, 'K']), { seed, gokus: { 0: { ball: true } } });
      const t = step(s, [M(Right)]).state;
      const k = t.grid.indexOf(CType.Ball);
      const [i, j] = [Math.floor(k / t.cols), k % t.cols];
      assert.ok(Math.max(Math.abs(i - 2), Math.abs(j - 3)) > 2, `ball at ${i},${j} too close to the goku`);
      assert.ok(t.beanAt[k] === -1 && t.kintonAt[k] === -1);
    }
  });
});

describe('magic beans', () => {
  test('eating a bean restores max_strength', () => {
    const t = step(build(picture([2, 2, '0'], [2, 3, 'M']), { gokus: { 0: { strength: 5 } } }), [M(Right)]).state;
    assert.equal(t.gokus[0]!.strength, 999);
    assert.equal(cellAt(t, 2, 3), CType.Empty);
  });

  test('it comes back after bean_regen_time rounds, when no goku is on the cell', () => {
    let s = build(picture([2, 2, '0'], [2, 3, 'M']), { cfg: { bean_regen_time: 6 }, gokus: { 0: { strength: 5 } } });
    s = step(s, [M(Right)]).state; // round 0: eats it
    s = step(s).state; // round 1
    s = step(s, [M(Right)]).state; // round 2: leaves the cell
    for (let r = 3; r < 6; r++) s = step(s).state;
    assert.equal(s.round, 6);
    assert.equal(cellAt(s, 2, 3), CType.Bean, 'back at the start of round 6 (eaten in round 0)');
  });

  test('it does not come back while a goku stands on its cell', () => {
    let s = build(picture([2, 2, '0'], [2, 3, 'M']), { cfg: { bean_regen_time: 3 } });
    s = step(s, [M(Right)]).state;
    for (let r = 1; r < 10; r++) s = step(s).state;
    assert.equal(cellAt(s, 2, 3), CType.Empty);
    s = step(s, [M(Right)]).state; // round 10 (even): steps off
    assert.equal(cellAt(s, 2, 3), CType.Bean);
  });
});

describe('Kinton clouds', () => {
  test('passing over a cloud gets on it for kinton_life_time rounds', () => {
    let s = build(picture([2, 2, '0'], [2, 3, 'K']), { cfg: { kinton_life_time: 5 } });
    s = step(s, [M(Right)]).state;
    assert.ok(s.gokus[0]!.kinton > 0);
    assert.equal(cellAt(s, 2, 3), CType.Empty);
    // rides during rounds 1..4 (can move in odd rounds), then is normal again
    s = step(s, [M(Bottom)]).state;
    assert.deepEqual(at(s, 0), [3, 3], 'moves in round 1 thanks to the cloud');
    for (let r = 2; r < 5; r++) s = step(s).state;
    assert.equal(s.gokus[0]!.kinton, 0);
    s = step(s, [M(Bottom)]).state; // round 5, odd, on foot
    assert.deepEqual(at(s, 0), [3, 3]);
  });

  test('a second cloud adds kinton_life_time and disappears', () => {
    const s = build(picture([2, 2, '0'], [2, 3, 'K']), { gokus: { 0: { kinton: 10 } } });
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[0]!.kinton, 10 + 55 - 1);
    assert.equal(cellAt(t, 2, 3), CType.Empty);
  });

  test('the cloud comes back on its cell after kinton_regen_time rounds when free', () => {
    let s = build(picture([2, 2, '0'], [2, 3, 'K']), { cfg: { kinton_regen_time: 4 } });
    s = step(s, [M(Right)]).state;
    s = step(s, [M(Right)]).state; // on the cloud: moves away in round 1
    assert.equal(cellAt(s, 2, 3), CType.Empty);
    s = step(s).state;
    s = step(s).state;
    assert.equal(s.round, 4);
    assert.equal(cellAt(s, 2, 3), CType.Kinton);
  });
});

describe('combat', () => {
  test('moving onto a goku is a combat; the winner stays with max(0, s − combat_penalty)', () => {
    // Goku 0 (strength ≥ 700) makes its Kame Hame draw first; then draw 0 ≤ s(A): the mover wins.
    const s = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { gokus: { 1: { strength: 300 } } }), [0, 1, 2, 3], [0, 0]);
    const t = step(s, [M(Right)]);
    const g0 = t.state.gokus[0]!;
    const g1 = t.state.gokus[1]!;
    assert.deepEqual(at(t.state, 0), [2, 3]);
    assert.equal(g0.strength, 999 - 25);
    assert.equal(g1.alive, false);
    assert.equal(g1.strength, 0, 'the loser is eliminated with strength 0');
    assert.equal(t.state.occ[2 * 10 + 2], -1);
    assert.ok(t.events.some((e: any) => e.e === 'combat' && e.winner === 0));
  });

  test('the defender may win: it stays, the mover is eliminated', () => {
    // Draw 1 + s(A) + s(B) > s(A): the defender wins.
    const s = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { gokus: { 0: { strength: 10 }, 1: { strength: 20 } } }), [0, 1, 2, 3], [31]);
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[0]!.alive, false);
    assert.equal(t.gokus[0]!.strength, 0);
    assert.equal(t.gokus[1]!.strength, 0, 'max(0, 20 − 25)');
    assert.deepEqual(at(t, 1), [2, 3]);
    assert.equal(t.occ[2 * 10 + 2], -1);
    assert.equal(t.occ[2 * 10 + 3], 1);
  });

  test("the winner takes the loser's ball; a surplus ball reappears at random", () => {
    // Two Kame Hame draws (both gokus are at 999), then the combat.
    const s1 = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { gokus: { 1: { ball: true } } }), [0, 1, 2, 3], [0, 0, 0]);
    const t1 = step(s1, [M(Right)]).state;
    assert.equal(t1.gokus[0]!.ball, true);
    assert.equal(countFreeBalls(t1), 0);
    const s2 = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { gokus: { 0: { ball: true }, 1: { ball: true } } }), [0, 1, 2, 3], [0, 0, 0]);
    const t2 = step(s2, [M(Right)]).state;
    assert.equal(t2.gokus[0]!.ball, true);
    assert.equal(countFreeBalls(t2), 1, 'the surplus ball reappears');
  });

  test("a winner without a ball that beats a carrier standing on a free ball takes one; the cell's ball reappears elsewhere (2012 engine)", () => {
    const s = scripted(build(picture([2, 2, '0'], [2, 3, 'B']), { gokus: { 0: { strength: 500 } } }), [0, 1, 2, 3], [0]);
    s.occ[2 * 10 + 3] = 1;
    s.gokus[1] = { pos: 2 * 10 + 3, ball: true, balls: 0, strength: 100, kinton: 0, alive: true, time: 0 };
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[0]!.ball, true);
    assert.equal(t.gokus[1]!.alive, false);
    assert.notEqual(cellAt(t, 2, 3), CType.Ball, 'the ball under the carrier moved');
    assert.equal(countFreeBalls(t), 1, 'nb_balls is kept');
  });

  test("a defender that wins on a capsule with the mover's ball deposits it", () => {
    const s = scripted(build(picture([2, 2, '0'], [2, 3, 'C']), { gokus: { 0: { ball: true } } }), [0, 1, 2, 3]);
    // put goku 1 on the capsule
    s.occ[2 * 10 + 3] = 1;
    s.gokus[1] = { pos: 2 * 10 + 3, ball: false, balls: 0, strength: 999, kinton: 0, alive: true, time: 0 };
    (s.rng as any).draws = [0, 0, 1500];
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[1]!.balls, 1);
    assert.equal(t.gokus[1]!.ball, false);
    assert.equal(countFreeBalls(t), 1);
  });

  test("the winner gets the loser's Kinton cloud, adding its life", () => {
    const s = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { gokus: { 0: { kinton: 7 }, 1: { kinton: 20 } } }), [0, 1, 2, 3], [0, 0, 0]);
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[0]!.kinton, 7 + 20 - 1);
    assert.equal(t.gokus[1]!.kinton, 0);
  });

  test('combat with a goku that has just moved into the cell', () => {
    // Player 1 moves first to (2,4); then player 0 moves there too.
    const s = scripted(build(picture([2, 3, '0'], [2, 5, '1'])), [1, 0, 2, 3], [0, 0, 0]);
    const t = step(s, [M(Right), M(Left)]);
    assert.ok(t.events.some((e: any) => e.e === 'combat' && e.a === 0 && e.b === 1));
    assert.equal(t.state.gokus[1]!.alive, false);
    assert.deepEqual(at(t.state, 0), [2, 4]);
  });

  test('A wins with probability (1 + s(A)) / (2 + s(A) + s(B))', () => {
    for (const [sa, sb] of [
      [0, 0],
      [300, 100],
      [50, 600],
    ]) {
      let wins = 0;
      const N = 3000;
      for (let seed = 1; seed <= N; seed++) {
        const s = build(picture([2, 2, '0'], [2, 3, '1']), { seed, gokus: { 0: { strength: sa }, 1: { strength: sb } } });
        const t = step(s, [M(Right)]).state;
        if (t.gokus[0]!.alive) wins++;
      }
      const p = (1 + sa!) / (2 + sa! + sb!);
      const sigma = Math.sqrt((p * (1 - p)) / N);
      assert.ok(Math.abs(wins / N - p) < 4 * sigma, `s=${sa}/${sb}: ${wins / N} vs ${p}`);
    }
  });

  test('in a penalty round a goku on foot with less than moving_penalty cannot attack', () => {
    const s = scripted(build(picture([2, 2, '0'], [2, 3, '1']), { round: 2, gokus: { 0: { strength: 5 } } }), [0, 1, 2, 3]);
    const t = step(s, [M(Right)]).state;
    assert.equal(t.gokus[1]!.alive, true);
    assert.deepEqual(at(t, 0), [2, 2]);
  });
});

describe('Kame Hame', () => {
  test('kills every goku in line up to the next rock; the thrower pays kamehame_penalty', () => {
    const pic = picture([2, 1, '0'], [2, 3, '1'], [2, 7, '2'], [2, 8, 'X'], [3, 5, '3']);
    const s = scripted(build(pic, { gokus: { 1: { ball: true, kinton: 9 }, 2: { strength: 500 } } }), [0, 1, 2, 3], [0]);
    const t = step(s, [T(Right)]);
    const st = t.state;
    assert.equal(st.gokus[0]!.strength, 999 - 700);
    for (const p of [1, 2]) {
      assert.equal(st.gokus[p]!.alive, false);
      assert.equal(st.gokus[p]!.strength, 0);
      assert.equal(st.gokus[p]!.kinton, 0, 'its Kinton cloud disappears');
    }
    assert.equal(st.gokus[3]!.alive, true, 'not in line');
    assert.equal(countFreeBalls(st), 1, 'the carried ball reappears elsewhere');
    const ev = t.events.find((e: any) => e.e === 'kamehame') as any;
    assert.deepEqual(ev.killed.sort(), [1, 2]);
    assert.deepEqual(ev.to, [2, 7]);
  });

  test('a rock stops the ray', () => {
    const pic = picture([2, 1, '0'], [2, 4, 'X'], [2, 6, '1']);
    const s = scripted(build(pic), [0, 1, 2, 3], [0]);
    const t = step(s, [T(Right)]).state;
    assert.equal(t.gokus[1]!.alive, true);
  });

  test('a goku with strength below kamehame_penalty cannot throw', () => {
    const s = scripted(build(picture([2, 1, '0'], [2, 5, '1']), { gokus: { 0: { strength: 699 } } }), [0, 1, 2, 3], [0]);
    const t = step(s, [T(Right)]).state;
    assert.equal(t.gokus[1]!.alive, true);
    assert.equal(t.gokus[0]!.strength, 699);
  });

  test('only one Kame Hame per round: the first granted in the random player order', () => {
    const pic = picture([1, 1, '0'], [1, 8, '1'], [4, 1, '2']);
    // Order 1, 2, 0: player 1's ray (left, along row 1) is granted and kills 0; player 2 may not throw any more.
    const s = scripted(build(pic), [1, 2, 0, 3], [0, 0]);
    const t = step(s, [T(Bottom), T(Left), T(Right)]);
    const rays = t.events.filter((e: any) => e.e === 'kamehame');
    assert.equal(rays.length, 1);
    assert.equal((rays[0] as any).p, 1);
    assert.equal(t.state.gokus[0]!.alive, false);
    assert.equal(t.state.gokus[2]!.strength, 999, 'the later request is ignored: nothing paid');
  });

  test('a refused request lets the next player in order try', () => {
    const pic = picture([1, 1, '0'], [1, 8, '1'], [4, 1, '2']);
    // Player 1 asks first but its draw (60) > s − kp (50): refused; then player 2 is granted.
    const s = scripted(build(pic, { gokus: { 1: { strength: 750 } } }), [1, 2, 0, 3], [60, 0]);
    const t = step(s, [null, T(Bottom), T(Top)]);
    const rays = t.events.filter((e: any) => e.e === 'kamehame');
    assert.equal(rays.length, 1);
    assert.equal((rays[0] as any).p, 2);
    assert.equal(t.state.gokus[0]!.alive, false, 'player 2 shot up column 1');
    assert.equal(t.state.gokus[1]!.strength, 750, 'a refused request costs nothing');
  });

  test('every goku with strength ≥ kamehame_penalty draws in turn order, asked or not (2012 engine)', () => {
    const pic = picture([1, 1, '0'], [1, 8, '1'], [4, 1, '2']);
    // Player 0 (999) asks nothing but draws first (0); player 1 (750) then draws 60 > 50: refused.
    const s = scripted(build(pic, { gokus: { 1: { strength: 750 }, 2: { strength: 100 } } }), [0, 1, 2, 3], [0, 60]);
    const t = step(s, [null, T(Left)]);
    assert.equal(t.events.filter((e: any) => e.e === 'kamehame').length, 0);
    assert.equal(t.state.gokus[0]!.alive, true);
    assert.equal(t.state.gokus[1]!.strength, 750);
  });

  test('granted with probability (1 + s − kp) / (1 + max − kp)', () => {
    for (const strength of [700, 850]) {
      let granted = 0;
      const N = 3000;
      for (let seed = 1; seed <= N; seed++) {
        const s = build(picture([2, 1, '0'], [2, 6, '1']), { seed, gokus: { 0: { strength } } });
        const t = step(s, [T(Right)]).state;
        if (!t.gokus[1]!.alive) granted++;
      }
      const p = (1 + strength - 700) / (1 + 999 - 700);
      const sigma = Math.sqrt((p * (1 - p)) / N);
      assert.ok(Math.abs(granted / N - p) < 4 * sigma + 1e-9, `s=${strength}: ${granted / N} vs ${p}`);
    }
  });

  test('the thrower does not move in the same round', () => {
    const s = scripted(build(picture([2, 1, '0'], [4, 6, '1'])), [0, 1, 2, 3], [0]);
    const t = step(s, [T(Right)]).state;
    assert.deepEqual(at(t, 0), [2, 1]);
  });

  test('a goku killed by the ray does not move afterwards', () => {
    const s = scripted(build(picture([2, 1, '0'], [2, 6, '1'])), [0, 1, 2, 3], [0]);
    const t = step(s, [T(Right), M(Bottom)]).state;
    assert.equal(t.gokus[1]!.alive, false);
    assert.equal(t.occ.filter((x) => x === 1).length, 0);
  });
});

describe('resurrection', () => {
  function deadGoku(round: number, time: number): State {
    return build(picture([2, 2, '0']), { round, gokus: { 1: { alive: false, time, strength: 0 } } });
  }

  test('after goku_regen_time rounds an eliminated goku comes back Normal with res_strength', () => {
    let s = deadGoku(1, 1);
    const t = step(s);
    const g = t.state.gokus[1]!;
    assert.equal(g.alive, true);
    assert.equal(g.strength, 200);
    assert.equal(g.kinton, 0);
    assert.equal(g.ball, false);
    assert.ok(t.events.some((e: any) => e.e === 'resurrect' && e.p === 1));
    s = t.state;
    assert.equal(s.occ[g.pos], 1);
  });

  test('2015 parity: it comes back only at the end of an odd round (so it can act at once)', () => {
    let s = deadGoku(0, 1);
    s = step(s).state; // round 0 ends: time 0, but even
    assert.equal(s.gokus[1]!.alive, false);
    s = step(s).state; // round 1 ends
    assert.equal(s.gokus[1]!.alive, true);
    assert.equal(s.round % 2, 0);
  });

  test('with no free cell after 200 tries it stays dead and tries again at the end of the next odd round (2012 engine)', () => {
    // Alive gokus at columns 2 and 6 of every inner row leave no Empty cell without a goku in its 5x5.
    const marks: [number, number, string][] = [];
    for (let i = 1; i <= 5; i++) for (let j = 1; j <= 8; j++) marks.push([i, j, 'X']);
    marks.push([2, 2, '0'], [2, 6, '2'], [4, 4, '3']);
    const s = build(picture(...marks.slice(0, -3), [2, 2, '.'], [2, 3, '.'], [2, 6, '.'], [4, 4, '.'], ...marks.slice(-3)), {
      round: 1,
      gokus: { 1: { alive: false, time: 0, strength: 0 } },
    });
    const t = step(s).state;
    assert.equal(t.gokus[1]!.alive, false, 'no cell: still dead');
    assert.equal(t.gokus[1]!.time, 0);
    t.grid[5 * 10 + 8] = CType.Empty; // a free cell appears
    const u = step(t).state;
    assert.equal(u.gokus[1]!.alive, false, 'not at the end of an even round');
    const v = step(u).state;
    assert.equal(v.gokus[1]!.alive, true, 'back at the end of round 3');
    assert.deepEqual(at(v, 1), [5, 8]);
  });

  test('a killed goku waits at least goku_regen_time rounds', () => {
    let s = scripted(build(picture([2, 1, '0'], [2, 6, '1']), { cfg: { goku_regen_time: 10 } }), [0, 1, 2, 3], [0]);
    s = step(s, [T(Right)]).state; // killed in round 0
    let back = -1;
    for (let r = 1; r < 30 && back < 0; r++) {
      s = step(s).state;
      if (s.gokus[1]!.alive) back = s.round;
    }
    assert.ok(back >= 10, `back in round ${back}`);
  });

  test('it appears on an empty cell with no other goku in the 5x5 around', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const s = build(picture([2, 2, '0'], [2, 6, '2'], [4, 4, 'B']), { seed, round: 1, gokus: { 1: { alive: false, time: 0, strength: 0 } } });
      const t = step(s).state;
      const g = t.gokus[1]!;
      assert.equal(g.alive, true);
      const [i, j] = at(t, 1);
      assert.equal(cellAt(s, i, j), CType.Empty);
      for (const p of [0, 2]) {
        const [a, b] = at(t, p);
        assert.ok(Math.max(Math.abs(a - i), Math.abs(b - j)) > 2, `seed ${seed}: too close to ${p}`);
      }
    }
  });

  test('frozen players never resurrect', () => {
    let s = deadGoku(1, 0);
    const frozen = [false, true, false, false];
    for (let r = 0; r < 10; r++) s = step(s, [], frozen).state;
    assert.equal(s.gokus[1]!.alive, false);
  });

  test('a frozen player gives no orders, even if some arrive', () => {
    const s = build(picture([2, 2, '0']));
    const t = game.next(s, [[['m', Right]], [], [], []], [true, false, false, false]).state;
    assert.deepEqual(at(t, 0), [2, 2]);
  });
});

describe('score', () => {
  test('balls · (max_strength + 1) + strength', () => {
    const s = build(picture([2, 2, '0'], [3, 3, '1']), { gokus: { 0: { balls: 3, strength: 10 }, 1: { balls: 2, strength: 999 } } });
    assert.deepEqual(game.scores(s).slice(0, 2), [3 * 1000 + 10, 2 * 1000 + 999]);
    assert.deepEqual(game.counters(s).balls!.slice(0, 2), [3, 2]);
  });

  test('the game is over after nb_rounds rounds', () => {
    let s = build(picture([2, 2, '0']), { cfg: { nb_rounds: 3 } });
    let n = 0;
    while (!isOver(game, s.cfg, s)) {
      s = step(s).state;
      n++;
    }
    assert.equal(n, 3);
  });
});

describe('purity', () => {});
