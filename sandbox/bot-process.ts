// A child process that hosts one bot at a time in an isolated-vm isolate. The
// parent (sandbox-host.ts) sends `load`, then one `play` per round, then
// `reset`; it kills this process on a wall-clock watchdog, and the process
// aborts itself on a V8 catastrophic error (process.exit can hang then).
//
// CPU is metered with process.cpuUsage(): this process runs nothing but the
// bot while a call is in flight, and unlike isolate.cpuTime (wall time in this
// build) it does not grow while the core is busy with other matches. A poll
// disposes the isolate the moment the bot's budget for the match is gone, or
// the moment this process's resident memory passes the bot's limit plus what
// the process used before the isolate existed: the isolate's own limit looks
// at heap statistics only, and strings and buffers can take several times
// that in RSS before V8 notices.
//
// Everything a bot controls is cut here, before it crosses IPC: error
// messages and stacks, its log (never more than what is left of its cap), its
// name. The process ignores SIGINT and SIGTERM, so a Ctrl-C or a service
// stop aimed at the worker's group lets the worker finish its matches; it
// exits when its parent goes away (IPC disconnect).
// Must run with --no-node-snapshot.

import ivm from 'isolated-vm';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { capText, cpuSinceMs, describeError, type Failure, type LoadReply, type LoadRequest, type PlayReply } from './host.ts';
import { cpuBudgetUsedUp, MAX_NAME_CHARS, MAX_ORDERS_JSON, memoryLimitExceeded } from '../src/limits.ts';
import type { PlayReturn } from './bot-runtime.ts';
import type { ViewArray } from '../src/game-kit/types.ts';
import type { FreezeReason } from '../src/replay/format.ts';

type Message =
  | { t: 'load'; id: number; req: LoadRequest }
  | { t: 'play'; id: number; names: string; status: string; arrays: ViewArray[] }
  | { t: 'reset'; id: number };

const POLL_MS = 2;
/** RSS allowed above the process's baseline on top of the bot's limit: V8's own pages and allocator slack. */
const RSS_HEADROOM_MB = 32;
/** Room for the runtime's "[log truncated]" line on top of the log cap. */
const LOG_SLACK = 256;

interface Bot {
  isolate: ivm.Isolate;
  play: ivm.Reference<unknown>;
  drainLog: ivm.Reference<unknown>;
  budgetMs: number;
  usedMs: number;
  memoryMb: number;
  /** Resident memory (bytes) past which the bot is frozen for memory. */
  rssLimit: number;
  /** Log characters the bot may still send up this match. */
  logLeft: number;
  /** Set when this process, not the bot, disposed the isolate. */
  stoppedFor: FreezeReason | null;
}

let bot: Bot | null = null;
/** CPU at the start of the call in flight, for the report of a catastrophic error. */
let callStart: NodeJS.CpuUsage | null = null;

/** The part of `text` that fits in what is left of the bot's log cap. */
function takeLog(b: Bot | null, text: unknown): string {
  if (!b) return '';
  const s = typeof text === 'string' ? text : '';
  const out = s.length > b.logLeft ? s.slice(0, b.logLeft) : s;
  b.logLeft -= out.length;
  return out;
}

function send(reply: object): void {
  process.send!(reply);
}

