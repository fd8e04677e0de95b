// The cheap parts of C++ support, without a compiler: what a .cc file says
// about itself, the view header generated from a game's layout, the module's
// memory read from its bytes, the WASI shim, clang's errors mapped to the
// student's file.

import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { looksLikeCpp, readCppHeader } from '../../../../src/sandbox/languages/cpp/source.ts';
import { isUploadFilename, languageOf, languageOfFilename, readBotHeader } from '../../../../src/sandbox/languages/index.ts';
import { gameApiHeaders, shippedCppPlayer, viewHeader } from '../../../../src/sandbox/languages/cpp/headers.ts';
import { otherGameOfCpp } from '../../../../src/sandbox/languages/cpp/game-hint.ts';
import { readMemoryImport } from '../../../../src/sandbox/languages/cpp/wasm-module.ts';
import { decodeUtf8, WasiExit, wasiImports } from '../../../../src/sandbox/languages/cpp/wasi.ts';
import { cppCompileError } from '../../../../src/sandbox/languages/cpp/compile-cpp.ts';
import { artifactKind, parseArtifact, serializeArtifact } from '../../../../src/sandbox/languages/artifact.ts';
import { VIEW as MORIA_VIEW } from '../../../../src/games/moria/view.ts';
import { defineView } from '../../../../src/sdk/view-layout.ts';
import type { WasmApi } from '../../../../src/sandbox/languages/cpp/cpp-player.ts';

const NULL_CC = `#include "Player.hh"\n\n/**\n * Write the name of your player.\n */\n#define PLAYER_NAME Gimli\n\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { }\n};\n\nRegisterPlayer(PLAYER_NAME);\n`;

test('a .cc file: its name from #define PLAYER_NAME, its game from an optional // GAME: line', () => {
  for (const f of ['AIGimli.cc', 'x.CPP', 'a.cxx', 'b.c++']) assert.equal(languageOfFilename(f)?.id, 'cpp', f);
  assert.ok(languageOfFilename('Gimli.ts')?.id !== 'cpp' && languageOfFilename('Gimli.c') === null);
  assert.ok(looksLikeCpp(NULL_CC));
  assert.deepEqual(readCppHeader(NULL_CC), { name: 'Gimli', game: null });
  assert.deepEqual(readCppHeader(`// GAME: Moria\n${NULL_CC}`), { name: 'Gimli', game: 'moria' });
  assert.deepEqual(readCppHeader('#define PLAYER_NAME  Balin // my player\n'), { name: 'Balin', game: null });
  assert.deepEqual(readCppHeader('#define PLAYER_NAMES Balin\n'), { name: null, game: null }, 'another macro');
  assert.deepEqual(readBotHeader(NULL_CC), { name: 'Gimli', game: null });
  assert.deepEqual(readBotHeader(`export const PLAYER_NAME = 'Js';\nexport const GAME = 'moria';\n`), { name: 'Js', game: 'moria' });
  assert.equal(languageOf(NULL_CC).id, 'cpp');
  assert.equal(languageOf(NULL_CC, 'AIGimli.cc').id, 'cpp');
  assert.equal(languageOf('export const PLAYER_NAME = "x";', 'x.ts').id, 'typescript');
  assert.equal(languageOf(NULL_CC).defaultFilename('Gimli'), 'AIGimli.cc');
  assert.ok(isUploadFilename('AIGimli.cc') && isUploadFilename('bot.ts') && !isUploadFilename('bot.exe'));
});

