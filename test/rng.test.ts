import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng, playerRng } from '../src/games/rng.ts';
import { ranksFromScores, isOutrightWinner } from '../src/games/ranking.ts';

test('the generator follows Random.hh: seed*843314861+453816693 mod 2^31', () => {
  const r = new Rng(1);
  assert.equal(r.next(), (843314861 + 453816693) % 2 ** 31);
  // Exact 64-bit arithmetic on a large seed, checked with BigInt.
  const big = new Rng(2147483000);
  const expected = Number((843314861n * 2147483000n + 453816693n) & 0x7fffffffn);
  assert.equal(big.next(), expected);
});

test('negative seeds use their absolute value', () => {
  assert.equal(new Rng(-5).seed, 5);
});

test('random(l,u) advances twice and stays in range; l>u gives l; huge ranges give l', () => {
  const a = new Rng(42);
  const b = new Rng(42);
  const v = a.random(3, 9);
  b.next();
  const f = b.uniform();
  assert.equal(v, 3 + Math.floor(7 * f));
  assert.equal(a.seed, b.seed);
  assert.equal(new Rng(1).random(5, 2), 5);
  const c = new Rng(7);
  assert.equal(c.random(0, 2_000_000), 0);
  assert.equal(c.seed, 7, 'no draw for an oversized range');
  const d = new Rng(99);
  for (let i = 0; i < 1000; i++) {
    const x = d.random(-2, 2);
    assert.ok(x >= -2 && x <= 2);
  }
});

test('permutations: Moria draws n-1 swaps, the full variant n', () => {
  const a = new Rng(11);
  const p = a.permutation(10);
  assert.deepEqual([...p].sort((x, y) => x - y), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const afterMoria = a.seed;
  const b = new Rng(11);
  b.permutation(10, true);
  assert.notEqual(b.seed, afterMoria, 'the full variant draws once more');
  const c = new Rng(11);
  for (let i = 0; i < 9; i++) c.random(i, 9);
  assert.equal(c.seed, afterMoria);
});

test('player generators are seeded seed + player + 1', () => {
  assert.equal(playerRng(30, 2).seed, new Rng(33).seed);
});

test('ranks share ties and skip; a tie for first is no win', () => {
  assert.deepEqual(ranksFromScores([9, 7, 7, 3]), [1, 2, 2, 4]);
  assert.equal(isOutrightWinner([9, 7, 7, 3], 0), true);
  assert.equal(isOutrightWinner([9, 9, 7, 3], 0), false);
});
