// One test per rule of the statement (regles-TWD), on small hand-built boards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, withSeed, step, posOf, at, foodCount, Dir } from './helpers.ts';
import { Rng } from '../../../src/sdk/rng.ts';
import { UType, strengthOf, scoreOf, regenPos, type TwdOrder, type TwdState, type TwdEvent } from '../../../src/games/walking-dead/engine.ts';
import game from '../../../src/games/walking-dead/index.ts';

/** A round in which the random 20% clan switch did not happen (it is tested on its own). */
function stepNoSwitch(s: TwdState, orders: TwdOrder[][] = [[], [], [], []]) {
  for (let seed = 1; seed < 200; seed++) {
    const r = step(
      withSeed(s, seed),
      orders.map((o) => [...o]),
    );
    if (!r.events.some((e) => e.k === 'switch')) return r;
  }
  throw new Error('no seed without a clan switch');
}

const open = (...rows: string[]) => rows;

test('an alive unit moves to an adjacent empty street cell and its clan owns it', () => {
  const s = build(open('.......', '...a...', '.......', '.......', '.......'));
  const r = stepNoSwitch(s, [[[0, Dir.Right]]]);
  assert.deepEqual(posOf(r.state, 0), [1, 4]);
  assert.equal(r.state.owner[1 * 7 + 4], 0);
  assert.equal(r.state.owner[1 * 7 + 3], 0, 'the cell it left stays owned');
  assert.equal(r.state.nbCells[0], 2);
  assert.equal(r.state.round, 1);
});

test('alive units never move diagonally: validateOrders warns but keeps the order (it takes its turn), and the engine ignores it', () => {
  const s = build(open('.....', '..a..', '.....'));
  const v = game.validateOrders(s, 0, [[0, Dir.DR]]);
  assert.deepEqual(v.orders, [[0, Dir.DR]]);
  assert.match(v.warnings[0]!, /diagonal/);
  const r = stepNoSwitch(s, [[[0, Dir.DR]]]);
  assert.deepEqual(posOf(r.state, 0), [1, 2]);
});

test('moving into waste, off the board, into a unit of the same clan or into a dead unit is ignored', () => {
  const s = build(open('aX...', 'a.Ba.', '.....'));
  // ids: 0 at (0,0), 1 at (1,0), 2 dead B at (1,2), 3 at (1,3)
  const r = stepNoSwitch(s, [
    [
      [0, Dir.Right],
      [1, Dir.Up],
      [3, Dir.Left],
    ],
    [],
    [],
    [],
  ]);
  assert.deepEqual(posOf(r.state, 0), [0, 0], 'waste');
  assert.deepEqual(posOf(r.state, 1), [1, 0], 'same clan');
  assert.deepEqual(posOf(r.state, 3), [1, 3], 'dead unit');
  const r2 = stepNoSwitch(s, [[[0, Dir.Up]]]);
  assert.deepEqual(posOf(r2.state, 0), [0, 0], 'off the board');
});

test('food: the unit eats it, moves, owns the cell; strength points grow by food_strength; the food reappears', () => {
  const s = build(open('.........', '.aF......', '.........', '.........', '.........'), { points: [100, 0, 0, 0] });
  const r = stepNoSwitch(s, [[[0, Dir.Right]]]);
  assert.deepEqual(posOf(r.state, 0), [1, 2]);
  assert.equal(r.state.owner[1 * 9 + 2], 0);
  assert.equal(r.state.food[1 * 9 + 2], 0);
  // 100 + 50 food - 1 alive unit
  assert.equal(r.state.points[0], 149);
  assert.equal(foodCount(r.state), 1, 'a unit of food reappears in another position');
  assert.ok(r.events.some((e) => e.k === 'eat'));
});

test('never a cell with food and a unit at once', () => {
  let s = game.create(game.parseConfig({}), 17);
  for (let k = 0; k < 40; k++) {
    const orders = [0, 1, 2, 3].map((pl) => {
      const o: TwdOrder[] = [];
      for (let u = 0; u < s.uType.length; u++) if (s.uPlayer[u] === pl && s.uType[u] === UType.Alive) o.push([u, ((k + u) % 4) * 2]);
      return o;
    });
    s = step(s, orders).state;
    for (let c = 0; c < s.food.length; c++) assert.ok(!(s.food[c] && s.cellUnit[c] !== -1));
    assert.equal(foodCount(s), 15);
  }
});

