// A C++ player's cout and cerr: buffered in the module and handed to the
// judge once per play() (src/sdk/cpp/arbiter-exports.hh), dropped
// cheaply once the log is full, in the order written, stdio included; and
// Harry Potter's unit(-1) is silent, as the original's is. Compiles C++: slow.

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
import { logTruncated } from '../../../../src/sdk/limits.ts';
import { slow } from '../../../helpers/slow.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-log-test-'));
before(() => resetCppCompileSettings({ cacheDir }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

function hpBot(name: string, play: string, topLevel = ''): MatchSeat {
  return {
    source: `#include "Player.hh"\n#include <cstdio>\n${topLevel}\n#define PLAYER_NAME ${name}\n\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () {\n${play}\n  }\n};\n\nRegisterPlayer(PLAYER_NAME);\n`,
    filename: `AI${name}.cc`,
  };
}

async function match(first: MatchSeat, rounds: number) {
  const nul = await builtinSeat('harry-potter', 'Null');
  return playMatch({ game: 'harry-potter', seed: 3, config: { num_rounds: rounds }, seats: [first, nul, nul, nul] });
}

test('Harry Potter: unit(-1) is silent, as in the original, and costs nothing', { skip: slow.skip }, async () => {
  const bot = hpBot(
    'Silent',
    `    long s = 0;
    for (int k = 0; k < 100000; ++k) s += unit(-1 - (k & 7)).id + unit(1 << 20).id;
    if (s == 42) cout << "never" << endl;`,
  );
  const out = await match(bot, 50);
  const p = out.replay.players[0]!;
  assert.equal(p.frozenReason, null, p.frozenMessage ?? '');
  assert.equal(out.logs[0], '', 'nothing in the log');
});

test('C++: cout, cerr and printf reach the log in the order written, round by round', { skip: slow.skip }, async () => {
  const bot = hpBot(
    'Order',
    `    cout << "a" << round() << ' ';
    cerr << "b" << round() << endl;
    printf("c%d\\n", round());
    fflush(stdout);
    clog << "d" << round() << '\\n';
    fprintf(stderr, "e%d\\n", round());`,
  );
  const out = await match(bot, 3);
  assert.equal(out.replay.players[0]!.frozenReason, null);
  assert.equal(out.logs[0], [0, 1, 2].map((r) => `a${r} b${r}\nc${r}\nd${r}\ne${r}\n`).join(''));
});

test('C++: what a player wrote before an assert stopped it reaches the log, and the reason names the assert', { skip: slow.skip }, async () => {
  const bot = hpBot('Stops', `    cerr << "before the end" << endl;\n    assert(round() < 1);`, '#include <cassert>');
  const out = await match(bot, 5);
  const p = out.replay.players[0]!;
  assert.notEqual(p.frozenReason, null);
  assert.match(p.frozenMessage ?? '', /abort: .*round\(\) < 1/);
  assert.match(out.logs[0]!, /before the end\n(.|\n)*before the end\n/);
});

test('C++: 10^5 cerr lines per round fill the log once, and past its cap cost little', { skip: slow.skip }, async () => {
  const bot = hpBot('Chatty', `    for (int k = 0; k < 100000; ++k) cerr << "line " << k << endl;`);
  const out = await match(bot, 20);
  const p = out.replay.players[0]!;
  assert.equal(p.frozenReason, null, p.frozenMessage ?? '');
  assert.ok(out.logs[0]!.startsWith('line 0\nline 1\n'));
  assert.ok(out.logs[0]!.includes(logTruncated()));
  assert.ok(out.logs[0]!.length < 70 * 1024, `log of ${out.logs[0]!.length} characters`);
  // 2 000 000 writes: a fraction of a microsecond each once the log is full (a write crossing to JavaScript costs several).
  assert.ok(p.cpuMs < 2000, `${p.cpuMs.toFixed(0)} ms of CPU`);
});
