// The starter kit's local play: the kit zip as the site serves it, unzipped
// to a temporary folder, and `node play.mjs` (the alias of `node arbiter.mjs
// play`) run there against this test's
// server (a real port: play.mjs compiles with POST /api/play/compile). The
// match it plays and the replay it writes are the judge's (playMatch) for the
// same seed and bots, but for the CPU figures. The C++ case compiles (slow).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gameDir } from '../../../src/games/registry.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { registerUser, startTestApi, type TestApi, type TestUser } from '../../helpers/app.ts';
import { slow } from '../../helpers/slow.ts';

const GAME = 'bola-de-drac';
const SEED = 11;
const run = promisify(execFile);

// At the top level: startTestApi registers its own after() (closing the app), which inside before() would run at once.
const api: TestApi = await startTestApi();
let url: string;
let user: TestUser;
let dir: string;
let kit: string;

before(async () => {
  url = await api.app.listen({ port: 0, host: '127.0.0.1' });
  user = await registerUser(api.app);
  const res = await fetch(`${url}/games/${GAME}/starter-kit.zip`);
  assert.equal(res.status, 200);
  dir = mkdtempSync(join(tmpdir(), 'arbiter-kit-play-'));
  writeFileSync(join(dir, 'kit.zip'), Buffer.from(await res.arrayBuffer()));
  execFileSync('unzip', ['-q', join(dir, 'kit.zip'), '-d', dir]);
  kit = join(dir, `${GAME}-starter-kit`);
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `node play.mjs ...` in the kit, with no config file of the user's (HOME is the temp folder); never throws. */
async function playMjs(args: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  try {
    const { stdout, stderr } = await run(process.execPath, ['play.mjs', ...args], {
      cwd: kit,
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env },
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err), ms: Date.now() - started };
  }
}

const withoutTimes = (r: Replay) => ({ ...r, players: r.players.map((p) => ({ ...p, cpuMs: 0 })), rounds: r.rounds.map((x) => ({ ...x, cpuMs: [] })) });
const dummies = () => Promise.all(['Dummy', 'Dummy', 'Dummy'].map((n) => builtinSeat(GAME, n)));

test("starter kit: play.mjs, play/runner.mjs and play/kit.json name this site; a TypeScript bot plays the judge's match for the seed with nothing but Node", async () => {
  const data = JSON.parse(readFileSync(join(kit, 'play', 'kit.json'), 'utf8')) as { url: string; game: string; builtins: Record<string, unknown> };
  assert.equal(data.url, url);
  assert.equal(data.game, GAME);
  assert.ok(data.builtins['Dummy'], 'the Dummy is in the kit, compiled');
  const demo = readFileSync(join(kit, 'Demo.ts'), 'utf8').replace(/PLAYER_NAME = (['"])[^'"]*\1/, "PLAYER_NAME = 'Tester'");
  assert.match(demo, /PLAYER_NAME = 'Tester'/);
  writeFileSync(join(kit, 'Tester.ts'), `console.log('Tester loaded');\n${demo}`);
  const r = await playMjs(['Tester.ts', '--seed', String(SEED), '-o', 'out.json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`seed ${SEED}`));
  assert.match(r.stdout, /0\. Tester +score/);
  assert.match(r.stdout, /--- what Tester wrote ---\nTester loaded/);
  const replay = JSON.parse(readFileSync(join(kit, 'out.json'), 'utf8')) as Replay;
  const judged = await playMatch(
    { game: GAME, seed: SEED, seats: [{ filename: 'Tester.ts', source: readFileSync(join(kit, 'Tester.ts'), 'utf8') }, ...(await dummies())] },
    { host: 'inprocess' },
  );
  assert.deepEqual(withoutTimes(replay), withoutTimes(judged.replay), 'the kit plays the match the judge plays');
  assert.ok(existsSync(join(kit, '.cache')), 'the compiled file is kept');

  // Bad input: a clear message and exit 2.
  const bad = await playMjs(['Tester.ts', '--seed', 'x']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--seed wants a whole number/);
  const missing = await playMjs(['Nope.ts']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Nope\.ts: no such file \(built-in players: /);
  // The judge's compile error, with the line and column in the file.
  writeFileSync(join(kit, 'Broken.ts'), "export const GAME = 'bola-de-drac';\nexport const PLAYER_NAME = 'Broken';\nconst x: number = ;\n");
  const broken = await playMjs(['Broken.ts']);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /Broken\.ts:3:\d+: /);
  const two = await playMjs(['Tester.ts', 'Dummy']);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /has 4 players/);
});

test('starter kit: a C++ file without a token is refused with how to give one (the site compiles C++ for signed-in users)', async () => {
  const r = await playMjs([join('cpp', 'AINull.cc'), '--seed', '1']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /compiles C\+\+ for signed-in users: give your API token \(ARBITER_TOKEN/);
});

test(
  "starter kit: a C++ player compiled by the judge plays the judge's match for the seed; played again from the cache, edit to result well under 10 s",
  slow,
  async () => {
    const source = readFileSync(join((await gameDir(GAME))!, 'cpp', 'AIDemo.cc'), 'utf8').replace(/#define PLAYER_NAME \w+/, '#define PLAYER_NAME KitCpp');
    assert.match(source, /PLAYER_NAME KitCpp/);
    writeFileSync(join(kit, 'cpp', 'AIKitCpp.cc'), source);
    const first = await playMjs([join('cpp', 'AIKitCpp.cc'), 'Dummy', 'Dummy', 'Dummy', '--seed', String(SEED), '-o', 'cpp.json'], {
      ARBITER_TOKEN: user.token,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /compiling AIKitCpp\.cc/);
    const replay = JSON.parse(readFileSync(join(kit, 'cpp.json'), 'utf8')) as Replay;
    assert.deepEqual(
      replay.players.map((p) => [p.name, p.frozenReason]),
      [
        ['KitCpp', null],
        ['Dummy', null],
        ['Dummy', null],
        ['Dummy', null],
      ],
    );
    const judged = await playMatch({ game: GAME, seed: SEED, seats: [{ filename: 'AIKitCpp.cc', source }, ...(await dummies())] }, { host: 'isolate' });
    assert.deepEqual(withoutTimes(replay), withoutTimes(judged.replay), 'the kit plays the match the judge plays');

    const again = await playMjs([join('cpp', 'AIKitCpp.cc'), '--seed', String(SEED), '-o', 'cpp2.json']);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /compiling/, 'the same file is not compiled again (and needs no token)');
    assert.deepEqual(withoutTimes(JSON.parse(readFileSync(join(kit, 'cpp2.json'), 'utf8')) as Replay), withoutTimes(replay));
    assert.ok(again.ms < 10_000, `${again.ms} ms`);
    console.log(`kit C++ match: first run (compile + match) ${first.ms} ms, from the cache ${again.ms} ms`);
  },
);
