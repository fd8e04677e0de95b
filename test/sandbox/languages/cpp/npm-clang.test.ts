// The npm toolchain alone (@yowasp/clang, what a fresh machine has after
// `npm install`), forced with the setting ARBITER_CPP_CLANG=npm selects: it
// compiles a player that plays, reports a compile error with the student's
// line and column, and a second compile of the same file is a cache hit.
// Slow: its first compile also compiles clang itself (tens of seconds).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { BotCompileError } from '../../../../src/sandbox/languages/compile-errors.ts';
import { activeToolchain, compileCpp, resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { compileCppBot } from '../../../../src/sandbox/languages/cpp/compile-cpp.ts';
import { slow } from '../../../helpers/slow.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-npm-'));
before(() => resetCppCompileSettings({ cacheDir, toolchain: 'npm' }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

const demo = readFileSync(new URL('../../../../src/games/moria/cpp/AIDemo.cc', import.meta.url), 'utf8');

test('@yowasp/clang alone compiles the C++ Demo, which plays; errors keep their position; the cache answers the second time', { skip: slow.skip }, async () => {
  assert.equal(activeToolchain(), 'npm');
  const first = await compileCpp(demo, 'AIDemo.cc', 'moria');
  assert.ok(first.ok, JSON.stringify(first).slice(0, 500));
  assert.equal(first.toolchain, 'npm');
  const again = await compileCpp(demo, 'AIDemo.cc', 'moria');
  assert.ok(again.ok && again.cached, 'a cache hit');
  await assert.rejects(compileCppBot(demo.replace('int mine = me();', 'int mine = me()'), 'AIDemo.cc', 'moria'), (err: unknown) => {
    assert.ok(err instanceof BotCompileError);
    assert.match(err.message, /^AIDemo\.cc:\d+:\d+: error: expected ';'/);
    assert.ok(err.line! > 100 && err.column! > 0);
    return true;
  });
  const seats = [
    { source: demo, filename: 'AIDemo.cc' },
    ...['Null', 'Null', 'Demo'].map((b) => ({
      source: readFileSync(new URL(`../../../../src/games/moria/bots/${b}.ts`, import.meta.url), 'utf8'),
      filename: `${b}.ts`,
    })),
  ];
  const out = await playMatch({ game: 'moria', seed: 2, config: { nb_rounds: 30 }, seats });
  assert.equal(out.replay.players[0]!.frozenReason, null, out.replay.players[0]!.frozenMessage ?? '');
  assert.ok(out.replay.result.scores[0]! > out.replay.result.scores[1]!, 'the Demo beats a Null');
});
