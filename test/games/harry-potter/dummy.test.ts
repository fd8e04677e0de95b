// The built-in Dummy against the original package's Dummy (repository
// gbg4812/TheGame, folder game/, the shipped AIDummy.o.Linux64 linked with the
// original engine): whole matches with two to four Dummies, recorded from the
// original, where every state and every command the Dummies gave, round by
// round and in order, must be the same here.
//
// Fixture (test/fixtures/dummy/harry-potter/*.json): a golden trace (state
// digests, see golden.ts) plus `dummyCommands`: the Dummy seats and, per
// round, the digest of their commands, one line per seat:
//   "<seat> <id>:0:<dir> ... <id>:1:-1:<g0>,<g1>,...,"
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digest, goldenSeat, type GoldenTrace } from '../../helpers/golden.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import game from '../../../src/games/harry-potter/index.ts';
import type { HPOrder, HPState } from '../../../src/games/harry-potter/engine.ts';
import { arbiterState } from './golden.ts';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/dummy/harry-potter');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

interface DummyTrace extends GoldenTrace {
  dummyCommands: { seats: number[]; digests: string[] };
}

function commandText(orders: HPOrder[][], seats: number[]): string {
  return seats
    .map((p) => `${p} ${(orders[p] ?? []).map((o) => (o[0] === 0 ? `${o[1]}:0:${o[2]}` : `${o[1]}:1:-1:${o[2].join(',')},`)).join(' ')}`.trimEnd())
    .join('\n');
}

test('there are Dummy traces with four Dummies and with Dummies among other players', () => {
  assert.ok(fixtures.length >= 3);
  const traces = fixtures.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as DummyTrace);
  assert.ok(traces.some((t) => t.players.every((p) => p === 'Dummy')));
  assert.ok(traces.some((t) => t.players.some((p) => p !== 'Dummy')));
});

for (const f of fixtures) {
  test(`Dummy trace ${f}: the Dummies give the original's commands and the match is the original's`, async () => {
    const t = JSON.parse(readFileSync(join(dir, f), 'utf8')) as DummyTrace;
    assert.equal(t.engineVersion, game.engineVersion);
    const seats = await Promise.all(t.players.map((p) => goldenSeat('harry-potter', p)));
    const { replay } = await playMatch({ game: 'harry-potter', seed: t.seed, seats, config: t.config }, { host: 'inprocess' });
    for (const p of replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
    let state: HPState = game.create(game.parseConfig(replay.config), replay.seed);
    assert.equal(digest(arbiterState(state)), t.digests[0], 'round 0');
    for (const [r, rec] of replay.rounds.slice(1).entries()) {
      const orders = rec.orders as HPOrder[][];
      const got = digest(commandText(orders, t.dummyCommands.seats));
      assert.equal(
        got,
        t.dummyCommands.digests[r],
        `round ${r}: the Dummies' commands differ from the original's:\n${commandText(orders, t.dummyCommands.seats)}`,
      );
      state = game.next(state, orders, rec.frozen).state;
      assert.equal(digest(arbiterState(state)), t.digests[r + 1], `the state after round ${r} differs from the original's`);
    }
    assert.equal(replay.rounds.length, t.digests.length);
  });
}
