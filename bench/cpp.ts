// `npm run bench cpp`: C++ players. The compile time with each toolchain
// (system clang and @yowasp/clang, a 500-line file: the first compile after a
// start, a new file warm, the cache), the C++ Demo's own CPU per match against the JavaScript Demo's
// (each alone among three JavaScript Nulls, sandboxed), and the host's cost
// of one play() call of a C++ Null against a JavaScript Null (the game's real
// view), and the cost of a line written to cerr, in Arbiter and natively
// (g++ -O2), and the cpu ratio: each stress player's own CPU per match
// against the same file built natively with g++ -O2 and played over the same
// views. Each figure is printed with its goal. `npm run bench cpp moria`
// runs one game's match figures, `npm run bench cpp log` the cerr figure only,
// `npm run bench cpp cpu [game...]` the cpu ratio only, `npm run bench cpp
// files <game>:<path>...` the warm compile times of files kept elsewhere.

import { stressPlayers } from '../test/fixtures/cpp-stress/players.ts';
import { readBotHeader } from '../src/sandbox/languages/index.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGames } from '../src/games/registry.ts';
import type { AnyGame } from '../src/sdk/types.ts';
import { builtinSeat } from '../src/match/builtins.ts';
import { playMatch } from '../src/sandbox/entries/play-match.ts';
import { MatchRun } from '../src/match/match-run.ts';
import { buildPrelude } from '../src/sandbox/hosts/prelude.ts';
import { compileSeat } from '../src/sandbox/languages/compile-seat.ts';
import { mapBotPositions } from '../src/sandbox/languages/index.ts';
import type { BotHost } from '../src/match/bot-host.ts';
import { gameHeaders } from '../src/sandbox/languages/cpp/headers.ts';
import { sharedPool } from '../src/sandbox/match-process/match-pool.ts';
import { IsolateBotHost } from '../src/sandbox/hosts/isolate-host.ts';
import { installCallMeter } from '../src/sandbox/hosts/call-meter.ts';
import { callOverheads } from './call-overhead.ts';
import { compileCpp, findSystemClang, prewarmCpp, resetCppCompileSettings, stopCompileServer } from '../src/sandbox/languages/cpp/toolchain.ts';

const SEED = 30;
const GOALS = { compile: { npm: { warmMs: 3000, firstMs: 15_000 }, system: { warmMs: 1000, firstMs: 1000 } }, demoRatio: 1, callOverheadRatio: 1, logRatio: 2 };

/** The machine the figures come from: its cores and its load when the part starts. */
const machineLine = () =>
  `machine: ${availableParallelism()} core(s), load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} at start`;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/**
 * Compile times of a student-sized file (test/fixtures/cpp/AIBench.cc, about
 * 500 lines): the first compile ever (a new compile server, no precompiled
 * header yet), a new file warm, the first compile after a start (a new
 * server, the PCH on disk), a new file warm again, then the same file from
 * the cache. The wall time and the compiler's CPU time of each.
 */
