// `npm run bench cpp`: C++ players. The compile time with each toolchain
// (system clang and @yowasp/clang; a new file, then the same file from the
// cache), the C++ Demo's own CPU per match against the JavaScript Demo's
// (each alone among three JavaScript Nulls, sandboxed), and the host's cost
// of one play() call of a C++ Null against a JavaScript Null (the game's real
// view). Each figure is printed with its goal. `npm run bench cpp moria` runs
// one game's match figures.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGames } from '../src/game-kit/registry.ts';
import type { AnyGame } from '../src/game-kit/types.ts';
import { builtinSeat } from '../src/runner/builtins.ts';
import { runMatch } from '../src/runner/run-match.ts';
import { sharedPool } from '../sandbox/sandbox-host.ts';
import { IsolateBotHost } from '../sandbox/isolate-host.ts';
import { installCallMeter } from '../sandbox/call-meter.ts';
import { callOverheads } from './call-overhead.ts';
import { compileCpp, findSystemClang, resetCppCompileSettings, stopCompileServer } from '../sandbox/cpp/toolchain.ts';

const SEED = 30;
const GOALS = { compileMs: 5000, demoRatio: 1, callOverheadRatio: 1 };

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Compile times of the Moria Demo: a new file (twice: the first in a process may pay a start-up), then the same file from the cache. */
async function compileTimes(toolchain: 'system' | 'npm'): Promise<string> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
  resetCppCompileSettings({ cacheDir, toolchain });
  const demo = read('src/games/moria/cpp/AIDemo.cc');
  const timed = async (source: string) => {
    const start = process.hrtime.bigint();
    const r = await compileCpp(source, 'AIDemo.cc', 'moria');
    if (!r.ok) throw new Error(`${toolchain} clang failed: ${JSON.stringify(r).slice(0, 300)}`);
    return ms(start);
  };
  try {
    const first = await timed(`${demo}\n// bench ${Date.now()} a\n`);
    const fresh = `${demo}\n// bench ${Date.now()} b\n`;
    const second = await timed(fresh);
    resetCppCompileSettings({ cacheDir, toolchain }); // the in-memory cache is cleared: the disk answers
    const disk = await timed(fresh);
    const memory = await timed(fresh);
    const ok = (toolchain === 'system' ? second : disk) <= GOALS.compileMs ? 'ok' : 'OFF';
    return `  ${toolchain.padEnd(6)} clang: first compile in the process ${(first / 1000).toFixed(1)} s, a new file ${(second / 1000).toFixed(1)} s, cached ${disk.toFixed(0)} ms from disk, ${memory.toFixed(1)} ms from memory (goal: cached${toolchain === 'system' ? ' or system' : ''} ≤ ${GOALS.compileMs / 1000} s: ${ok})`;
  } finally {
    stopCompileServer();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Seat 0's own CPU per match, a Demo among three JavaScript Nulls, median of 5 seeds. */
async function demoCpu(game: AnyGame, demo: { source: string; filename: string }): Promise<number> {
  const nul = await builtinSeat(game.id, 'Null');
  const cpus: number[] = [];
  await runMatch({ game: game.id, seed: SEED, seats: [demo, nul, nul, nul] }); // compiles and warms the pool
  for (let i = 0; i < 5; i++) cpus.push((await runMatch({ game: game.id, seed: SEED + i, seats: [demo, nul, nul, nul] })).replay.players[0]!.cpuMs);
  return median(cpus);
}


export async function run(filter?: string[]): Promise<void> {
  const notePath = join(tmpdir(), `arbiter-bench-cpp-note-${process.pid}`);
  installCallMeter(notePath);
  console.log(`machine: ${availableParallelism()} core(s), load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at start`);
  console.log('\ncompile (the Moria Demo, C++):');
  if (findSystemClang()) console.log(await compileTimes('system'));
  else console.log('  system clang: not installed (apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32)');
  console.log(await compileTimes('npm'));
  // The matches compile with the fastest toolchain here, into a cache of their own.
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-cpp-'));
  resetCppCompileSettings({ cacheDir, toolchain: 'auto' });
  try {
    console.log('\nper game: the Demo\'s own CPU per match (alone among three Nulls) and the host\'s CPU per play() call of a Null');
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
          { host: new IsolateBotHost(), source: read(`${dir}AINull.cc`), filename: 'AINull.cc' },
        ],
        SEED,
      );
      const jsCall = js0.cpuUs;
      const ccCall = cc0.cpuUs;
      console.log(
        `  ${game.title.padEnd(18)} Demo CPU: C++ ${cc.toFixed(0).padStart(5)} ms, JavaScript ${js.toFixed(0).padStart(5)} ms (${(cc / js).toFixed(2)}x, ${cc <= js * GOALS.demoRatio ? 'ok' : 'OFF'})   call: C++ ${ccCall.toFixed(0).padStart(3)} µs, JavaScript ${jsCall.toFixed(0).padStart(3)} µs (${ccCall <= jsCall * GOALS.callOverheadRatio ? 'ok' : 'OFF'})`,
      );
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(notePath, { force: true });
    await sharedPool.shutdown();
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the end`);
}
