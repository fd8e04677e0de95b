// Per game: engine-only time of a full match (no bots, no orders), a full
// match of four Demo bots sandboxed and in-process, each with its replay
// encoded for the recorder (the sandbox tax, in wall and in CPU time; and one
// Demo's own CPU among four Demos and among three Nulls, since four identical
// bots in one process share their bytecode, which four isolates cannot), what
// a bot's load costs in a new isolate and in its spare, and the host overhead
// of one sandboxed play() call with the game's real view: a Null bot in an
// isolate called the way a match process calls it (the watcher thread, its
// note file and the stop switch included),
// against the same bot as an in-process function. Each figure is printed
// with its goal.
//
// Against the original games (ARBITER_ORIGINALS=<folder>: each game's <folder>/<game>/Game
// that is there; or `--original moria=/path/to/Game`, repeatable): the original
// build's whole process with four Dummies (its CPU, user + system, as bash's
// `time` reads it), Arbiter's warm sandboxed 4-Dummy match on the same seeds
// (this process and the match process), each Dummy's CPU against the native
// Dummy's (the time the replay charges it: for a built-in, its calls' wall time
// times the share of a core the match process had, inprocess-host.ts's
// builtinTimer), and Arbiter's fixed cost (the match's CPU less its bots' and less
// its engine's with the same orders, its first state for the seed included),
// seed by seed in turns. The native
// Dummy's share is (four Dummies - four Nulls) / 4, or, when the original's
// driver is instrumented to print `play-cpu-ms <seat> <ms>` on stderr (the CPU
// of its play() calls), what it prints. The original reads `default.cnf`
// next to it; Bola de Drac's (fixed boards only) gets Arbiter's board for the
// seed written as a .cnf (toCnf). `--only-original` leaves the other figures out;
// `--runs N` plays N seeds against the original (7 by default). The fixed cost
// is a difference of figures each noisy under load (30-50 ms a run at load 6-15),
// so beside it the match process's own parts are timed in this process on the
// same matches' states, each part in turn many times (fixedParts): the views,
// the orders read and checked, the records written, the replay assembled and gzip'd.

import { loadGames } from '../src/games/registry.ts';
import { deprecatedOriginalsList, originalsOf } from './originals.ts';
import { isOver, type AnyGame } from '../src/sdk/types.ts';
import { builtinSeat } from '../src/match/builtins.ts';
import { playMatch } from '../src/sandbox/entries/play-match.ts';
import { compileBot } from '../src/sandbox/languages/index.ts';
import { sharedPool } from '../src/sandbox/match-process/match-pool.ts';
import { cpuSinceMs } from '../src/match/bot-host.ts';
import { IsolateBotHost } from '../src/sandbox/hosts/isolate-host.ts';
import { installCallMeter } from '../src/sandbox/hosts/call-meter.ts';
import { InProcessBotHost } from '../src/sandbox/hosts/inprocess-host.ts';
import { tmpdir, loadavg, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { encodeReplay } from '../src/match/replay-io.ts';
import { buildPrelude } from '../src/sandbox/hosts/prelude.ts';
import { LOG_CAP_BYTES } from '../src/sdk/limits.ts';
import { callOverheads } from './call-overhead.ts';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { writeFileSync } from 'node:fs';
import { withRoundsFrom } from '../src/match/replay-io.ts';
import { toCnf } from '../src/games/bola-de-drac/engine.ts';
import { replayJson, writeRecord } from '../src/match/match-run.ts';
import { encodeReplayJson } from '../src/match/replay-io.ts';
import { JsonWriter } from '../src/sdk/json-writer.ts';
import type { Replay } from '../src/sdk/replay-format.ts';

const SEED = 30;
/** The seeds the match processes warm up on, none of the measured ones (SEED...). */
const WARM_SEED = 1000;
/**
 * Matches per figure (seeds SEED, SEED+1, ...): the medians of a tax. At
 * least MIN_RUNS, and as many more as fill about MIN_FIGURE_MS of a warm
 * match's time: a Bola de Drac match takes 0.2 s, and the in-process
 * CPU of seven varied by half (this process's GC and compiler threads).
 */
const MIN_RUNS = 7;
const MIN_FIGURE_MS = 3000;
const MAX_RUNS = 21;

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function engineOnly(game: AnyGame): { ms: number; rounds: number } {
  const config = game.parseConfig({});
  const runs: number[] = [];
  let rounds = 0;
  for (let i = 0; i < 5; i++) {
    const start = process.hrtime.bigint();
    let state = game.create(config, SEED + i);
    const none = Array.from({ length: game.nbPlayers }, () => []);
    const frozen = none.map(() => false);
    rounds = 0;
    while (!isOver(game, config, state)) {
      state = game.next(state, none, frozen).state;
      rounds++;
    }
    runs.push(ms(start));
  }
  return { ms: median(runs), rounds };
}

/** One compile of the Demo bot, each in a fresh esbuild process (a comment makes every source new, so the cache does not answer). */
async function compileCost(source: string, filename: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = process.hrtime.bigint();
    await compileBot(`${source}\n// bench ${Date.now()} ${i}\n`, filename);
    runs.push(ms(start));
  }
  return median(runs);
}

