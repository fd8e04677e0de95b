// The built-in Dummy against the original game's dummy ("Tonto", 2012,
// hecrj/bola-de-drac Tonto-Linux-64.o): states of matches played by the
// original engine, the random seed the original dummy found before its
// play(), and the action it asked for (test/fixtures/dummy/bola-de-drac/).
// Fed the same random numbers, the Dummy must ask for the same action.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import game from '../../../src/games/bola-de-drac/index.ts';
import { loadDummy } from './dummy-harness.ts';

interface Probes {
  format: 'arbiter-dummy-probe';
  matches: {
    name: string;
    original: string;
    preamble: string;
    states: Record<string, string>;
    probes: [round: number, player: number, rndSeed: number, action: string][];
  }[];
}

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/dummy/bola-de-drac/tonto-probes.json', import.meta.url)), 'utf8')) as Probes;

test('the Dummy asks for the action the original dummy asked for, state by state', async () => {
  const dummies = await Promise.all([0, 1, 2, 3].map((p) => loadDummy(p)));
  let n = 0;
  const kinds = new Set<string>();
  for (const m of fixture.matches) {
    for (const d of dummies) d.newMatch();
    for (const [round, player, seed, action] of m.probes) {
      const state = game.create(game.parseConfig({ edition: 2012, map: `${m.preamble}\n${m.states[String(round)]}` }), 0);
      const mine = dummies[player]!.decide(state, seed);
      assert.equal(mine, action, `${m.name}, round ${round}, player ${player}: the original asked "${action}", the Dummy "${mine}"`);
      kinds.add(action);
      n++;
    }
  }
  assert.ok(n >= 90, `only ${n} probes`);
  assert.ok(kinds.size >= 4, 'the probes ask for several directions');
});
