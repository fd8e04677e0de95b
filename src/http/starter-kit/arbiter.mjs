#!/usr/bin/env node
// The starter kit's command line, with nothing but Node (20 or newer), run in this folder:
//
//   node arbiter.mjs play MyBot.ts [Dummy Demo Null] [--seed 7] [-o match.json]   one match, here
//   node arbiter.mjs eval MyBot.ts [Dummy Dummy Dummy] --seeds 1-100               many seeds: wins, CPU, freezes
//   node arbiter.mjs submit MyBot.ts                                               to the judge, then its verdict
//   node arbiter.mjs verify match.json                                             re-run a replay, check every state
//   node arbiter.mjs view match.json                                               watch a replay in the browser
//
// (`node play.mjs ...` is `node arbiter.mjs play ...`.) Your file is compiled
// by the judge's own compile (POST /api/play/compile on the site this kit came
// from; a C++ file needs your API token: ARBITER_TOKEN, --token, or "token" in
// ~/.config/arbiter.json) and kept in .cache/ by its content: playing the same
// file again compiles nothing. Matches are played here by the judge's match
// loop and engine (play/runner.mjs), so a seed gives the judge's match with
// the same players; only CPU times differ. The judge's CPU budget applies:
// each match is played in a worker thread while this thread watches the
// process's CPU during every bot call; a bot past its budget is stopped
// there and the match is played again from its seed with that bot frozen
// from that round, with the judge's reason, as the judge does.

import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { availableParallelism, homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);
const runnerUrl = pathToFileURL(join(here, 'play', 'runner.mjs')).href;

/** How often the watcher looks at the CPU while a call runs: a bot overruns its budget by about this much before it is stopped. */
const POLL_MS = 5;
/** A replay file read by verify or view: refused past this size, and past this size once inflated (before it is parsed). */
const MAX_REPLAY_FILE_BYTES = 64 * 1024 * 1024;
const MAX_REPLAY_JSON_BYTES = 256 * 1024 * 1024;
/** Progress when not on a terminal (a pipe, a file, CI): a line this often. */
const PLAIN_PROGRESS_MS = 3000;

/**
 * The round people read for a stored freeze round: the value of round() in the bot's code when it froze
 * (the replay numbers a play() by the round it makes, 1 for the first). The judge's roundShown (its
 * src/sdk/replay-format.ts) says the same.
 */
const roundShown = (stored) => Math.max(0, stored - 1);

class Stop extends Error {
  constructor(message, code = 2) {
    super(message);
    this.code = code;
  }
}

const USAGE = {
  play: 'node arbiter.mjs play <your bot file> [<player> ...] [--seed N] [-o replay.json] [--set key=value] [--cpu-budget MS] [--url URL] [--token TOKEN] [--quiet]',
  eval: 'node arbiter.mjs eval <your bot file> [<player> ...] [--seeds 1-100 | --seeds 3,7,9] [--jobs N] [--set key=value] [--cpu-budget MS] [--json]',
  submit: 'node arbiter.mjs submit <your bot file> [--url URL] [--token TOKEN] [--no-follow]',
  verify: 'node arbiter.mjs verify <replay.json[.gz]>',
  view: 'node arbiter.mjs view <replay.json[.gz]> [--port N] [--no-open] [--url URL]',
};

function usage() {
  return ['usage:', ...Object.values(USAGE).map((u) => `  ${u}`), '', '(node play.mjs ... is node arbiter.mjs play ...)'].join('\n');
}

function readKit() {
  return JSON.parse(readFileSync(join(here, 'play', 'kit.json'), 'utf8'));
}

function configFile() {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const path = join(base, 'arbiter.json');
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    throw new Stop(`${path} is not JSON ({"url": ..., "token": ...})`);
  }
}

/** The site and token: --url/--token, else ARBITER_URL/ARBITER_TOKEN, else ~/.config/arbiter.json, else (the site) the one this kit came from. */
function siteOf(values, kit) {
  const file = configFile();
  const url = String(values.url || process.env.ARBITER_URL || file.url || kit.url).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Stop(`the site's address must start with http:// or https://, got "${url}"`);
  const token = values.token || process.env.ARBITER_TOKEN || (typeof file.token === 'string' ? file.token : '') || '';
  return { url, token };
}

function parse(command, argv, options) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new Stop(`${err.message}\nusage: ${USAGE[command]}`);
  }
}

