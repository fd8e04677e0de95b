// One test per rule of the statement (src/games/harry-potter/statement.ca.md)
// and of the original game's behaviour where the statement is silent, on hand-built boards.
import { isOver } from '../../../src/sdk/types.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dir, GHOST, WIZARD, isSpellSolutionCorrect, magicStrength, regenPosition, type HPEvent } from '../../../src/games/harry-potter/engine.ts';
import { Rng } from '../../../src/sdk/rng.ts';
import game from '../../../src/games/harry-potter/index.ts';
import { at, books, build, cell, open, solveSpell, step, type UnitSpec } from './helpers.ts';

// assert.ok without a message makes node read the (transpiled) source to build one, which can hang under tsx.
function check(cond: unknown, message = 'expected a truthy value'): asserts cond {
  assert.ok(cond, message);
}

const FAR: [number, number] = [18, 18]; // Voldemort, far from the action at the top left
const none = (): unknown[][] => [[], [], [], []];
const mv = (id: number, d: number) => [0, id, d];
const sp = (id: number, sol: number[]) => [1, id, sol];
function orders(pl: number, ...os: unknown[]): unknown[][] {
  const o = none();
  o[pl] = os;
  return o;
}
const w = (pl: number, i: number, j: number, extra: Partial<UnitSpec> = {}): UnitSpec => ({ t: 'w', pl, at: [i, j], ...extra });
const g = (pl: number, i: number, j: number, extra: Partial<UnitSpec> = {}): UnitSpec => ({ t: 'g', pl, at: [i, j], ...extra });

test('a ghost moves in the 8 directions and owns the cells it enters', () => {
  for (let d = 0; d < 8; d++) {
    const s0 = build({ map: open(20, 20), units: [g(0, 5, 5)], v: FAR });
    const { state } = step(s0, orders(0, mv(0, d)));
    const di = [1, 1, 0, -1, -1, -1, 0, 1][d]!;
    const dj = [0, 1, 1, 1, 0, -1, -1, -1][d]!;
    assert.deepEqual(at(state, 0), [5 + di, 5 + dj], `dir ${d}`);
    assert.equal(state.owner[cell(state, 5 + di, 5 + dj)], 0);
    assert.equal(state.owner[cell(state, 5, 5)], 0, 'the cell left behind stays owned');
  }
});

test('a wizard moves only horizontally or vertically: diagonals are ignored', () => {
  const s0 = build({ map: open(20, 20), units: [w(1, 5, 5)], v: FAR });
  for (const d of [Dir.DR, Dir.RU, Dir.UL, Dir.LD]) {
    // The host keeps it with a warning (it is the unit's command for the round), and the engine ignores it;
    // the second command is dropped silently, as the original's Action drops it.
    const v = game.validateOrders(s0, 1, [mv(0, d), mv(0, Dir.Down)]);
    assert.deepEqual(v.orders, [[0, 0, d]]);
    assert.equal(v.warnings.length, 1);
    const direct = game.next(s0, [[], [[0, 0, d]], [], []], [false, false, false, false]);
    assert.deepEqual(at(direct.state, 0), [5, 5]);
  }
  for (const d of [Dir.Down, Dir.Right, Dir.Up, Dir.Left]) {
    const { state } = step(s0, orders(1, mv(0, d)));
    assert.notDeepEqual(at(state, 0), [5, 5]);
    assert.equal(state.owner[state.upos[0]!], 1);
  }
});

test('units never cross walls nor leave the board', () => {
  const map = open(20, 20);
  map[1] = '.#' + '.'.repeat(18);
  const s0 = build({ map, units: [w(0, 0, 0), g(1, 1, 0)], v: FAR });
  for (const [id, pl, d] of [
    [0, 0, Dir.Up],
    [0, 0, Dir.Left],
    [1, 1, Dir.Right],
    [1, 1, Dir.LD],
  ] as const) {
    const { state } = step(s0, orders(pl, mv(id, d)));
    assert.deepEqual(at(state, id), at(s0, id), `unit ${id} dir ${d}`);
  }
  // A ghost moving diagonally through a wall corner is fine when the destination is free.
  const { state } = step(s0, orders(1, mv(1, Dir.DR)));
  assert.deepEqual(at(state, 1), [2, 1]);
});

