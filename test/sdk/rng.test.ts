import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng, playerRng } from '../../src/sdk/rng.ts';
import { LibcRand, randomShuffle } from '../../src/sdk/libc-rand.ts';
import { ranksFromScores, isOutrightWinner } from '../../src/sdk/ranking.ts';

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
  assert.deepEqual(
    [...p].sort((x, y) => x - y),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
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

// Vectors printed by a C++ program built with this machine's glibc and libstdc++:
// srand(s), five rand(), then std::random_shuffle of 0..9.
const LIBC_VECTORS: [number, number[], number[]][] = [
  [1, [1804289383, 846930886, 1681692777, 1714636915, 1957747793], [3, 5, 6, 7, 4, 8, 1, 0, 2, 9]],
  [0, [1804289383, 846930886, 1681692777, 1714636915, 1957747793], [3, 5, 6, 7, 4, 8, 1, 0, 2, 9]],
  [42, [71876166, 708592740, 1483128881, 907283241, 442951012], [8, 2, 6, 1, 9, 5, 0, 7, 4, 3]],
  [2147483647, [1065668062, 2142264300, 1066566375, 1064012770, 2141034222], [3, 2, 1, 7, 8, 5, 6, 4, 9, 0]],
  [4294967295, [254925627, 1205188300, 366127624, 1401405153, 76053476], [1, 7, 5, 6, 3, 0, 8, 2, 4, 9]],
  [123456789, [1965102536, 1639725855, 706684578, 1926601937, 71238646], [5, 2, 0, 1, 3, 8, 7, 9, 6, 4]],
];

test("glibc's rand() and libstdc++'s random_shuffle, bit for bit", () => {
  for (const [seed, draws, shuffled] of LIBC_VECTORS) {
    const r = new LibcRand(seed);
    assert.deepEqual(
      Array.from({ length: 5 }, () => r.rand()),
      draws,
      `srand(${seed})`,
    );
    const copy = r.clone();
    const v = [...Array(10).keys()];
    randomShuffle(v, r);
    assert.deepEqual(v, shuffled, `random_shuffle after srand(${seed})`);
    // The clone kept the state it was taken at, untouched by the shuffle's draws.
    const again = [...Array(10).keys()];
    randomShuffle(again, copy);
    assert.deepEqual(again, shuffled);
  }
});