test('the view header follows the declared layout: arrays in order, record fields, bit fields, plain slots', () => {
  const h = viewHeader('moria', MORIA_VIEW);
  assert.match(h, /static const char NAMES\[\] = "meta,players,cells,units,grid";/);
  assert.match(h, /inline const int32_t\* meta = nullptr;/);
  assert.match(h, /inline int32_t meta_rows \(int record = 0\) \{ return meta\[record \* 11 \+ 9\]; \}/);
  assert.match(h, /inline int16_t units_pos \(int record = 0\) \{ return units\[record \* 3 \+ 2\]; \}/);
  assert.match(h, /inline int cells_owner1 \(int slot\) \{ return \(int\(cells\[slot\]\) >> 3\) & 7; \}/);
  assert.match(h, /inline int cells_turns \(int slot\) \{ return \(int\(cells\[slot\]\) >> 7\) & 511; \}/);
  assert.match(h, /inline int16_t grid_at \(int slot\) \{ return grid\[slot\]; \}/);
  assert.match(h, /units = reinterpret_cast<const int16_t\*>\(uintptr_t\(table\[6\]\)\);\n {2}units_length = table\[7\];/);
  const runs = viewHeader('x', defineView({ seen: { type: 'Float64', fields: ['a', ['per', 4]], doc: 'd' } }));
  assert.match(runs, /inline double seen_per \(int record, int k\) \{ return seen\[record \* 5 \+ 1 \+ k\]; \}/);
  assert.throws(() => viewHeader('x', defineView({ 'bad-name': { type: 'Int8', doc: 'd' } })), /not a C\+\+ identifier/);
});

/** A module of one import, env.memory, with these limits. */
function moduleImportingMemory(initial: number, maximum?: number): Uint8Array {
  const limits = maximum === undefined ? [0x00, initial] : [0x01, initial, maximum];
  const entry = [3, ...Buffer.from('env'), 6, ...Buffer.from('memory'), 0x02, ...limits];
  const section = [1, ...entry];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 2, section.length, ...section]);
}

test("the module's memory is read from its bytes, and the bytes are a real module", () => {
  const bytes = moduleImportingMemory(17);
  assert.deepEqual(readMemoryImport(bytes), { module: 'env', name: 'memory', initial: 17, maximum: null });
  assert.deepEqual(readMemoryImport(moduleImportingMemory(2, 100)), { module: 'env', name: 'memory', initial: 2, maximum: 100 });
  const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  assert.deepEqual(Wasm.Module.imports(new Wasm.Module(bytes)), [{ module: 'env', name: 'memory', kind: 'memory' }]);
  assert.equal(readMemoryImport(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])), null);
  assert.throws(() => readMemoryImport(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a WebAssembly module/);
});

test('the WASI shim: stdout and stderr to the log, no stdin, deterministic clock and random, exit stops', () => {
  const memory = new ArrayBuffer(4096);
  const written: [number, string][] = [];
  const names = ['fd_write', 'fd_read', 'clock_time_get', 'random_get', 'proc_exit', 'path_open', 'environ_sizes_get'];
  const make = () => wasiImports({ memory: () => memory, write: (fd, text) => written.push([fd, text]), seed: 42 }, names);
  const wasi = make();
  assert.deepEqual(Object.keys(wasi).sort(), [...names].sort(), 'exactly what the module imports');
  const u8 = new Uint8Array(memory);
  const dv = new DataView(memory);
  u8.set(Buffer.from('héllo\n'), 100);
  dv.setUint32(16, 100, true);
  dv.setUint32(20, 7, true);
  assert.equal(wasi['fd_write']!(2, 16, 1, 32), 0);
  assert.equal(dv.getUint32(32, true), 7);
  assert.deepEqual(written, [[2, 'héllo\n']]);
  assert.equal(wasi['fd_write']!(5, 16, 1, 32), 8, 'EBADF for files');
  dv.setUint32(20, 1 << 20, true);
  assert.equal(wasi['fd_write']!(1, 16, 1, 32), 28, 'EINVAL for a buffer outside memory');
  assert.equal(wasi['fd_read']!(0, 16, 1, 40), 0);
  assert.equal(dv.getUint32(40, true), 0, 'stdin is empty');
  assert.equal(wasi['path_open']!(), 52, 'ENOSYS for the rest');
  wasi['clock_time_get']!(0, 0, 48);
  const t1 = dv.getBigUint64(48, true);
  wasi['clock_time_get']!(0, 0, 48);
  assert.equal(dv.getBigUint64(48, true) - t1, 1_000_000n, 'a millisecond per reading');
  wasi['random_get']!(200, 16);
  const first = Buffer.from(u8.slice(200, 216));
  make()['random_get']!(200, 16);
  assert.deepEqual(Buffer.from(u8.slice(200, 216)), first, 'the same bytes for the same seed');
  assert.throws(
    () => wasi['proc_exit']!(3),
    (e: unknown) => e instanceof WasiExit && e.code === 3,
  );
  assert.equal(decodeUtf8(new Uint8Array([0xf0, 0x9f, 0x98, 0x80, 0x41])), '😀A');
});

