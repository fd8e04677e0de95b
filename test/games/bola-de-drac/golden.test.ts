// Golden traces: matches played by the original engine of 2012
// (hecrj/bola-de-drac, Board.cc) with the Tracer players
// (test/fixtures/golden/bola-de-drac/players/Tracer.{cc,ts}) on fixed boards
// (config `map`); Arbiter, with edition 2012, must reproduce every state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenSeat, playStates, registerGoldenTests } from '../../helpers/golden.ts';
import game from '../../../src/games/bola-de-drac/index.ts';
import type { State } from '../../../src/games/bola-de-drac/engine.ts';
import { arbiterState } from './golden.ts';

const dir = registerGoldenTests<State>(game, arbiterState, "the 2012 engine's");

test('the 2015 edition plays the same states as the 2012 one, one round more', async () => {
  const trace = JSON.parse(readFileSync(join(dir, 'tracer-g1.json'), 'utf8')) as { seed: number; config: Record<string, unknown>; players: string[] };
  const seats = await Promise.all(trace.players.map((p) => goldenSeat('bola-de-drac', p)));
  const config = { ...trace.config, nb_rounds: 101 };
  const old = (await playStates('bola-de-drac', trace.seed, seats, { ...config, edition: 2012 })) as State[];
  const now = (await playStates('bola-de-drac', trace.seed, seats, { ...config, edition: 2015 })) as State[];
  assert.equal(old.length, 101);
  assert.equal(now.length, 102);
  // The platform's round count (progress displays) agrees with what each edition plays.
  assert.equal(game.totalRounds(game.parseConfig({ ...config, edition: 2012 })), old.length - 1);
  assert.equal(game.totalRounds(game.parseConfig({ ...config, edition: 2015 })), now.length - 1);
  for (let r = 0; r < old.length; r++) assert.equal(arbiterState(now[r]!), arbiterState(old[r]!), `round ${r}`);
});