test('attacking a zombie kills it, the unit does not move, +10 points; it comes back as a unit of the clan with the same id', () => {
  const s = build(open('...........', '.aZ........', '...........', '...........', '...........', '...........', '...........'));
  // ids: 0 = a, 1 = zombie
  const r = stepNoSwitch(s, [[[0, Dir.Right]]]);
  assert.deepEqual(posOf(r.state, 0), [1, 1]);
  assert.equal(r.state.scrAcc[0], 10);
  assert.equal(r.state.uType[1], UType.Alive);
  assert.equal(r.state.uPlayer[1], 0);
  assert.equal(r.state.uRfz[1], -1);
  const p = posOf(r.state, 1)!;
  assert.notDeepEqual(p, [1, 2], 'it reappears in another position');
  // The regeneration rule: nobody in the 5x5 around it.
  for (let i = p[0] - 2; i <= p[0] + 2; i++)
    for (let j = p[1] - 2; j <= p[1] + 2; j++) if (i >= 0 && j >= 0 && i < 7 && j < 11 && (i !== p[0] || j !== p[1])) assert.equal(at(r.state, i, j), -1);
  assert.equal(r.state.owner[r.state.uPos[1]!], 0, 'the clan owns the cell where it reappears');
  assert.equal(scoreOf(r.state, 0), 10 + r.state.nbCells[0]!);
});

test('fight: the loser becomes a dead unit that will turn into a zombie, the winner gets 50 points, nobody moves', () => {
  const s = build(open('.....', '.ab..', '.....'));
  for (let seed = 1; seed <= 30; seed++) {
    const r = step(withSeed(s, seed), [[[0, Dir.Right]], [], [], []]);
    const fight = r.events.find((e) => e.k === 'fight') as Extract<TwdEvent, { k: 'fight' }>;
    assert.ok(fight);
    const loser = fight.w === 0 ? 1 : 0;
    assert.equal(r.state.uType[loser], UType.Dead);
    assert.equal(r.state.uRfz[loser], 5);
    assert.equal(r.state.uType[fight.w], UType.Alive);
    const winnerClan = fight.w === 0 ? 0 : 1;
    assert.equal(r.state.scrAcc[winnerClan], 50);
    assert.deepEqual(posOf(r.state, 0), [1, 1]);
    assert.deepEqual(posOf(r.state, 1), [1, 2]);
  }
});

/** Fraction of fights the attacker (clan 0) wins with the given strength points (1 unit each). */
function attackerWinRate(pts: [number, number], n = 3000): number {
  const s = build(open('.....', '.ab..', '.....'), { points: [pts[0], pts[1], 0, 0] });
  let wins = 0;
  for (let seed = 1; seed <= n; seed++) {
    const r = step(withSeed(s, seed * 7919), [[[0, Dir.Right]], [], [], []]);
    const f = r.events.find((e) => e.k === 'fight') as Extract<TwdEvent, { k: 'fight' }>;
    if (f.w === 0) wins++;
  }
  return wins / n;
}

test('fight odds: 30% surprise for the attacker, otherwise N/(N+M); N=M=0 is even', () => {
  // Attacker has no strength: it only wins by surprise.
  const a = attackerWinRate([0, 1000]);
  assert.ok(Math.abs(a - 0.3) < 0.03, `surprise only: ${a}`);
  // Defender has no strength: the attacker always wins.
  assert.equal(attackerWinRate([1000, 0], 500), 1);
  // Equal: 0.3 + 0.7/2 = 0.65; both zero: also 0.65.
  const e = attackerWinRate([500, 500]);
  assert.ok(Math.abs(e - 0.65) < 0.03, `equal: ${e}`);
  const z = attackerWinRate([0, 0]);
  assert.ok(Math.abs(z - 0.65) < 0.03, `zero: ${z}`);
  // 3:1 → 0.3 + 0.7*0.75 = 0.825
  const t = attackerWinRate([300, 100]);
  assert.ok(Math.abs(t - 0.825) < 0.03, `3:1: ${t}`);
});

test('the surprise flag is reported and a surprised defender always loses', () => {
  const s = build(open('.....', '.ab..', '.....'), { points: [0, 1000, 0, 0] });
  let surprises = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const r = step(withSeed(s, seed), [[[0, Dir.Right]], [], [], []]);
    const f = r.events.find((e) => e.k === 'fight') as Extract<TwdEvent, { k: 'fight' }>;
    if (f.surprise) {
      surprises++;
      assert.equal(f.w, 0);
    } else assert.equal(f.w, 1, 'strength 0 against 1000 never wins a real fight');
  }
  assert.ok(surprises > 30 && surprises < 100);
});