/** A shell word as it is, or quoted. */
const arg = (s) => (/^[\w./=,:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** --set key=value (a number when it reads as one, @file for a file's text). */
function readSettings(sets) {
  const config = {};
  for (const kv of sets ?? []) {
    const m = /^([A-Za-z_]\w*)=(.*)$/.exec(kv);
    if (!m) throw new Stop(`--set wants key=value, got "${kv}"`);
    const n = Number(m[2]);
    config[m[1]] = m[2].startsWith('@') ? readFileSync(m[2].slice(1), 'utf8') : m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }
  return config;
}

/** The game's limits from kit.json (the judge's), the budget lowered or raised by --cpu-budget. */
function limitsOf(kit, values) {
  const limits = { ...kit.limits };
  if (values['cpu-budget'] !== undefined) {
    const ms = Number(values['cpu-budget']);
    if (!/^\d+$/.test(values['cpu-budget']) || ms < 1) throw new Stop(`--cpu-budget wants milliseconds (a whole number from 1), got "${values['cpu-budget']}"`);
    limits.cpuBudgetMs = ms;
  }
  return limits;
}

/** The players: the student's file first, then the others (none: the Dummy, or the kit's first built-in, in every other seat). */
function seatNames(kit, command, positionals) {
  const builtins = Object.keys(kit.builtins);
  const [mine, ...others] = positionals;
  if (!mine) throw new Stop(`which file?\nusage: ${USAGE[command]}`);
  const nOthers = kit.nbPlayers - 1;
  const fallback = builtins.includes('Dummy') ? 'Dummy' : builtins[0];
  if (others.length !== 0 && others.length !== nOthers)
    throw new Stop(`${kit.title} has ${kit.nbPlayers} players: your file and ${nOthers} more (or none: ${fallback} plays them)`);
  return [mine, ...(others.length ? others : Array(nOthers).fill(fallback))];
}

/** Each seat compiled by the judge (the judge's own compile), from .cache/ when this kit compiled the same file before. */
async function compileSeats(kit, names, site, quiet) {
  const cacheDir = join(here, '.cache');
  const builtins = Object.keys(kit.builtins);
  const done = new Map();
  async function compile(path) {
    let source;
    try {
      source = await readFile(path, 'utf8');
    } catch (err) {
      throw new Stop(`${path}: ${err.code === 'ENOENT' ? `no such file (built-in players: ${builtins.join(', ')})` : err.message}`);
    }
    const filename = basename(path);
    const ext = (/\.[^.]*$/.exec(filename)?.[0] ?? '').toLowerCase();
    const key = createHash('sha256').update(`${kit.version}\0${kit.game}\0${ext}\0`).update(source).digest('hex');
    const cached = join(cacheDir, `${key}.json`);
    if (existsSync(cached)) {
      try {
        return { filename, source, compiled: JSON.parse(await readFile(cached, 'utf8')) };
      } catch {
        /* a damaged entry: compile again */
      }
    }
    if (!quiet) process.stderr.write(`compiling ${filename} on ${site.url}…\n`);
    const started = Date.now();
    let res;
    try {
      res = await fetch(`${site.url}/api/play/compile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(site.token ? { authorization: `Bearer ${site.token}` } : {}) },
        body: JSON.stringify({ filename, source, game: kit.game }),
      });
    } catch (err) {
      throw new Stop(
        `cannot reach ${site.url} to compile ${filename}: ${err.cause?.message ?? err.message} (--url, ARBITER_URL or "url" in ~/.config/arbiter.json name the site)`,
        1,
      );
    }
    const body = await res.json().catch(() => ({}));
    if (res.status === 401)
      throw new Stop(
        `${site.url} compiles C++ for signed-in users: give your API token (ARBITER_TOKEN, --token, or "token" in ~/.config/arbiter.json; get one with POST ${site.url}/api/tokens {"username","password"})${body.message ? `\n${body.message}` : ''}`,
      );
    if (!res.ok) throw new Stop(`${site.url} did not compile ${filename} (HTTP ${res.status}${body.code ? ` ${body.code}` : ''}): ${body.message ?? ''}`, 1);
    if (typeof body.error === 'string') throw new Stop(body.error);
    if (typeof body.code !== 'string') throw new Stop(`${site.url} answered no compiled player for ${filename}`, 1);
    if (!quiet) process.stderr.write(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await mkdir(cacheDir, { recursive: true });
    await writeFile(`${cached}.partial`, JSON.stringify(body));
    await rename(`${cached}.partial`, cached);
    return { filename, source, compiled: body };
  }
  const seats = [];
  for (const name of names) {
    if (Object.hasOwn(kit.builtins, name)) seats.push(kit.builtins[name]);
    else {
      if (!done.has(name)) done.set(name, await compile(name));
      seats.push(done.get(name));
    }
  }
  return seats;
}

// ---------------------------------------------------------------------------
// A match in a worker thread, its bots' CPU watched from this thread.

/**
 * One warm worker thread that plays matches of the same seats. While a bot's
 * call runs, this thread reads the process's CPU every POLL_MS; past the
 * bot's budget it ends the thread (an endless loop included) and plays the
 * match again from its seed with that bot frozen from that round, as the
 * judge's match pool does after a bot brought its match process down. The
 * process must run nothing else meanwhile: its CPU is the bot's.
 */
class MatchThread {
  constructor(setup, { cpuBudgetUsedUp, memoryLimitExceeded, METER_BYTES: meterBytes }) {
    this.setup = setup;
    this.cpuBudgetUsedUp = cpuBudgetUsedUp;
    this.memoryLimitExceeded = memoryLimitExceeded;
    this.meterBytes = meterBytes;
    this.worker = null;
  }

  start() {
    this.meter = new SharedArrayBuffer(this.meterBytes);
    this.ints = new Int32Array(this.meter, 0, 4);
    this.floats = new Float64Array(this.meter, 16, 2);
    // Memory is not limited per bot here, but the thread's heap is: the bots' limits together and room for the
    // engine and the replay. A bot whose call fills it is frozen for memory, as the judge freezes a bot past its limit.
    const heapMb = this.setup.seats.length * this.setup.limits.memoryMb + 512;
    this.worker = new Worker(self, { workerData: { arbiterMatchThread: true, meter: this.meter }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    this.worker.postMessage({ t: 'setup', setup: this.setup });
  }

  /**
   * The match for `seed`, played again as often as bots go past their limits; `reruns`: the freezes that took.
   * `summaryOnly`: the worker answers eval's summary of the match (evalMatch), not its replay and logs.
   */
  async play(seed, onRound, summaryOnly = false) {
    const forced = [];
    for (;;) {
      if (!this.worker) this.start();
      const end = await this.once(seed, forced, onRound, summaryOnly);
      if (end.t === 'done') return { replay: end.replay, logs: end.logs, match: end.match, reruns: forced };
      this.worker = null;
      const budget = this.setup.limits.cpuBudgetMs;
      const earlier = forced.findIndex((f) => f.seat === end.seat);
      if (earlier >= 0 && forced[earlier].round <= end.round)
        throw new Stop(`seat ${end.seat} went past its limits again after its freeze: a fault of the kit`, 70);
      if (earlier >= 0) forced.splice(earlier, 1);
      const message = end.reason === 'memory' ? this.memoryLimitExceeded(this.setup.limits.memoryMb) : this.cpuBudgetUsedUp(budget);
      forced.push({ seat: end.seat, round: end.round, reason: end.reason, message, cpuMs: end.cpuMs });
    }
  }

  once(seed, forced, onRound, summaryOnly) {
    const { worker, ints, floats } = this;
    const budget = this.setup.limits.cpuBudgetMs;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (fn, value) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        fn(value);
      };
      const watch = setInterval(() => {
        if (Atomics.load(ints, 0) !== 1) return;
        const gen = Atomics.load(ints, 3);
        const seat = ints[1];
        const round = ints[2];
        const startUs = floats[0];
        const before = floats[1];
        const now = process.cpuUsage();
        const callMs = (now.user + now.system - startUs) / 1000;
        if (before + callMs <= budget) return;
        // Still the same call (it did not end while we read)?
        if (Atomics.load(ints, 0) !== 1 || Atomics.load(ints, 3) !== gen) return;
        finish(resolve, { t: 'over', reason: 'cpu', seat, round, cpuMs: callMs });
        worker.terminate().catch(() => {});
      }, POLL_MS);
      const onMessage = (msg) => {
        if (msg.t === 'round') onRound?.(msg.round, msg.total);
        else if (msg.t === 'done') finish(resolve, msg);
        else if (msg.t === 'error') finish(reject, new Stop(`the match failed (a fault of the kit, not of a bot): ${msg.message}`, 70));
      };
      const onError = (err) => {
        // The heap filled up during a bot's call: that bot's doing.
        if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY' && Atomics.load(ints, 0) === 1) {
          const now = process.cpuUsage();
          finish(resolve, { t: 'over', reason: 'memory', seat: ints[1], round: ints[2], cpuMs: Math.max(0, (now.user + now.system - floats[0]) / 1000) });
          return;
        }
        finish(reject, new Stop(`the match thread failed: ${err.stack ?? err}`, 70));
      };
      const onExit = (code) => finish(reject, new Stop(`the match thread ended (code ${code})`, 70));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ t: 'match', seed, forced, summaryOnly });
    });
  }

  async close() {
    if (this.worker) await this.worker.terminate();
    this.worker = null;
  }
}

/** The worker thread's side: plays each match it is sent with the kit's runner, the meter marking every call. */
async function matchThreadMain() {
  const { run, evalMatch } = await import(runnerUrl);
  let setup = null;
  let builtinCodes;
  parentPort.on('message', async (msg) => {
    if (msg.t === 'setup') {
      setup = msg.setup;
      builtinCodes = new Set(setup.builtinCodes ?? []);
      return;
    }
    let last = 0;
    try {
      const { replay, logs } = await run({
        seed: msg.seed,
        seats: setup.seats,
        prelude: setup.prelude,
        config: setup.config,
        limits: setup.limits,
        forced: msg.forced,
        meter: workerData.meter,
        builtinCodes,
        lastRoundOnly: msg.summaryOnly === true,
        onRound: (round, total) => {
          const now = Date.now();
          if (now - last < 100 && round < total) return;
          last = now;
          parentPort.postMessage({ t: 'round', round, total });
        },
      });
      // eval keeps no frames: only the summary crosses to the other thread.
      if (msg.summaryOnly) parentPort.postMessage({ t: 'done', match: evalMatch(msg.seed, replay, msg.forced.length) });
      else parentPort.postMessage({ t: 'done', replay, logs });
    } catch (err) {
      parentPort.postMessage({ t: 'error', message: String(err?.stack ?? err) });
    }
  });
}

async function newMatchThread(setup) {
  return new MatchThread(setup, await import(runnerUrl));
}

/** A progress line on stderr: rewritten in place on a terminal, a plain line every few seconds elsewhere. */
function progress(quiet) {
  const tty = process.stderr.isTTY === true;
  let shown = 0;
  let text = '';
  return {
    show(line, force = false) {
      if (quiet) return;
      const now = Date.now();
      if (!force && now - shown < (tty ? 100 : PLAIN_PROGRESS_MS)) return;
      shown = now;
      text = line;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    done() {
      if (!quiet && tty && text) process.stderr.write('\r\x1b[K');
      text = '';
    },
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

function freezeText(p) {
  return p.frozenRound === null ? '' : `frozen in round ${roundShown(p.frozenRound)} (${p.frozenReason}): ${p.frozenMessage}`;
}

// ---------------------------------------------------------------------------
// play

async function playCommand(argv) {
  const { values, positionals } = parse('play', argv, {
    seed: { type: 'string', short: 's' },
    output: { type: 'string', short: 'o' },
    set: { type: 'string', multiple: true },
    'cpu-budget': { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (values.help) return (console.log(`usage: ${USAGE.play}`), 0);
  const kit = readKit();
  const names = seatNames(kit, 'play', positionals);
  let seed = Math.floor(Math.random() * 0x7fffffff);
  if (values.seed !== undefined) seed = readSeed(values.seed, '--seed');
  const config = readSettings(values.set);
  const limits = limitsOf(kit, values);
  const site = siteOf(values, kit);
  const seats = await compileSeats(kit, names, site, values.quiet);

  const thread = await newMatchThread({ seats, prelude: kit.prelude, config, limits });
  const line = progress(values.quiet);
  const started = Date.now();
  const { replay, logs, reruns } = await thread.play(seed, (round, total) => line.show(`${kit.title}, seed ${seed}: round ${round}/${total}`));
  await thread.close();
  line.done();
  const output = values.output ?? `${kit.game}-seed-${seed}.json`;
  await writeFile(output, JSON.stringify(replay));
  console.log(`${kit.title}, seed ${seed}, ${replay.rounds.length - 1} rounds, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const [i, p] of replay.players.entries()) {
    const frozen = p.frozenRound === null ? '' : `  ${freezeText(p)}`;
    console.log(
      `  ${i}. ${p.name.padEnd(12)} score ${String(replay.result.scores[i]).padStart(6)}  rank ${replay.result.ranks[i]}  cpu ${seconds(p.cpuMs)} of ${seconds(limits.cpuBudgetMs)}${frozen}`,
    );
  }
  for (const f of reruns)
    console.log(
      `(${replay.players[f.seat].name} went past its ${f.reason === 'memory' ? 'memory limit' : 'CPU budget'} in round ${roundShown(f.round)}: stopped there, and the match played again from its seed with it frozen from that round, as the judge does)`,
    );
  for (const [i, log] of logs.entries()) if (log) console.log(`\n--- what ${replay.players[i].name} wrote ---\n${log.replace(/\n$/, '')}`);
  console.log(`\nreplay: ${output} (watch it: node arbiter.mjs view ${arg(output)})`);
  return 0;
}

function readSeed(text, option) {
  if (!/^\d+$/.test(text) || Number(text) > 0x7fffffff) throw new Stop(`${option} wants a whole number from 0 to 2147483647, got "${text}"`);
  return Number(text);
}

// ---------------------------------------------------------------------------
// eval

/**
 * A process of eval's: one warm match thread, the seeds its parent sends one
 * at a time. A process per core rather than threads in one process: a call's
 * CPU is read from the process's CPU, so one process plays one match at a time.
 */
function matchProcessMain() {
  let thread = null;
  // Its parent gone (Ctrl-C, killed): nothing left to play for.
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (msg) => {
    try {
      if (msg.t === 'setup') {
        thread = newMatchThread(msg.setup);
        return;
      }
      if (msg.t === 'stop') {
        await (await thread)?.close();
        // This process's CPU, all of it (its matches, their bots, the watching, its start): eval sums them up.
        const cpu = process.cpuUsage();
        process.send({ t: 'cpu', ms: (cpu.user + cpu.system) / 1000 }, () => process.disconnect());
        return;
      }
      const { match } = await (await thread).play(msg.seed, undefined, true);
      process.send({ t: 'result', match });
    } catch (err) {
      process.send({ t: 'failed', seed: msg.seed, message: err.message ?? String(err) });
    }
  });
}

async function evalCommand(argv) {
  const { values, positionals } = parse('eval', argv, {
    seeds: { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    set: { type: 'string', multiple: true },
    'cpu-budget': { type: 'string' },
    json: { type: 'boolean' },
    url: { type: 'string' },
    token: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (values.help) return (console.log(`usage: ${USAGE.eval}`), 0);
  const kit = readKit();
  const names = seatNames(kit, 'eval', positionals);
  const { parseSeeds, isWin, summarize, summaryLines } = await import(runnerUrl);
  let seeds;
  try {
    seeds = parseSeeds(values.seeds ?? '1-100');
  } catch (err) {
    throw new Stop(err.message);
  }
  const config = readSettings(values.set);
  const limits = limitsOf(kit, values);
  let jobs = availableParallelism();
  if (values.jobs !== undefined) {
    if (!/^\d+$/.test(values.jobs) || Number(values.jobs) < 1) throw new Stop(`--jobs wants a whole number from 1, got "${values.jobs}"`);
    jobs = Number(values.jobs);
  }
  jobs = Math.max(1, Math.min(jobs, seeds.length));
  const site = siteOf(values, kit);
  const seats = await compileSeats(kit, names, site, values.quiet);
  // The built-ins' contexts stay warm from one match to the next (runner.ts): eval plays many.
  const builtinCodes = Object.values(kit.builtins).flatMap((b) => (typeof b.compiled?.code === 'string' ? [b.compiled.code] : []));
  const setup = { seats, prelude: kit.prelude, config, limits, builtinCodes };

  const line = progress(values.quiet);
  const started = Date.now();
  const results = [];
  const failures = [];
  let processCpuMs = 0;
  let next = 0;
  const report = (force = false) => {
    const won = results.filter(isWin).length;
    line.show(`${kit.title}: ${results.length + failures.length}/${seeds.length} matches, ${won} won, ${((Date.now() - started) / 1000).toFixed(0)} s`, force);
  };
  const ticker = setInterval(report, 1000);
  try {
    await Promise.all(
      Array.from({ length: jobs }, () => {
        const child = fork(self, ['--match-process'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
        return new Promise((resolve, reject) => {
          const give = () => {
            if (next >= seeds.length) {
              child.send({ t: 'stop' });
              return;
            }
            child.send({ t: 'match', seed: seeds[next++] });
          };
          child.on('message', (msg) => {
            if (msg.t === 'cpu') {
              processCpuMs += msg.ms;
              return;
            }
            if (msg.t === 'result') results.push(msg.match);
            else failures.push({ seed: msg.seed, message: msg.message });
            report();
            give();
          });
          child.on('error', reject);
          child.on('exit', (code, signal) => {
            if (code === 0 || next >= seeds.length) resolve();
            else reject(new Stop(`a match process ended (${signal ?? `code ${code}`})`, 70));
          });
          child.send({ t: 'setup', setup });
          give();
        });
      }),
    );
  } finally {
    clearInterval(ticker);
  }
  report(true);
  line.done();
  const summary = summarize({
    game: kit.game,
    players: names,
    seeds,
    matches: results,
    failed: failures,
    cpuBudgetMs: limits.cpuBudgetMs,
    jobs,
    wallMs: Date.now() - started,
    processCpuMs,
    playLine: (seed) => playLine(names, seed, config),
  });
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else for (const line of summaryLines(summary)) console.log(line);
  return failures.length ? 1 : 0;
}

function playLine(names, seed, config) {
  const sets = Object.entries(config)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
    .map(([k, v]) => ` --set ${arg(`${k}=${v}`)}`)
    .join('');
  return `node arbiter.mjs play ${names.map(arg).join(' ')} --seed ${seed}${sets}`;
}

// ---------------------------------------------------------------------------
// verify

/** A replay file as JSON (gzip'd or not), its size and its inflated size capped before anything is parsed. */
function readReplayFile(file) {
  let size;
  try {
    size = statSync(file).size;
  } catch (err) {
    throw new Stop(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  if (size > MAX_REPLAY_FILE_BYTES) throw new Stop(`${file} is ${(size / 2 ** 20).toFixed(0)} MiB: a replay is at most ${MAX_REPLAY_FILE_BYTES / 2 ** 20} MiB`);
  let data = readFileSync(file);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: MAX_REPLAY_JSON_BYTES });
    } catch (err) {
      if (err.code === 'ERR_BUFFER_TOO_LARGE' || /too large|maxOutputLength/i.test(err.message))
        throw new Stop(`${file} inflates past ${MAX_REPLAY_JSON_BYTES / 2 ** 20} MiB: not a replay`);
      throw new Stop(`${file} is not a gzip'd replay: ${err.message}`);
    }
  }
  if (data.length > MAX_REPLAY_JSON_BYTES) throw new Stop(`${file} is past ${MAX_REPLAY_JSON_BYTES / 2 ** 20} MiB: not a replay`);
  let replay;
  try {
    replay = JSON.parse(data.toString('utf8'));
  } catch (err) {
    throw new Stop(`${file} is not a replay (not JSON: ${err.message})`);
  }
  if (!replay || typeof replay !== 'object' || !Array.isArray(replay.rounds) || !Array.isArray(replay.players) || typeof replay.game !== 'string')
    throw new Stop(`${file} is not a replay (no game, players or rounds)`);
  return { data, replay };
}

async function verifyCommand(argv) {
  const { values, positionals } = parse('verify', argv, {});
  if (values.help) return (console.log(`usage: ${USAGE.verify}`), 0);
  if (positionals.length !== 1) throw new Stop(`which replay?\nusage: ${USAGE.verify}`);
  const kit = readKit();
  const { replay } = readReplayFile(positionals[0]);
  if (replay.game !== kit.game) throw new Stop(`${positionals[0]} is a ${replay.game} replay: this kit verifies ${kit.game}'s`);
  const { verify, reportVerification } = await import(runnerUrl);
  let result;
  try {
    result = verify(replay);
  } catch (err) {
    result = { ok: false, round: 0, message: `the replay cannot be re-run: ${err.message}` };
  }
  return reportVerification(replay, result);
}

// ---------------------------------------------------------------------------
// view

/**
 * Serves the replay at /replay on this machine, with the site's own viewer:
 * every other address is fetched from the site this kit came from (its /view
 * page and its scripts), so the viewer is the site's, the file never leaves
 * this machine, and / opens the viewer on it.
 */
async function viewCommand(argv) {
  const { values, positionals } = parse('view', argv, { port: { type: 'string', short: 'p' }, 'no-open': { type: 'boolean' }, url: { type: 'string' } });
  if (values.help) return (console.log(`usage: ${USAGE.view}`), 0);
  if (positionals.length !== 1) throw new Stop(`which replay?\nusage: ${USAGE.view}`);
  const kit = readKit();
  const file = positionals[0];
  const { data, replay } = readReplayFile(file);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Stop(`--port wants a whole number from 0 to 65535, got "${values.port}"`);
  const { url: site } = siteOf(values, kit);
  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    if (path === '/' || path === '/index.html') {
      res.writeHead(302, { location: '/view?replay=/replay' }).end();
      return;
    }
    if (path === '/replay') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(data);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('only GET here\n');
      return;
    }
    try {
      const upstream = await fetch(site + path, { headers: { 'accept-language': req.headers['accept-language'] ?? 'en' } });
      const body = Buffer.from(await upstream.arrayBuffer());
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' })
        .end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res
        .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`the viewer comes from ${site}, which did not answer: ${err.cause?.message ?? err.message}\n`);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new Stop(`cannot listen on 127.0.0.1:${port}: ${err.code === 'EADDRINUSE' ? 'the port is in use' : err.message}`)));
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = `http://127.0.0.1:${server.address().port}/`;
  console.log(`${replay.title ?? replay.game}, seed ${replay.seed}, ${replay.rounds.length - 1} rounds: ${replay.players.map((p) => p.name).join(', ')}`);
  console.log(`viewer at ${address} (the viewer comes from ${site}; the replay stays here)`);
  console.log('press Ctrl+C to stop');
  if (!values['no-open']) openBrowser(address);
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  server.close();
  return 0;
}

/** Best effort: without an opener the user opens the printed address. */
async function openBrowser(url) {
  const { spawn } = await import('node:child_process');
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: process.platform === 'win32' });
    child.on('error', () => console.log(`(no ${cmd} here: open the address above in a browser)`));
    child.unref();
  } catch {
    console.log('(could not start a browser: open the address above)');
  }
}

// ---------------------------------------------------------------------------
// submit (the repository's `arbiter submit`: its code, in play/runner.mjs)

async function submitCommand(argv) {
  const { values, positionals } = parse('submit', argv, { url: { type: 'string' }, token: { type: 'string' }, 'no-follow': { type: 'boolean' } });
  if (values.help) return (console.log(`usage: ${USAGE.submit}`), 0);
  if (positionals.length !== 1) throw new Stop(positionals.length === 0 ? `which file?\nusage: ${USAGE.submit}` : `one file at a time\nusage: ${USAGE.submit}`);
  const kit = readKit();
  const file = positionals[0];
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Stop(`cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  const site = siteOf(values, kit);
  if (!site.token)
    throw new Stop(
      `no token: set ARBITER_TOKEN, pass --token, or add "token" to ~/.config/arbiter.json (get one on ${site.url}/account, or with POST ${site.url}/api/tokens {"username","password"})`,
    );
  const { submitAndFollow, SubmitError } = await import(runnerUrl);
  try {
    return await submitAndFollow(site, { game: kit.game, source, filename: basename(file) }, { follow: !values['no-follow'], prefix: '' });
  } catch (err) {
    throw err instanceof SubmitError ? new Stop(err.message, err.exitCode) : err;
  }
}

// ---------------------------------------------------------------------------

const COMMANDS = { play: playCommand, eval: evalCommand, submit: submitCommand, verify: verifyCommand, view: viewCommand };

async function main(argv) {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new Stop(`unknown command "${name}"\n${usage()}`);
  return command(rest);
}

if (!isMainThread && workerData?.arbiterMatchThread) matchThreadMain();
else if (process.argv[2] === '--match-process' && process.send) matchProcessMain();
else if (isMainThread)
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(err instanceof Stop ? err.message : (err?.stack ?? err));
      process.exitCode = err instanceof Stop ? err.code : 70;
    },
  );
