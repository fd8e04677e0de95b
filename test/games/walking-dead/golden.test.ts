// Golden traces: matches played by the original engine (repository
// mostazomarc/joc_eda, root folder, Board.o.Linux64 linked with the package's
// Game.cc) with the deterministic test players in
// test/fixtures/golden/walking-dead/players/ (C++ and TypeScript twins) and
// the Null player. Arbiter must reproduce every state, board included, from
// round 0 to the last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { goldenSeat, readTrace, registerGoldenTests } from '../../helpers/golden.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import game from '../../../src/games/walking-dead/index.ts';
import { UType, type TwdEvent, type TwdOrder, type TwdState } from '../../../src/games/walking-dead/engine.ts';
import { arbiterState } from './golden.ts';

const dir = registerGoldenTests<TwdState>(game, arbiterState);

test('the test players exercise every rule: fights of both kinds, zombie kills, bites, conversions, clan switches, food, and orders that fail', async () => {
  const t = readTrace(join(dir, 'seed-1.json'));
  const seats = await Promise.all(t.players.map((p) => goldenSeat('walking-dead', p)));
  const { replay } = await playMatch({ game: 'walking-dead', seed: t.seed, seats, config: t.config }, { host: 'inprocess' });
  const seen = new Map<string, number>();
  const add = (k: string): void => void seen.set(k, (seen.get(k) ?? 0) + 1);
  let s = game.create(game.parseConfig(replay.config), replay.seed);
  for (const rec of replay.rounds.slice(1)) {
    const orders = rec.orders as TwdOrder[][];
    for (const list of orders) {
      for (const [id, d] of list) {
        if (d < 0) add('bad direction');
        else if (s.uType[id] === UType.Dead) add('dead unit order');
        else if (d % 2 === 1) add('diagonal');
      }
    }
    const alive = [0, 1, 2, 3].map((pl) => s.uType.filter((t, u) => t === UType.Alive && s.uPlayer[u] === pl).length);
    const out = game.next(s, orders, rec.frozen);
    for (const e of out.events as TwdEvent[]) {
      if (e.k === 'fight') add(e.surprise ? 'surprise fight' : 'fight');
      else if (e.k === 'switch') {
        const max = Math.max(...alive);
        const ties = alive.filter((a) => a === max).length;
        add(max === Math.min(...alive) ? 'switch, all equal' : ties > 1 ? 'switch, tied largest' : 'switch');
      } else add(e.k);
    }
    s = out.state;
  }
  for (const k of [
    'bad direction',
    'dead unit order',
    'diagonal',
    'fight',
    'surprise fight',
    'zkill',
    'bite',
    'eat',
    'zeat',
    'zombie',
    'spawn',
    'food',
    'switch',
    'switch, all equal',
    'switch, tied largest',
  ])
    assert.ok((seen.get(k) ?? 0) > 0, `${k} never happens: ${JSON.stringify([...seen])}`);
});

test('the crowded trace reaches the regeneration fallback: some units start closer than the 5x5 rule allows', () => {
  const t = readTrace(join(dir, 'seed-5-crowded.json'));
  const s = game.create(game.parseConfig(t.config), t.seed);
  let close = 0;
  for (let u = 0; u < s.uType.length; u++)
    for (let v = u + 1; v < s.uType.length; v++) {
      const a = s.uPos[u]!;
      const b = s.uPos[v]!;
      if (Math.abs(Math.floor(a / s.cols) - Math.floor(b / s.cols)) <= 2 && Math.abs((a % s.cols) - (b % s.cols)) <= 2) close++;
    }
  assert.ok(close > 0);
});