test('a ghost never attacks: moving onto a unit is ignored', () => {
  const s0 = build({ map: open(20, 20), units: [g(0, 5, 5), w(1, 5, 6), w(0, 4, 5)], v: FAR });
  for (const d of [Dir.Right, Dir.Up]) {
    const { state, events } = step(s0, orders(0, mv(0, d)));
    assert.deepEqual(at(state, 0), [5, 5]);
    assert.equal(state.uplayer[1], 1);
    assert.equal(events.length, 0);
  }
});

test('reading a book: the unit moves in, the book is regenerated elsewhere, and the clan gains 50 strength at the end of the round', () => {
  const map = open(20, 20);
  map[5] = '......B.............';
  const s0 = build({ map, units: [w(2, 5, 5), g(3, 10, 10)], v: FAR, strength: [1000, 1000, 1000, 1000] });
  assert.equal(magicStrength(s0, 2), 500); // 1000 / (1 wizard + 0 ghosts of clan 2 + 1)
  const { state } = step(s0, orders(2, mv(0, Dir.Right)));
  assert.deepEqual(at(state, 0), [5, 6]);
  assert.equal(state.book[cell(state, 5, 6)], 0);
  assert.equal(books(state), 1, 'a new book appears');
  assert.equal(state.strength[2], 1050);
  // A ghost reads books too.
  const s1 = build({ map, units: [g(3, 4, 5)], v: FAR });
  const r1 = step(s1, orders(3, mv(0, Dir.DR)));
  assert.equal(r1.state.strength[3], 1050);
});

test('magic strength is floor(overall points / units of the clan), the ghost counting as a unit', () => {
  const s0 = build({
    map: open(20, 20),
    units: [g(0, 1, 1), w(0, 1, 5), w(0, 1, 9), g(1, 5, 1)],
    v: FAR,
    strength: [1000, 7, 0, 0],
  });
  assert.equal(magicStrength(s0, 0), 333);
  assert.equal(magicStrength(s0, 1), 7);
  assert.equal(magicStrength(s0, 2), 0);
});

test('a battle where the attacker is more than twice as strong converts the defender at once (+100, cell owner changes)', () => {
  // clan 0: 1 wizard, strength 1000 → 500; clan 1: 1 wizard, 400 → 200. 500 > 400.
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6)], v: FAR, strength: [1000, 400, 0, 0] });
  const { state, events } = step(s0, orders(0, mv(0, Dir.Right)));
  assert.equal(state.uplayer[1], 0);
  assert.deepEqual(at(state, 0), [5, 5], 'the attacker does not move');
  assert.equal(state.owner[cell(state, 5, 6)], 0);
  assert.equal(state.scoreAcc[0], 100);
  assert.equal(state.score[0], 100 + 2);
  assert.equal(state.upending[1], 0);
  check(events.some((e) => (e as HPEvent).t === 'attack' && (e as HPEvent).r === 2));
});

test('an attacker more than twice weaker is converted at once to the defender', () => {
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6)], v: FAR, strength: [400, 1000, 0, 0] });
  const { state } = step(s0, orders(0, mv(0, Dir.Right)));
  assert.equal(state.uplayer[0], 1);
  assert.equal(state.owner[cell(state, 5, 5)], 1);
  assert.equal(state.scoreAcc[1], 100);
});

test('exactly twice as strong is not enough: a conversion process starts instead', () => {
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6)], v: FAR, strength: [800, 400, 0, 0] });
  const { state } = step(s0, orders(0, mv(0, Dir.Right)));
  const loser = state.upending[0]! > 0 ? 0 : 1;
  const winnerClan = loser === 0 ? 1 : 0;
  assert.equal(state.upending[loser], 5 - 1, 'ROUNDS_FOR_CONVERTING, already one round less at the end of the round');
  assert.equal(state.unext[loser], winnerClan);
  assert.equal(state.uplayer[loser], loser === 0 ? 0 : 1, 'still in its clan while converting');
});

