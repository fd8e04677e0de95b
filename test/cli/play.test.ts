// The local runner as a student uses it: `arbiter play`, `arbiter verify`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ARBITER_BIN as bin, arbiter, arbiterAsync, type CliRun } from '../helpers/cli.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-cli-'));

function oneLineError(r: CliRun, pattern: RegExp) {
  assert.notEqual(r.code, 0);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(r.err, pattern);
}

test('play --list names every game and its built-in players', () => {
  const r = arbiter('play', '--list');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^moria\s+Moria\s+built-in players: .*Null.*Demo.*Dummy/m);
});

test("a compiler that cannot run is the machinery's failure: one line and exit 1, not a compile error", () => {
  const good = join(dir, 'good.ts');
  writeFileSync(good, "export const GAME = 'moria';\nexport const PLAYER_NAME = 'Good';\nexport default class extends Player {\n  play() {}\n}\n");
  const r = spawnSync(process.execPath, [bin, 'play', 'moria', 'Demo', 'Demo', 'Demo', good], {
    encoding: 'utf8',
    timeout: 120_000,
    // The judge's compiler alone: ESBUILD_BINARY_PATH would steer the esbuild that loads the CLI's own code too.
    env: { ...process.env, ARBITER_ESBUILD: join(dir, 'no-such-esbuild') },
  });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /compile error|Unexpected/);
});

test('bad input is a one-line error and a non-zero exit', async () => {
  const cases: [Promise<CliRun>, RegExp][] = [];
  const expect = (pattern: RegExp, ...args: string[]) => cases.push([arbiterAsync(...args), pattern]);
  expect(/unknown game "chess"/, 'play', 'chess', 'Demo', 'Demo', 'Demo', 'Demo');
  expect(/"Gandalf" is neither a built-in player of moria/, 'play', 'moria', 'Demo', 'Demo', 'Demo', 'Gandalf');
  expect(/needs 4 players, got 3/, 'play', 'moria', 'Demo', 'Demo', 'Demo');
  expect(/bad seed "abc"/, 'play', 'moria', 'Demo', 'Demo', 'Demo', 'Demo', '--seed', 'abc');
  expect(/bad seed/, 'play', 'moria', 'Demo', 'Demo', 'Demo', 'Demo', '--seed', '99999999999');
  expect(/nb_rounds/, 'play', 'moria', 'Demo', 'Demo', 'Demo', 'Demo', '--set', 'nb_rounds=-3');
  const broken = join(dir, 'broken.ts');
  writeFileSync(
    broken,
    "export const GAME = 'moria';\nexport const PLAYER_NAME = 'Broken';\nexport default class extends Player {\n  play() { let x = ; }\n}\n",
  );
  expect(/broken\.ts:4:\d+: Unexpected ";"/, 'play', 'moria', 'Demo', 'Demo', 'Demo', broken);
  const wrongGame = join(dir, 'twd.ts');
  writeFileSync(wrongGame, "export const GAME = 'walking-dead';\nexport const PLAYER_NAME = 'W';\nexport default class extends Player { play() {} }\n");
  expect(/declares GAME = "walking-dead", not moria/, 'play', 'moria', 'Demo', 'Demo', 'Demo', wrongGame);
  expect(/ENOENT|no such file/, 'verify', join(dir, 'missing.json'));
  writeFileSync(join(dir, 'junk.json'), '{"hello": 1}');
  expect(/not a replay/, 'verify', join(dir, 'junk.json'));
  expect(/unknown command/, 'frobnicate');
  expect(/ENOENT|no such file/, 'play', 'moria', 'Demo', 'Demo', 'Demo', 'Demo', '--set', `board=@${join(dir, 'no-board.txt')}`);
  for (const [run, pattern] of cases) oneLineError(await run, pattern);
});

test('--set key=@file reads a setting from a file: a Bola de Drac board in the original .cnf format', () => {
  const trace = JSON.parse(readFileSync(new URL('../fixtures/golden/bola-de-drac/tracer-g1.json', import.meta.url), 'utf8'));
  const map = join(dir, 'board.cnf');
  writeFileSync(map, trace.config.map);
  const file = join(dir, 'bdd-map.json.gz');
  const r = arbiter(
    'play',
    'bola-de-drac',
    'Dummy',
    'Demo',
    'Dummy',
    'Demo',
    '--seed',
    '3',
    '--set',
    `map=@${map}`,
    '--set',
    'nb_rounds=21',
    '-o',
    file,
    '--quiet',
  );
  assert.equal(r.code, 0, r.err);
  const replay = JSON.parse(gunzipSync(readFileSync(file)).toString());
  assert.equal(replay.config.map, trace.config.map);
});

