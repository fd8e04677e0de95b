// The games' precompiled headers: a file that begins with #include
// "Player.hh" (comments and blank lines aside) is compiled with the game's
// PCH, which stands for exactly that line; any other beginning (a #define
// before it, another header first, a line splice or a lone \r that clang
// reads differently from a plain scan) compiles without it. Slow: with the
// PCH and without, the same file gives a module with the same exports, and
// an error keeps its line and column; the PCH is built once, on disk.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  beginsWithPlayerInclude,
  compileCpp,
  prewarmCpp,
  resetCppCompileSettings,
  stopCompileServer,
} from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { compileCppBot } from '../../../../src/sandbox/languages/cpp/compile-cpp.ts';
import { BotCompileError } from '../../../../src/sandbox/languages/compile-errors.ts';
import { slow } from '../../../helpers/slow.ts';

test('the PCH stands only for a first line #include "Player.hh"', () => {
  const yes = [
    '#include "Player.hh"\n',
    '\uFEFF#include "Player.hh"\nint x;\n',
    '// AIFoo.cc, my player\n\n/* a\n * block */\n  #  include  "Player.hh"  // the API\n#define PLAYER_NAME Foo\n',
    '// Windows lines\r\n\r\n#include "Player.hh"\r\n',
    '#include "Player.hh"',
  ];
  const no = [
    '#define NDEBUG\n#include "Player.hh"\n',
    '#include <bits/stdc++.h>\n#include "Player.hh"\n',
    'int x;\n#include "Player.hh"\n',
    '// a comment \\\n#include "Player.hh"\n',
    '// a comment\r#define NDEBUG\n#include "Player.hh"\n',
    '#include "Player.hh" /* a comment\n that goes on */\n',
    '#include "Player.hh"\\\n  x\n',
    '#include "Player.h"\n',
    '%:include "Player.hh"\n',
    '',
  ];
  for (const s of yes) assert.equal(beginsWithPlayerInclude(s), true, JSON.stringify(s));
  for (const s of no) assert.equal(beginsWithPlayerInclude(s), false, JSON.stringify(s));
});

const base = mkdtempSync(join(tmpdir(), 'arbiter-cpp-pch-'));
after(() => {
  stopCompileServer();
  rmSync(base, { recursive: true, force: true });
});

test('with the PCH and without, a file compiles to a module with the same exports; an error keeps its line and column', {
  ...slow,
  timeout: 1_200_000,
}, async () => {
  const pchDir = join(base, 'pch');
  const source = readFileSync(new URL('../../../fixtures/cpp/AIBench.cc', import.meta.url), 'utf8');
  // (The project's types leave the DOM's WebAssembly out.)
  const Wasm = (globalThis as unknown as { WebAssembly: { Module: { new (b: Uint8Array): object; exports(m: object): { kind: string; name: string }[] } } })
    .WebAssembly;
  const exportsOf = async (wasm: Uint8Array) =>
    Wasm.Module.exports(new Wasm.Module(wasm))
      .map((e) => `${e.kind}:${e.name}`)
      .sort();
  resetCppCompileSettings({ cacheDir: join(base, 'plain'), pch: false, pchDir });
  const plain = await compileCpp(source, 'AIBench.cc', 'moria');
  assert.ok(plain.ok, JSON.stringify(plain).slice(0, 500));
  assert.deepEqual(readdirSync(base).includes('pch') ? readdirSync(pchDir) : [], [], 'no PCH when they are off');
  // Room for the PCH build in the npm toolchain's compile server, which keeps the plain compile's wasm memory: near
  // the 2 GiB default it was once killed for its RSS (and compiles went on without it, as they should), which is
  // not what this test is about.
  resetCppCompileSettings({ cacheDir: join(base, 'pch-on'), pch: true, pchDir, memoryMb: 4096 });
  const withPch = await compileCpp(source, 'AIBench.cc', 'moria');
  assert.ok(withPch.ok, JSON.stringify(withPch).slice(0, 500));
  assert.equal(readdirSync(pchDir).filter((f) => f.endsWith('.pch')).length, 1, 'one PCH, on disk');
  assert.deepEqual(await exportsOf(withPch.wasm), await exportsOf(plain.wasm));
  // The same error, at the same place, with the PCH.
  const broken = source.replace('int n = 0;', 'int n = 0');
  await assert.rejects(compileCppBot(broken, 'AIBench.cc', 'moria'), (err: unknown) => {
    assert.ok(err instanceof BotCompileError, String(err));
    assert.match(err.message, /^AIBench\.cc:\d+:\d+: error: expected ';'/);
    assert.ok(err.line! > 80, String(err.line));
    return true;
  });
});

test('the warm-up at start builds the PCH of each game it is given, on disk (a game without C++ headers is passed over), then compiles the Demo: its module is cached', {
  ...slow,
  timeout: 900_000,
}, async () => {
  const pchDir = join(base, 'warm-pch');
  resetCppCompileSettings({ cacheDir: join(base, 'warm'), toolchain: 'npm', pch: true, pchDir });
  await prewarmCpp(['no-such-game', 'moria']);
  assert.deepEqual(
    readdirSync(pchDir).map((f) => f.replace(/-[0-9a-f]{24}\.pch$/, '')),
    ['moria-npm'],
  );
  const demo = readFileSync(new URL('../../../../src/games/moria/cpp/AIDemo.cc', import.meta.url), 'utf8');
  const r = await compileCpp(demo, 'AIDemo.cc', 'moria');
  assert.ok(r.ok && 'cached' in r && r.cached, JSON.stringify(r).slice(0, 300));
});