test('battle odds: 30% surprise for the attacker, else proportional to the strengths N/(N+M)', () => {
  // N = 200, M = 400 (not more than twice): P(attacker wins) = 30/101 + 71/101 * P(random(0,1000) < 333.3) ≈ 0.5314.
  let wins = 0;
  const trials = 3000;
  for (let seed = 1; seed <= trials; seed++) {
    const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6)], v: FAR, strength: [400, 800, 0, 0], seed });
    const { state } = step(s0, orders(0, mv(0, Dir.Right)));
    if (state.upending[1]! > 0) wins++;
  }
  const expected = 30 / 101 + (71 / 101) * (334 / 1001);
  check(Math.abs(wins / trials - expected) < 0.03, `attacker won ${wins}/${trials}, expected ≈ ${expected.toFixed(3)}`);
  // Both at zero strength: 50-50 after the surprise → ≈ 0.30 + 0.70 * 0.5.
  let zeroWins = 0;
  for (let seed = 1; seed <= trials; seed++) {
    const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6)], v: FAR, strength: [0, 0, 0, 0], seed });
    if (step(s0, orders(0, mv(0, Dir.Right))).state.upending[1]! > 0) zeroWins++;
  }
  const expectedZero = 30 / 101 + (71 / 101) * 0.5;
  check(Math.abs(zeroWins / trials - expectedZero) < 0.03, `zero strength: ${zeroWins}/${trials}`);
});

test('a conversion started in round R completes at the end of round R+4, scoring 100 for the winner', () => {
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6, { pending: 5, next: 2 }), w(2, 9, 9)], v: FAR });
  let s = s0;
  for (let r = 0; r < 4; r++) {
    s = step(s, none()).state;
    assert.equal(s.uplayer[1], 1, `still clan 1 after ${r + 1} rounds`);
    assert.equal(s.upending[1], 4 - r);
  }
  const { state, events } = step(s, none());
  assert.equal(state.uplayer[1], 2);
  assert.equal(state.unext[1], -1);
  assert.equal(state.upending[1], 0);
  assert.equal(state.owner[cell(state, 5, 6)], 2);
  assert.equal(state.scoreAcc[2], 100);
  check(events.some((e) => (e as HPEvent).t === 'convert'));
});

test('no attack on an enemy wizard that is converting: the move is ignored', () => {
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 5, 6, { pending: 3, next: 2 })], v: FAR, strength: [1000, 10, 0, 0] });
  const { state, events } = step(s0, orders(0, mv(0, Dir.Right)));
  assert.equal(state.uplayer[1], 1);
  assert.equal(state.unext[1], 2);
  assert.deepEqual(at(state, 0), [5, 5]);
  assert.equal(events.filter((e) => (e as HPEvent).t === 'attack').length, 0);
});

test('a converting wizard may move and read books but cannot attack nor stop a conversion', () => {
  const map = open(20, 20);
  map[5] = '....B...............';
  const units = [w(0, 5, 5, { pending: 3, next: 1 }), w(1, 6, 5), w(0, 5, 6, { pending: 3, next: 1 })];
  const s0 = build({ map, units, v: FAR, strength: [1000, 10, 0, 0] });
  const a = step(s0, orders(0, mv(0, Dir.Down))); // attack clan 1: ignored
  assert.equal(a.state.uplayer[1], 1);
  assert.equal(a.state.upending[1], 0);
  const b = step(s0, orders(0, mv(0, Dir.Right))); // onto a converting friend: nothing
  assert.equal(b.state.upending[2], 3 - 1);
  const c = step(s0, orders(0, mv(0, Dir.Left))); // book
  assert.deepEqual(at(c.state, 0), [5, 4]);
  assert.equal(c.state.strength[0], 1050);
});

