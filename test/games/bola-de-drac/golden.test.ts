// Golden traces: matches played by the original engine of 2012
// (hecrj/bola-de-drac, Board.cc) with the Tracer players
// (test/fixtures/golden/bola-de-drac/players/Tracer.{cc,ts}) on fixed boards
// (config `map`); Arbiter, with edition 2012, must reproduce every state.
import { test } from 'node:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkGolden, GOLDEN_ROOT } from '../../helpers/golden.ts';
import { arbiterState } from './golden.ts';

const dir = join(GOLDEN_ROOT, 'bola-de-drac');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('at least five golden traces', () => {
  if (fixtures.length < 5) throw new Error(`only ${fixtures.length} traces`);
});

for (const f of fixtures) {
  test(`golden trace ${f}: every state as the 2012 engine`, async () => {
    await checkGolden(join(dir, f), arbiterState);
  });
}
