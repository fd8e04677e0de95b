// The tournament's rules as pure functions: seeded draws, group sizes and
// Dummy padding, survival with ties, the final phase, the standings order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DrawRng,
  deriveSeed,
  drawRound,
  groupSizes,
  knockoutSurvivors,
  orderStandings,
  roundEliminations,
  strictlyLast,
  type SeatResult,
} from '../../../src/domain/tournament-rules.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('seeds derive deterministically and differ by round and group', () => {
  assert.equal(deriveSeed(42, 1, 0), deriveSeed(42, 1, 0));
  const seen = new Set([deriveSeed(42, 1, 0), deriveSeed(42, 1, 1), deriveSeed(42, 2, 1), deriveSeed(43, 1, 1)]);
  assert.equal(seen.size, 4);
  for (let i = 0; i < 100; i++) {
    const s = deriveSeed(i, i % 7, i % 3);
    assert.ok(Number.isInteger(s) && s >= 0 && s <= 0x7fffffff);
  }
  // Pinned values: a change to the derivation would change every published tournament's draws.
  assert.deepEqual([deriveSeed(0), deriveSeed(12345, 1, 0), deriveSeed(12345, 3, 2)], [1257441968, 1888480345, 9624966]);
  assert.deepEqual(
    drawRound(99, 1, range(7)).groups.map((g) => g.seats),
    [
      [2, 5, 0, 4],
      [null, 1, 6, 3],
    ],
  );
  const rng = new DrawRng(7);
  const a = range(5).map(() => rng.next());
  const again = new DrawRng(7);
  assert.deepEqual(
    range(5).map(() => again.next()),
    a,
  );
});

test('the draw is a function of the seed, the round and who is in; another seed draws differently', () => {
  const players = range(64);
  const a = drawRound(2024, 1, players);
  const b = drawRound(2024, 1, [...players].reverse()); // the order given does not matter
  assert.deepEqual(a, b);
  assert.notDeepEqual(
    drawRound(2025, 1, players).groups.map((g) => g.seats),
    a.groups.map((g) => g.seats),
  );
  assert.notDeepEqual(
    drawRound(2024, 2, players).groups.map((g) => g.seats),
    a.groups.map((g) => g.seats),
  );
  // Every player exactly once.
  const seated = a.groups.flatMap((g) => g.seats).filter((s) => s !== null);
  assert.deepEqual(
    [...seated].sort((x, y) => x! - y!),
    players,
  );
  assert.equal(a.final, false);
  assert.deepEqual(
    a.groups.map((g) => g.seed),
    a.groups.map((_, i) => deriveSeed(2024, 1, i + 1)),
  );
});

test('group sizes: ceil(n/4) groups differing by at most one, so the Dummies are as few as possible', () => {
  assert.deepEqual(groupSizes(64), Array(16).fill(4));
  assert.deepEqual(groupSizes(5), [3, 2]);
  assert.deepEqual(groupSizes(6), [3, 3]);
  assert.deepEqual(groupSizes(7), [4, 3]);
  assert.deepEqual(groupSizes(9), [3, 3, 3]);
  assert.deepEqual(groupSizes(33), [4, 4, 4, 4, 4, 4, 3, 3, 3]);
  for (let n = 5; n <= 200; n++) {
    const sizes = groupSizes(n);
    assert.equal(
      sizes.reduce((s, x) => s + x, 0),
      n,
    );
    assert.equal(sizes.length, Math.ceil(n / 4));
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `n=${n}`);
    const r = drawRound(n, 1, range(n));
    const dummies = r.groups.flatMap((g) => g.seats).filter((s) => s === null).length;
    assert.equal(dummies, 4 * Math.ceil(n / 4) - n, `n=${n}: the fewest Dummies`);
    assert.ok(r.groups.every((g) => g.seats.length === 4));
  }
  const small = drawRound(1, 1, [3, 8, 9]);
  assert.equal(small.final, true);
  assert.equal(small.groups.length, 1);
  assert.deepEqual(small.groups[0]!.seats.filter((s) => s !== null).sort(), [3, 8, 9]);
});

const seat = (entry: number | null, rank: number, score = 0): SeatResult => ({ entry, rank, score });

test('knockout: beating two of the three other seats survives; a tie beats nobody; Dummies count as rivals', () => {
  assert.deepEqual(knockoutSurvivors([seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 4)]), [0, 1]);
  // 1st alone, three tied for 2nd: only the first beat two.
  assert.deepEqual(knockoutSurvivors([seat(0, 1), seat(1, 2), seat(2, 2), seat(3, 2)]), [0]);
  // Two tied first: each beats the two below, not each other.
  assert.deepEqual(knockoutSurvivors([seat(0, 1), seat(1, 1), seat(2, 3), seat(3, 3)]), [0, 1]);
  // All tied: nobody survives.
  assert.deepEqual(knockoutSurvivors([seat(0, 1), seat(1, 1), seat(2, 1), seat(3, 1)]), []);
  // A Dummy ahead of a player is a rival it did not beat.
  assert.deepEqual(knockoutSurvivors([seat(null, 1), seat(1, 2), seat(2, 3), seat(null, 4)]), [1]);
  // Two players and two Dummies below them: both go on.
  assert.deepEqual(knockoutSurvivors([seat(null, 3), seat(5, 1), seat(6, 2), seat(null, 3)]), [5, 6]);
  // A round where nobody survives is void: nobody falls.
  assert.deepEqual(roundEliminations(false, [[seat(0, 1), seat(1, 1), seat(2, 1), seat(3, 1)]]), []);
  assert.deepEqual(
    roundEliminations(false, [
      [seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 4)],
      [seat(4, 4), seat(5, 3), seat(6, 2), seat(7, 1)],
    ]),
    [2, 3, 4, 5],
  );
});

test('final phase: the player strictly behind every other player falls; a tie for last falls nobody; Dummies do not count', () => {
  assert.equal(strictlyLast([seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 4)]), 3);
  assert.equal(strictlyLast([seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 3)]), null);
  // Behind a Dummy is not last among players.
  assert.equal(strictlyLast([seat(0, 2), seat(null, 4), seat(2, 3), seat(null, 1)]), 2);
  assert.equal(strictlyLast([seat(0, 2), seat(null, 1), seat(2, 2), seat(null, 4)]), null);
  assert.equal(strictlyLast([seat(7, 1), seat(null, 2), seat(null, 2), seat(null, 2)]), null, 'one player: the champion, nobody falls');
  assert.deepEqual(roundEliminations(true, [[seat(0, 1), seat(1, 1), seat(null, 3), seat(2, 4)]]), [2]);
});

test('standings: champion, later rounds first, then rank, score, entry order', () => {
  const rows = [
    { entry: 0, eliminatedRound: 1, lastRank: 3, lastScore: 10 },
    { entry: 1, eliminatedRound: 2, lastRank: 4, lastScore: 1 },
    { entry: 2, eliminatedRound: null, lastRank: 1, lastScore: 5 },
    { entry: 3, eliminatedRound: 1, lastRank: 3, lastScore: 12 },
    { entry: 4, eliminatedRound: 1, lastRank: 4, lastScore: 50 },
    { entry: 5, eliminatedRound: 1, lastRank: 3, lastScore: 12 },
    { entry: 6, eliminatedRound: 2, lastRank: 3, lastScore: 0 },
  ];
  assert.deepEqual(
    orderStandings(rows).map((r) => r.entry),
    [2, 6, 1, 3, 5, 0, 4],
  );
});
