// `arbiter play` from its own bundle (dist/play-<hash>.cjs, bin/play.js) and V8's code cache of it
// (bin/code-cache.js): the same match as the judge's ES modules play, with a cache, without one and with
// a spoiled one; and a cache that is not whole, not ours or not for this script is never handed to V8.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARBITER_BIN } from '../helpers/cli.ts';
// @ts-expect-error bin/ is plain JavaScript without declarations
import { cacheFile, compileWithCache, readCache } from '../../bin/code-cache.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'arbiter-play-bundle-'));

/** The built judge's environment (not the suite's sources) with a home of its own: its code cache is there. */
function builtEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env['ARBITER_FROM_SOURCE'];
  delete env['NODE_TEST_CONTEXT'];
  return env;
}

const MATCH = ['bola-de-drac', 'Dummy', 'Demo', 'Dummy', 'Null', '--seed', '11', '--set', 'nb_rounds=150'];

/** The printed table without its times (the match's wall time, each player's CPU), which no two runs share. */
const table = (out: string) =>
  out
    .replace(/, [\d.]+ s$/m, ', _ s')
    .split('\n')
    .map((line) => line.replace(/^(\d+\s+\S+\s+-?\d+)\s+\d+(\s+)/, '$1 _$2'))
    .join('\n');

/** `arbiter play` as a student runs it (the play bundle). */
function play(home: string) {
  const r = spawnSync(process.execPath, [ARBITER_BIN, 'play', ...MATCH], { cwd: root, encoding: 'utf8', env: builtEnv(home), timeout: 240_000 });
  assert.equal(r.status, 0, r.stderr);
  return r;
}

/** The same command through dist/cli.js, the judge's ES modules (as every other command runs). */
function playFromModules(home: string) {
  const script = `const { main } = await import(${JSON.stringify(new URL('dist/cli.js', `file://${root}/`).href)}); process.exitCode = await main(${JSON.stringify(['play', ...MATCH])});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: builtEnv(home), timeout: 240_000 });
  assert.equal(r.status, 0, r.stderr);
  return r;
}

/**
 * A command's stderr without the launcher's rebuild lines: test/cli/built.test.ts, which can run beside this file,
 * touches a source to see the launcher rebuild, and then any command started here rebuilds too (the same bundle).
 */
const withoutRebuild = (stderr: string) => stderr.replace(/^arbiter: (building the judge into dist\/ |built dist\/ from ).*\n/gm, '');

const cacheFolder = (home: string) => join(home, '.cache', 'arbiter');
const cachesIn = (home: string) => (existsSync(cacheFolder(home)) ? readdirSync(cacheFolder(home)).filter((f) => f.endsWith('.code')) : []);