test('moving onto a converting wizard of the own clan stops its conversion; a non-converting friend blocks', () => {
  const units = [w(0, 5, 5), w(0, 5, 6, { pending: 3, next: 1 }), w(0, 4, 5), g(0, 6, 5)];
  const s0 = build({ map: open(20, 20), units, v: FAR });
  const { state, events } = step(s0, orders(0, mv(0, Dir.Right)));
  assert.equal(state.upending[1], 0);
  assert.equal(state.unext[1], -1);
  assert.deepEqual(at(state, 0), [5, 5], 'the rescuer does not move');
  check(events.some((e) => (e as HPEvent).t === 'cancel'));
  const b = step(s0, orders(0, mv(0, Dir.Up)));
  assert.deepEqual(at(b.state, 0), [5, 5]);
  const c = step(s0, orders(0, mv(0, Dir.Down))); // own ghost
  assert.deepEqual(at(c.state, 0), [5, 5]);
  assert.equal(c.state.upending[3], 0);
});

test('attacking an enemy ghost makes it rest 15 more rounds, and it cannot be attacked again for 5 rounds', () => {
  const units = [g(1, 5, 6, { pending: 0 }), w(0, 5, 5), w(0, 4, 6)];
  const s0 = build({ map: open(20, 20), units, v: FAR, round: 10 });
  const a = step(s0, orders(0, mv(1, Dir.Right)));
  assert.equal(a.state.upending[0], 15 - 1);
  assert.equal(a.state.unext[0], 10, 'last attack received = round 10');
  assert.deepEqual(at(a.state, 1), [5, 5]);
  // Rounds 11..14: immune.
  let s = a.state;
  for (let r = 11; r < 15; r++) {
    s = step(s, orders(0, mv(2, Dir.Down))).state;
    assert.equal(s.unext[0], 10, `round ${r}`);
  }
  assert.equal(s.upending[0], 15 - 5);
  s = step(s, orders(0, mv(2, Dir.Down))).state; // round 15: 15 - 10 = 5, not < 5
  assert.equal(s.unext[0], 15);
  assert.equal(s.upending[0], 10 + 15 - 1);
  // Ghosts of the same clan are never attacked.
  const own = build({ map: open(20, 20), units: [g(0, 5, 6), w(0, 5, 5)], v: FAR });
  assert.equal(step(own, orders(0, mv(1, Dir.Right))).state.unext[0], -1);
});

test('statement example: a correct spell groups the ingredients in triples of equal sum', () => {
  const v = [1, 4, 5, 6, 4, 1, 3, 4, 2];
  assert.equal(isSpellSolutionCorrect(v, [1, 2, 0, 1, 0, 0, 1, 2, 2]), true);
  assert.equal(isSpellSolutionCorrect(v, [0, 2, 1, 1, 0, 0, 1, 2, 2]), false);
  const ing = [3, 7, 5, 5, 5, 5, 4, 4, 7, 6, 3, 6, 1, 8, 6];
  const sol = solveSpell(ing)!;
  check(sol);
  assert.equal(isSpellSolutionCorrect(ing, sol), true);
  assert.equal(isSpellSolutionCorrect(ing, sol.slice(0, 14)), false, 'size 15');
  assert.equal(isSpellSolutionCorrect(ing, [...sol.slice(0, 14), 5]), false, 'labels 0..4');
  assert.equal(
    isSpellSolutionCorrect(
      ing,
      sol.map((x) => (x === 4 ? 3 : x)),
    ),
    false,
    'each label exactly 3 items',
  );
  assert.equal(isSpellSolutionCorrect(ing, [...sol.slice(0, 14), 1.5]), false);
});

function spellBoard(round: number, pending = 0) {
  const spell = [10, 10, 10, 9, 10, 11, 8, 10, 12, 10, 9, 11, 7, 13, 10];
  const map = open(20, 20);
  map[10] = '..........##########';
  const units = [g(0, 2, 2, { pending }), g(1, 4, 4, { pending: 0 }), w(2, 6, 6), w(3, 8, 8)];
  return { s: build({ map, units, v: FAR, round, spell, strength: [1000, 1000, 1000, 1000] }), sol: solveSpell(spell)! };
}

