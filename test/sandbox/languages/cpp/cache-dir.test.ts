// Caches per instance, shared only on purpose: the C++ compile cache and the
// games' precompiled headers live under CACHE_DIR, by default a temp folder of
// the user and the checkout (two checkouts on one machine never share one).
// Two processes given one CACHE_DIR on purpose compile side by side: both build
// the same precompiled header at once, each writes it under a name of its own
// and renames it into place, and neither reads half of one (slow: two npm clang
// compiles with their PCH).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir, loadConfig } from '../../../../src/config.ts';
import { slow } from '../../../helpers/slow.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

test('CACHE_DIR: by default a temp folder of this user and this checkout; named, it is made absolute and loadConfig has it', () => {
  const dflt = cacheDir({});
  assert.ok(dflt.startsWith(join(tmpdir(), `arbiter-cache-${userInfo().uid}-`)), dflt);
  assert.match(dflt, /-[0-9a-f]{12}$/);
  assert.equal(cacheDir({}), dflt, 'the same folder at every start');
  assert.equal(cacheDir({ CACHE_DIR: 'some/cache' }), resolve('some/cache'));
  assert.ok(isAbsolute(cacheDir({ CACHE_DIR: 'x' })));
  assert.equal(loadConfig({ CACHE_DIR: '/var/cache/arbiter' }).cacheDir, '/var/cache/arbiter');
  assert.equal(loadConfig({}).cacheDir, dflt);
});

/** cacheDir({}) as a process loading config.ts from `configUrl` prints it. */
async function defaultCacheDirOf(configUrl: string): Promise<string> {
  const script = `import { cacheDir } from ${JSON.stringify(configUrl)}; console.log(cacheDir({}));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await once(child, 'exit');
  return out.trim();
}

test('another checkout has another default CACHE_DIR; this one, the same in every process', async () => {
  const here = cacheDir({});
  assert.equal(await defaultCacheDirOf(new URL('../../../../src/config.ts', import.meta.url).href), here);
  // config.ts names the folder by the checkout it is in: the same file in another tree gives another.
  const other = mkdtempSync(join(tmpdir(), 'arbiter-checkout-'));
  try {
    cpSync(join(root, 'src/config.ts'), join(other, 'src/config.ts'));
    writeFileSync(join(other, 'package.json'), '{ "type": "module" }\n');
    const there = await defaultCacheDirOf(pathToFileURL(join(other, 'src/config.ts')).href);
    assert.match(there, /arbiter-cache-\d+-[0-9a-f]{12}$/);
    assert.notEqual(there, here);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

/** One process compiling `file` (a player of Moria's kit) with CACHE_DIR=dir; its result and its log lines. */
async function compileIn(dir: string, file: 'AIDemo.cc' | 'AINull.cc'): Promise<{ ok: boolean; log: string }> {
  const toolchain = new URL('../../../../src/sandbox/languages/cpp/toolchain.ts', import.meta.url).href;
  const source = readFileSync(join(root, file === 'AINull.cc' ? 'src/sdk/cpp' : 'src/games/moria/cpp', file), 'utf8').replace(
    /#define PLAYER_NAME \w+/,
    '#define PLAYER_NAME Side',
  );
  const script = `
    import { compileCpp, stopCompileServer } from ${JSON.stringify(toolchain)};
    const r = await compileCpp(${JSON.stringify(source)}, 'AISide.cc', 'moria');
    console.log('RESULT ' + JSON.stringify({ ok: r.ok, kind: r.ok ? null : r.kind }));
    stopCompileServer();
    process.exit(0);
  `;
  const env: NodeJS.ProcessEnv = { ...process.env, CACHE_DIR: dir, ARBITER_CPP_CLANG: 'npm', LOG_LEVEL: 'info' };
  delete env['CPP_CACHE_DIR'];
  delete env['CPP_PCH_DIR'];
  delete env['NODE_TEST_CONTEXT'];
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  await once(child, 'exit');
  const line = /^RESULT (.*)$/m.exec(log);
  assert.ok(line, log);
  return { ok: (JSON.parse(line[1]!) as { ok: boolean }).ok, log };
}

test('two processes sharing one CACHE_DIR on purpose build the same PCH at once and both compile with it', slow, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-shared-cache-'));
  try {
    const [a, b] = await Promise.all([compileIn(dir, 'AIDemo.cc'), compileIn(dir, 'AINull.cc')]);
    for (const r of [a, b]) {
      assert.ok(r.ok, r.log);
      assert.doesNotMatch(r.log, /precompiled header (failed|could not)|with the precompiled header failed/, r.log);
      assert.match(r.log, /precompiled header built/, 'each built it (neither saw the other half-written)');
    }
    assert.deepEqual(readdirSync(dir).sort(), ['cpp', 'pch']);
    const pch = readdirSync(join(dir, 'pch'));
    assert.equal(pch.filter((f) => /^moria-npm-[0-9a-f]{24}\.pch$/.test(f)).length, 1, pch.join(' '));
    assert.deepEqual(
      pch.filter((f) => f.endsWith('.tmp')),
      [],
    );
    const cached = readdirSync(join(dir, 'cpp'));
    assert.equal(cached.filter((f) => f.endsWith('.wasm')).length, 2, cached.join(' '));
    assert.deepEqual(
      cached.filter((f) => f.endsWith('.tmp')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