/**
 * CPU of one bot's load in a match process, then its close (median of 20,
 * ms): `fresh`, a new isolate, its context, the prelude and the bot compiled
 * and loaded, the isolate disposed; `spare`, the same bot's isolate kept from
 * its last match, with a new context, and kept again.
 */
async function isolateLoadCost(game: AnyGame, source: string, filename: string): Promise<{ fresh: number; spare: number }> {
  const prelude = await buildPrelude(game);
  const code = await compileBot(source, filename, game.id);
  const cost = async (fresh: boolean): Promise<number> => {
    const runs: number[] = [];
    for (let i = 0; i < 25; i++) {
      // A different file name makes a different bot: no spare of it is kept.
      const name = fresh ? `${i}-${filename}` : filename;
      const host = new IsolateBotHost();
      const start = process.cpuUsage();
      const reply = host.loadSync({
        prelude,
        code,
        filename: name,
        me: 0,
        seed: SEED,
        cpuBudgetMs: 10_000,
        memoryMb: game.defaultLimits.memoryMb,
        logCapBytes: LOG_CAP_BYTES,
      });
      if (fresh) host.closeWithoutSpare();
      else host.closeSync();
      if (!reply.ok) throw new Error(reply.message);
      if (i >= 5) runs.push(cpuSinceMs(start));
    }
    return median(runs);
  };
  return { fresh: await cost(true), spare: await cost(false) };
}

/** Lets this process's GC and compiler threads finish what the last in-process match left them. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}

/** Goals the figures are held to (printed next to them). */
const GOALS = { callOverheadUs: 50, sandboxTax: 1.15, againstOriginal: 1.5, fixedMs: 50 };

