// The Dummy, made cheaper (issue 35), decides as the Dummy it replaced
// (test/fixtures/bots/reference/moria/Dummy.ts) in every round of whole matches: its distance maps
// are made only when a unit goes by them, and it reads again only the cells
// that can have changed since the last round (rocks that open at the first
// hit change the board fastest) (test/games/reference-twins.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { playTwins } from '../reference-twins.ts';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

test('the Dummy asks for the same orders as its reference, round by round, in whole matches', async () => {
  const run = await playTwins('moria', {
    bot: path('../../../src/games/moria/bots/Dummy.ts'),
    reference: path('../../fixtures/bots/reference/moria/Dummy.ts'),
    seeds: [1, 2],
    configs: [{}, { nb_dwarves: 4, nb_wizards: 1, nb_trolls: 0 }, { rock_resistance: 1, nb_rounds: 120 }],
    lineups: [
      ['twin', 'twin', 'twin', 'twin'],
      ['twin', 'Demo', 'twin', 'Null'],
    ],
  });
  console.log(`${run.compared} rounds compared, ${run.orders.size} different order lists`);
  assert.ok(run.compared > 6_000, `only ${run.compared} rounds`);
  assert.ok(run.orders.size > 1_000, 'the orders vary');
});