test('strength is floor(points / alive units), 0 without alive units', () => {
  const s = build(open('.a.a.a.', '.......', '.b.....'), { points: [100, 7, 55, 0] });
  assert.equal(strengthOf(s, 0), 33);
  assert.equal(strengthOf(s, 1), 7);
  assert.equal(strengthOf(s, 2), 0, 'no alive units');
  // Dead units do not count.
  const d = build(open('.a.A.A.', '.......'), { points: [100, 0, 0, 0] });
  assert.equal(strengthOf(d, 0), 100);
});

test('at the end of each round strength points drop by the number of alive units, never below 0', () => {
  const s = build(open('.a.a.a.', '.......', '.b.....', '.......', '..c....'), { points: [100, 0, 2, 0] });
  const r = stepNoSwitch(s);
  assert.equal(r.state.points[0], 97);
  assert.equal(r.state.points[1], 0, 'never negative');
  assert.equal(r.state.points[2], 1);
});

test('a zombie bite starts the conversion: after rounds_before_becoming_zombie rounds the unit is a zombie with the same id', () => {
  const s = build(open('.......', '.a.....', '..Z....', '.......', '.......'));
  // ids: 0 = a at (1,1), 1 = zombie at (2,2): diagonal, it bites.
  let r = stepNoSwitch(s);
  assert.ok(r.events.some((e) => e.k === 'bite' && e.u === 0 && e.z === 1));
  assert.deepEqual(posOf(r.state, 1), [2, 2], 'the zombie does not move into the unit');
  assert.equal(r.state.uRfz[0], 5);
  assert.equal(r.state.uType[0], UType.Alive, 'while converting it behaves as alive');
  // A second bite does not restart the process.
  r = stepNoSwitch(r.state);
  assert.equal(r.state.uRfz[0], 4);
  for (let k = 0; k < 3; k++) {
    r = stepNoSwitch(r.state);
    assert.equal(r.state.uType[0], UType.Alive);
  }
  assert.equal(r.state.uRfz[0], 1);
  r = stepNoSwitch(r.state);
  assert.equal(r.state.uType[0], UType.Zombie, 'five rounds after the bite');
  assert.equal(r.state.uPlayer[0], -1);
  assert.equal(r.state.uRfz[0], -1);
  assert.equal(r.state.owner[1 * 7 + 1], -1, 'the clan loses the cell');
  assert.equal(r.state.round, 6);
});

test('a converting unit can still move, eat and attack like an alive one', () => {
  const s = build(open('.......', '.aF....', '.......', '.......', '.......'));
  s.uRfz[0] = 3;
  const r = stepNoSwitch(s, [[[0, Dir.Right]]]);
  assert.deepEqual(posOf(r.state, 0), [1, 2]);
  assert.equal(r.state.uRfz[0], 2);
});

test('a unit killed in a fight restarts its conversion even if it had been bitten', () => {
  const s = build(open('.....', '.ab..', '.....'), { points: [1000, 0, 0, 0] });
  s.uRfz[1] = 2; // b was bitten earlier
  const r = step(withSeed(s, 3), [[[0, Dir.Right]], [], [], []]);
  assert.equal(r.state.uType[1], UType.Dead);
  assert.equal(r.state.uRfz[1], 5);
});

test('a dead unit cannot move and becomes a zombie after its countdown', () => {
  const s = build(open('.......', '.A.....', '.......'));
  const v = game.validateOrders(s, 0, [[0, Dir.Right]]);
  assert.deepEqual(v.orders, [[0, Dir.Right]], 'kept: in the original it takes its turn in the interleaving');
  assert.match(v.warnings[0]!, /dead/);
  let st = s;
  for (let k = 0; k < 4; k++) {
    st = stepNoSwitch(st, [[[0, Dir.Right]]]).state;
    assert.equal(st.uType[0], UType.Dead);
    assert.deepEqual(posOf(st, 0), [1, 1]);
  }
  st = stepNoSwitch(st).state;
  assert.equal(st.uType[0], UType.Zombie);
});

