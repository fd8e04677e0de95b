// A child process that hosts one bot at a time in an isolated-vm isolate. The
// parent (sandbox-host.ts) sends `load`, then one `play` per round, then
// `reset`; it kills this process on a wall-clock watchdog, and the process
// aborts itself on a V8 catastrophic error (process.exit can hang then).
//
// CPU is metered with process.cpuUsage(): this process runs nothing but the
// bot while a call is in flight, and unlike isolate.cpuTime (wall time in this
// build) it does not grow while the core is busy with other matches. A poll
// disposes the isolate the moment the bot's budget for the match is gone.
// Must run with --no-node-snapshot.

import ivm from 'isolated-vm';
import { writeSync } from 'node:fs';
import { cpuSinceMs, describeError, MAX_ORDERS_JSON, type Failure, type LoadReply, type LoadRequest, type PlayReply } from './host.ts';
import type { PlayReturn } from './bot-runtime.ts';
import type { ViewArray } from '../src/games/types.ts';
import type { FreezeReason } from '../src/replay/format.ts';

type Message =
  | { t: 'load'; id: number; req: LoadRequest }
  | { t: 'play'; id: number; names: string; status: string; arrays: ViewArray[] }
  | { t: 'reset'; id: number };

const POLL_MS = 2;

interface Bot {
  isolate: ivm.Isolate;
  play: ivm.Reference<unknown>;
  drainLog: ivm.Reference<unknown>;
  budgetMs: number;
  usedMs: number;
  memoryMb: number;
  /** Set when this process, not the bot, disposed the isolate. */
  stoppedFor: FreezeReason | null;
}

let bot: Bot | null = null;

function send(reply: object): void {
  process.send!(reply);
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
  const left = b.budgetMs - b.usedMs;
  const poll = setInterval(() => {
    if (cpuSinceMs(start) > left) {
      b.stoppedFor = 'cpu';
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
    reason === 'cpu' ? `CPU budget of ${b?.budgetMs} ms for the match used up` : reason === 'memory' ? `memory limit of ${b?.memoryMb} MiB exceeded` : message;
  return { ok: false, reason, message: text, log, cpuMs };
}

function memoryFailure(b: Bot, cpuMs: number, log: string): Failure {
  return { ok: false, reason: 'memory', message: `memory limit of ${b.memoryMb} MiB exceeded`, log, cpuMs };
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
  const isolate = new ivm.Isolate({
    memoryLimit: req.memoryMb,
    onCatastrophicError: (message) => {
      // Synchronous write: the parent reads it even though we abort right after.
      try {
        writeSync(2, `ARBITER_CATASTROPHIC ${message}\n`);
      } catch {
        /* nothing left to do */
      }
      process.abort();
    },
  });
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
    stoppedFor: null,
  };
  bot = b;
  get('setup').applySync(undefined, [req.me, req.seed, req.logCapBytes]);
  let script: ivm.Script;
  try {
    script = await isolate.compileScript(req.code, { filename: req.filename });
  } catch (err) {
    return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs: 0 };
  }
  const loadFn = get('load');
  const run = await metered(b, async () => {
    const exports = (await script.run(context, { reference: true })) as ivm.Reference<unknown>;
    return (await loadFn.apply(undefined, [exports.derefInto()], { result: { copy: true } })) as [string, string, string];
  });
  if (run.error !== undefined || !run.value) return failure(b, run.error, run.cpuMs, drain(b), 'compile');
  if (overMemory(b)) return memoryFailure(b, run.cpuMs, run.value[2]);
  const [name, game, log] = run.value;
  return { ok: true, name, game, log, cpuMs: run.cpuMs };
}

async function play(names: string, status: string, arrays: ViewArray[]): Promise<PlayReply> {
  const b = bot;
  if (!b || b.isolate.isDisposed) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
  const args: unknown[] = [names, status];
  for (const a of arrays) args.push(new ivm.ExternalCopy(a).copyInto({ release: true }));
  const run = await metered(b, () => b.play.apply(undefined, args, { result: { copy: true } }) as Promise<PlayReturn>);
  if (run.error !== undefined || !run.value) return failure(b, run.error, run.cpuMs, drain(b), 'exception');
  const [count, orders, log] = run.value;
  if (b.usedMs > b.budgetMs) return { ok: false, reason: 'cpu', message: `CPU budget of ${b.budgetMs} ms for the match used up`, log, cpuMs: run.cpuMs };
  if (overMemory(b)) return memoryFailure(b, run.cpuMs, log);
  if (typeof orders !== 'string' || orders.length > MAX_ORDERS_JSON || typeof count !== 'number')
    return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: String(log).slice(0, 65536), cpuMs: run.cpuMs };
  return { ok: true, count, orders, log, cpuMs: run.cpuMs };
}

process.on('message', (msg: Message) => {
  void (async () => {
    try {
      if (msg.t === 'load') send({ id: msg.id, reply: await load(msg.req) });
      else if (msg.t === 'play') send({ id: msg.id, reply: await play(msg.names, msg.status, msg.arrays) });
      else if (msg.t === 'reset') {
        if (bot) disposeQuietly(bot.isolate);
        bot = null;
        send({ id: msg.id, reply: { ok: true } });
      }
    } catch (err) {
      send({ id: msg.id, reply: { ok: false, reason: 'crash', message: describeError(err), log: '', cpuMs: 0 } });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
send({ ready: true });
