// The starter kit's command line as a student runs it: the kit zip as the
// judge serves it, unzipped to a temporary folder, `node arbiter.mjs <command>`
// run there with the plain node binary against this test's judge (a real
// port: the kit compiles and submits there). play writes the judge's match;
// eval sums up several seeds; a bot that loops is frozen by the kit's CPU
// budget in the round and for the reason the judge's sandbox gives; verify
// accepts a good replay and names a tampered one; submit follows the gate to
// its verdict; view serves the viewer and the replay.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import { botAs, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../../helpers/judge.ts';

const GAME = 'moria';
const SHORT = ['--set', 'nb_rounds=40'];
let judge: TestJudge;
let url: string;
let token: string;
let dir: string;
let kit: string;

before(async () => {
  // Null as the gate's opponent, so that Walker (a test player) surely qualifies.
  judge = await startTestJudge({ gate: { opponent: 'Null', config: TEST_GATE_CONFIG }, concurrency: 2 });
  url = await judge.app.listen({ port: 0, host: '127.0.0.1' });
  token = await judge.user('kitcli');
  const res = await fetch(`${url}/games/${GAME}/starter-kit.zip`);
  assert.equal(res.status, 200);
  dir = mkdtempSync(join(tmpdir(), 'arbiter-kit-cli-'));
  writeFileSync(join(dir, 'kit.zip'), Buffer.from(await res.arrayBuffer()));
  execFileSync('unzip', ['-q', join(dir, 'kit.zip'), '-d', dir]);
  kit = join(dir, `${GAME}-starter-kit`);
  writeFileSync(join(kit, 'Champ.ts'), botAs('Walker', 'Champ'));
  // Loops from its third round on: the judge stops it at its budget and freezes it in that round.
  writeFileSync(
    join(kit, 'Looper.ts'),
    botAs('Walker', 'Looper', (s) => s.replace('play(): void {', 'play(): void {\n    if (round() >= 2) { while (true) {} }')),
  );
});
after(async () => {
  await judge?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node arbiter.mjs ...` in the kit, piped (not a terminal), with no config file of the user's (HOME is the temp folder). */
function kitCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['arbiter.mjs', ...args], { cwd: kit, env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
}

const withoutTimes = (r: Replay) => ({ ...r, players: r.players.map((p) => ({ ...p, cpuMs: 0 })), rounds: r.rounds.map((x) => ({ ...x, cpuMs: [] })) });
const dummies = () => Promise.all(['Dummy', 'Dummy', 'Dummy'].map((n) => builtinSeat(GAME, n)));
const seat = (file: string) => ({ filename: file, source: readFileSync(join(kit, file), 'utf8') });

test("play: the judge's match for the seed, the replay written, each bot's CPU against the judge's budget; play.mjs is the same command", async () => {
  const r = await kitCli(['play', 'Champ.ts', '--seed', '5', '-o', 'champ.json', ...SHORT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /compiling Champ\.ts on http:\/\/127\.0\.0\.1:\d+/);
  assert.match(r.stdout, /^Moria, seed 5, 40 rounds/m);
  assert.match(r.stdout, /^ {2}0\. Champ +score +\d+ +rank \d +cpu \d+\.\d\d s of 10\.00 s$/m);
  assert.match(r.stdout, /replay: champ\.json \(watch it: node arbiter\.mjs view champ\.json\)/);
  const replay = JSON.parse(readFileSync(join(kit, 'champ.json'), 'utf8')) as Replay;
  const judged = await playMatch({ game: GAME, seed: 5, config: { nb_rounds: 40 }, seats: [seat('Champ.ts'), ...(await dummies())] }, { host: 'inprocess' });
  assert.deepEqual(withoutTimes(replay), withoutTimes(judged.replay), 'the kit plays the match the judge plays');

  const alias = spawn(process.execPath, ['play.mjs', 'Champ.ts', '--seed', '5', '-o', 'alias.json', '--quiet', ...SHORT], {
    cwd: kit,
    env: { PATH: process.env['PATH'] ?? '', HOME: dir },
  });
  assert.equal(await new Promise((resolve) => alias.on('exit', resolve)), 0);
  assert.deepEqual(withoutTimes(JSON.parse(readFileSync(join(kit, 'alias.json'), 'utf8')) as Replay), withoutTimes(replay));

  const none = await kitCli([]);
  assert.equal(none.code, 2);
  assert.match(none.stdout, /node arbiter\.mjs eval <your bot file>/);
  const unknown = await kitCli(['plya', 'Champ.ts']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "plya"/);
});

test('eval: wins with a 95% interval, mean score and rank, CPU per seat against the budget, the seeds not won with their lines; --json; progress when piped', async () => {
  const r = await kitCli(['eval', 'Champ.ts', '--seeds', '1-3', ...SHORT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Champ.ts against Dummy, Dummy, Dummy: 3 seeds, \d at a time/m);
  assert.match(r.stdout, /^ {2}won [0-3] of 3 \(strictly first\): \d+\.\d%, 95% interval \d+\.\d% to \d+\.\d%$/m);
  assert.match(r.stdout, /^ {2}your mean score \d+\.\d\d, mean rank \d\.\d\d$/m);
  assert.match(r.stdout, /^ {2}CPU per match \(the judge's budget: 10\.00 s\):$/m);
  assert.match(r.stdout, /^ {4}0\. Champ +mean +\d+\.\d\d s +max +\d+\.\d\d s/m);
  assert.match(r.stdout, /^ {2}no bot was frozen$/m);
  assert.match(r.stderr, /^Moria: 3\/3 matches, [0-3] won, \d+ s$/m, 'a progress line when not on a terminal');

  const j = await kitCli(['eval', 'Champ.ts', '--seeds', '2,1,2', '--json', '--quiet', ...SHORT]);
  assert.equal(j.code, 0, j.stderr);
  assert.equal(j.stderr, '');
  const s = JSON.parse(j.stdout);
  assert.equal(s.seeds, 2);
  assert.deepEqual(
    s.matches.map((m: { seed: number }) => m.seed),
    [2, 1],
    'each seed once, in the order given',
  );
  const won = s.matches.filter((m: { ranks: number[] }) => m.ranks[0] === 1 && m.ranks.filter((x) => x === 1).length === 1);
  assert.equal(s.wins, won.length);
  assert.ok(s.interval95[0] <= s.winRate && s.winRate <= s.interval95[1]);
  assert.equal(s.cpuBudgetMs, 10_000);
  assert.deepEqual(
    s.cpu.map((c: { name: string }) => c.name),
    ['Champ', 'Dummy', 'Dummy', 'Dummy'],
  );
  assert.ok(s.cpu.every((c: { meanMs: number; maxMs: number }) => c.meanMs > 0 && c.maxMs >= c.meanMs));
  for (const l of s.lost) assert.equal(l.play, `node arbiter.mjs play Champ.ts Dummy Dummy Dummy --seed ${l.seed} --set nb_rounds=40`);
  // The seeds are the judge's: each seed's match in eval (its built-ins' contexts warm, its last round kept) is that seed's in play.
  for (const [i, seed] of [2, 1].entries()) {
    const one = await kitCli(['play', 'Champ.ts', '--seed', String(seed), '-o', 'one.json', '--quiet', ...SHORT]);
    assert.equal(one.code, 0, one.stderr);
    const played = JSON.parse(readFileSync(join(kit, 'one.json'), 'utf8')) as Replay;
    const got = s.matches[i];
    assert.equal(got.rounds, played.rounds.length - 1);
    assert.deepEqual(got.scores, played.result.scores, `seed ${seed}`);
    assert.deepEqual(got.ranks, played.result.ranks, `seed ${seed}`);
    assert.deepEqual(
      got.players.map((p: Replay['players'][number]) => [p.name, p.frozenRound, p.frozenReason]),
      played.players.map((p) => [p.name, p.frozenRound, p.frozenReason]),
    );
  }

  const bad = await kitCli(['eval', 'Champ.ts', '--seeds', '9-3']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--seeds: the range 9-3 runs backwards/);
});

test("a bot that loops is frozen by the kit's CPU budget in the round, and for the reason, the judge's sandbox gives", async () => {
  const started = Date.now();
  const r = await kitCli(['play', 'Looper.ts', '--seed', '4', '--cpu-budget', '1500', '-o', 'looper.json', ...SHORT]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(Date.now() - started < 120_000, 'it stops by itself');
  assert.match(r.stdout, /0\. Looper .* frozen in round 2 \(cpu\): CPU budget of 1500 ms for the match used up/);
  assert.match(r.stdout, /Looper went past its CPU budget in round 2: stopped there, and the match played again from its seed/);
  const replay = JSON.parse(readFileSync(join(kit, 'looper.json'), 'utf8')) as Replay;
  const judged = await playMatch({
    game: GAME,
    seed: 4,
    config: { nb_rounds: 40 },
    limits: { cpuBudgetMs: 1500 },
    seats: [seat('Looper.ts'), ...(await dummies())],
  });
  const frozen = (x: Replay) => x.players.map((p) => [p.frozenRound, p.frozenReason, p.frozenMessage]);
  assert.deepEqual(frozen(replay), frozen(judged.replay));
  assert.deepEqual(withoutTimes(replay), withoutTimes(judged.replay), "the rest of the match is the judge's too");
  // Charged its budget's worth (its CPU before the call comes from the re-run, a few ms off the first run's, as at the judge).
  assert.ok(replay.players[0]!.cpuMs > 1500 * 0.9, `${replay.players[0]!.cpuMs} ms`);

  // eval says the freeze with its seed, round and reason.
  const e = await kitCli(['eval', 'Looper.ts', '--seeds', '4', '--cpu-budget', '1500', ...SHORT]);
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stdout, /seed 4: 0\. Looper in round 2 \(cpu\): CPU budget of 1500 ms for the match used up/);
  assert.match(e.stdout, /seed 4: rank \d, score \d+ +node arbiter\.mjs play Looper\.ts Dummy Dummy Dummy --seed 4 --set nb_rounds=40/);
});

test('verify: a good replay (JSON or gzip) checks; a tampered one is a mismatch in its round; one that inflates past the cap is refused before it is parsed', async () => {
  const good = await kitCli(['play', 'Dummy', '--seed', '8', '-o', 'dummies.json', '--quiet', ...SHORT]);
  assert.equal(good.code, 0, good.stderr);
  const ok = await kitCli(['verify', 'dummies.json']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^ok: moria, seed 8, 40 rounds replayed, every state matches/);
  const text = readFileSync(join(kit, 'dummies.json'), 'utf8');
  writeFileSync(join(kit, 'dummies.json.gz'), gzipSync(text));
  assert.equal((await kitCli(['verify', 'dummies.json.gz'])).code, 0);

  const replay = JSON.parse(text) as Replay;
  replay.rounds[12]!.scores[1]! += 1;
  writeFileSync(join(kit, 'tampered.json'), JSON.stringify(replay));
  const bad = await kitCli(['verify', 'tampered.json']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^mismatch in round 12: /);

  // 300 MiB of zeros, gzip'd (about 300 KiB): refused by the inflated-size cap.
  const bomb = join(kit, 'bomb.json.gz');
  await pipeline(
    (function* () {
      const zeros = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 300; i++) yield zeros;
    })(),
    createGzip(),
    createWriteStream(bomb),
  );
  const refused = await kitCli(['verify', 'bomb.json.gz']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /bomb\.json\.gz inflates past 256 MiB: not a replay/);
  assert.equal((await kitCli(['verify', 'nowhere.json'])).code, 2);
});

test('submit: uploads with the token and follows the gate to its verdict, each gate match with its replay and play line; no token: how to get one', async () => {
  const r = await kitCli(['submit', 'Champ.ts'], { ARBITER_TOKEN: token });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^submitted Champ v1 for moria: submission #\d+/m);
  assert.match(r.stdout, /^self-play: four copies of your bot$/m, 'a line per step when not a terminal');
  assert.match(r.stdout, /^QUALIFIED: Champ /m);
  assert.equal([...r.stdout.matchAll(/replay: http:\/\/127\.0\.0\.1:\d+\/api\/matches\/\d+\/replay/g)].length, 5);
  const lines = [...r.stdout.matchAll(/play it again: (node arbiter\.mjs play .*)$/gm)].map((m) => m[1]!);
  assert.equal(lines.length, 5, r.stdout);
  assert.match(lines[0]!, /^node arbiter\.mjs play Champ\.ts Champ\.ts Champ\.ts Champ\.ts --seed \d+ --set nb_rounds=40$/);

  const none = await kitCli(['submit', 'Champ.ts']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^no token: set ARBITER_TOKEN, pass --token/);
});

test('view: the replay served on this machine with the site viewer, its root opening it', async () => {
  const played = await kitCli(['play', 'Dummy', '--seed', '9', '-o', 'view.json', '--quiet', ...SHORT]);
  assert.equal(played.code, 0, played.stderr);
  const child = spawn(process.execPath, ['arbiter.mjs', 'view', 'view.json', '--no-open'], { cwd: kit, env: { PATH: process.env['PATH'] ?? '', HOME: dir } });
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /viewer at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`view ended (${code}): ${out}`)));
    });
    const root = await fetch(address);
    assert.equal(root.status, 200);
    assert.ok(root.url.endsWith('/view?replay=/replay'), root.url);
    const page = await root.text();
    assert.match(page, /data-viewer/);
    const script = /<script[^>]+src="([^"]+viewer[^"]*\.js)"/.exec(page);
    assert.ok(script, 'the page loads the viewer');
    assert.equal((await fetch(new URL(script[1]!, address))).status, 200, 'its script comes through');
    const replay = await fetch(new URL('/replay', address));
    assert.equal(replay.status, 200);
    assert.equal(await replay.text(), readFileSync(join(kit, 'view.json'), 'utf8'));
  } finally {
    child.kill('SIGTERM');
  }
});