test('the play bundle plays the match the judge plays, without a code cache, with the one it wrote, and with a spoiled one', () => {
  const build = spawnSync(process.execPath, ['scripts/build.js', '--if-stale'], { cwd: root, encoding: 'utf8', env: builtEnv(dir) });
  assert.equal(build.status, 0, build.stderr);
  const home = join(dir, 'home');
  mkdirSync(home);
  const reference = table(playFromModules(home).stdout);
  assert.match(reference, /^Bola de Drac, seed 11, 150 rounds/);

  const first = play(home);
  assert.equal(table(first.stdout), reference, 'without a cache');
  assert.equal(withoutRebuild(first.stderr), '');
  const [cache, ...more] = cachesIn(home);
  assert.ok(cache && more.length === 0, `one cache written: ${cachesIn(home)}`);
  const manifest = JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { play: string };
  assert.ok(cache.startsWith(`${manifest.play}.node-${process.versions.node}.`), `named by the bundle and this Node: ${cache}`);
  if (process.platform !== 'win32') {
    assert.equal(statSync(cacheFolder(home)).mode & 0o777, 0o700, "the cache folder is the user's alone");
    assert.equal(statSync(join(cacheFolder(home), cache)).mode & 0o777, 0o600, "the cache is the user's alone");
  }
  const written = readFileSync(join(cacheFolder(home), cache));
  // A script has no import() of its own: every one left to run time goes through its loader's (scripts/build.js).
  const bundle = readFileSync(join(root, 'dist', manifest.play), 'utf8');
  assert.deepEqual(bundle.match(/(?<![\w$.])import\(/g), null, 'no import() left in the play bundle');
  assert.ok(bundle.includes('__arbiterImport("esbuild")'), 'its loader imports a package');

  assert.equal(table(play(home).stdout), reference, 'from the cache');
  assert.deepEqual(readFileSync(join(cacheFolder(home), cache)), written, 'a cache that was used is not written again');

  // A byte of the cached code changed: not handed to V8; the match is the same and the cache written whole again.
  const spoiled = Buffer.from(written);
  spoiled[spoiled.length - 100]! ^= 0xff;
  writeFileSync(join(cacheFolder(home), cache), spoiled);
  assert.equal(table(play(home).stdout), reference, 'with a spoiled cache');
  // (V8's cache of the same script is not the same bytes from one run to the next: whole and ours is what counts.)
  assert.notDeepEqual(readFileSync(join(cacheFolder(home), cache)), spoiled, 'the spoiled cache was replaced');
  assert.ok(readCache(join(cacheFolder(home), cache)), 'by a whole one');
});

test('a code cache is used only when whole, our own and made for the same script', () => {
  const folder = join(dir, 'caches');
  const source = '(function () { return [1, 2, 3].map((x) => x * 7).join(","); })';
  const name = 'demo-0123456789abcdef.cjs';
  const compile = (text = source) => compileWithCache(text, join(dir, 'demo.cjs'), name, folder);

  const fresh = compile();
  assert.equal(fresh.fromCache, false, 'no cache yet');
  assert.equal(fresh.script.runInThisContext()(), '7,14,21');
  fresh.saveCache();
  const file = cacheFile(folder, name);
  const good = readFileSync(file);
  const cached = compile();
  assert.equal(cached.fromCache, true, 'the cache it wrote');
  assert.equal(cached.script.runInThisContext()(), '7,14,21');

  const rejected = (why: string, spoil: () => void) => {
    writeFileSync(file, good, { mode: 0o600 });
    chmodSync(file, 0o600);
    spoil();
    assert.equal(readCache(file), undefined, why);
    const again = compile();
    assert.equal(again.fromCache, false, why);
    assert.equal(again.script.runInThisContext()(), '7,14,21', why);
  };
  rejected('cut short', () => truncateSync(file, good.length - 1));
  rejected('a byte changed', () => {
    const bytes = Buffer.from(good);
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(file, bytes);
  });
  rejected('not our format', () => writeFileSync(file, Buffer.concat([Buffer.from('something else\n'), good])));
  rejected('empty', () => writeFileSync(file, ''));
  if (process.platform !== 'win32') {
    rejected('writable by others', () => chmodSync(file, 0o666));
    rejected('a link to a file elsewhere', () => {
      const elsewhere = join(dir, 'elsewhere.code');
      writeFileSync(elsewhere, good, { mode: 0o600 });
      rmSync(file);
      symlinkSync(elsewhere, file);
    });
    rmSync(file, { force: true });
    if (process.getuid?.() === 0) {
      rejected("another user's", () => spawnSync('chown', ['1', file]));
    }
  }

  // Whole and ours, but made of another script under the same name (a build replaced in place): V8 refuses it,
  // the script compiles from its source, and the cache is written again for it.
  writeFileSync(file, good, { mode: 0o600 });
  const other = '(function () { return "another script, longer than the first one was"; })';
  const refused = compile(other);
  assert.equal(refused.fromCache, false);
  assert.equal(refused.script.runInThisContext()(), 'another script, longer than the first one was');
  refused.saveCache();
  assert.equal(compile(other).fromCache, true, 'written again for the script it has now');

  // A home where no folder can be made (Node 20's recursive mkdirSync would spin there forever): nothing written.
  if (process.platform === 'linux') {
    const unmakeable = compileWithCache(source, join(dir, 'demo.cjs'), name, '/proc/arbiter-none/.cache/arbiter');
    unmakeable.saveCache();
    assert.equal(existsSync('/proc/arbiter-none'), false);
  }

  // No folder for caches (no home): compiled every time, nothing written.
  const none = compileWithCache(source, join(dir, 'demo.cjs'), name, null);
  assert.equal(none.fromCache, false);
  none.saveCache();
});