test('a spell captures 15% of the corridor cells without a unit, among those the caster does not own, and the ghost rests 60 rounds', () => {
  const { s, sol } = spellBoard(60);
  const corridorsWithoutUnit = 20 * 20 - 10 - 4;
  const expected = Math.trunc(corridorsWithoutUnit * 0.15);
  const { state, events } = step(s, orders(0, sp(0, sol)));
  const before = s.nbCells[0]!;
  const ev = events.find((e) => (e as HPEvent).t === 'spell') as HPEvent | undefined;
  assert.equal(ev?.cells, expected);
  // Voldemort then clears ownership around himself: at most 8 of them lost again.
  check(state.nbCells[0]! >= before + expected - 8 && state.nbCells[0]! <= before + expected, `owned ${state.nbCells[0]}`);
  assert.equal(state.upending[0], 60 - 1);
  for (let k = 0; k < 400; k++) if (state.owner[k] === 0 && s.owner[k] !== 0) assert.equal(state.cellId[k], -1, 'never a cell with a unit');
  // Captured cells are taken from other clans too, and never include walls.
  for (let k = 0; k < 400; k++) if (state.wall[k]) assert.equal(state.owner[k], -1);
});

test('only one spell per round: the first correct one in execution order', () => {
  const { s, sol } = spellBoard(60);
  const o = none();
  o[0] = [sp(0, sol)];
  o[1] = [sp(1, sol)];
  const { state } = step(s, o);
  const cast = [0, 1].filter((id) => state.upending[id]! > 0);
  assert.equal(cast.length, 1);
});

test('no spell while resting, nor during the last 50 rounds, nor with a wrong solution, nor by a wizard', () => {
  const resting = spellBoard(60, 3);
  assert.equal(step(resting.s, orders(0, sp(0, resting.sol))).state.nbCells[0], resting.s.nbCells[0]);
  const late = spellBoard(150);
  assert.equal(step(late.s, orders(0, sp(0, late.sol))).state.nbCells[0], late.s.nbCells[0]);
  const last = spellBoard(149);
  check(step(last.s, orders(0, sp(0, last.sol))).state.nbCells[0]! > last.s.nbCells[0]!, 'round 149 still allowed');
  const wrong = spellBoard(60);
  const bad = wrong.sol.slice();
  [bad[0], bad[1]] = [bad[1]!, bad[0]!];
  if (!isSpellSolutionCorrect(wrong.s.spell, bad)) assert.equal(step(wrong.s, orders(0, sp(0, bad))).state.nbCells[0], wrong.s.nbCells[0]);
  const wiz = spellBoard(60);
  assert.equal(step(wiz.s, orders(2, sp(2, wiz.sol))).state.nbCells[2], wiz.s.nbCells[2]);
});

test('ghosts start resting 60 rounds: the first spell is possible in round 60', () => {
  const s = game.create(game.parseConfig({}), 5);
  for (let id = 0; id < 4; id++) {
    assert.equal(s.utype[id], GHOST);
    assert.equal(s.upending[id], 60);
  }
});

test('one command per unit: a ghost either moves or casts (the first order wins)', () => {
  const { s, sol } = spellBoard(60);
  const r = game.validateOrders(s, 0, [mv(0, Dir.Down), sp(0, sol)]);
  assert.equal(r.orders.length, 1);
  assert.equal(r.orders[0]![0], 0);
  assert.equal(r.warnings.length, 0, 'the second command is dropped silently, as in the original');
  const { state } = step(s, orders(0, mv(0, Dir.Down), sp(0, sol)));
  assert.deepEqual(at(state, 0), [3, 2]);
  assert.equal(state.upending[0], 0);
});

