// The first states a game remembers: made once per seed and config, the oldest forgotten past 16; and a
// game's create() still hands out a state of its own (changing it leaves the next match's alone).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rememberFirstStates } from '../../src/sdk/first-states.ts';
import harryPotter from '../../src/games/harry-potter/index.ts';
import walkingDead from '../../src/games/walking-dead/index.ts';
import { DEFAULT_CONFIG as HP_DEFAULTS } from '../../src/games/harry-potter/config.ts';
import { DEFAULT_CONFIG as WD_DEFAULTS } from '../../src/games/walking-dead/config.ts';

test('made once per seed and config; past 16, the oldest is made again', () => {
  const made: string[] = [];
  const first = rememberFirstStates((config: { n: number }, seed: number) => {
    made.push(`${config.n}/${seed}`);
    return { seed };
  });
  assert.equal(first({ n: 1 }, 7), first({ n: 1 }, 7));
  first({ n: 2 }, 7);
  assert.deepEqual(made, ['1/7', '2/7']);
  for (let seed = 100; seed < 115; seed++) first({ n: 1 }, seed);
  assert.equal(made.length, 17);
  first({ n: 1 }, 7);
  assert.equal(made.length, 18, 'the oldest went');
  first({ n: 1 }, 114);
  assert.equal(made.length, 18, 'a recent one is still kept');
});

/** Every typed array of a state overwritten: what a match that changed its state in place would leave. */
function spoil(state: object) {
  for (const value of Object.values(state)) if (ArrayBuffer.isView(value)) (value as Uint8Array).fill(9);
}

test("harry-potter and walking-dead: a match's state is its own copy of the remembered one", () => {
  const hp = JSON.stringify(harryPotter.create({ ...HP_DEFAULTS }, 5));
  spoil(harryPotter.create({ ...HP_DEFAULTS }, 5));
  assert.equal(JSON.stringify(harryPotter.create({ ...HP_DEFAULTS }, 5)), hp);
  const wd = JSON.stringify(walkingDead.create({ ...WD_DEFAULTS }, 5));
  spoil(walkingDead.create({ ...WD_DEFAULTS }, 5));
  assert.equal(JSON.stringify(walkingDead.create({ ...WD_DEFAULTS }, 5)), wd);
});