test('zombies move towards the nearest alive unit around obstacles, also diagonally', () => {
  // The unit is on the other side of a wall: straight-line closer is a dead end.
  const s = build(
    open(
      '.........', //
      '.XXXXXXX.',
      '.X..Z..X.',
      '.X.....X.',
      '.XXXX.XX.',
      '.........',
      '....a....',
    ),
  );
  // ids: zombie 0 at (2,4), a 1 at (6,4)
  const r = stepNoSwitch(s);
  // The way out is (4,5); from (2,4) the zombie must go to (3,4) or (3,5) (distance 3 to (6,4) via (4,5)).
  const p = posOf(r.state, 0)!;
  assert.ok([3].includes(p[0]) && [4, 5].includes(p[1]), `zombie at ${p}`);
  let st = r.state;
  for (let k = 0; k < 3; k++) st = stepNoSwitch(st).state;
  // After 4 rounds it is adjacent and has bitten.
  assert.ok(st.uRfz[1]! > 0, 'the unit was bitten');
});

test('zombies never step onto waste, dead units or other zombies; a zombie with no reachable unit stays', () => {
  const s = build(open('XXXXX', 'XZAZX', 'XXXXX', '.....', '..a..'));
  const r = stepNoSwitch(s);
  assert.deepEqual(posOf(r.state, 0), [1, 1]);
  assert.deepEqual(posOf(r.state, 2), [1, 3]);
});

test('a zombie stepping on food destroys it (it reappears) and on an owned cell removes the owner', () => {
  const s = build(open('.........', '.Z.......', '..F......', '...a.....', '.........', '.........'));
  s.owner[0] = 1;
  const r = stepNoSwitch(s);
  assert.deepEqual(posOf(r.state, 0), [2, 2]);
  assert.ok(r.events.some((e) => e.k === 'zeat'));
  assert.equal(r.state.owner[2 * 9 + 2], -1);
  assert.equal(foodCount(r.state), 1, 'the food reappears at a random position');
  assert.equal(r.state.food[2 * 9 + 2], 0);
  const s2 = build(open('XXXXX', 'Z1.a.', 'XXXXX'));
  const r2 = stepNoSwitch(s2);
  assert.deepEqual(posOf(r2.state, 0), [1, 1]);
  assert.equal(r2.state.owner[1 * 5 + 1], -1);
});

test('20% per round: a unit of the clan with most alive units switches to the clan with fewest, with its cell', () => {
  const s = build(open('.a.a.a.a.', '.........', '.b.b.....', '.........', '.c.c.d...'));
  let switches = 0;
  const N = 2000;
  for (let seed = 1; seed <= N; seed++) {
    const r = step(withSeed(s, seed * 31));
    const sw = r.events.filter((e) => e.k === 'switch') as Extract<TwdEvent, { k: 'switch' }>[];
    assert.ok(sw.length <= 1);
    if (sw.length) {
      switches++;
      assert.equal(sw[0]!.from, 0, 'the largest clan loses it');
      assert.equal(sw[0]!.to, 3, 'the smallest clan gets it');
      assert.equal(r.state.uPlayer[sw[0]!.u], 3);
      assert.equal(r.state.owner[r.state.uPos[sw[0]!.u]!], 3);
    }
  }
  assert.ok(Math.abs(switches / N - 0.2) < 0.03, `${switches / N}`);
});

test('clan switch ties: a random clan among the largest and among the smallest; all equal → two distinct clans', () => {
  const s = build(open('.a.a.....', '.........', '.b.b.....', '.........', '.c...d...'));
  const from = new Set<number>();
  const to = new Set<number>();
  for (let seed = 1; seed <= 400; seed++) {
    for (const e of step(withSeed(s, seed)).events) if (e.k === 'switch') from.add(e.from), to.add(e.to);
  }
  assert.deepEqual([...from].sort(), [0, 1]);
  assert.deepEqual([...to].sort(), [2, 3]);
  const eq = build(open('.a.b.c.d.', '.........'));
  for (let seed = 1; seed <= 200; seed++) for (const e of step(withSeed(eq, seed)).events) if (e.k === 'switch') assert.notEqual(e.from, e.to);
});

test('score: 10 per killed zombie, 50 per killed unit, plus 1 per cell owned in this round', () => {
  const s = build(open('.........', '.aZ...bc.', '.........', '.........', '.........'), { points: [1000, 0, 0, 0] });
  // a kills the zombie; b (clan 1, strength 0) attacks c (clan 2, strength 0).
  const r = stepNoSwitch(s, [[[0, Dir.Right]], [[2, Dir.Right]], [], []]);
  const st = r.state;
  assert.equal(st.scrAcc[0], 10);
  assert.equal(st.scrAcc[1]! + st.scrAcc[2]!, 50);
  for (let pl = 0; pl < 4; pl++) assert.equal(game.scores(st)[pl], st.scrAcc[pl]! + st.nbCells[pl]!);
  assert.equal(st.nbCells[0], 2, 'its cell and the reappeared unit');
  // Losing cells lowers the score.
  const z = build(open('XXXXX', 'Z000a', 'XXXXX'));
  const r1 = stepNoSwitch(z);
  const r2 = stepNoSwitch(r1.state);
  assert.ok(game.scores(r2.state)[0]! < game.scores(r1.state)[0]!);
});