/** The games named on the command line and the originals' builds named there (`--original game=path`) or in `env`'s "game=path,..." list. */
export function parseGamesArgs(
  args: readonly string[],
  env: string | undefined,
): { filter: string[]; originals: Map<string, string>; onlyOriginal: boolean; runs: number } {
  const filter: string[] = [];
  let onlyOriginal = false;
  let runs = 7;
  const originals = new Map<string, string>();
  const add = (pair: string) => {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new Error(`--original wants game=path, got "${pair}"`);
    originals.set(pair.slice(0, at), pair.slice(at + 1));
  };
  for (const pair of (env ?? '').split(',')) if (pair.trim()) add(pair.trim());
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--original') add(args[++i] ?? '');
    else if (arg.startsWith('--original=')) add(arg.slice('--original='.length));
    else if (arg === '--only-original') onlyOriginal = true;
    else if (arg === '--runs') {
      runs = Number(args[++i]);
      if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number of seeds, got "${args[i]}"`);
    } else filter.push(arg);
  }
  return { filter, originals, onlyOriginal, runs };
}

/** The original's name for its Dummy (Bola de Drac 2012's is Tonto). */
const ORIGINAL_DUMMY: Record<string, string> = { 'bola-de-drac': 'Tonto' };

/** One run of the original's whole process: its CPU (user + system, ms) and, from an instrumented driver, each seat's play() CPU. */
function originalRun(path: string, players: string[], seed: number, cnf: string): { cpuMs: number; seatMs: number[] | null } {
  // bash's `time` reads the child's rusage to the millisecond; the game's stderr (its log) comes out on stdout.
  const run = spawnSync(
    'bash',
    ['-c', 'TIMEFORMAT="cpu %3U %3S"; time "$@" 2>&1 >/dev/null', 'bash', path, ...players, '-s', String(seed), '-i', cnf, '-o', '/dev/null'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  const m = /cpu (\d+\.\d+) (\d+\.\d+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !m)
    throw new Error(`${path} ${players.join(' ')} -s ${seed}: ${run.error?.message ?? `exit ${run.status}`} ${(run.stderr ?? '').slice(-300)}`);
  const seats = [...(run.stdout ?? '').matchAll(/^play-cpu-ms (\d+) ([\d.]+)$/gm)].map((x) => Number(x[2]));
  return { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, seatMs: seats.length === players.length ? seats : null };
}

/**
 * CPU of the engine alone replaying a match's recorded orders, in this process: its first state (`firstState`,
 * the first create() of a seed this process has not made, so the map is generated as the match process
 * generates it for a new seed) plus the rounds, the better of two runs (the first warms them). The best of two
 * whole runs, as this took before, met the first state a game remembers per seed (sdk/first-states.ts) and
 * left Harry Potter's and The Walking Dead's map generation in the fixed cost.
 */
function engineWithOrders(
  game: AnyGame,
  replay: { config: Record<string, unknown>; seed: number; rounds: { orders: unknown[][]; frozen: boolean[] }[] },
): { ms: number; firstState: number } {
  const config = game.parseConfig(replay.config);
  const first = process.cpuUsage();
  game.create(config, replay.seed);
  const firstState = cpuSinceMs(first);
  let best = Infinity;
  for (let k = 0; k < 2; k++) {
    let state = game.create(config, replay.seed);
    const start = process.cpuUsage();
    for (let r = 1; r < replay.rounds.length; r++) state = game.next(state, replay.rounds[r]!.orders, replay.rounds[r]!.frozen).state;
    best = Math.min(best, cpuSinceMs(start));
  }
  return { ms: best + firstState, firstState };
}

/**
 * Arbiter against the original game (see the header), RUNS seeds in turns:
 * the original with four Dummies, with four Nulls, and Arbiter's warm match.
 * Prints the medians and returns the summary line.
 */
async function againstOriginal(game: AnyGame, path: string, RUNS: number): Promise<string> {
  const dummy = await builtinSeat(game.id, 'Dummy');
  const seats = [dummy, dummy, dummy, dummy];
  const nativeDummy = ORIGINAL_DUMMY[game.id] ?? 'Dummy';
  const cnfOf = (seed: number): string => {
    if (game.id !== 'bola-de-drac') return join(dirname(path), 'default.cnf');
    const file = join(tmpdir(), `arbiter-bench-${process.pid}-${seed}.cnf`);
    writeFileSync(file, toCnf(game.create(game.parseConfig({}), seed) as Parameters<typeof toCnf>[0]));
    return file;
  };
  // Warm the match process (a worker keeps its processes) and the original's files in the page cache. Seeds
  // of their own: a measured match's first state is then generated, never one the process remembers.
  for (let i = 0; i < 3; i++) await playMatch({ game: game.id, seed: WARM_SEED + i, seats });
  // And this process's engine on the same seeds, so engineWithOrders's first state is made as warm as the match process makes it.
  for (let i = 0; i < 3; i++) engineWithOrders(game, { config: {}, seed: WARM_SEED + i, rounds: [] });
  originalRun(path, [nativeDummy, nativeDummy, nativeDummy, nativeDummy], SEED, cnfOf(SEED));
  const orig: number[] = [];
  const origNull: number[] = [];
  const nativeSeat: number[] = [];
  const total: number[] = [];
  const seat: number[] = [];
  const fixed: number[] = [];
  const engine: number[] = [];
  const firstStates: number[] = [];
  const replays: Replay[] = [];
  let instrumented = false;
  for (let i = 0; i < RUNS; i++) {
    const seed = SEED + i;
    const cnf = cnfOf(seed);
    const o = originalRun(path, [nativeDummy, nativeDummy, nativeDummy, nativeDummy], seed, cnf);
    const n = originalRun(path, ['Null', 'Null', 'Null', 'Null'], seed, cnf);
    orig.push(o.cpuMs);
    origNull.push(n.cpuMs);
    instrumented = o.seatMs !== null;
    nativeSeat.push(o.seatMs ? o.seatMs.reduce((a, b) => a + b, 0) / 4 : (o.cpuMs - n.cpuMs) / 4);
    await sharedPool.prewarm(1);
    const cpuStart = process.cpuUsage();
    const out = await playMatch({ game: game.id, seed, seats });
    const cpu = cpuSinceMs(cpuStart) + (out.processCpuMs ?? NaN);
    const bots = out.replay.players.reduce((a, p) => a + p.cpuMs, 0);
    if (!out.replayGz) throw new Error('the match process sent no encoded replay');
    const replay = withRoundsFrom({ ...out.replay, rounds: null }, out.replayGz);
    const eng = engineWithOrders(game, replay);
    replays.push(replay);
    total.push(cpu);
    seat.push(bots / 4);
    engine.push(eng.ms);
    firstStates.push(eng.firstState);
    fixed.push(cpu - bots - eng.ms);
    if (game.id === 'bola-de-drac') rmSync(cnf, { force: true });
  }
  const f = (x: number) => x.toFixed(0);
  const whole = median(total) / median(orig);
  const perSeat = median(seat) / median(nativeSeat);
  console.log(`\n${game.title} against the original (${path}), seeds ${SEED}-${SEED + RUNS - 1}, medians, CPU:`);
  console.log(`  original, 4 x ${nativeDummy}, whole process:  ${f(median(orig))} ms (4 x Null: ${f(median(origNull))} ms; runs ${orig.map(f).join(', ')})`);
  console.log(
    `  Arbiter, warm 4 x Dummy match:        ${f(median(total))} ms, ${whole.toFixed(2)}x the original (goal ≤ ${GOALS.againstOriginal}; runs ${total.map(f).join(', ')})`,
  );
  console.log(
    `  a Dummy per seat:                     ${median(seat).toFixed(1)} ms against ${median(nativeSeat).toFixed(1)} ms native (${instrumented ? "the original's play() calls" : '(4 x Dummy - 4 x Null) / 4'}): ${perSeat.toFixed(2)}x (goal ≤ ${GOALS.againstOriginal})`,
  );
  console.log(
    `  fixed cost (match - bots - engine):   ${f(median(fixed))} ms (goal ≤ ${GOALS.fixedMs}; runs ${fixed.map(f).join(', ')}); the engine with these orders ${median(engine).toFixed(1)} ms, its first state (the map) ${median(firstStates).toFixed(1)} of them`,
  );
  const parts = fixedParts(game, replays);
  console.log(
    `  the match process's own parts, in this process (medians of ${parts.reps} passes over these matches, ms a match): views ${parts.views.toFixed(1)}, orders read and checked ${parts.orders.toFixed(1)}, records written ${parts.records.toFixed(1)}, the replay assembled and gzip'd ${parts.replay.toFixed(1)} (${(parts.gzBytes / 1024).toFixed(0)} KiB); ${parts.sum.toFixed(1)} in all`,
  );
  const ok = (x: number, goal: number) => (x <= goal ? 'ok ' : 'OFF');
  return `  ${game.title.padEnd(18)} match ${whole.toFixed(2)}x original ${ok(whole, GOALS.againstOriginal)}  Dummy ${perSeat.toFixed(2)}x native ${ok(perSeat, GOALS.againstOriginal)}  fixed ${f(median(fixed)).padStart(4)} ms ${ok(median(fixed), GOALS.fixedMs)}`;
}

/**
 * CPU of the match process's own work besides the bots and the engine, part by part, on recorded matches'
 * states (the engine replays their orders first, untimed): the bots' view of each round (encodeView and the
 * request collectOrders builds), the orders read and checked (JSON.parse of the orders' text as a bot
 * returns it, here the recorded orders', and validateOrders), the rounds' records written (writeRecord, as
 * playOutAsJson writes them), and the replay's JSON assembled and gzip'd (replayJson, encodeReplayJson). Each
 * part over every match in turn, REPS passes, the median of each (ms a match).
 */
function fixedParts(
  game: AnyGame,
  replays: Replay[],
): { views: number; orders: number; records: number; replay: number; sum: number; gzBytes: number; reps: number } {
  const REPS = 15;
  const matches = replays.map((replay) => {
    const config = game.parseConfig(replay.config);
    let state = game.create(config, replay.seed);
    const states = [state];
    for (const r of replay.rounds.slice(1)) states.push((state = game.next(state, r.orders, r.frozen).state));
    const ordersText = replay.rounds.map((r) => (r.orders as unknown[][]).map((o) => JSON.stringify(o)));
    const roundsJson = Buffer.from(JSON.stringify(replay.rounds).slice(1, -1));
    return { replay, states, ordersText, roundsJson };
  });
  let gzBytes = 0;
  const passes = {
    views: (m: (typeof matches)[number]) => {
      // The last state is the end of the match: no bot sees it.
      for (let r = 0; r < m.states.length - 1; r++) {
        const view = game.encodeView(m.states[r]);
        JSON.stringify(Object.keys(view));
        Object.values(view);
      }
    },
    orders: (m: (typeof matches)[number]) => {
      for (let r = 1; r < m.states.length; r++) for (const [p, text] of m.ordersText[r]!.entries()) game.validateOrders(m.states[r - 1], p, JSON.parse(text));
    },
    records: (m: (typeof matches)[number]) => {
      const out = new JsonWriter(1 << 20);
      for (const [k, r] of m.replay.rounds.entries()) {
        if (k > 0) out.byte(44);
        writeRecord(out, game, { state: m.states[k], round: r.round, orders: r.orders as unknown[][], events: r.events, cpuMs: r.cpuMs, frozen: r.frozen });
      }
    },
    replay: (m: (typeof matches)[number]) => {
      gzBytes = encodeReplayJson(replayJson({ ...m.replay, rounds: null }, m.roundsJson)).length;
    },
  };
  const runs: Record<keyof typeof passes, number[]> = { views: [], orders: [], records: [], replay: [] };
  for (let rep = 0; rep < REPS; rep++)
    for (const name of Object.keys(passes) as (keyof typeof passes)[]) {
      let cpu = 0;
      for (const m of matches) {
        const start = process.cpuUsage();
        passes[name](m);
        cpu += cpuSinceMs(start);
      }
      runs[name].push(cpu / matches.length);
    }
  const views = median(runs.views);
  const orders = median(runs.orders);
  const records = median(runs.records);
  const replay = median(runs.replay);
  return { views, orders, records, replay, sum: views + orders + records + replay, gzBytes, reps: REPS };
}

export async function run(args: string[] = []): Promise<void> {
  const { filter, originals: named, onlyOriginal, runs } = parseGamesArgs(args, deprecatedOriginalsList());
  // The host overhead is measured in this process the way a match process runs its bots.
  const notePath = join(tmpdir(), `arbiter-bench-note-${process.pid}`);
  const meter = installCallMeter(notePath);
  console.log(
    `machine: ${availableParallelism()} core(s), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at start`,
  );
  const summary: string[] = [];
  const games = [...(await loadGames()).values()].filter((g) => !filter?.length || filter.includes(g.id));
  // ARBITER_ORIGINALS's builds, and any named on the command line (which win).
  const originals = new Map([...originalsOf(games.map((g) => g.id)), ...named]);
  if (onlyOriginal && originals.size === 0)
    throw new Error('--only-original with no original: ARBITER_ORIGINALS=<folder> (<folder>/<game>/Game) or --original game=path');
  const versus: string[] = [];
  for (const game of games) {
    const original = originals.get(game.id);
    if (original) versus.push(await againstOriginal(game, original, runs));
    if (onlyOriginal) continue;
    if (!game.bots.builtin['Demo'] || !game.bots.builtin['Null']) {
      console.log(`${game.id}: no Demo/Null bots yet, skipped`);
      continue;
    }
    const demo = await builtinSeat(game.id, 'Demo');
    const seats = [demo, demo, demo, demo];
    const engine = engineOnly(game);
    // Warm the process pool (a worker keeps its processes), then time.
    const coldStart = process.hrtime.bigint();
    await playMatch({ game: game.id, seed: SEED, seats });
    const cold = ms(coldStart);
    // Both hosts timed warm: the match process's JIT with five matches (a process plays 100 before it
    // is replaced), this process's with the engine runs above and one in-process match.
    let warm = 0;
    for (let i = 1; i < 5; i++) {
      const start = process.hrtime.bigint();
      await playMatch({ game: game.id, seed: SEED + i, seats });
      warm = ms(start);
    }
    const RUNS = Math.min(MAX_RUNS, Math.max(MIN_RUNS, Math.ceil(MIN_FIGURE_MS / warm)));
    await playMatch({ game: game.id, seed: SEED, seats }, { host: 'inprocess' });
    const sandboxRuns: number[] = [];
    const inprocRuns: number[] = [];
    let size = 0;
    let cpu = 0;
    // CPU of a sandboxed match: this process's and what its match process reports for it (all its threads).
    const sandboxCpu: number[] = [];
    const inprocCpu: number[] = [];
    const demoSandbox: number[] = [];
    const demoInproc: number[] = [];
    // The sandboxed matches first, then the in-process ones: an in-process match leaves this process's
    // GC and compiler threads busy for a while after it returns, which a sandboxed match measured next
    // would be charged with (this process's CPU counts in a sandboxed match's).
    await settle();
    for (let i = 0; i < RUNS; i++) {
      await sharedPool.prewarm(1);
      const start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      const out = await playMatch({ game: game.id, seed: SEED + i, seats });
      sandboxRuns.push(ms(start));
      sandboxCpu.push(cpuSinceMs(cpuStart) + (out.processCpuMs ?? NaN));
      demoSandbox.push(out.replay.players[0]!.cpuMs);
      if (!out.replayGz) throw new Error('the match process sent no encoded replay');
      size = out.replayGz.length;
      cpu = Math.max(...out.replay.players.map((p) => p.cpuMs));
    }
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      const inproc = await playMatch({ game: game.id, seed: SEED + i, seats }, { host: 'inprocess' });
      // The match process encodes its replay for the recorder; a judge without the sandbox would encode it too.
      encodeReplay(inproc.replay);
      inprocRuns.push(ms(start));
      inprocCpu.push(cpuSinceMs(cpuStart));
      demoInproc.push(inproc.replay.players[0]!.cpuMs);
    }
    // Seat 0's own CPU with one Demo and three Nulls: four identical bots in one process share their JIT
    // warm-up (each runs about twice as fast in-process as alone), which isolates by design do not.
    const nul = await builtinSeat(game.id, 'Null');
    const soloSeats = [demo, nul, nul, nul];
    const soloSandbox: number[] = [];
    const soloInproc: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      soloSandbox.push((await playMatch({ game: game.id, seed: SEED + i, seats: soloSeats })).replay.players[0]!.cpuMs);
      soloInproc.push((await playMatch({ game: game.id, seed: SEED + i, seats: soloSeats }, { host: 'inprocess' })).replay.players[0]!.cpuMs);
    }
    const soloTax = median(soloSandbox) / median(soloInproc);
    const sandboxed = median(sandboxRuns);
    const inproc = median(inprocRuns);
    const [sandboxCall, inprocCall] = await callOverheads(
      game,
      [
        { host: new IsolateBotHost(), ...nul },
        { host: new InProcessBotHost(), ...nul },
      ],
      SEED,
    );
    const compile = await compileCost(demo.source, demo.filename);
    const isolateLoad = await isolateLoadCost(game, demo.source, demo.filename);
    console.log(`\n${game.title} (${engine.rounds} rounds, seed ${SEED}+)`);
    console.log(`  engine only, no bots:                 ${engine.ms.toFixed(1)} ms per match`);
    console.log(`  4 x Demo sandboxed (warm pool):       ${sandboxed.toFixed(0)} ms per match (first match, cold pool: ${cold.toFixed(0)} ms)`);
    console.log(`  4 x Demo as in-process functions:     ${inproc.toFixed(0)} ms per match`);
    const tax = sandboxed / inproc;
    const cpuTax = median(sandboxCpu) / median(inprocCpu);
    const overhead = sandboxCall.cpuUs - inprocCall.cpuUs;
    console.log(
      `  sandbox tax (sandboxed / in-process): ${tax.toFixed(2)} in wall time, ${cpuTax.toFixed(2)} in CPU time (goal ≤ ${GOALS.sandboxTax}; wall: ${sandboxRuns.map((x) => x.toFixed(0)).join(', ')} / ${inprocRuns.map((x) => x.toFixed(0)).join(', ')} ms; CPU: ${sandboxCpu.map((x) => x.toFixed(0)).join(', ')} / ${inprocCpu.map((x) => x.toFixed(0)).join(', ')} ms)`,
    );
    console.log(
      `  one Demo's CPU, sandboxed / in-process: ${(median(demoSandbox) / median(demoInproc)).toFixed(2)} among four Demos (${median(demoSandbox).toFixed(0)} / ${median(demoInproc).toFixed(0)} ms), ` +
        `${soloTax.toFixed(2)} among three Nulls (${median(soloSandbox).toFixed(0)} / ${median(soloInproc).toFixed(0)} ms)`,
    );
    console.log(
      `  host overhead per bot call:           ${overhead.toFixed(0)} µs of CPU (goal ≤ ${GOALS.callOverheadUs}; a call costs ${sandboxCall.cpuUs.toFixed(0)} µs sandboxed, ${inprocCall.cpuUs.toFixed(0)} µs in-process; wall ${sandboxCall.wallUs.toFixed(0)} µs and ${inprocCall.wallUs.toFixed(0)} µs)`,
    );
    summary.push(
      `  ${game.title.padEnd(18)} tax ${tax.toFixed(2)} wall, ${cpuTax.toFixed(2)} CPU ${Math.min(tax, cpuTax) <= GOALS.sandboxTax ? 'ok ' : 'OFF'} (a Demo alone among Nulls: ${soloTax.toFixed(2)})   overhead ${overhead.toFixed(0).padStart(4)} µs CPU ${overhead <= GOALS.callOverheadUs ? 'ok' : 'OFF'} (wall ${(sandboxCall.wallUs - inprocCall.wallUs).toFixed(0)} µs)`,
    );
    console.log(`  Demo compile (own esbuild process):   ${compile.toFixed(1)} ms (${(demo.source.length / 1024).toFixed(0)} KiB of source)`);
    console.log(
      `  a Demo's load and close:             ${isolateLoad.fresh.toFixed(1)} ms of CPU in a new isolate (made, the prelude and the bot compiled and loaded, disposed), ${isolateLoad.spare.toFixed(1)} ms in its spare from its last match (four per match)`,
    );
    console.log(`  Demo CPU per match (max of 4):        ${cpu.toFixed(0)} ms of ${game.defaultLimits.cpuBudgetMs} ms budget`);
    console.log(`  replay size, gzip:                    ${(size / 1024).toFixed(0)} KiB`);
  }
  console.log(
    `\nsummary (goals: tax ≤ ${GOALS.sandboxTax}, host overhead ≤ ${GOALS.callOverheadUs} µs per call; under load the CPU figures are the ones to trust), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the end:`,
  );
  for (const line of summary) console.log(line);
  if (versus.length) {
    console.log(`\nagainst the originals (goals: ≤ ${GOALS.againstOriginal}x, fixed ≤ ${GOALS.fixedMs} ms):`);
    for (const line of versus) console.log(line);
  }
  meter.close();
  rmSync(notePath, { force: true });
  sharedPool.shutdown();
}
