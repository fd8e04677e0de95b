// Golden traces: matches played by the original engine (repository
// gbg4812/TheGame, folder game/, Board.cc) with the deterministic test players
// in test/fixtures/golden/harry-potter/players/ (C++ and TypeScript twins);
// Arbiter must reproduce every state, round 0 to 200; and round 0 (the board
// and the initial placement) for seeds 0-299 (boards/round0-seeds-0-299.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { goldenSeat, readTrace, registerGoldenTests, registerRound0Test } from '../../helpers/golden.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import game from '../../../src/games/harry-potter/index.ts';
import type { HPEvent, HPOrder, HPState } from '../../../src/games/harry-potter/engine.ts';
import { arbiterState } from './golden.ts';

registerRound0Test<HPState>(game, arbiterState);
const dir = registerGoldenTests<HPState>(game, arbiterState);

test('the test players exercise every rule: battles of every outcome, ghost attacks, rescues, spells, Voldemort, invalid and duplicate commands', async () => {
  const t = readTrace(join(dir, 'seed3-mixed.json'));
  const seats = await Promise.all(t.players.map((p) => goldenSeat('harry-potter', p)));
  const { replay } = await playMatch({ game: 'harry-potter', seed: t.seed, seats, config: t.config }, { host: 'inprocess' });
  const seen = new Map<string, number>();
  const add = (k: string): void => void seen.set(k, (seen.get(k) ?? 0) + 1);
  let s = game.create(game.parseConfig(replay.config), replay.seed);
  for (const rec of replay.rounds.slice(1)) {
    const orders = rec.orders as HPOrder[][];
    for (const [p, list] of orders.entries()) {
      for (const o of list) {
        if (o[0] === 0 && !(o[2] >= 0 && o[2] <= 7)) add('bad direction');
        else if (o[0] === 0 && s.utype[o[1]] === 0 && o[2] % 2 === 1) add('diagonal wizard');
        else if (o[0] === 1 && s.utype[o[1]] === 0) add('wizard spell');
        if (s.uplayer[o[1]] !== p) add('not owned');
      }
    }
    const out = game.next(s, orders, rec.frozen);
    for (const e of out.events as HPEvent[]) add(e.t === 'attack' ? `attack ${e.r}` : e.t === 'kill' ? `kill ${e.by}` : e.t);
    s = out.state;
  }
  const raw = replay.players.map((p) => p.name).join();
  for (const k of [
    'bad direction',
    'diagonal wizard',
    'wizard spell',
    'attack 1',
    'attack -1',
    'attack 2',
    'attack -2',
    'ghost',
    'cancel',
    'spell',
    'kill move',
    'kill voldemort',
    'respawn',
    'convert',
  ])
    assert.ok((seen.get(k) ?? 0) > 0, `${k} never happens (${raw}): ${JSON.stringify([...seen])}`);
});