test('the score is counted at the end of each round: 0 before the first round, as in the original', () => {
  const s = build(open('.a.00', '.....'));
  assert.deepEqual(game.scores(s), [0, 0, 0, 0]);
  assert.deepEqual(game.scores(stepNoSwitch(s).state), [3, 0, 0, 0]);
});

test('points_per_owned_cell does not change the score: the original adds one point per owned cell whatever it says', () => {
  const s = build(open('.a.00', '.....'), { cfg: { points_per_owned_cell: 3 } });
  assert.equal(game.scores(stepNoSwitch(s).state)[0], 3);
});

test("the original's fight draws: random(0,100) < 30 is a surprise, else random(0,1000) against N/(N+M)*1000", () => {
  const s = build(open('.....', '.ab..', '.....'), { points: [300, 700, 0, 0] });
  for (let seed = 1; seed <= 300; seed++) {
    const rng = new Rng(seed);
    rng.random(1, 1); // the interleaving of the only order
    const surprise = rng.random(0, 100) < 30;
    const win = surprise || rng.random(0, 1000) < (300 / 1000) * 1000;
    const r = step(withSeed(s, seed), [[[0, Dir.Right]], [], [], []]);
    const f = r.events.find((e) => e.k === 'fight') as Extract<TwdEvent, { k: 'fight' }>;
    assert.equal(f.surprise, surprise, `seed ${seed}`);
    assert.equal(f.w === 0, win, `seed ${seed}`);
  }
});

test("orders that fail still take their turn in the interleaving: a dead unit's order and a bad direction each draw random(1,q)", () => {
  const s = build(open('.......', '.A.a...', '.......'));
  // ids: 0 dead (clan 0), 1 alive (clan 0). No zombies: the only other draw is the clan switch.
  for (let seed = 1; seed <= 20; seed++) {
    const expected = new Rng(seed);
    expected.random(1, 1);
    expected.random(1, 1);
    if (expected.random(0, 4) === 0) continue; // a clan switch draws more
    const r = step(withSeed(s, seed), [
      [
        [0, Dir.Right],
        [1, -1],
      ],
      [],
      [],
      [],
    ]);
    assert.equal(r.state.rng.seed, expected.seed, `seed ${seed}`);
    assert.deepEqual(posOf(r.state, 0), [1, 1]);
    assert.deepEqual(posOf(r.state, 1), [1, 3]);
  }
});

test("clan switch: tied largest clans are drawn from in descending clan order, tied smallest ones in ascending order (the original's sort)", () => {
  // Clans 0 and 1 have two alive units, clans 2 and 3 one each; no zombies, no orders.
  const s = build(open('.a.a.....', '.........', '.b.b.....', '.........', '.c...d...'));
  let switches = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const rng = new Rng(seed);
    if (rng.random(0, 4) !== 0) continue;
    const loses = [1, 0][rng.random(0, 1)]!;
    const wins = [2, 3][rng.random(0, 1)]!;
    const k = rng.random(0, 1);
    const sw = step(withSeed(s, seed)).events.find((e) => e.k === 'switch') as Extract<TwdEvent, { k: 'switch' }>;
    assert.deepEqual([sw.from, sw.to, sw.u], [loses, wins, 2 * loses + k], `seed ${seed}`);
    switches++;
  }
  assert.ok(switches > 20);
});

test('end-of-round order: zombies killed this round are alive again before strength points decay', () => {
  const s = build(open('.........', '.aZ......', '.........', '.........', '.........', '.........'), { points: [100, 0, 0, 0] });
  const r = stepNoSwitch(s, [[[0, Dir.Right]]]);
  assert.equal(r.state.points[0], 98, 'two alive units eat at the end of the round');
});

test('end-of-round order: conversion to zombie comes before the decay and before the clan switch counts', () => {
  const s = build(open('.a.....', '.......', '.a.....'), { points: [100, 0, 0, 0] });
  s.uRfz[0] = 1; // turns into a zombie at the end of this round
  const r = stepNoSwitch(s);
  assert.equal(r.state.uType[0], UType.Zombie);
  assert.equal(r.state.points[0], 99, 'only one alive unit left');
});

