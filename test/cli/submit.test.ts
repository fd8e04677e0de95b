// `arbiter submit` against a running judge (the real CLI in its own process):
// upload, live progress until the verdict, the gate matches and replay links;
// bad input gives a message and a non-zero exit.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { botAs, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../helpers/judge.ts';
import { slow } from '../helpers/slow.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let judge: TestJudge;
let url: string;
let token: string;
let dir: string;

before(async () => {
  // Null as the gate opponent, so that Walker (a test player) surely qualifies (production uses Dummy).
  judge = await startTestJudge({ gate: { opponent: 'Null', config: TEST_GATE_CONFIG }, concurrency: 4 });
  await judge.app.listen({ port: 0, host: '127.0.0.1' });
  const address = judge.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  token = await judge.user('carol');
  dir = mkdtempSync(join(tmpdir(), 'arbiter-submit-'));
});
after(async () => {
  await judge?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(dir, 'no-config'), ...env };
  delete fullEnv.NODE_TEST_CONTEXT;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const child = spawn(process.execPath, ['--no-node-snapshot', 'bin/arbiter.js', 'submit', ...args], { cwd: root, env: fullEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

// A whole gate (five matches) through the CLI: test:slow's. npm test keeps the CLI following a gate to its verdict
// (the compile error below) and the kit's `submit` following a whole gate (test/http/starter-kit/cli).
test('a bot that passes: progress, QUALIFIED, the five gate matches with replay links, exit 0', slow, async () => {
  const file = join(dir, 'Champ.ts');
  writeFileSync(file, botAs('Walker', 'Champ'));
  const r = await cli([file], { ARBITER_URL: url, ARBITER_TOKEN: token });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^submitted Champ v1 for moria: submission #\d+/m);
  assert.match(r.stdout, /^self-play: four copies of your bot$/m, 'progress steps (one line each when not a terminal)');
  assert.match(r.stdout, /^qualifying: /m);
  assert.match(r.stdout, /^QUALIFIED: Champ /m);
  const links = [...r.stdout.matchAll(/replay: (http\S+)/g)].map((m) => m[1]!);
  assert.equal(links.length, 5);
  assert.equal((r.stdout.match(/WON/g) ?? []).length, 4);
  // Each gate match with the arbiter play line that plays it again: seats in order, the bot's file in its seat.
  const lines = [...r.stdout.matchAll(/play it again: (node arbiter\.mjs play .*)$/gm)].map((m) => m[1]!.split(' '));
  assert.equal(lines.length, 5, r.stdout);
  assert.deepEqual(lines[0]!.slice(3, 7), ['Champ.ts', 'Champ.ts', 'Champ.ts', 'Champ.ts'], 'self-play: four copies');
  assert.deepEqual(
    lines
      .slice(1)
      .map((l) => l.slice(3, 7).indexOf('Champ.ts'))
      .sort(),
    [0, 1, 2, 3],
    'the bot in each seat once',
  );
  assert.ok(lines.every((l) => /^\d+$/.test(l[l.indexOf('--seed') + 1] ?? '')));
  const replay = await fetch(links[0]!);
  assert.equal(replay.status, 200);
  assert.ok((await replay.arrayBuffer()).byteLength > 100);

  // The name is locked now: the server refuses, the CLI says why, exit 2.
  const again = await cli([file], { ARBITER_URL: url, ARBITER_TOKEN: token });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /name locked/);
});

test('a bot that does not compile: REJECTED with the compile error, exit 1; server and token from the config file', async () => {
  const file = join(dir, 'Oops.ts');
  writeFileSync(
    file,
    botAs('Null', 'Oops', (s) => s.replace('play(): void {', 'play(): void {\n    let = 5;')),
  );
  mkdirSync(join(dir, 'cfg'), { recursive: true });
  writeFileSync(join(dir, 'cfg', 'arbiter.json'), JSON.stringify({ url, token }));
  const r = await cli([file, '--game', 'moria'], { XDG_CONFIG_HOME: join(dir, 'cfg'), ARBITER_URL: undefined, ARBITER_TOKEN: undefined });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^REJECTED: compile error: .*line \d+/m);
});

test('bad input: no file, a missing file, no server, no token, a bad token: a message and a non-zero exit', async () => {
  // Its own file: the whole gate above, which wrote Champ.ts, runs only in test:slow.
  const file = join(dir, 'Refused.ts');
  writeFileSync(file, botAs('Null', 'Refused'));
  const none = await cli([], { ARBITER_URL: url, ARBITER_TOKEN: token });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /which file\?/);
  const missing = await cli([join(dir, 'nope.ts')], { ARBITER_URL: url, ARBITER_TOKEN: token });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*nope\.ts: no such file/);
  const noServer = await cli([file], { ARBITER_URL: undefined, ARBITER_TOKEN: token });
  assert.equal(noServer.code, 2);
  assert.match(noServer.stderr, /no server: set ARBITER_URL/);
  const noToken = await cli([file], { ARBITER_URL: url, ARBITER_TOKEN: undefined });
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /no token/);
  const badToken = await cli([file], { ARBITER_URL: url, ARBITER_TOKEN: 'not-a-token' });
  assert.equal(badToken.code, 2);
  assert.match(badToken.stderr, /HTTP 401/);
  const down = await cli([file], { ARBITER_URL: 'http://127.0.0.1:9', ARBITER_TOKEN: token });
  assert.equal(down.code, 1);
  assert.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
});

test("after a game's submission deadline, arbiter submit says it closed, with the date, and exits 2", async () => {
  const deadline = new Date(Date.now() - 3600_000);
  await judge.db.gameSetting.create({ data: { game: 'harry-potter', submissionDeadline: deadline } });
  try {
    const file = join(dir, 'Late.ts');
    writeFileSync(file, botAs('Null', 'Late').replace("GAME = 'moria'", "GAME = 'harry-potter'"));
    const r = await cli([file, '--game', 'harry-potter'], { ARBITER_URL: url, ARBITER_TOKEN: token });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.includes(`submissions to Harry Potter closed on ${deadline.toISOString().slice(0, 16).replace('T', ' ')} UTC`), r.stderr);
    assert.match(r.stderr, /HTTP 403/);
  } finally {
    await judge.db.gameSetting.delete({ where: { game: 'harry-potter' } });
  }
});
