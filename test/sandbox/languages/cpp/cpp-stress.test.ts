// The C++ stress players (test/fixtures/cpp-stress/players.ts: a head per game and a shared body; the ones
// `npm run bench cpp cpu` measures against native) are legal players of
// their games: each compiles against the game's headers and plays a whole
// sandboxed match, within budget, without being frozen, doing its work every
// round (its log has a line per round). Compiles C++: slow.

import { stressPlayers } from '../../../fixtures/cpp-stress/players.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { builtinSeat } from '../../../../src/match/builtins.ts';
import { resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { slow } from '../../../helpers/slow.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-stress-'));
before(() => resetCppCompileSettings({ cacheDir }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

const players = stressPlayers();

test('there is a stress player for every game with a C++ API', () => {
  assert.deepEqual([...new Set(players.map(([g]) => g))], ['bola-de-drac', 'harry-potter', 'moria', 'walking-dead']);
});

for (const [game, filename, source] of players) {
  test(`${game}/${filename} plays a whole match unfrozen, working every round`, slow, async () => {
    const nul = await builtinSeat(game, 'Null');
    const out = await playMatch({ game, seed: 7, seats: [{ source, filename }, nul, nul, nul] });
    const p = out.replay.players[0]!;
    assert.equal(p.frozenRound, null, `frozen: ${p.frozenReason}: ${p.frozenMessage}`);
    const rounds = out.replay.rounds.length - 1;
    const worked = out.logs[0]!.split('\n').filter((l) => /^round \d+: \d+ areas, biggest \d+/.test(l)).length;
    // The log is capped: the lines before the cap, one per round, at least the first round's.
    assert.ok(worked >= 1 && worked <= rounds, `${worked} work lines for ${rounds} rounds`);
    assert.ok(
      out.replay.rounds.some((r) => JSON.stringify(r.orders[0]) !== '[]'),
      'it gave orders',
    );
  });
}
