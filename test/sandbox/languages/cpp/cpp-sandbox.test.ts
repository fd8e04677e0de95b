// C++ players in the sandbox: compiled unchanged against the game's headers,
// they play the same matches as their JavaScript twins, and the sandbox's
// adversarial list, written in C++, freezes each with the right reason while
// the rivals play on. Compiles C++ (a few seconds each with a system clang):
// slow.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import type { MatchSeat } from '../../../../src/match/types.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { BotCompileError } from '../../../../src/sandbox/languages/compile-errors.ts';
import { compileBot } from '../../../../src/sandbox/languages/index.ts';
import { cppCompileSettings, resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { slow } from '../../../helpers/slow.ts';
import { ARBITER_BIN } from '../../../helpers/cli.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-test-'));
before(() => resetCppCompileSettings({ cacheDir }));
after(async () => {
  stopCompileServer();
  await sharedPool.shutdown();
  rmSync(cacheDir, { recursive: true, force: true });
});

const root = new URL('../../../../', import.meta.url);
const file = (path: string): MatchSeat => ({ source: readFileSync(new URL(path, root), 'utf8'), filename: path.replace(/^.*\//, '') });
const ordersOf = (out: Awaited<ReturnType<typeof playMatch>>) => out.replay.rounds.map((r) => JSON.stringify(r.orders));

/** A Moria player in C++ whose struct body is `body`. */
function cppBot(name: string, body: string, topLevel = ''): MatchSeat {
  return {
    source: `#include "Player.hh"\n${topLevel}\n#define PLAYER_NAME ${name}\n\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n${body}\n};\n\nRegisterPlayer(PLAYER_NAME);\n`,
    filename: `AI${name}.cc`,
  };
}

test('Moria: the C++ golden players (written for the original package) play the same match as their TypeScript twins', { skip: slow.skip }, async () => {
  const dir = 'test/fixtures/golden/moria/players/';
  const spec = (seats: MatchSeat[]) => ({ game: 'moria', seed: 11, config: { nb_rounds: 40 }, seats });
  const js = await playMatch(spec([file(`${dir}Tracer.ts`), file(`${dir}Hunter.ts`), file(`${dir}Hunter.ts`), file(`${dir}Tracer.ts`)]));
  const cc = await playMatch(spec([file(`${dir}AITracer.cc`), file(`${dir}AIHunter.cc`), file(`${dir}AIHunter.cc`), file(`${dir}AITracer.cc`)]));
  for (const p of cc.replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
  assert.deepEqual(ordersOf(cc), ordersOf(js));
  assert.deepEqual(cc.replay.result, js.replay.result);
  assert.match(cc.logs[0]!, /warning: action already requested for unit/, "the original's warnings, on cerr, reach the log");
});

test('Moria: the C++ Demo plays the same match as the JavaScript Demo', { skip: slow.skip }, async () => {
  const spec = (first: MatchSeat) => ({
    game: 'moria',
    seed: 5,
    config: { nb_rounds: 60 },
    seats: [first, file('src/games/moria/bots/Null.ts'), file('src/games/moria/bots/Demo.ts'), file('src/games/moria/bots/Null.ts')],
  });
  const js = await playMatch(spec(file('src/games/moria/bots/Demo.ts')));
  const cc = await playMatch(spec(file('src/games/moria/cpp/AIDemo.cc')));
  assert.equal(cc.replay.players[0]!.frozenReason, null, cc.replay.players[0]!.frozenMessage ?? '');
  assert.equal(cc.replay.players[0]!.name, 'Demo');
  assert.deepEqual(ordersOf(cc), ordersOf(js));
  assert.deepEqual(cc.replay.result.scores, js.replay.result.scores);
});

for (const [game, pairs] of [
  ['walking-dead', [['Tracer.ts', 'AITracer.cc']]],
  [
    'harry-potter',
    [
      ['Tracer.ts', 'AITracer.cc'],
      ['Hunter.ts', 'AIHunter.cc'],
    ],
  ],
  ['bola-de-drac', [['Tracer.ts', 'Tracer.cc']]],
] as const) {
  test(`${game}: the C++ golden players and the C++ Demo play the same matches as their TypeScript twins`, { skip: slow.skip }, async () => {
    const dir = `test/fixtures/golden/${game}/players/`;
    const js = pairs.map(([ts]) => file(dir + ts));
    const cc = pairs.map(([, c]) => file(dir + c));
    while (js.length < 4) {
      js.push(js[js.length - 1]!);
      cc.push(cc[cc.length - 1]!);
    }
    const [a, b] = [await playMatch({ game, seed: 21, seats: js }), await playMatch({ game, seed: 21, seats: cc })];
    for (const p of b.replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
    assert.deepEqual(ordersOf(b), ordersOf(a));
    assert.deepEqual(b.replay.result, a.replay.result);
    const rest = [file(`src/games/${game}/bots/Null.ts`), file(`src/games/${game}/bots/Demo.ts`), file('src/sdk/cpp/AINull.cc')];
    const [d1, d2] = [
      await playMatch({ game, seed: 4, seats: [file(`src/games/${game}/bots/Demo.ts`), ...rest] }),
      await playMatch({ game, seed: 4, seats: [file(`src/games/${game}/cpp/AIDemo.cc`), ...rest] }),
    ];
    for (const p of d2.replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
    assert.deepEqual(ordersOf(d2), ordersOf(d1));
    assert.deepEqual(d2.replay.result.scores, d1.replay.result.scores);
  });
}

test("a compile error comes back as clang says it, with the line and column in the student's file", { skip: slow.skip }, async () => {
  const bad = cppBot('Typo', '  void play () {\n    int x = undefined_thing;\n  }');
  await assert.rejects(compileBot(bad.source, bad.filename, 'moria'), (err: unknown) => {
    assert.ok(err instanceof BotCompileError);
    assert.match(err.message, /^AITypo\.cc:8:13: error: use of undeclared identifier 'undefined_thing'/);
    assert.equal(err.line, 8);
    assert.equal(err.column, 13);
    return true;
  });
});

test("a file that takes too long to compile is refused as the file's fault after a second try, not the judge's", { skip: slow.skip }, async () => {
  // 343,000 distinct template instantiations, nested at most 210 deep (deeper, the WebAssembly clang
  // runs out of stack and crashes instead): seconds of a system clang, about half a minute of the npm one.
  const bomb = cppBot(
    'Bomb',
    '  void play () { cerr << G<70, 70, 70>::v << endl; }',
    [
      'template <int A, int B, int C> struct G { static const int v = (G<A - 1, B, C>::v + G<A, B - 1, C>::v + G<A, B, C - 1>::v) % 1000; };',
      'template <int B, int C> struct G<0, B, C> { static const int v = 1; };',
      'template <int A, int C> struct G<A, 0, C> { static const int v = 1; };',
      'template <int A, int B> struct G<A, B, 0> { static const int v = 1; };',
    ].join('\n'),
  );
  const { timeoutMs, warmupMs } = cppCompileSettings();
  // A fresh npm compile server's first job also gets the warm-up allowance: short here, so the second try ends too.
  resetCppCompileSettings({ cacheDir, timeoutMs: 3000, warmupMs: 10_000 });
  try {
    await assert.rejects(
      compileBot(bomb.source, bomb.filename, 'moria'),
      (err: unknown) => err instanceof BotCompileError && /AIBomb\.cc: compiling this file took more than 3 s/.test(err.message),
    );
  } finally {
    resetCppCompileSettings({ cacheDir, timeoutMs, warmupMs });
  }
});

/** Seat 1 is the suspect; the others are JavaScript Demos and Nulls, which must play on. */
async function against(suspect: MatchSeat, rounds = 8, limits = {}) {
  const out = await playMatch({
    game: 'moria',
    seed: 3,
    config: { nb_rounds: rounds },
    limits,
    seats: [file('src/games/moria/bots/Demo.ts'), suspect, file('src/games/moria/bots/Null.ts'), file('src/games/moria/bots/Demo.ts')],
  });
  for (const p of [0, 2, 3]) assert.equal(out.replay.players[p]!.frozenReason, null, `rival ${p}: ${out.replay.players[p]!.frozenMessage}`);
  return { out, p: out.replay.players[1]! };
}

test('C++ adversaries: each is frozen with the right reason and the rivals play on', { skip: slow.skip }, async (t) => {
  await t.test('an endless loop: cpu', async () => {
    const { p } = await against(cppBot('Loop', '  void play () {\n    volatile int x = 0;\n    if (round() == 2) for (;;) ++x;\n  }'), 6, { cpuBudgetMs: 600 });
    assert.equal(p.frozenReason, 'cpu');
    assert.equal(p.frozenRound, 3);
  });
  await t.test('memory that grows every round: memory', async () => {
    const { p } = await against(
      cppBot('Hoard', '  vector<vector<int>> keep;\n  void play () {\n    for (int k = 0; k < 64; ++k) keep.push_back(vector<int>(1 << 16, k));\n  }'),
      12,
    );
    assert.equal(p.frozenReason, 'memory');
    assert.match(p.frozenMessage ?? '', /memory/);
  });
  await t.test('one huge allocation: memory', async () => {
    const { p } = await against(
      cppBot('Huge', '  char* big = nullptr;\n  void play () {\n    big = new char[(size_t(1) << 31) + round()];\n    big[round()] = 1;\n  }'),
    );
    assert.equal(p.frozenReason, 'memory');
    assert.equal(p.frozenRound, 1);
  });
  await t.test('a stack overflow: exception, said as such', async () => {
    const { p } = await against(
      cppBot(
        'Deep',
        '  int deep (int n) {\n    volatile int pad[32];\n    pad[n % 32] = n;\n    return n < 0 ? 0 : deep(n + 1) + pad[0];\n  }\n  void play () {\n    if (round() == 1) cerr << deep(0) << endl;\n  }',
      ),
    );
    assert.equal(p.frozenReason, 'exception');
    assert.match(p.frozenMessage ?? '', /stack overflow/);
  });
  await t.test('writing over all of its linear memory: it hurts only itself', async () => {
    const { p } = await against(
      cppBot(
        'Scribbler',
        '  void play () {\n    if (round() != 2) return;\n    volatile char* at = (char*)0;\n    size_t n = __builtin_wasm_memory_size(0) * 65536;\n    for (size_t k = 0; k < n; ++k) at[k] = 0x5a;\n  }',
      ),
    );
    assert.equal(p.frozenReason, 'exception');
    // The round it scribbles (3) or the next, when the runtime finds its own pointers overwritten.
    assert.ok(p.frozenRound === 3 || p.frozenRound === 4, `frozen in round ${p.frozenRound}: ${p.frozenMessage}`);
  });
  await t.test('1001 orders in a round: orders; 1000 are fine', async () => {
    const { p } = await against(
      cppBot('Spam', '  void play () {\n    int n = round() == 4 ? 1001 : 1000;\n    for (int k = 0; k < n; ++k) command(25, None);\n  }'),
    );
    assert.equal(p.frozenReason, 'orders');
    assert.equal(p.frozenRound, 5);
  });
  await t.test('a megabyte of cerr: the log is capped, nothing else happens', async () => {
    const { out, p } = await against(cppBot('Chatty', '  void play () {\n    cerr << string(1 << 20, \'y\') << endl;\n    cout << "z" << endl;\n  }'));
    assert.equal(p.frozenReason, null);
    assert.ok(out.logs[1]!.length <= 64 * 1024 + 200, `log is ${out.logs[1]!.length} chars`);
    assert.match(out.logs[1]!, /log truncated/);
  });
  await t.test('a failed assert: exception with the assertion', async () => {
    const { p } = await against(cppBot('Asserts', '  void play () {\n    assert(round() < 2);\n  }'));
    assert.equal(p.frozenReason, 'exception');
    assert.equal(p.frozenRound, 3);
    assert.match(p.frozenMessage ?? '', /Assertion failed: round\(\) < 2/);
  });
  await t.test('exit(): exception with its code', async () => {
    const { p } = await against(cppBot('Quits', '  void play () {\n    if (round() == 1) exit(3);\n  }'));
    assert.equal(p.frozenReason, 'exception');
    assert.match(p.frozenMessage ?? '', /exit\(3\)/);
  });
  await t.test('a module asking for more memory than the limit: refused at the compile check', async () => {
    const { p } = await against(
      cppBot('Static', '  void play () {\n    big[round()] = 1;\n    cerr << int(big[round() + 1]) << endl;\n  }', 'static volatile char big[200 << 20];'),
    );
    assert.equal(p.frozenReason, 'compile');
    assert.equal(p.frozenRound, 0);
    assert.match(p.frozenMessage ?? '', /needs 2\d\d MiB of memory at start.*limit of 128 MiB/);
  });
});

test('arbiter play takes a .cc file: the match is played; a compile error is refused as clang prints it, with the line and column', {
  skip: slow.skip,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-cli-'));
  try {
    const good = join(dir, 'AIDemo.cc');
    writeFileSync(good, readFileSync(new URL('src/games/moria/cpp/AIDemo.cc', root), 'utf8'));
    const bad = join(dir, 'AITypo.cc');
    writeFileSync(bad, cppBot('Typo', '  void play () {\n    int x = undefined_thing;\n  }').source);
    const env = { CPP_CACHE_DIR: cacheDir };
    const [played, refused] = await Promise.all([
      arbiterIn(env, 'play', 'moria', good, 'Demo', 'Null', 'Null', '--seed', '3', '--set', 'nb_rounds=10'),
      arbiterIn(env, 'play', 'moria', bad, 'Demo', 'Demo', 'Demo'),
    ]);
    assert.equal(played.code, 0, played.err);
    assert.match(played.out, /Moria, seed 3, 10 rounds/);
    assert.match(played.out, /Demo +\d+ +\d+ +ok/);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /AITypo\.cc:8:13: error: use of undeclared identifier 'undefined_thing'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `arbiter` with extra environment variables. */
function arbiterIn(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--no-node-snapshot', ARBITER_BIN, ...args],
      { encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env } },
      (err, out, errOut) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, out, err: errOut });
      },
    );
  });
}
