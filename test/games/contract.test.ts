// The game contract, checked the same way for every discovered game (the
// project's, and the test game under test/fixtures/games that proves a game
// needs nothing but its folder):
//   - the same config and seed give the same match;
//   - next() never mutates its input;
//   - garbage orders never throw (validateOrders sorts them out);
//   - a replay round-trips through the file format and verify;
//   - the view a bot reads through the API is what the engine holds;
//   - the settings table, the view declaration and encodeView agree;
//   - a digest per engine version fails when the rules change without a bump.
// Set UPDATE_CONTRACT=1 to record the digest of a new engine version.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { gameDir, loadGames, loadGamesFrom } from '../../src/games/registry.ts';
import { isOver, type AnyGame } from '../../src/sdk/types.ts';
import { checkView } from '../../src/sdk/view-layout.ts';
import { describeSettings } from '../../src/sdk/settings.ts';
import { Rng } from '../../src/sdk/rng.ts';
import { playMatchWithGame } from '../../src/sandbox/entries/play-match.ts';
import { decodeReplay, encodeReplay } from '../../src/match/replay-io.ts';
import { verifyReplayWithGame } from '../../src/match/replay-verify.ts';

const ROUNDS = 20;
const DIGESTS = join(import.meta.dirname, '..', 'fixtures', 'contract', 'digests.json');

interface ViewCheck {
  probeBot: string;
  expectedViewHash(state: unknown, me: number): number;
}

const games: { game: AnyGame; dir: string }[] = [];
for (const [id, game] of await loadGames()) games.push({ game, dir: (await gameDir(id))! });
for (const entry of (await loadGamesFrom(join(import.meta.dirname, '..', 'fixtures', 'games'))).values()) games.push(entry);

/** Orders a hostile or broken bot could send: anything JSON can hold, and more. */
function garbage(rng: Rng, depth = 0): unknown {
  const pick = rng.random(0, 11);
  switch (pick) {
    case 0:
      return rng.random(-5, 200);
    case 1:
      return [-1, 0, 1, 2 ** 31, -(2 ** 31), 1e300, Number.NaN, Infinity, 0.5][rng.random(0, 8)];
    case 2:
      return ['', 'm', 't', 'move', 'x'.repeat(rng.random(0, 300)), '__proto__'][rng.random(0, 5)];
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return { id: rng.random(0, 9), dir: rng.random(0, 9) };
    case 6:
      return true;
    default:
      return depth > 2 ? [] : Array.from({ length: rng.random(0, 4) }, () => garbage(rng, depth + 1));
  }
}

function roundsConfig(game: AnyGame, rounds: number): Record<string, unknown> {
  return { [game.settings.rounds]: rounds };
}

function fuzzMatch(game: AnyGame, seed: number): string[] {
  const config = game.parseConfig(roundsConfig(game, ROUNDS));
  let state = game.create(config, seed);
  const rng = new Rng(seed + 7);
  const frames = [JSON.stringify(game.frame(state))];
  const frozen = Array.from({ length: game.nbPlayers }, (_, p) => p === 3 && seed % 2 === 0);
  while (!isOver(game, config, state)) {
    const orders = frozen.map((f, p) => (f ? [] : game.validateOrders(state, p, garbage(rng)).orders));
    state = game.next(state, orders, frozen).state;
    frames.push(JSON.stringify(game.frame(state)), JSON.stringify(game.scores(state)));
  }
  return frames;
}

