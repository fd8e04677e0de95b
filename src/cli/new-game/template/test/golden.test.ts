// __TITLE__'s golden traces: matches played by the original engine, which
// Arbiter must reproduce state for state. Until there are traces (at least
// five seeds, recorded with scripts/golden-import.ts into
// test/fixtures/golden/__ID__/), only the canonical text is checked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GOLDEN_ROOT, registerGoldenTests } from '../../../../../test/helpers/golden.ts';
import game, { type State } from '../index.ts';
import { arbiterState } from './golden.ts';

if (existsSync(join(GOLDEN_ROOT, game.id))) registerGoldenTests<State>(game, arbiterState);

test('the canonical text of a state tells rounds and seeds apart', () => {
  const cfg = game.parseConfig({});
  const s0 = game.create(cfg, 1);
  const s1 = game.next(s0, [[1], [2], [3], [4]], [false, false, false, false]).state;
  assert.notEqual(arbiterState(s0), arbiterState(game.create(cfg, 2)));
  assert.notEqual(arbiterState(s0), arbiterState(s1));
  assert.equal(arbiterState(s0).split('\n').length, cfg.rows + 1 + 4 + 1);
});