test("Voldemort's 3x3 is checked first: entering it kills the unit even towards a wall or a unit", () => {
  const map = open(20, 20);
  map[9] = '.........#..........';
  // Voldemort at (10,10); wizard at (8,9) moves Down into (9,9), a wall inside the 3x3.
  const units = [w(0, 8, 9), g(1, 2, 2), w(2, 13, 11), w(3, 11, 12)];
  const s0 = build({ map, units, v: [10, 10], seed: 3 });
  const { state, events } = step(s0, orders(0, mv(0, Dir.Down)));
  check(events.some((e) => (e as HPEvent).t === 'kill' && (e as HPEvent).id === 0 && (e as HPEvent).by === 'move'));
  // It respawned somewhere safe, in a random clan, with no conversion pending, same id.
  assert.equal(state.cellId[state.upos[0]!], 0);
  assert.equal(state.upending[0], 0);
  assert.equal(state.owner[state.upos[0]!], state.uplayer[0]);
  // Entering (11,11), a free cell of the 3x3 of Voldemort's *current* position.
  const b = step(s0, orders(3, mv(3, Dir.Left)));
  check(b.events.some((e) => (e as HPEvent).t === 'kill' && (e as HPEvent).id === 3 && (e as HPEvent).by === 'move'));
});

test('Voldemort approaches the nearest unit (Manhattan), through walls, then kills units, books and ownership around it', () => {
  const map = open(20, 20);
  map[8] = '####################';
  map[6] = '.......B2...........';
  // Voldemort at (10,7); the nearest unit is the wizard at (5,7) (distance 5), the ghost at (10,15) is 8 away.
  const units = [g(1, 10, 15), w(0, 5, 7)];
  let s = build({ map, units, v: [10, 7] });
  s = step(s).state;
  assert.deepEqual([s.vi, s.vj], [9, 7]);
  s = step(s).state;
  assert.deepEqual([s.vi, s.vj], [8, 7], 'on a wall');
  const r = step(s);
  s = r.state;
  assert.deepEqual([s.vi, s.vj], [7, 7]);
  // The wizard at (5,7) is 2 away: not attacked yet; the book at (6,7) and the owned (6,8) are.
  assert.equal(s.book[cell(s, 6, 7)], 0);
  assert.equal(books(s), 1, 'the destroyed book is regenerated');
  assert.equal(s.owner[cell(s, 6, 8)], -1);
  const r2 = step(s);
  check(r2.events.some((e) => (e as HPEvent).t === 'kill' && (e as HPEvent).id === 1 && (e as HPEvent).by === 'voldemort'));
  assert.deepEqual([r2.state.vi, r2.state.vj], [6, 7]);
});

test('Voldemort chooses among equidistant units at random, and prefers the step that keeps the Chebyshev distance small', () => {
  const seen = new Set<string>();
  for (let seed = 1; seed <= 40; seed++) {
    const s = build({ map: open(20, 20), units: [w(0, 10, 4), w(1, 10, 16)], v: [10, 10], seed });
    const t = step(s).state;
    seen.add(`${t.vi},${t.vj}`);
  }
  assert.deepEqual([...seen].sort(), ['10,11', '10,9']);
  // Target at (4,7) from (10,10): Down/Right farther; Up gives (9,10) dist 8 cheb 5, Left (10,9) dist 8 cheb 6 → Up.
  const s = build({ map: open(20, 20), units: [w(0, 4, 7)], v: [10, 10] });
  const t = step(s).state;
  assert.deepEqual([t.vi, t.vj], [9, 10]);
});

