// The in-memory windows the rate limits and attempt budgets fall back on: a window lapses at its end, and
// the map stays bounded when many keys come at once (lapsed windows first, then the oldest live ones).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedWindows } from '../../src/queue/bounded-windows.ts';
import { MemoryCounters } from '../../src/domain/attempt-budgets.ts';
import { MemoryLimits } from '../../src/queue/shared-limits.ts';

test('a window is live until its end, then gone', () => {
  const windows = new BoundedWindows();
  windows.start('a', 2, 1_000, 0);
  assert.deepEqual(windows.live('a', 999), { count: 2, endsAt: 1_000 });
  assert.equal(windows.live('a', 1_000), undefined);
  assert.equal(windows.size, 0);
});

test('past maxKeys, lapsed windows go first, then the oldest live ones down to 90%', () => {
  const windows = new BoundedWindows(10);
  for (let i = 0; i < 5; i++) windows.start(`old${i}`, 1, 100, 0);
  for (let i = 0; i < 5; i++) windows.start(`live${i}`, 1, 1_000, 0);
  windows.start('new', 1, 1_000, 200);
  assert.equal(windows.size, 6, 'only the five lapsed went');
  for (let i = 0; i < 4; i++) windows.start(`more${i}`, 1, 1_000, 200);
  windows.start('last', 1, 1_000, 200);
  assert.equal(windows.size, 9);
  assert.equal(windows.live('live0', 200), undefined, 'the oldest live window went');
  assert.ok(windows.live('last', 200) && windows.live('live2', 200));
});

test('the rate limits and the attempt budgets stay bounded the same way', async () => {
  let now = 0;
  const limits = new MemoryLimits(() => now, 10);
  for (let i = 0; i < 50; i++) await limits.hit(`ip${i}`, 60_000);
  assert.equal((await limits.hits('ip0')).count, 0, 'an early key was forgotten');
  assert.equal((await limits.hits('ip49')).count, 1);
  now = 60_000;
  assert.equal((await limits.hits('ip49')).count, 0, 'its window ended');

  const counters = new MemoryCounters(10);
  for (let i = 0; i < 50; i++) await counters.take([{ key: `pair${i}`, max: 1, windowMs: 60_000 }]);
  assert.equal(await counters.take([{ key: 'pair0', max: 1, windowMs: 60_000 }]), null, 'forgotten, so not spent');
  assert.equal((await counters.take([{ key: 'pair49', max: 1, windowMs: 60_000 }]))?.spent, 0, 'still spent');
});