async function compileTimes(toolchain: 'system' | 'npm'): Promise<string> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
  const pchDir = join(cacheDir, 'pch');
  resetCppCompileSettings({ cacheDir, toolchain, pchDir });
  const file = read('test/fixtures/cpp/AIBench.cc');
  let n = 0;
  const timed = async (source = `${file}\n// bench ${Date.now()} ${n++}\n`) => {
    const start = process.hrtime.bigint();
    let cpu = 0;
    const r = await compileCpp(source, 'AIBench.cc', 'moria', { onCpu: (c) => (cpu = c) });
    if (!r.ok) throw new Error(`${toolchain} clang failed: ${JSON.stringify(r).slice(0, 300)}`);
    return { ms: ms(start), cpu };
  };
  const say = (t: { ms: number; cpu: number }) => `${(t.ms / 1000).toFixed(1)} s (${(t.cpu / 1000).toFixed(1)} s CPU)`;
  try {
    const firstEver = await timed();
    const warm1 = await timed();
    stopCompileServer();
    resetCppCompileSettings({ cacheDir, toolchain, pchDir }); // a start: a new server, the PCH read from disk
    const afterStart = await timed();
    const warm2 = await timed();
    // A start as main.ts makes one: the warm-up (PCHs, then the first game's Demo) done before the file comes.
    stopCompileServer();
    resetCppCompileSettings({ cacheDir, toolchain, pchDir });
    await prewarmCpp(['moria']);
    const afterWarmup = await timed();
    const fresh = `${file}\n// bench ${Date.now()} cached\n`;
    await timed(fresh);
    resetCppCompileSettings({ cacheDir, toolchain, pchDir }); // the in-memory cache is cleared: the disk answers
    const disk = await timed(fresh);
    const memory = await timed(fresh);
    const warm = Math.min(warm1.ms, warm2.ms);
    const goal = GOALS.compile[toolchain];
    const ok = (x: number, limit: number) => (x <= limit ? 'ok' : 'OFF');
    return [
      `  ${toolchain.padEnd(6)} clang, a 500-line file: first compile ever ${say(firstEver)}, first after a start ${say(afterStart)} (goal ≤ ${goal.firstMs / 1000} s: ${ok(afterStart.ms, goal.firstMs)}),`,
      `         first after a start once its warm-up is done ${say(afterWarmup)},`,
      `         a new file warm ${say(warm1)} and ${say(warm2)} (goal ≤ ${goal.warmMs / 1000} s: ${ok(warm, goal.warmMs)}), cached ${disk.ms.toFixed(0)} ms from disk, ${memory.ms.toFixed(1)} ms from memory`,
    ].join('\n');
  } finally {
    stopCompileServer();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench cpp files <game>:<path>...`: warm compile times of players
 * kept outside the repository (a course's or a public repository's files,
 * unchanged), beside the bench's own file, with each toolchain here. A start
 * as main.ts makes one (the warm-up done), then each file once, then four
 * compiles of it with a new last line each: their wall times, median and
 * minimum (a shared machine only ever slows a run down).
 */
async function fileTimes(toolchain: 'system' | 'npm', files: { game: string; path: string }[]): Promise<string[]> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
  resetCppCompileSettings({ cacheDir, toolchain, pchDir: join(cacheDir, 'pch') });
  const out: string[] = [];
  try {
    await prewarmCpp([...new Set(files.map((f) => f.game))]);
    for (const { game, path } of files) {
      const text = readFileSync(path, 'utf8');
      const name = path.split('/').pop()!;
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = process.hrtime.bigint();
        const r = await compileCpp(`${text}\n// bench ${Date.now()} ${i}\n`, name, game);
        if (!r.ok) throw new Error(`${toolchain} clang failed on ${path}: ${JSON.stringify(r).slice(0, 300)}`);
        if (i > 0) times.push(ms(start));
      }
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      const goal = GOALS.compile[toolchain].warmMs;
      out.push(
        `  ${toolchain.padEnd(6)} ${`${name} (${game}, ${lines} lines)`.padEnd(40)} warm ${(median(times) / 1000).toFixed(2)} s, min ${(Math.min(...times) / 1000).toFixed(2)} s (goal ≤ ${goal / 1000} s: ${median(times) <= goal ? 'ok' : 'OFF'})`,
      );
    }
  } finally {
    stopCompileServer();
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return out;
}

/** Seat 0's own CPU per match, a Demo among three JavaScript Nulls, median of 5 seeds. */
async function demoCpu(game: AnyGame, demo: { source: string; filename: string }): Promise<number> {
  const nul = await builtinSeat(game.id, 'Null');
  const cpus: number[] = [];
  await playMatch({ game: game.id, seed: SEED, seats: [demo, nul, nul, nul] }); // compiles and warms the pool
  for (let i = 0; i < 5; i++) cpus.push((await playMatch({ game: game.id, seed: SEED + i, seats: [demo, nul, nul, nul] })).replay.players[0]!.cpuMs);
  return median(cpus);
}

const LOG_ROUNDS = 200;
const LOG_LINES = 500; // per round: 10^5 per match
/** The writes each bench player makes per round; `reopen` clears the stream's failed state first (once the log is full), so every write is formatted and copied as before the cap. */
const logLoop = (reopen: boolean) => `${reopen ? 'cerr.clear(); ' : ''}for (int k = 0; k < ${LOG_LINES}; ++k) cerr << "line " << k << endl;`;