test("clang's errors keep the student's file, line and column; a header's error points at the line that includes it", () => {
  const own = cppCompileError("AIGimli.cc:12:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n1 error generated.\n", 'AIGimli.cc');
  assert.equal(own.line, 12);
  assert.equal(own.column, 5);
  assert.match(own.message, /^AIGimli\.cc:12:5: error: use of undeclared identifier 'x'\n {4}x = 1;/);
  const viaHeader = cppCompileError('In file included from AIGimli.cc:3:\ninclude/Player.hh:1:2: error: boom\n1 error generated.\n', 'AIGimli.cc');
  assert.equal(viaHeader.line, 3);
  assert.match(viaHeader.message, /include\/Player\.hh:1:2: error: boom/);
  const long = cppCompileError(`A.cc:1:1: error: x\n${'y'.repeat(10_000)}`, 'A.cc');
  assert.ok(long.message.length < 3100 && /more errors cut/.test(long.message));
});

test('a compiled C++ player travels as a marked string (a wasm artifact)', () => {
  const wasm = new Uint8Array([0, 0x61, 0x73, 0x6d, 9, 8, 7]);
  const code = serializeArtifact({ kind: 'wasm', name: 'Gimli', game: 'moria', wasm });
  assert.ok(artifactKind(code) === 'wasm' && artifactKind('(function(){var module') === 'script');
  assert.deepEqual(parseArtifact(code), { kind: 'wasm', name: 'Gimli', game: 'moria', wasm });
});

test("a game's C++ API is its own headers, and the shared Player class only where its Player.hh includes it", () => {
  const infoPlayer = readFileSync(new URL('../../../../src/sdk/cpp/InfoPlayer.hh', import.meta.url), 'utf8');
  const sharedPlayer = (game: string) => gameApiHeaders(game)!.includes(infoPlayer);
  for (const game of ['moria', 'harry-potter', 'walking-dead']) assert.ok(sharedPlayer(game), `${game}: the shared Player class is its API`);
  assert.ok(!sharedPlayer('bola-de-drac'), 'Bola de Drac has its own Player class');
  assert.equal(gameApiHeaders('no-such-game'), null);
  assert.equal(gameApiHeaders('../moria'), null, 'a game id, not a path');
});

test("a C++ file's game is told from its API names: each game's Demo reads as that game's anywhere else, the shared empty Null as no game's", () => {
  const games = ['moria', 'harry-potter', 'walking-dead', 'bola-de-drac'];
  for (const of of games) {
    const demo = shippedCppPlayer(of, 'AIDemo.cc')!;
    const empty = shippedCppPlayer(of, 'AINull.cc')!;
    for (const sentFor of games) {
      assert.equal(otherGameOfCpp(demo, sentFor)?.game ?? null, sentFor === of ? null : of, `${of}'s Demo sent for ${sentFor}`);
      // The Null only includes Player.hh: a Moria Null once read as a Bola de Drac player when the shared class was left out.
      assert.equal(otherGameOfCpp(empty, sentFor), null, `${of}'s Null sent for ${sentFor}`);
    }
  }
});
