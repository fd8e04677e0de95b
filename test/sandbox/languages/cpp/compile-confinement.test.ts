// The compiler can open nothing but the sysroot, the game's headers and the
// student's file, whatever the file's text says: no reading of the text
// decides it (clang's lexer is the only one that knows what it lexes), the
// toolchain cannot see anything else. A secret file with a marker is planted
// on the judge's disk (a temporary directory, a DATA_DIR, the process's
// environment), then files that try every way we know to reach it are
// compiled: the marker never comes back, in a compile error or a module.
// The toolchain is the one ARBITER_CPP_CLANG names: the npm one (the
// in-memory file system of @yowasp/clang) unless it says system (the system
// clang, confined by confine.ts); CI runs both.
//
// Then the other side of the same line: only the file's own diagnostics are
// its fault. A toolchain that cannot link (a linker that is not there) is the
// judge's failure, retried and never cached: once the toolchain is fixed, the
// same file compiles; a system clang the OS cannot confine is not used.
// CPP_CONFINEMENT=landlock runs it all with Landlock in place of namespaces
// (as in a container under Docker's default seccomp profile); CI runs both.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compileCpp,
  resetCppCompileSettings,
  stopCompileServer,
  activeToolchain,
  findSystemClang,
  systemConfinement,
} from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { compileCppBot } from '../../../../src/sandbox/languages/cpp/compile-cpp.ts';
import { readSettings } from '../../../../src/config.ts';
import { includeTricks } from './include-tricks.ts';
import { BotCompileError, CompileInfraError } from '../../../../src/sandbox/languages/compile-errors.ts';

const toolchain = process.env['ARBITER_CPP_CLANG'] === 'system' ? 'system' : 'npm';
const MARKER = `ARBITER_SECRET_${Math.random().toString(36).slice(2)}`;
const base = mkdtempSync(join(tmpdir(), 'arbiter-secret-'));
const secret = join(base, 'secret.txt');
const dataDir = join(base, 'data');
const cacheDir = join(base, 'cache');
const projectEnv = fileURLToPath(new URL('../../.env', import.meta.url));

before(() => {
  // Text that clang would quote back in an error if it ever read it.
  writeFileSync(secret, `${MARKER} is not C++;\n${MARKER}\n`);
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'arbiter.db'), `${MARKER} data\n`);
  process.env['ARBITER_TEST_SECRET'] = MARKER;
  resetCppCompileSettings({ cacheDir, toolchain });
});
after(() => {
  stopCompileServer();
  delete process.env['ARBITER_TEST_SECRET'];
  rmSync(base, { recursive: true, force: true });
});

/** CPP_CONFINEMENT, as the toolchain reads it. */
const cppConfinement = () => readSettings(['cppConfinement']).cppConfinement;

const TRICKS = includeTricks({ secret, dataDir, projectEnv, marker: MARKER });

test(`the ${toolchain} toolchain opens nothing but the sysroot, the headers and the file: a planted secret never comes back`, {
  timeout: 900_000,
}, async () => {
  assert.equal(activeToolchain(), toolchain);
  if (toolchain === 'system' && cppConfinement() !== 'auto') assert.equal(systemConfinement(), cppConfinement());
  // Control: the headers and the sysroot are there.
  const fine = await compileCpp(
    '#include "Player.hh"\n#include <vector>\nstd::vector<int> v(3);\nextern "C" int f() { return v.size(); }\n',
    'AIFine.cc',
    'moria',
  );
  assert.ok(fine.ok, JSON.stringify(fine).slice(0, 600));
  const envSecret = existsSync(projectEnv)
    ? readFileSync(projectEnv, 'utf8')
        .split('\n')
        .find((l) => l.trim().length > 8)
    : undefined;
  for (const [what, source] of TRICKS) {
    const r = await compileCpp(source, 'AISneak.cc', 'moria');
    const said = r.ok ? Buffer.from(r.wasm).toString('latin1') : JSON.stringify(r);
    assert.ok(!said.includes(MARKER), `${what}: the secret came back: ${said.slice(0, 600)}`);
    assert.ok(!/root:x:0:0/.test(said), `${what}: /etc/passwd came back`);
    if (envSecret) assert.ok(!said.includes(envSecret.trim()), `${what}: the project's .env came back`);
    // It is the file's doing (its own diagnostics) or a module: never the judge's failure.
    assert.ok(r.ok || r.kind === 'rejected', `${what}: ${JSON.stringify(r).slice(0, 400)}`);
  }
});