/** This process's data segment and private writable mappings, bytes (what RLIMIT_DATA counts). */
function dataBytes(): number | null {
  try {
    const m = /VmData:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Caps what this process can commit from now on (RLIMIT_DATA, soft limit,
 * through util-linux's prlimit): one allocation of hundreds of MiB happens
 * between two polls, and this makes it fail, so V8 ends in its catastrophic
 * out-of-memory error instead of the machine swapping. Where prlimit or
 * /proc is missing, the RSS poll alone stands.
 */
function capData(extraBytes: number): void {
  const now = dataBytes();
  if (now === null) return;
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--data=${now + extraBytes}:`], { stdio: 'ignore', timeout: 2000 });
  } catch {
    /* not available here */
  }
}

function disposeQuietly(isolate: ivm.Isolate): void {
  try {
    if (!isolate.isDisposed) isolate.dispose();
  } catch {
    /* already gone */
  }
}

/** Runs `work` while watching this process's CPU; disposes the isolate past the budget. */
async function metered<T>(b: Bot, work: () => Promise<T>): Promise<{ value?: T; error?: unknown; cpuMs: number }> {
  const start = process.cpuUsage();
  callStart = start;
  const left = b.budgetMs - b.usedMs;
  const poll = setInterval(() => {
    if (cpuSinceMs(start) > left) {
      b.stoppedFor = 'cpu';
      disposeQuietly(b.isolate);
    } else if (process.memoryUsage.rss() > b.rssLimit) {
      b.stoppedFor = 'memory';
      disposeQuietly(b.isolate);
    }
  }, POLL_MS);
  try {
    const value = await work();
    return { value, cpuMs: cpuSinceMs(start) };
  } catch (error) {
    return { error, cpuMs: cpuSinceMs(start) };
  } finally {
    clearInterval(poll);
    callStart = null;
    b.usedMs += cpuSinceMs(start);
  }
}

function overMemory(b: Bot): boolean {
  if (b.isolate.isDisposed) return false;
  try {
    const h = b.isolate.getHeapStatisticsSync();
    return h.used_heap_size + h.externally_allocated_size > b.memoryMb * 1024 * 1024;
  } catch {
    return false;
  }
}

function failure(b: Bot | null, error: unknown, cpuMs: number, log: string, fallback: FreezeReason): Failure {
  const message = describeError(error);
  let reason: FreezeReason = fallback;
  if (b?.stoppedFor) reason = b.stoppedFor;
  else if (/memory limit|out of memory|allocation failed|array buffer allocation/i.test(message)) reason = 'memory';
  else if (b?.isolate.isDisposed) reason = 'memory';
  const text =
    reason === 'cpu' && b ? cpuBudgetUsedUp(b.budgetMs) : reason === 'memory' && b ? memoryLimitExceeded(b.memoryMb) : message;
  return { ok: false, reason, message: capText(text), log: takeLog(b, log), cpuMs };
}

function memoryFailure(b: Bot, cpuMs: number, log: string): Failure {
  return { ok: false, reason: 'memory', message: memoryLimitExceeded(b.memoryMb), log: takeLog(b, log), cpuMs };
}

function drain(b: Bot): string {
  if (b.isolate.isDisposed) return '';
  try {
    return String(b.drainLog.applySync(undefined, [], { timeout: 50 }) ?? '');
  } catch {
    return '';
  }
}

async function load(req: LoadRequest): Promise<LoadReply> {
  if (bot) disposeQuietly(bot.isolate);
  const baseline = process.memoryUsage.rss();
  const isolate = new ivm.Isolate({
    memoryLimit: req.memoryMb,
    onCatastrophicError: (message) => {
      // Synchronous write: the parent reads it even though we abort right after.
      try {
        const cpuMs = callStart ? cpuSinceMs(callStart) : 0;
        writeSync(2, `ARBITER_CATASTROPHIC cpu=${cpuMs.toFixed(3)} ${String(message).slice(0, 500)}\n`);
      } catch {
        /* nothing left to do */
      }
      process.abort();
    },
  });
  capData((req.memoryMb + RSS_HEADROOM_MB) * 1024 * 1024);
  const context = await isolate.createContext();
  const handle = (await (await isolate.compileScript(req.prelude, { filename: 'prelude.js' })).run(context, {
    reference: true,
  })) as ivm.Reference<Record<string, unknown>>;
  const get = (name: string) => handle.getSync(name, { reference: true }) as ivm.Reference<unknown>;
  const b: Bot = {
    isolate,
    play: get('play'),
    drainLog: get('drainLog'),
    budgetMs: req.cpuBudgetMs,
    usedMs: 0,
    memoryMb: req.memoryMb,
    rssLimit: baseline + (req.memoryMb + RSS_HEADROOM_MB) * 1024 * 1024,
    logLeft: req.logCapBytes + LOG_SLACK,
    stoppedFor: null,
  };
  bot = b;
  get('setup').applySync(undefined, [req.me, req.seed, req.logCapBytes]);
  let script: ivm.Script;
  try {
    // A function that evaluates the bot: the runtime calls it, so what the bot's
    // top level throws is cut inside the isolate. Same line numbers as `code`.
    script = await isolate.compileScript(`(function(){return ${req.code}\n})`, { filename: req.filename });
  } catch (err) {
    return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs: 0 };
  }
  const loadFn = get('load');
  const run = await metered(b, async () => {
    const factory = (await script.run(context, { reference: true })) as ivm.Reference<unknown>;
    return (await loadFn.apply(undefined, [factory.derefInto()], { result: { copy: true } })) as [string, string, string];
  });
  if (run.error !== undefined || !run.value) return failure(b, run.error, run.cpuMs, drain(b), 'compile');
  if (overMemory(b)) return memoryFailure(b, run.cpuMs, run.value[2]);
  const [name, game, log] = run.value;
  return { ok: true, name: String(name).slice(0, MAX_NAME_CHARS), game: String(game).slice(0, MAX_NAME_CHARS), log: takeLog(b, log), cpuMs: run.cpuMs };
}

async function play(names: string, status: string, arrays: ViewArray[]): Promise<PlayReply> {
  const b = bot;
  if (!b || b.isolate.isDisposed) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
  const args: unknown[] = [names, status];
  for (const a of arrays) args.push(new ivm.ExternalCopy(a).copyInto({ release: true }));
  const run = await metered(b, () => b.play.apply(undefined, args, { result: { copy: true } }) as Promise<PlayReturn>);
  if (run.error !== undefined || !run.value) return failure(b, run.error, run.cpuMs, drain(b), 'exception');
  const [count, orders, log] = run.value;
  if (b.usedMs > b.budgetMs) return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(b.budgetMs), log: takeLog(b, log), cpuMs: run.cpuMs };
  if (overMemory(b)) return memoryFailure(b, run.cpuMs, log);
  if (typeof orders !== 'string' || orders.length > MAX_ORDERS_JSON || typeof count !== 'number')
    return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: takeLog(b, log), cpuMs: run.cpuMs };
  return { ok: true, count, orders, log: takeLog(b, log), cpuMs: run.cpuMs };
}

process.on('message', (msg: Message) => {
  void (async () => {
    try {
      if (msg.t === 'load') send({ id: msg.id, reply: await load(msg.req) });
      else if (msg.t === 'play') send({ id: msg.id, reply: await play(msg.names, msg.status, msg.arrays) });
      else if (msg.t === 'reset') {
        const limit = bot ? bot.rssLimit - bot.memoryMb * 1024 * 1024 : Infinity;
        if (bot) disposeQuietly(bot.isolate);
        bot = null;
        // A process that kept the memory of a bot that went over is not reused.
        send({ id: msg.id, reply: { ok: process.memoryUsage.rss() < limit } });
      }
    } catch (err) {
      // Our own code failed (not the bot's): the parent treats it as the judge's failure.
      send({ id: msg.id, infra: capText(describeError(err)) });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
// The worker decides when this process ends (see the header).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
send({ ready: true });