test('orders of different players interleave at random (the statement example with M, U, V)', () => {
  // x x x x / x M U x / x V x x : U (clan 0) goes left, V (clan 1) goes up.
  const s = build(open('XXXX', 'XFaX', 'XbXX', 'XXXX'), { points: [0, 1000, 0, 0] });
  let uAte = 0;
  let vAte = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const r = step(withSeed(s, seed), [[[0, Dir.Left]], [[1, Dir.Up]], [], []]);
    const eat = r.events.find((e) => e.k === 'eat') as Extract<TwdEvent, { k: 'eat' }>;
    if (eat.u === 0) {
      uAte++;
      // Then V's move up attacks U.
      assert.ok(r.events.some((e) => e.k === 'fight' && e.a === 1 && e.d === 0));
    } else {
      vAte++;
      // U's move then attacks V, which now stands where the food was.
      assert.ok(r.events.some((e) => e.k === 'fight' && e.a === 0 && e.d === 1));
    }
  }
  assert.ok(uAte > 50 && vAte > 50, `${uAte} / ${vAte}`);
});

test("the relative order of one clan's orders is kept", () => {
  const s = build(open('.........', '.aa......', '.........', '....b....', '....c....', '....d....'));
  for (let seed = 1; seed <= 50; seed++) {
    const orders: TwdOrder[][] = [
      [
        [1, Dir.Right],
        [0, Dir.Right],
      ],
      [[2, Dir.Up]],
      [[3, Dir.Left]],
      [[4, Dir.Left]],
    ];
    const r = step(withSeed(s, seed), orders);
    assert.deepEqual(posOf(r.state, 0), [1, 2], 'the back unit follows into the vacated cell');
    assert.deepEqual(posOf(r.state, 1), [1, 3]);
  }
  // The other way round the back unit is blocked by its own clan.
  const r = stepNoSwitch(s, [
    [
      [0, Dir.Right],
      [1, Dir.Right],
    ],
  ]);
  assert.deepEqual(posOf(r.state, 0), [1, 1]);
});

test('the total number of units is constant and identifiers never change', () => {
  let s = game.create(game.parseConfig({}), 99);
  const n = s.uType.length;
  assert.equal(n, 90);
  for (let k = 0; k < 100; k++) {
    const orders = [0, 1, 2, 3].map((pl) => {
      const o: TwdOrder[] = [];
      for (let u = 0; u < n; u++) if (s.uPlayer[u] === pl && s.uType[u] === UType.Alive) o.push([u, ((u * 7 + k) % 4) * 2]);
      return o;
    });
    s = step(s, orders).state;
    let onBoard = 0;
    for (let c = 0; c < s.cellUnit.length; c++) {
      const u = s.cellUnit[c]!;
      if (u >= 0) {
        onBoard++;
        assert.equal(s.uPos[u], c, 'every unit on the grid knows its cell');
      }
    }
    assert.equal(onBoard, n);
  }
});

test('regeneration: a cell with no unit in its 5x5 (food there does not matter, as in the original); otherwise any empty cell', () => {
  const s = build(open('.........', '.a.....F.', '.........', '.........', '.........', '.........'));
  let nearFood = 0;
  for (let seed = 1; seed <= 50; seed++) {
    const t = withSeed(s, seed);
    const p = regenPos(t);
    const i = Math.floor(p / 9);
    const j = p % 9;
    assert.equal(t.cellUnit[p], -1);
    assert.equal(t.food[p], 0, 'never on the food itself');
    for (let di = -2; di <= 2; di++)
      for (let dj = -2; dj <= 2; dj++) {
        const a = i + di;
        const b = j + dj;
        if (a < 0 || b < 0 || a >= 6 || b >= 9) continue;
        assert.equal(t.cellUnit[a * 9 + b], -1);
        if (t.food[a * 9 + b]) nearFood++;
      }
  }
  assert.ok(nearFood > 0, 'cells next to the food are candidates');
  // No safe cell at all: any empty street cell.
  const full = build(open('a.F.b', 'X.X.X'));
  for (let seed = 1; seed <= 20; seed++) {
    const t = withSeed(full, seed);
    const p = regenPos(t);
    assert.ok([1, 3, 6, 8].includes(p), `empty street cell, got ${p}`);
  }
});