test('a ghost killed by Voldemort respawns resting as after a spell; a killed wizard joins a random clan (possibly its own)', () => {
  const clans = new Set<number>();
  for (let seed = 1; seed <= 40; seed++) {
    const s = build({ map: open(20, 20), units: [g(0, 10, 12), w(2, 10, 8)], v: [10, 10], seed });
    // Voldemort steps towards one of them (random), killing it.
    const { state, events } = step(s);
    const killed = events.filter((e) => (e as HPEvent).t === 'kill').map((e) => (e as HPEvent).id);
    assert.equal(killed.length, 1);
    if (killed[0] === 0) {
      assert.equal(state.upending[0], 60 - 1);
      assert.equal(state.uplayer[0], 0, 'ghosts keep their clan');
    } else clans.add(state.uplayer[1]!);
    // Regeneration rule: nothing in the 5x5 around the new position.
    const id = killed[0] as number;
    const [i, j] = at(state, id);
    for (let a = i - 2; a <= i + 2; a++)
      for (let b = j - 2; b <= j + 2; b++) {
        if (a < 0 || b < 0 || a >= 20 || b >= 20 || (a === i && b === j)) continue;
        assert.equal(state.cellId[cell(state, a, b)], -1);
      }
  }
  check(clans.size >= 3, `killed wizards went to clans ${[...clans]}`);
});

test('regeneration positions avoid units, books and Voldemort in the 5x5 square, with a fallback to any empty cell', () => {
  const map = open(20, 20);
  const s = build({ map, units: [w(0, 2, 2)], v: [15, 15] });
  const rng = new Rng(7);
  for (let t = 0; t < 200; t++) {
    const k = regenPosition(s, rng);
    const i = Math.floor(k / 20);
    const j = k % 20;
    check(Math.max(Math.abs(i - 2), Math.abs(j - 2)) > 2);
    check(Math.max(Math.abs(i - 15), Math.abs(j - 15)) > 2);
  }
  // A board where every corridor cell is within 2 of a unit: fallback to an empty cell.
  const tight = build({ map: open(20, 20), units: [], v: [0, 0] });
  for (let i = 0; i < 20; i += 3) for (let j = 0; j < 20; j += 3) tight.book[cell(tight, i, j)] = 1;
  const k = regenPosition(tight, new Rng(1));
  assert.equal(tight.book[k], 0);
  assert.equal(tight.cellId[k], -1);
});

test('statement example: the execution order of the commands decides who reads the book and who attacks', () => {
  // x x x x / x B U x / x V x x / x x x x — U (clan 0) goes Left, V (clan 1) goes Up.
  const outcomes = new Set<string>();
  for (let seed = 1; seed <= 60; seed++) {
    const map = open(20, 20);
    map[1] = '.B..................';
    const s = build({ map, units: [w(0, 1, 2), w(1, 2, 1)], v: FAR, seed });
    const o = none();
    o[0] = [mv(0, Dir.Left)];
    o[1] = [mv(1, Dir.Up)];
    const { state, events } = step(s, o);
    const attack = events.find((e) => (e as HPEvent).t === 'attack') as HPEvent | undefined;
    check(attack, 'the second move is an attack');
    if (state.strength[1] === 1050) {
      outcomes.add('V first');
      assert.deepEqual(at(state, 1), [1, 1]);
      assert.equal(attack.a, 0);
    } else {
      outcomes.add('U first');
      assert.equal(state.strength[0], 1050);
      assert.deepEqual(at(state, 0), [1, 1]);
      assert.equal(attack.a, 1);
    }
  }
  assert.deepEqual([...outcomes].sort(), ['U first', 'V first']);
});

test("the commands of one clan run in the player's order", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const s = build({ map: open(20, 20), units: [w(0, 1, 1), w(0, 1, 3), w(1, 5, 5), w(1, 5, 7)], v: FAR, seed });
    const o = none();
    o[0] = [mv(1, Dir.Left), mv(0, Dir.Right)];
    o[1] = [mv(2, Dir.Right), mv(3, Dir.Left)];
    const { state } = step(s, o);
    assert.deepEqual(at(state, 1), [1, 2]);
    assert.deepEqual(at(state, 0), [1, 1]);
    assert.deepEqual(at(state, 2), [5, 6]);
    assert.deepEqual(at(state, 3), [5, 7]);
  }
});