for (const { game, dir } of games) {
  test(`${game.id}: settings table, defaults and the number of rounds`, () => {
    const rows = describeSettings(game.settings.table);
    assert.ok(rows.length > 0);
    assert.ok(
      rows.every((r) => r.doc.length > 0),
      'every setting is documented',
    );
    assert.deepEqual(game.parseConfig({}), game.defaultConfig);
    assert.equal(game.totalRounds(game.parseConfig(roundsConfig(game, 7))) <= 7, true);
    assert.throws(() => game.parseConfig({ no_such_setting: 1 }), /unknown setting "no_such_setting"/);
    assert.throws(() => game.parseConfig({ [game.settings.rounds]: 'ten' }), new RegExp(`${game.settings.rounds} must be an integer`));
    assert.throws(() => game.parseConfig({ [game.settings.rounds]: 1.5 }), /must be an integer/);
  });

  test(`${game.id}: the same seed gives the same match, garbage orders never throw, next() never mutates its input`, () => {
    for (const seed of [1, 2, 77]) {
      assert.deepEqual(fuzzMatch(game, seed), fuzzMatch(game, seed), `seed ${seed}`);
      const config = game.parseConfig(roundsConfig(game, 3));
      const state = game.create(config, seed);
      const before = serialize(state);
      const rng = new Rng(seed);
      const orders = Array.from({ length: game.nbPlayers }, (_, p) => game.validateOrders(state, p, garbage(rng)).orders);
      game.next(
        state,
        orders,
        orders.map(() => false),
      );
      assert.deepEqual(serialize(state), before, 'next() mutated its input');
    }
    assert.notDeepEqual(fuzzMatch(game, 1)[0], fuzzMatch(game, 2)[0], 'different seeds, different boards');
  });

  test(`${game.id}: the view matches its declaration, and a bot reads through the API what the engine holds`, async () => {
    const check = (await import(pathToFileURL(join(dir, 'view-check.ts')).href)) as ViewCheck;
    const dummy = readFileSync(game.bots.builtin['Dummy']!, 'utf8');
    const seats = [{ source: check.probeBot, filename: 'Probe.ts' }, ...[1, 2, 3].map(() => ({ source: dummy, filename: 'Dummy.ts' }))];
    const config = roundsConfig(game, ROUNDS);
    const { replay, logs } = await playMatchWithGame(game, { game: game.id, seed: 5, config, seats }, { host: 'inprocess' });
    assert.equal(replay.players[0]!.frozenRound, null, `the probe was frozen: ${replay.players[0]!.frozenMessage}`);
    let state = game.create(game.parseConfig(config), 5);
    const seen = logs[0]!.split('\n').filter((l) => l.startsWith('VIEW '));
    assert.equal(seen.length, replay.rounds.length - 1, 'one VIEW line per round');
    for (const [k, rec] of replay.rounds.slice(1).entries()) {
      assert.deepEqual(checkView(game.view, game.encodeView(state)), []);
      const [, round, hash] = seen[k]!.split(' ');
      assert.equal(Number(round), game.round(state), `the probe's round ${k + 1}`);
      assert.equal(Number(hash), check.expectedViewHash(state, 0), `what the API shows in round ${round} is not what the engine holds`);
      state = game.next(state, rec.orders, rec.frozen).state;
    }
  });

  test(`${game.id}: a replay round-trips through the file format and verify; its digest is recorded for this engine version`, async () => {
    const dummy = readFileSync(game.bots.builtin['Dummy']!, 'utf8');
    const seats = Array.from({ length: game.nbPlayers }, () => ({ source: dummy, filename: 'Dummy.ts' }));
    const { replay } = await playMatchWithGame(game, { game: game.id, seed: 3, config: roundsConfig(game, ROUNDS), seats }, { host: 'inprocess' });
    const again = decodeReplay(encodeReplay(replay));
    assert.deepEqual(verifyReplayWithGame(game, again), { ok: true, rounds: replay.rounds.length - 1 });
    const tampered = structuredClone(again);
    tampered.rounds.at(-1)!.scores[0]! += 1;
    assert.equal(verifyReplayWithGame(game, tampered).ok, false, 'verify notices a changed score');

    const digest = createHash('sha256')
      .update(JSON.stringify(replay.rounds.map((r) => [r.orders, r.frame, r.scores])))
      .update(fuzzMatch(game, 11).join('\n'))
      .digest('hex');
    const recorded = existsSync(DIGESTS) ? (JSON.parse(readFileSync(DIGESTS, 'utf8')) as Record<string, string>) : {};
    if (process.env['UPDATE_CONTRACT'] === '1' && recorded[game.engineVersion] !== digest) {
      recorded[game.engineVersion] = digest;
      writeFileSync(DIGESTS, JSON.stringify(Object.fromEntries(Object.entries(recorded).sort()), null, 2) + '\n');
    }
    const known = recorded[game.engineVersion];
    assert.ok(known, `no digest recorded for engine ${game.engineVersion}: run UPDATE_CONTRACT=1 node scripts/run-tests.js contract`);
    assert.equal(
      digest,
      known,
      `the matches of engine ${game.engineVersion} changed: if the rules changed on purpose, bump engineVersion in ${game.id}'s index.ts and record its digest (UPDATE_CONTRACT=1)`,
    );
  });
}