const player = (name: string, extra = '') =>
  `#include "Player.hh"\n#define PLAYER_NAME ${name}\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { ${extra} }\n};\nRegisterPlayer(PLAYER_NAME);\n`;

test(`the ${toolchain} toolchain: a linker that is not there is the judge's failure, retried and never cached; fixed, the same file compiles`, {
  timeout: 600_000,
}, async () => {
  const source = player('Linked', `cerr << ${Date.now()} << endl;`);
  const cached = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => !f.endsWith('.tmp')) : []);
  const before = cached().length;
  resetCppCompileSettings({ cacheDir, toolchain, extraFlags: ['-fuse-ld=/nonexistent/wasm-ld-14'] });
  try {
    const r = await compileCpp(source, 'AILinked.cc', 'moria');
    assert.ok(!r.ok && r.kind === 'infra', JSON.stringify(r).slice(0, 400));
    await assert.rejects(compileCppBot(source, 'AILinked.cc', 'moria'), (err: unknown) => {
      assert.ok(err instanceof CompileInfraError, String(err));
      assert.match(err.message, /on a second try/);
      return true;
    });
  } finally {
    resetCppCompileSettings({ cacheDir, toolchain, extraFlags: [] });
  }
  assert.equal(cached().length, before, 'nothing cached for a failure of the toolchain');
  // The toolchain fixed: the same file compiles (no cached error answers for it).
  const artifact = await compileCppBot(source, 'AILinked.cc', 'moria');
  assert.equal(artifact.kind, 'wasm');
  assert.equal(cached().length, before + 1, 'the module is cached');
  // And the file's own error is the file's, and cached.
  await assert.rejects(
    compileCppBot(player('Broken', 'int x = ;'), 'AIBroken.cc', 'moria'),
    (err: unknown) => err instanceof BotCompileError && /^AIBroken\.cc:\d+:\d+: error: expected expression/.test(err.message),
  );
  assert.equal(cached().length, before + 2);
});

test("a system clang the OS cannot confine is not used: namespaces refused, auto takes Landlock; neither, auto falls back to npm, forced system is the judge's failure", {
  skip: toolchain === 'system' && findSystemClang() ? false : 'needs ARBITER_CPP_CLANG=system and a system clang',
}, async () => {
  const fake = join(base, 'no-userns');
  mkdirSync(fake, { recursive: true });
  // An unshare that fails as it does where user namespaces are off.
  writeFileSync(join(fake, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n');
  chmodSync(join(fake, 'unshare'), 0o755);
  const path = process.env['PATH'];
  process.env['PATH'] = `${fake}:${path}`;
  try {
    // Where Landlock works (this kernel), auto confines with it and compiles.
    resetCppCompileSettings({ cacheDir, toolchain: 'auto', confinement: 'auto' });
    if (systemConfinement() === 'landlock') {
      const r = await compileCpp(player('Landlocked', `cerr << ${Date.now()} << endl;`), 'AILandlocked.cc', 'moria');
      assert.ok(r.ok, JSON.stringify(r).slice(0, 400));
    } else assert.equal(activeToolchain(), 'npm', 'no Landlock here either: the npm toolchain');
    // Namespaces alone asked for: not confinable.
    resetCppCompileSettings({ cacheDir, toolchain: 'auto', confinement: 'namespaces' });
    assert.equal(findSystemClang(), null);
    assert.equal(activeToolchain(), 'npm');
    resetCppCompileSettings({ cacheDir, toolchain: 'system', confinement: 'namespaces' });
    const source = player('Unconfined', `cerr << ${Date.now()} << endl;`);
    const r = await compileCpp(source, 'AIUnconfined.cc', 'moria');
    assert.ok(!r.ok && r.kind === 'infra' && /cannot confine/.test(r.detail), JSON.stringify(r));
    await assert.rejects(
      compileCppBot(source, 'AIUnconfined.cc', 'moria'),
      (err: unknown) => err instanceof CompileInfraError && /cannot confine/.test(err.message),
    );
  } finally {
    process.env['PATH'] = path;
    resetCppCompileSettings({ cacheDir, toolchain, confinement: cppConfinement() });
  }
});
