// Each game's C++ API warns and fails where the original package's does:
// Moria checks a second command for a unit before its direction; Bola de
// Drac's check() stops a player that asks for a cell outside the board or a
// player that does not exist. (Harry Potter's silent unit(-1): cpp-log.test.ts.)
// Compiles C++: slow.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import type { MatchSeat } from '../../../../src/match/types.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { builtinSeat } from '../../../../src/match/builtins.ts';
import { slow } from '../../../helpers/slow.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-api-test-'));
before(() => resetCppCompileSettings({ cacheDir }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

const bot = (name: string, play: string): MatchSeat => ({
  source: `#include "Player.hh"\n#define PLAYER_NAME ${name}\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () {\n${play}\n  }\n};\nRegisterPlayer(PLAYER_NAME);\n`,
  filename: `AI${name}.cc`,
});

async function match(game: string, first: MatchSeat, config: Record<string, number>) {
  const nul = await builtinSeat(game, 'Null');
  return playMatch({ game, seed: 2, config, seats: [first, nul, nul, nul] });
}

test('Moria: a second command for a unit warns that it is one, whatever its direction (the original checks that first)', { skip: slow.skip }, async () => {
  const out = await match('moria', bot('Twice', '    int id = dwarves(me())[0];\n    command(id, Top);\n    command(id, Dir(42));'), { nb_rounds: 3 });
  assert.equal(out.replay.players[0]!.frozenReason, null);
  assert.match(out.logs[0]!, /warning: action already requested for unit \d+/);
  assert.doesNotMatch(out.logs[0]!, /wrong direction 42/);
});

for (const [what, call] of [
  ['a cell outside the board', 'cell(-1, 0)'],
  ['a player that does not exist', 'goku(7)'],
  ['the status of a player that does not exist', 'status(-1)'],
] as const) {
  test(`Bola de Drac: asking for ${what} fails the original's check() and stops the player`, { skip: slow.skip }, async () => {
    const out = await match('bola-de-drac', bot('Asks', `    if (round() == 2) (void)${call};`), { nb_rounds: 5 });
    const p = out.replay.players[0]!;
    assert.notEqual(p.frozenReason, null);
    assert.match(p.frozenMessage ?? '', /failed in check\(\)/);
  });
}

for (const [game, rounds, logged] of [
  ['moria', { nb_rounds: 4 }, 'ERROR: mine\n'],
  ['walking-dead', { num_rounds: 4 }, 'error: mine\n'],
  ['harry-potter', { num_rounds: 4 }, ''],
] as const) {
  test(`${game}: _my_assert writes what the original's writes (${JSON.stringify(logged)}) and stops the player`, { skip: slow.skip }, async () => {
    const out = await match(game, bot('Asserts', '    _my_assert(round() < 1, "mine");'), rounds);
    const p = out.replay.players[0]!;
    assert.notEqual(p.frozenReason, null);
    assert.match(p.frozenMessage ?? '', /round\(\) < 1/);
    assert.equal(out.logs[0]!.replace(/^(Assertion failed|frozen in round).*\n?/gm, ''), logged);
  });
}
