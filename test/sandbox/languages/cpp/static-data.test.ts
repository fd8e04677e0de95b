// A C++ player's static data, bounded alike on both toolchains: the zero
// bytes at the ends of a module's data segments are left out (its memory
// starts zeroed; wasm-ld 14 writes a zero-initialized array as that many
// zeros, the npm toolchain's lld does not), then a module whose initial
// memory plus initialized data does not fit the memory limit, or larger than
// the cap, is refused at the compile check; and the caches are bounded in
// bytes. The last test compiles (slow) with the toolchain ARBITER_CPP_CLANG
// names: a touched 100 MiB zero-initialized array plays, and (system clang)
// a 313-byte file with an initialized 100 MiB array no longer gives a 100 MiB
// module. (The npm toolchain takes about a minute of CPU to link that one.)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataSegmentBytes, readMemoryImport, trimZeroData } from '../../../../src/sandbox/languages/cpp/wasm-module.ts';
import { compileCpp, moduleRefusal, resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { slow } from '../../../helpers/slow.ts';

const toolchain = process.env['ARBITER_CPP_CLANG'] === 'system' ? 'system' : 'npm';
const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-static-'));
before(() => resetCppCompileSettings({ cacheDir, toolchain }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** The WebAssembly global (the project's types leave out the DOM's). */
const Wasm = (
  globalThis as unknown as {
    WebAssembly: {
      validate(b: Uint8Array): boolean;
      Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
      Module: new (b: Uint8Array) => object;
      Instance: new (m: object, i: object) => object;
    };
  }
).WebAssembly;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (s: string): number[] => [s.length, ...Buffer.from(s)];

/** A module importing env.memory (`pages` pages) with the given active segments. */
function moduleWith(pages: number, segments: { offset: number; bytes: number[] }[]): Uint8Array {
  const imports = section(2, [1, ...name('env'), ...name('memory'), 2, 0, ...leb(pages)]);
  // i32.const takes a signed LEB; the offsets here are below 2^13, so a positive two-byte form.
  const sleb = (n: number): number[] => (n < 64 ? [n] : [(n & 0x7f) | 0x80, n >> 7]);
  const data = section(11, [segments.length, ...segments.flatMap((s) => [0, 0x41, ...sleb(s.offset), 0x0b, ...leb(s.bytes.length), ...s.bytes])]);
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...imports, ...data]);
}

test('zero bytes at the ends of data segments are left out; the module stays valid and its memory the same', () => {
  const zeros = (n: number) => new Array<number>(n).fill(0);
  const m = moduleWith(2, [
    { offset: 1024, bytes: [0, 0, 7, 0, 9, ...zeros(3000)] },
    { offset: 5000, bytes: zeros(2000) },
    { offset: 100, bytes: [1, 2, 3] },
  ]);
  assert.ok(Wasm.validate(m));
  assert.equal(dataSegmentBytes(m), 3005 + 2000 + 3);
  const t = trimZeroData(m);
  assert.ok(Wasm.validate(t));
  assert.equal(dataSegmentBytes(t), 3 + 0 + 3);
  assert.deepEqual(readMemoryImport(t), readMemoryImport(m));
  // The same memory once instantiated.
  const memA = new Wasm.Memory({ initial: 2 });
  const memB = new Wasm.Memory({ initial: 2 });
  new Wasm.Instance(new Wasm.Module(m), { env: { memory: memA } });
  new Wasm.Instance(new Wasm.Module(t), { env: { memory: memB } });
  assert.deepEqual(new Uint8Array(memB.buffer), new Uint8Array(memA.buffer));
  // Nothing to leave out: the same bytes.
  const plain = moduleWith(1, [{ offset: 8, bytes: [1, 2, 3] }]);
  assert.equal(trimZeroData(plain), plain);
});

test('a module is refused when its initial memory and initialized data do not fit the memory limit, or it is larger than the cap', () => {
  const MiB = 1024 * 1024;
  const small = moduleWith(2, [{ offset: 1024, bytes: [1, 2, 3] }]);
  assert.equal(moduleRefusal(small, 128, 16 * MiB), null);
  // 100 MiB at start: fits 128 MiB, not 64.
  const start100 = moduleWith(1600, [{ offset: 1024, bytes: [1] }]);
  assert.equal(moduleRefusal(start100, 128, 16 * MiB), null);
  assert.match(moduleRefusal(start100, 64, 16 * MiB) ?? '', /needs 101 MiB of memory at start, more than the memory limit of 64 MiB/);
  assert.match(moduleRefusal(small, 128, 16) ?? '', /the compiled module is \d+ bytes, more than 16 bytes/);
});

test('the in-memory cache is bounded in bytes, the oldest going first', { skip: slow.skip }, async () => {
  const player = (n: number) => `#include "Player.hh"\nextern "C" int f${n}() { return ${n}; }\n`;
  const first = await compileCpp(player(0), 'AIC.cc', 'moria');
  assert.ok(first.ok);
  // Room for four modules (each counted as its bytes and 200 more), none on disk.
  resetCppCompileSettings({
    cacheDir: join(cacheDir, 'none'),
    toolchain,
    memoryCacheBytes: Math.floor((first.wasm.byteLength + 200) * 4.5),
    diskCacheBytes: 1,
  });
  for (let n = 0; n < 6; n++) assert.ok((await compileCpp(player(n), 'AIC.cc', 'moria')).ok);
  assert.ok((await compileCpp(player(5), 'AIC.cc', 'moria')).cached, 'the newest is kept');
  const t = Date.now();
  const oldest = await compileCpp(player(0), 'AIC.cc', 'moria');
  assert.ok(!oldest.cached, `the oldest is gone (${Date.now() - t} ms)`);
  resetCppCompileSettings({ cacheDir, toolchain, memoryCacheBytes: 64 * 1024 * 1024, diskCacheBytes: 512 * 1024 * 1024 });
});

test(`the ${toolchain} toolchain: a touched 100 MiB zero-initialized array plays (its module is small)`, { skip: slow.skip, timeout: 900_000 }, async () => {
  const big = (name: string, decl: string) =>
    `#include "Player.hh"\n${decl}\n#define PLAYER_NAME ${name}\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { for (int i = round(); i < (100 << 20); i += 4096) big[i] = 1; cerr << int(big[round() * 999]) << endl; }\n};\nRegisterPlayer(PLAYER_NAME);\n`;
  const zero = big('Zeros', 'static char big[100 << 20];');
  const r = await compileCpp(zero, 'AIZeros.cc', 'moria', { memoryMb: 128 });
  assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
  assert.ok(r.wasm.byteLength < 1024 * 1024, `${r.wasm.byteLength} bytes`);
  const nul = {
    source: 'export const GAME = "moria"; export const PLAYER_NAME = "Null";\nexport default class extends Player { play() {} }\n',
    filename: 'Null.ts',
  };
  const out = await playMatch({ game: 'moria', seed: 3, config: { nb_rounds: 5 }, seats: [{ source: zero, filename: 'AIZeros.cc' }, nul, nul, nul] });
  assert.equal(out.replay.players[0]!.frozenReason, null, out.replay.players[0]!.frozenMessage ?? '');
});

test('the system toolchain: a 100 MiB array initialized with {1} gives a small module, not 100 MiB', {
  skip: slow.skip || (toolchain !== 'system' ? 'the system clang only (the npm one needs about a minute of CPU for it)' : false),
  timeout: 300_000,
}, async () => {
  const source = `#include "Player.hh"\nstatic char big[100 << 20] = {1};\n#define PLAYER_NAME Init\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { cerr << int(big[round() * 1000]) << endl; }\n};\nRegisterPlayer(PLAYER_NAME);\n`;
  const r = await compileCpp(source, 'AIInit.cc', 'moria', { memoryMb: 128 });
  assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
  assert.ok(r.wasm.byteLength < 1024 * 1024, `${r.wasm.byteLength} bytes`);
});