test('a Moria match with built-ins and a file: scores, ranks, a replay that verifies, and one that does not once tampered with', () => {
  const mine = join(dir, 'mine.ts');
  writeFileSync(
    mine,
    readFileSync(new URL('../../src/games/moria/bots/Demo.ts', import.meta.url), 'utf8').replace(/PLAYER_NAME\s*=\s*['"]\w+['"]/, "PLAYER_NAME = 'Mine'"),
  );
  const replayFile = join(dir, 'match.json.gz');
  const r = arbiter('play', 'moria', 'Demo', 'Null', 'Dummy', mine, '--seed', '30', '-o', replayFile, '--quiet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Moria, seed 30, 200 rounds/);
  for (const name of ['Demo', 'Null', 'Dummy', 'Mine']) assert.match(r.out, new RegExp(`^\\d\\s+${name}\\s+\\d+\\s+\\d+\\s+ok$`, 'm'));
  const replay = JSON.parse(gunzipSync(readFileSync(replayFile)).toString());
  assert.equal(replay.format, 'arbiter-replay');
  assert.equal(replay.rounds.length, 201);
  assert.deepEqual(
    replay.players.map((p: { name: string }) => p.name),
    ['Demo', 'Null', 'Dummy', 'Mine'],
  );
  assert.ok(readFileSync(replayFile).length < 1024 * 1024, 'a 200-round replay is well under 1 MB compressed');

  const ok = arbiter('verify', replayFile);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /200 rounds replayed, every state matches/);

  // Change one recorded order: verify must notice where.
  const round = replay.rounds.findIndex((x: { orders: unknown[][] }, i: number) => i > 0 && x.orders[0]!.length > 0);
  replay.rounds[round].orders[0] = [];
  const tampered = join(dir, 'tampered.json.gz');
  writeFileSync(tampered, gzipSync(JSON.stringify(replay)));
  const bad = arbiter('verify', tampered);
  assert.equal(bad.code, 1);
  const at = Number(/mismatch in round (\d+)/.exec(bad.err)?.[1]);
  assert.ok(at >= round, `reported round ${at}, tampered round ${round}`);

  // A replay of other rules is not a mismatch: verify says which version recorded it, and exits 3.
  const current = JSON.parse(gunzipSync(readFileSync(replayFile)).toString()).engineVersion as string;
  for (const [version, age] of [
    ['moria-0', 'an older'],
    ['moria-99', 'a newer'],
  ] as const) {
    const other = join(dir, `${version}.json.gz`);
    writeFileSync(other, gzipSync(JSON.stringify({ ...replay, engineVersion: version })));
    const v = arbiter('verify', other);
    assert.equal(v.code, 3, v.err);
    assert.equal(v.err.trim().split('\n').length, 1, v.err);
    assert.match(
      v.err,
      new RegExp(
        `^cannot verify: this replay was recorded under ${age} version of Moria's rules \\(engine ${version}\\); this Arbiter plays engine ${current}`,
      ),
    );
  }
});

test('every game plays with its built-ins and its replay verifies', async () => {
  const { loadGames } = await import('../../src/games/registry.ts');
  const games = [...(await loadGames()).values()];
  assert.ok(games.length >= 4, `games: ${games.map((g) => g.id).join(', ')}`);
  // The games side by side: each plays, then its replay is verified.
  await Promise.all(
    games.map(async (game) => {
      const file = join(dir, `${game.id}.json.gz`);
      // A short match keeps the suite quick; the rules are each game's own tests.
      const rounds = game.id === 'bola-de-drac' ? 'nb_rounds=61' : game.id === 'moria' ? 'nb_rounds=40' : 'num_rounds=40';
      const r = await arbiterAsync('play', game.id, 'Dummy', 'Demo', 'Null', 'Demo', '--seed', '5', '--set', rounds, '-o', file, '--quiet');
      assert.equal(r.code, 0, `${game.id}: ${r.err}`);
      assert.match(r.out, new RegExp(`${game.title}, seed 5`));
      const v = await arbiterAsync('verify', file);
      assert.equal(v.code, 0, `${game.id}: ${v.err}`);
    }),
  );
});

test('a match of four copies of one bot compiles it once in a process (one esbuild run, not four side by side)', () => {
  const calls = join(dir, 'esbuild-calls');
  const esbuild = join(dir, 'counting-esbuild');
  const real = join(dirname(createRequire(import.meta.url).resolve('esbuild/package.json')), '..', '@esbuild', `linux-${process.arch}`, 'bin', 'esbuild');
  // Each run: the process that ran it (prlimit execs esbuild: its parent is the judge's process) and the file.
  writeFileSync(
    esbuild,
    `#!/bin/sh\necho "$PPID $(printf '%s\\n' "$@" | grep -- --sourcefile=)" >> ${JSON.stringify(calls)}\nexec ${JSON.stringify(real)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  const r = spawnSync(process.execPath, [bin, 'play', 'moria', 'Dummy', 'Dummy', 'Dummy', 'Dummy', '--seed', '5', '--set', 'nb_rounds=5', '-q'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ARBITER_ESBUILD: esbuild },
  });
  assert.equal(r.status, 0, r.stderr);
  const runs = readFileSync(calls, 'utf8').trim().split('\n');
  assert.ok(
    runs.some((run) => run.endsWith('--sourcefile=Dummy.ts')),
    runs.join('\n'),
  );
  assert.equal(new Set(runs).size, runs.length, `a file compiled twice by one process:\n${runs.join('\n')}`);
});