test('score = 100 per completed conversion + 1 per owned cell; 0 in round 0; it drops when cells are lost', () => {
  const s0 = game.create(game.parseConfig({}), 11);
  assert.deepEqual(game.scores(s0), [0, 0, 0, 0]);
  assert.deepEqual(Array.from(s0.nbCells), [21, 21, 21, 21]);
  const s1 = game.next(s0, [[], [], [], []], [false, false, false, false]).state;
  for (let p = 0; p < 4; p++) assert.equal(s1.score[p], s1.scoreAcc[p]! + s1.nbCells[p]!);
  const lost = build({ map: ['.222'.padEnd(20, '.'), ...open(19, 20)], units: [], v: [1, 2] });
  lost.vi = 1;
  const t = step(lost).state;
  assert.equal(t.score[2], 0, 'Voldemort wiped the owned cells around him');
});

test('the number of units is constant and ids never change, whatever happens', () => {
  let s = game.create(game.parseConfig({}), 21);
  const rng = new Rng(4);
  for (let r = 0; r < 200; r++) {
    const o: unknown[][] = [[], [], [], []];
    for (let id = 0; id < 84; id++) o[s.uplayer[id]!]!.push([0, id, s.utype[id] === WIZARD ? 2 * rng.random(0, 3) : rng.random(0, 7)]);
    const v = o.map((x, p) => game.validateOrders(s, p, x).orders);
    s = game.next(s, v, [false, false, false, false]).state;
    let onBoard = 0;
    for (let k = 0; k < s.cellId.length; k++)
      if (s.cellId[k] !== -1) {
        onBoard++;
        assert.equal(s.upos[s.cellId[k]!], k);
        assert.equal(s.wall[k], 0);
        assert.equal(s.book[k], 0);
      }
    assert.equal(onBoard, 84);
    assert.equal(
      s.book.reduce((a, b) => a + b, 0),
      50,
      'books are always regenerated',
    );
    for (let id = 0; id < 4; id++) assert.equal(s.uplayer[id], id);
    for (let d = 0; d < 9; d++) {
      const i = s.vi + (d % 3) - 1;
      const j = s.vj + Math.floor(d / 3) - 1;
      if (i === s.vi && j === s.vj) continue;
      assert.equal(s.cellId[i * 60 + j], -1, 'nobody next to Voldemort after his move');
    }
  }
  assert.equal(s.round, 200);
  assert.equal(isOver(game, s.cfg, s), true);
});

test('an invalid first command still takes its turn in the interleaving (one random draw), as in the original', () => {
  const s0 = build({ map: open(20, 20), units: [w(0, 5, 5), w(1, 8, 8)], v: FAR, seed: 7 });
  const idle = game.next(s0, [[], [], [], []], [false, false, false, false]).state;
  const invalid = game.next(s0, [[[0, 0, Dir.DR]], [], [], []], [false, false, false, false]).state;
  const valid = game.next(s0, [[[0, 0, Dir.Down]], [], [], []], [false, false, false, false]).state;
  // The diagonal does nothing, but the generator moved on exactly like after a valid command.
  assert.deepEqual(at(invalid, 0), [5, 5]);
  assert.notDeepEqual(Array.from(invalid.spell), Array.from(idle.spell));
  assert.deepEqual(Array.from(invalid.spell), Array.from(valid.spell));
});

test('create: the first state of a seed is kept, and each caller gets its own copy of every array', () => {
  const cfg = game.parseConfig({});
  const first = game.create(cfg, 41);
  const again = game.create(cfg, 41);
  assert.deepEqual(again, first);
  for (const [k, v] of Object.entries(first)) if (ArrayBuffer.isView(v)) assert.notEqual(v, (again as unknown as Record<string, unknown>)[k], k);
  first.wall.fill(1);
  first.utype.fill(1);
  first.upos.fill(0);
  first.rng.next();
  const third = game.create(cfg, 41);
  assert.deepEqual(third, again, 'a change to one copy leaves the kept state as it was');
  assert.notDeepEqual(game.create(cfg, 42).wall, third.wall);
  const other = game.parseConfig({ num_ini_books: cfg.num_ini_books + 1 });
  assert.notDeepEqual(game.create(other, 41).book, third.book, 'another config is another state');
});
