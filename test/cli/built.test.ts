// The built judge (dist/, scripts/build.js) as users run it: `arbiter` and the
// server from the build, not from the sources (the rest of the suite runs the
// sources: scripts/run-tests.js sets ARBITER_FROM_SOURCE=1). A real match with
// four Dummies whose replay verifies, a game of ARBITER_GAMES_PATH (TypeScript
// the build has no copy of), the server answering, and a stale build rebuilt
// before it runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ARBITER_BIN } from '../helpers/cli.ts';
import { bundlePrelude } from '../../src/sandbox/hosts/prelude.ts';
import { builtCompileFile, compileKey, compileScript } from '../../src/sandbox/languages/javascript/compile.ts';
import { readdirSync } from 'node:fs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'arbiter-built-'));
const fixtureGames = join(root, 'test/fixtures/games');

/** This environment without the suite's ARBITER_FROM_SOURCE: the launchers run dist/. */
function builtEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['ARBITER_FROM_SOURCE'];
  delete env['NODE_TEST_CONTEXT'];
  return env;
}

function built(args: string[], extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ARBITER_BIN, ...args], { cwd: root, encoding: 'utf8', env: builtEnv(extra), timeout: 240_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('npm run build makes dist/; a source changed since is rebuilt, said on stderr, before the command runs', () => {
  const b = spawnSync(process.execPath, ['scripts/build.js'], { cwd: root, encoding: 'utf8', env: builtEnv() });
  assert.equal(b.status, 0, b.stderr);
  assert.match(b.stderr, /^built dist\/ from \d+ files/m);
  const manifest = JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { inputs: string[] };
  assert.ok(manifest.inputs.includes('src/cli/main.ts') && manifest.inputs.includes('src/sandbox/match-process/match-child.ts'), 'the entries are inputs');
  // The routes autoload reads at run time (src/http/routes) are entries too, compiled to the same tree under dist/routes.
  assert.ok(
    manifest.inputs.includes('src/http/routes/api/matches/index.ts') && manifest.inputs.includes('src/http/routes/admin/autohooks.ts'),
    'the routes are inputs',
  );
  assert.ok(readdirSync(join(root, 'dist/routes/api/matches')).includes('index.js'), 'the route tree is built');

  const fresh = built(['--help']);
  assert.equal(fresh.code, 0, fresh.err);
  assert.match(fresh.out, /^usage: arbiter <command>/);
  assert.equal(fresh.err, '', 'an up-to-date build runs as it is');

  // As a `git pull` leaves it: a source newer than the build.
  const source = join(root, 'src/cli/args.ts');
  const now = new Date();
  utimesSync(source, now, now);
  const stale = built(['--help']);
  assert.equal(stale.code, 0, stale.err);
  assert.match(stale.err, /arbiter: building the judge into dist\/ \(src\/cli\/args\.ts changed\)/);
  assert.match(stale.out, /^usage: arbiter <command>/);
  assert.equal(built(['--help']).err, '', 'rebuilt once');
});

test("the build's preludes are the ones the judge bundles at run time, and their sources are inputs of the build", async () => {
  const manifest = JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { inputs: string[] };
  assert.ok(manifest.inputs.includes('src/sandbox/hosts/bot-runtime.ts'));
  for (const game of ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac']) {
    const { code } = await bundlePrelude(join(root, 'src/games', game, 'bot-api.ts'));
    assert.equal(readFileSync(join(root, 'dist', `prelude-${game}.js`), 'utf8'), code, game);
    assert.ok(manifest.inputs.includes(`src/games/${game}/bot-api.ts`), game);
  }
});

test("the build's compiles of the games' shipped bots are the judge's run-time compiles, code and source map", async () => {
  for (const game of ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac']) {
    const bots = readdirSync(join(root, 'src/games', game, 'bots')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    assert.ok(bots.includes('Dummy.ts'), game);
    for (const file of bots) {
      const source = readFileSync(join(root, 'src/games', game, 'bots', file), 'utf8');
      // From the sources (no build in this process): esbuild runs.
      const { code, map } = await compileScript(source, file);
      const stored = JSON.parse(readFileSync(join(root, 'dist', builtCompileFile(compileKey(source, file))), 'utf8')) as { code: string; map: unknown };
      assert.equal(stored.code, code, `${game}/${file}`);
      assert.deepEqual(stored.map, map, `${game}/${file}: its source map`);
    }
  }
});

test('the built arbiter plays a match of four Dummies in each game, and its replay verifies', async () => {
  // Short matches, as test/cli/play.test.ts plays them from the sources: whole matches of every game are
  // each game's own tests (and test:slow's), and a short one runs the same built code.
  const rounds: Record<string, string> = {
    moria: 'nb_rounds=40',
    'walking-dead': 'num_rounds=40',
    'harry-potter': 'num_rounds=40',
    'bola-de-drac': 'nb_rounds=61',
  };
  for (const game of ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac']) {
    const file = join(dir, `${game}.json.gz`);
    const play = built(['play', game, 'Dummy', 'Dummy', 'Dummy', 'Dummy', '--seed', '5', '--set', rounds[game]!, '-q', '-o', file]);
    assert.equal(play.code, 0, play.err);
    assert.match(play.out, /seed 5, \d+ rounds/);
    assert.match(play.out, /replay written to/);
    const verify = built(['verify', file]);
    assert.equal(verify.code, 0, verify.err);
    assert.match(verify.out, new RegExp(`^ok: ${game}, seed 5, \\d+ rounds replayed, every state matches`));
  }
});

test('a game of ARBITER_GAMES_PATH, TypeScript the build has no copy of, plays from the built arbiter (through tsx)', () => {
  const env = { ARBITER_GAMES_PATH: fixtureGames };
  const list = built(['play', '--list'], env);
  assert.equal(list.code, 0, list.err);
  assert.match(list.out, /^coins\s/m);
  const file = join(dir, 'coins.json.gz');
  const play = built(['play', 'coins', 'Dummy', 'Dummy', 'Demo', 'Null', '--seed', '3', '-q', '-o', file], env);
  assert.equal(play.code, 0, play.err);
  const verify = built(['verify', file], env);
  assert.equal(verify.code, 0, verify.err);
  assert.match(verify.out, /^ok: coins, seed 3/);
});

test('the built server (bin/server.js) starts and answers, then stops on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--no-node-snapshot', join(root, 'bin/server.js')], {
    cwd: root,
    env: builtEnv({
      DATA_DIR: 'memory://',
      PORT: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `built-${process.pid}`,
      CPP_PREWARM: '0',
      RANKED_ENABLED: 'false',
      LOG_LEVEL: 'info',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = once(child, 'exit');
  try {
    const deadline = Date.now() + 90_000;
    while (!/API on (http:\/\/\S+?) /.test(out) || !/worker pool: /.test(out)) {
      assert.equal(child.exitCode, null, `the server exited:\n${out}`);
      assert.ok(Date.now() < deadline, `the server did not start:\n${out}`);
      await sleep(100);
    }
    const url = /API on (http:\/\/\S+?) /.exec(out)![1]!;
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200, await health.clone().text());
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const page = await fetch(`${url}/games/moria`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Moria/);
    // The browser code esbuild bundles on request, from the sources next to the build.
    const viewer = await fetch(`${url}/assets/games/moria/viewer.js`);
    assert.equal(viewer.status, 200, await viewer.clone().text());
    // Routes autoloaded from dist/routes: a folder's route, and an admin folder whose autohooks refuse a visitor.
    const matches = await fetch(`${url}/api/matches`);
    assert.equal(matches.status, 200, await matches.clone().text());
    assert.equal((await fetch(`${url}/api/admin/users`)).status, 401);
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  assert.equal(child.exitCode, 0, out);
});