/**
 * A line to cerr: the CPU of 10^5 short lines per match (500 per round of a
 * 200-round Harry Potter match), the player's CPU less a Null's, against the
 * same loop compiled natively with g++ -O2 (cerr to /dev/null and to a file).
 * Twice in Arbiter: as written (past the 64 KiB log cap the writes are
 * dropped in the module), and with cerr.clear() every round (every write
 * formatted and copied, as before the cap).
 */
async function logCost(): Promise<string[]> {
  const nul = await builtinSeat('harry-potter', 'Null');
  const bot = (name: string, body: string) => ({
    source: `#include "Player.hh"\n#define PLAYER_NAME ${name}\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { ${body} }\n};\nRegisterPlayer(PLAYER_NAME);\n`,
    filename: `AI${name}.cc`,
  });
  const cpu = async (seat: { source: string; filename: string }) => {
    const spec = (seed: number) => ({ game: 'harry-potter', seed, config: { num_rounds: LOG_ROUNDS }, seats: [seat, nul, nul, nul] });
    await playMatch(spec(SEED)); // compiles and warms
    const xs: number[] = [];
    for (let i = 0; i < 3; i++) xs.push((await playMatch(spec(SEED + i))).replay.players[0]!.cpuMs);
    return median(xs);
  };
  const base = await cpu(bot('Quiet', ''));
  const capped = (await cpu(bot('Chatty', logLoop(false)))) - base;
  const open = (await cpu(bot('Reopen', logLoop(true)))) - base;
  const out: string[] = [];
  let native: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-log-'));
  try {
    writeFileSync(
      join(dir, 'log.cc'),
      `#include <iostream>\n#include <ctime>\nusing namespace std;\nint main () {\n  clock_t t = clock();\n  for (int r = 0; r < ${LOG_ROUNDS}; ++r) { ${logLoop(false)} }\n  cout << 1000.0 * (clock() - t) / CLOCKS_PER_SEC << endl;\n}\n`,
    );
    execFileSync('g++', ['-O2', '-o', join(dir, 'log'), join(dir, 'log.cc')]);
    const nativeMs = (to: string) => {
      const xs: number[] = [];
      for (let i = 0; i < 3; i++) xs.push(Number(execFileSync('sh', ['-c', `"${join(dir, 'log')}" 2>${to}`], { encoding: 'utf8' }).trim()));
      return median(xs);
    };
    native = [nativeMs('/dev/null'), nativeMs(join(dir, 'err.txt'))];
  } catch (e) {
    out.push(`  native: g++ failed (${String((e as Error).message).slice(0, 120)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const us = (msPerMatch: number) => ((msPerMatch * 1000) / (LOG_ROUNDS * LOG_LINES)).toFixed(3);
  if (native.length)
    out.push(
      `  native (g++ -O2, libstdc++): ${native[0]!.toFixed(0)} ms per 10^5 lines to /dev/null (${us(native[0]!)} µs a line), ${native[1]!.toFixed(0)} ms to a file (${us(native[1]!)} µs)`,
    );
  const ref = native.length ? Math.min(...native) : NaN;
  const verdict = (x: number) => (native.length ? `${(x / ref).toFixed(2)}x native, ${x <= ref * GOALS.logRatio ? 'ok' : 'OFF'}` : 'no native figure');
  out.push(`  Arbiter, as written (the log full after ~6000 lines): ${capped.toFixed(0)} ms (${us(capped)} µs a line; ${verdict(capped)})`);
  out.push(`  Arbiter, every line formatted and copied (cerr.clear() each round): ${open.toFixed(0)} ms (${us(open)} µs a line; ${verdict(open)})`);
  out.push(`  (goal: a line costs at most ${GOALS.logRatio}x its native cost; the player's CPU less a C++ Null's, median of 3 matches)`);
  return out;
}

// ---- cpu ratio: the stress players (test/fixtures/cpp-stress: a game's head and the shared body) in Arbiter and natively ----

const STRESS_SEED = 7;
const GOAL_CPU_RATIO = 1.5;

/**
 * Plays seat 0 (the player) against three JavaScript Nulls in isolates in
 * this process and keeps every view it was handed, in the order of the
 * module's view table (the game's VIEW keys): per round, per array, its
 * length, its byte length and its bytes padded to 8.
 */
export async function recordViews(game: AnyGame, seat: { source: string; filename: string }): Promise<Buffer> {
  const { VIEW } = (await import(new URL(`src/games/${game.id}/view.ts`, root).href)) as { VIEW: Record<string, unknown> };
  const order = Object.keys(VIEW);
  const nul = await builtinSeat(game.id, 'Null');
  const spec = { game: game.id, seed: STRESS_SEED, limits: game.defaultLimits, seats: [seat, nul, nul, nul] };
  const chunks: Buffer[] = [];
  let rounds = 0;
  const recording = (inner: BotHost): BotHost => ({
    load: (r) => inner.load(r),
    close: () => inner.close(),
    play(request) {
      const names = JSON.parse(request.names) as string[];
      for (const name of order) {
        const a = request.arrays[names.indexOf(name)];
        const bytes = a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : Buffer.alloc(0);
        const head = Buffer.alloc(8);
        head.writeInt32LE(a ? a.length : 0, 0);
        head.writeInt32LE(bytes.length, 4);
        chunks.push(head, bytes, Buffer.alloc((8 - (bytes.length % 8)) % 8));
      }
      rounds++;
      return inner.play(request);
    },
  });
  const run = new MatchRun(game, spec, STRESS_SEED, {
    host: (me) => (me === 0 ? recording(new IsolateBotHost()) : new IsolateBotHost()),
    prelude: () => buildPrelude(game),
    declaredName: (source) => readBotHeader(source).name,
    compile: (me) => compileSeat(spec.seats[me]!.source, spec.seats[me]!.filename, me, game.id),
    mapPositions: (s, filename, message) => mapBotPositions(s.code, filename, message),
  });
  const out = await run.playOut();
  if (out.replay.players[0]!.frozenRound !== null) throw new Error(`${seat.filename} was frozen in the recorded match`);
  const head = Buffer.alloc(8);
  head.writeInt32LE(rounds, 0);
  head.writeInt32LE(order.length, 4);
  return Buffer.concat([head, ...chunks]);
}

/**
 * The native side: the player's file built with g++ -O2 against the same
 * headers (the judge's imports become plain functions), played over the
 * recorded views; prints the CPU of its play() calls, ms. The view is placed
 * below 2 GiB (MAP_32BIT), as the header's table holds 32-bit addresses.
 */
const NATIVE_MAIN = `#include "player.cc"
#include <sys/mman.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include <ctime>
extern "C" {
int arbiter_me () { return 0; }
int arbiter_random (int l, int) { return l; }
double arbiter_status (int) { return 0; }
void arbiter_order (const int32_t*, int, int) { }
void arbiter_order_tagged (int, const int32_t*, int) { }
int arbiter_seed () { return 1; }
void arbiter_out_of_memory (uint32_t) { abort(); }
int arbiter_log (const char*, int) { return 1; }
int arbiter_player_name (int, char*, int) { return 0; }
}
int main (int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb");
  std::vector<char> data;
  char chunk[1 << 16];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) data.insert(data.end(), chunk, chunk + n);
  const char* p = data.data();
  auto next = [&]() { int32_t x; memcpy(&x, p, 4); p += 4; return x; };
  int rounds = next(), count = next();
  if (count != arbiter_view::COUNT) return 2;
  char* view = (char*)mmap(nullptr, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (view == MAP_FAILED) return 3;
  Player* player = Registry::factory_()();
  int32_t table[2 * arbiter_view::COUNT];
  double total = 0;
  for (int r = 0; r < rounds; ++r) {
    int size = 0;
    for (int k = 0; k < count; ++k) {
      int length = next(), bytes = next();
      memcpy(view + size, p, bytes);
      table[2 * k] = int32_t(uintptr_t(view + size));
      table[2 * k + 1] = length;
      p += (bytes + 7) & ~7;
      size += (bytes + 7) & ~7;
    }
    timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    arbiter_view::bind(table);
    player->arbiter_reset();
    player->play();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    total += (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
  }
  printf("%.3f\\n", total);
}
`;

/** The player's CPU over the recorded views natively (g++ -O2, cerr to /dev/null), each of `runs` runs. */
export async function nativeCpus(game: string, source: string, views: Buffer, runs: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-native-'));
  try {
    for (const [name, text] of Object.entries(await gameHeaders(game))) {
      if (name.startsWith('bits/')) continue; // g++ has its own bits/stdc++.h
      const native = name === 'arbiter.hh' ? text.replace(/#define ARBITER_(IMPORT|EXPORT)\(n\) .*/g, '#define ARBITER_$1(n)') : text;
      writeFileSync(join(dir, name), native);
    }
    writeFileSync(join(dir, 'player.cc'), source);
    writeFileSync(join(dir, 'main.cc'), NATIVE_MAIN);
    writeFileSync(join(dir, 'views.bin'), views);
    execFileSync('g++', ['-std=c++17', '-O2', '-w', '-I', dir, '-o', join(dir, 'player'), join(dir, 'main.cc')], { stdio: ['ignore', 'ignore', 'pipe'] });
    const xs: number[] = [];
    for (let i = 0; i < runs; i++)
      xs.push(Number(execFileSync('sh', ['-c', `"${join(dir, 'player')}" "${join(dir, 'views.bin')}" 2>/dev/null`], { encoding: 'utf8' }).trim()));
    return xs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs of each side of the cpu ratio: on a shared virtual machine a run is only ever slowed by its neighbours, so the minimum is printed beside the median. */
const RATIO_RUNS = 5;

/** Each stress player's own CPU per match in Arbiter (sandboxed, RATIO_RUNS runs of the same match) against natively over the same views. */
async function cpuRatios(games: string[]): Promise<string[]> {
  const out: string[] = [];
  const all = await loadGames();
  for (const [gameId, filename, source] of stressPlayers(games)) {
    const game = all.get(gameId)!;
    const seat = { source, filename };
    const views = await recordViews(game, seat);
    const nul = await builtinSeat(game.id, 'Null');
    const xs: number[] = [];
    for (let i = 0; i < RATIO_RUNS; i++) {
      const r = await playMatch({ game: game.id, seed: STRESS_SEED, seats: [seat, nul, nul, nul] });
      if (r.replay.players[0]!.frozenRound !== null) throw new Error(`${filename} was frozen: ${JSON.stringify(r.replay.players[0]).slice(0, 300)}`);
      xs.push(r.replay.players[0]!.cpuMs);
    }
    let natives: number[];
    try {
      natives = await nativeCpus(game.id, source, views, RATIO_RUNS);
    } catch (e) {
      out.push(`  ${game.title} ${filename}: native build failed (${String((e as Error).message).slice(0, 300)})`);
      continue;
    }
    const ratio = median(xs) / median(natives);
    const least = Math.min(...xs) / Math.min(...natives);
    const fig = (ys: number[]) =>
      `${median(ys).toFixed(0).padStart(5)} ms (min ${Math.min(...ys)
        .toFixed(0)
        .padStart(4)})`;
    out.push(
      `  ${`${game.title} ${filename}`.padEnd(32)} native ${fig(natives)}, Arbiter ${fig(xs)}: ${ratio.toFixed(2)}x (${ratio <= GOAL_CPU_RATIO ? 'ok' : 'OFF'}), of the minima ${least.toFixed(2)}x`,
    );
  }
  out.push(
    `  (goal: ≤ ${GOAL_CPU_RATIO}x native, of the medians; the player's own CPU per match, seed ${STRESS_SEED}, ${RATIO_RUNS} runs each, against three JavaScript Nulls; native: g++ -O2 over the views Arbiter handed it, play() calls only)`,
  );
  return out;
}

export async function run(filter?: string[]): Promise<void> {
  const notePath = join(tmpdir(), `arbiter-bench-cpp-note-${process.pid}`);
  installCallMeter(notePath);
  if (filter?.[0] === 'files') {
    const files = [
      { game: 'moria', path: fileURLToPath(new URL('test/fixtures/cpp/AIBench.cc', root)) },
      ...filter.slice(1).map((arg) => {
        const at = arg.indexOf(':');
        if (at < 1) throw new Error(`${arg}: say <game>:<path to a .cc file>`);
        return { game: arg.slice(0, at), path: arg.slice(at + 1) };
      }),
    ];
    console.log(machineLine());
    console.log('\ncompile (C++), warm, after a start and its warm-up:');
    if (findSystemClang()) for (const line of await fileTimes('system', files)) console.log(line);
    for (const line of await fileTimes('npm', files)) console.log(line);
    rmSync(notePath, { force: true });
    return;
  }
  if (filter?.[0] === 'cpu') {
    const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
    resetCppCompileSettings({ cacheDir, toolchain: 'auto' });
    try {
      console.log(machineLine());
      console.log("\ncpu ratio: the stress players' own CPU per match, Arbiter against native");
      for (const line of await cpuRatios(filter.slice(1))) console.log(line);
    } finally {
      stopCompileServer();
      rmSync(cacheDir, { recursive: true, force: true });
      rmSync(notePath, { force: true });
      await sharedPool.shutdown();
    }
    return;
  }
  if (filter?.length === 1 && filter[0] === 'log') {
    const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
    resetCppCompileSettings({ cacheDir, toolchain: 'auto' });
    try {
      console.log(machineLine());
      console.log('\ncerr: 10^5 short lines per match');
      for (const line of await logCost()) console.log(line);
    } finally {
      stopCompileServer();
      rmSync(cacheDir, { recursive: true, force: true });
      rmSync(notePath, { force: true });
      await sharedPool.shutdown();
    }
    return;
  }
  console.log(machineLine());
  console.log('\ncompile (C++):');
  if (findSystemClang()) console.log(await compileTimes('system'));
  else console.log('  system clang: not installed (apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32)');
  console.log(await compileTimes('npm'));
  // The matches compile with the fastest toolchain here, into a cache of their own.
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
  resetCppCompileSettings({ cacheDir, toolchain: 'auto' });
  try {
    console.log("\nper game: the Demo's own CPU per match (alone among three Nulls) and the host's CPU per play() call of a Null");
    const games = [...(await loadGames()).values()].filter((g) => !filter?.length || filter.includes(g.id));
    for (const game of games) {
      const dir = `src/games/${game.id}/cpp/`;
      let cppDemo: string;
      try {
        cppDemo = read(`${dir}AIDemo.cc`);
      } catch {
        console.log(`  ${game.title}: no C++ Demo`);
        continue;
      }
      const js = await demoCpu(game, await builtinSeat(game.id, 'Demo'));
      const cc = await demoCpu(game, { source: cppDemo, filename: 'AIDemo.cc' });
      const jsNull = await builtinSeat(game.id, 'Null');
      const [js0, cc0] = await callOverheads(
        game,
        [
          { host: new IsolateBotHost(), source: jsNull.source, filename: jsNull.filename },
          { host: new IsolateBotHost(), source: read('src/sdk/cpp/AINull.cc'), filename: 'AINull.cc' },
        ],
        SEED,
      );
      const jsCall = js0.cpuUs;
      const ccCall = cc0.cpuUs;
      console.log(
        `  ${game.title.padEnd(18)} Demo CPU: C++ ${cc.toFixed(0).padStart(5)} ms, JavaScript ${js.toFixed(0).padStart(5)} ms (${(cc / js).toFixed(2)}x, ${cc <= js * GOALS.demoRatio ? 'ok' : 'OFF'})   call: C++ ${ccCall.toFixed(0).padStart(3)} µs, JavaScript ${jsCall.toFixed(0).padStart(3)} µs (${ccCall <= jsCall * GOALS.callOverheadRatio ? 'ok' : 'OFF'})`,
      );
    }
    if (!filter?.length) {
      console.log("\ncpu ratio: the stress players' own CPU per match, Arbiter against native");
      for (const line of await cpuRatios([])) console.log(line);
      console.log('\ncerr: 10^5 short lines per match');
      for (const line of await logCost()) console.log(line);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(notePath, { force: true });
    await sharedPool.shutdown();
  }
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the end`,
  );
}
