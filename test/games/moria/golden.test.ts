// Golden traces: matches played by the original engine (repository
// alvaroarino/JOC-EDA-2019-2020, folder game19/, Board.o.Linux64) with the
// deterministic test players in test/fixtures/golden/moria/players/ (C++ and
// TypeScript twins); Arbiter must reproduce every state, round 0 to the last
// (200 with the default settings; seed6-settings.json changes them all).
// seed*.json use the boards the original generates for their seed; fixed*.json
// a fixed board (the `board` setting, the original's FIXED grid), with the units
// placed from the match seed: one the original generated for another seed, or
// (fixed6, fixed7) rock around one block of caves, crowded enough for the
// placement and rebirth fallbacks. boards/ holds the original's round 0 (board
// and units) for 300 seeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { goldenSeat, readTrace, registerGoldenTests, registerRound0Test } from '../../helpers/golden.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import game from '../../../src/games/moria/index.ts';
import type { MoriaEvent, MoriaOrder, MoriaState } from '../../../src/games/moria/engine.ts';
import { arbiterState } from './golden.ts';

const dir = registerGoldenTests<MoriaState>(game, arbiterState);
// The seeds include those where the original throws a grid away and draws another.
registerRound0Test<MoriaState>(game, arbiterState);

const KIND = ['dwarf', 'wizard', 'orc', 'troll', 'balrog'];

test('the test players exercise every rule: attacks and kills of every kind, trolls killed before they act (and their ghost cells), digging, abysses, the Balrog, rebirths, healing, treasures, invalid and duplicate orders', async () => {
  const seen = new Map<string, number>();
  const add = (k: string): void => void seen.set(k, (seen.get(k) ?? 0) + 1);
  for (const f of ['seed3-mixed.json', 'seed87-ghost-troll.json']) {
    const t = readTrace(join(dir, f));
    const seats = await Promise.all(t.players.map((p) => goldenSeat('moria', p)));
    const { replay, logs } = await playMatch({ game: 'moria', seed: t.seed, seats, config: t.config }, { host: 'inprocess' });
    for (const log of logs) {
      if (log.includes('already requested')) add('duplicate order');
      if (log.includes('out of range for unit')) add('bad direction');
      if (log.includes('cannot move diagonally')) add('diagonal wizard');
      if (log.includes('does not belong to player')) add('not own unit');
      if (log.includes('id out of range or dead unit')) add('bad id');
    }
    let s = game.create(game.parseConfig(replay.config), replay.seed);
    for (const rec of replay.rounds.slice(1)) {
      const orders = rec.orders as MoriaOrder[][];
      const out = game.next(s, orders, rec.frozen);
      for (const e of out.events as MoriaEvent[]) {
        if (e.t === 'kill') add(`kill ${KIND[s.utype[e.v]!]} ${e.why}`);
        else if (e.t === 'open') add(e.abyss ? 'abyss opened' : 'cave opened');
        else if (e.t === 'spawn') add(`reborn ${KIND[s.utype[e.v]!]}`);
        else add(e.t);
      }
      s = out.state;
      for (let p = 0; p < s.unitAt.length; p++) if (s.unitAt[p]! >= 0 && s.upos[s.unitAt[p]!] !== p) add('ghost cell');
    }
  }
  for (const k of [
    'atk',
    'kill dwarf attack',
    'kill wizard attack',
    'kill orc attack',
    'kill troll attack',
    'kill dwarf abyss',
    'kill dwarf balrog',
    'kill wizard balrog',
    'dig',
    'abyss opened',
    'cave opened',
    'gold',
    'heal',
    'reborn dwarf',
    'reborn wizard',
    'reborn orc',
    'reborn troll',
    'ghost cell',
    'duplicate order',
    'bad direction',
    'diagonal wizard',
    'not own unit',
    'bad id',
  ])
    assert.ok((seen.get(k) ?? 0) > 0, `${k} never happens: ${JSON.stringify([...seen])}`);
});
