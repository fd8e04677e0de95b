// The Dummy, made cheap (issue 35), decides as the plain breadth-first
// Dummy it replaced (test/fixtures/bots/reference/bola-de-drac/Dummy.ts) in every round of whole matches:
// generated boards of every size, crowded and empty ones, weak gokus that
// go for beans, the 2012 edition (test/games/reference-twins.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { playTwins } from '../reference-twins.ts';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

test('the Dummy asks for the same action as its reference, round by round, in whole matches', async () => {
  const run = await playTwins('bola-de-drac', {
    bot: path('../../../src/games/bola-de-drac/bots/Dummy.ts'),
    reference: path('../../fixtures/bots/reference/bola-de-drac/Dummy.ts'),
    seeds: [1, 2],
    configs: [
      {},
      { edition: 2012 },
      { rows: 13, cols: 15, nb_balls: 12, nb_beans: 10, nb_capsules: 2 },
      { rows: 40, cols: 60, nb_balls: 1, nb_capsules: 1, nb_beans: 0, nb_rounds: 301 },
      { moving_penalty: 150, combat_penalty: 300, res_strength: 100, nb_beans: 6 },
    ],
    lineups: [
      ['twin', 'twin', 'twin', 'twin'],
      ['twin', 'Demo', 'twin', 'Null'],
    ],
  });
  console.log(`${run.compared} decisions compared: ${[...run.orders].map(([o, n]) => `${o} ${n}`).join(', ')}`);
  assert.ok(run.compared > 30_000, `only ${run.compared} decisions`);
  for (const d of [0, 1, 2, 3, 4]) assert.ok(run.orders.has(`[["m",${d}]]`), `no move ${d} was asked for`);
  assert.ok(run.orders.has('[]'), 'no round without an action (a goal that cannot be reached)');
});
