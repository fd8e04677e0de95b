// Bots as plain functions in a node:vm context of this process: no isolation
// worth the name and no way to stop an endless loop, so only for code we
// trust (built-in bots in tests, and the benchmark's baseline). Same prelude,
// same compiled bot, same protocol as the sandbox.
//
// WarmBuiltinHost is the host of a game's shipped built-in player (the
// judge's own code): in the match process (builtin-host.ts), in `arbiter
// play`, and in the starter kit's runner, which bundles this file and cannot
// bundle isolated-vm. See its comment.
//
// A global lookup in a node:vm context goes through an interceptor and costs
// hundreds of times a lexical one (measured: 5e6 calls of a global function,
// 3.8 s against 21 ms), so the prelude and the bot are evaluated inside a
// function whose parameters bind every global of the context lexically.

import vm from 'node:vm';
import { parseArtifactForHost } from '../languages/artifact.ts';
import type { BotHandle } from './bot-runtime.ts';
import { MAX_NAME_CHARS, MAX_ORDERS_JSON, cpuBudgetUsedUp } from '../../sdk/limits.ts';
import {
  cpuSinceMs,
  describeError,
  SandboxInfraError,
  type BotHost,
  type LoadReply,
  type LoadRequest,
  type PlayReply,
  type PlayRequest,
} from '../../match/bot-host.ts';

/**
 * A built-in player's context, shared by every seat that runs the same code in
 * this process (one match's four Dummies, and the next match's): V8 compiles
 * and optimises the player once, not once per seat, and the optimised code
 * stays warm between matches. The runtime keeps a slot per seat (useSlot: its
 * me(), random streams, log, view and player instance) and switches to the
 * seat of each call, so no seat sees another's state and every seat decides
 * as it would alone; the API's state is rebuilt from each call's view, and
 * the built-ins keep nothing at their module's top level but constants.
 */
interface SharedVm {
  handle: BotHandle;
  exports: unknown;
  /** Slots of the seats using it now. */
  slots: Set<number>;
}
/** The context of each built-in's code; one whose player failed is dropped (its seats keep it until they close). */
const sharedVms = new Map<string, SharedVm>();

/** Forgets every warm built-in context (tests). */
export function dropWarmBuiltins(): void {
  sharedVms.clear();
}

/** Built-in contexts kept warm (tests). */
export function warmBuiltinCount(): number {
  return sharedVms.size;
}

/** Where a trusted call is watched (the match process's call meter), so that even the judge's own code cannot hang a match. */
export interface TrustedCallWatch {
  beginTrusted(seat: number, round: number, cpuLimitMs: number): void;
  endTrusted(): void;
}

/** Room for the runtime's "[log truncated]" line on top of the log cap (as the isolate's host). */
const LOG_SLACK = 256;

/**
 * A shipped built-in player (the judge's own code) in its shared warm context
 * (SharedVm above), with the sandbox's checks on what comes back and its log
 * cap. A built-in's time is its calls' wall time scaled by the share of a
 * core the process has had lately (builtinTimer), not process.cpuUsage()
 * around each call: that costs two system calls, about 1.7 µs, half of a
 * Null's whole call. On a core of its own that is the call's CPU time; on a
 * busy machine, its CPU time on average. It counts against the same
 * budget as a student's CPU (a built-in uses a few per cent of it), and where
 * the process has a watched call meter (`watch`, the match process), a call
 * that runs on is stopped past the budget it has left, as a bot's is.
 */
export class WarmBuiltinHost implements BotHost {
  private vm: SharedVm | null = null;
  private slot = -1;
  private code = '';
  private me = 0;
  private round = 0;
  private logLeft = 0;
  private readonly cpu: CpuAccount = { used: 0, budget: Infinity };
  private readonly takeLogBound = (text: unknown): string => this.takeLog(text);

  constructor(private readonly watch?: TrustedCallWatch) {}

  async load(req: LoadRequest): Promise<LoadReply> {
    startShareWindow();
    const start = performance.now();
    this.cpu.budget = req.cpuBudgetMs;
    this.logLeft = req.logCapBytes + LOG_SLACK;
    this.code = req.code;
    this.me = req.me;
    this.round = 0;
    try {
      const shared = sharedVms.get(req.code) ?? coldVm(req);
      let slot = 0;
      while (shared.slots.has(slot)) slot++;
      shared.slots.add(slot);
      this.vm = shared;
      this.slot = slot;
      shared.handle.useSlot(slot);
      shared.handle.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      const [name, game, log] = shared.handle.load(shared.exports);
      const cpuMs = builtinTimer.since(start);
      this.cpu.used += cpuMs;
      return { ok: true, name: String(name).slice(0, MAX_NAME_CHARS), game: String(game).slice(0, MAX_NAME_CHARS), log: this.takeLog(log), cpuMs };
    } catch (err) {
      if (err instanceof SandboxInfraError) throw err;
      this.spoil();
      const cpuMs = builtinTimer.since(start);
      this.cpu.used += cpuMs;
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs };
    }
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.playSync(req);
  }

  playSync(req: PlayRequest): PlayReply {
    const shared = this.vm;
    if (!shared) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    this.round++;
    shared.handle.useSlot(this.slot);
    const watch = this.watch;
    watch?.beginTrusted(this.me, this.round, this.cpu.budget - this.cpu.used);
    let reply: PlayReply;
    try {
      reply = playInProcess(shared.handle, req, this.cpu, this.takeLogBound, builtinTimer);
    } finally {
      watch?.endTrusted();
    }
    if (!reply.ok) this.spoil();
    return reply;
  }

  /** A context whose player failed is not handed to a later seat. */
  private spoil(): void {
    if (this.vm && sharedVms.get(this.code) === this.vm) sharedVms.delete(this.code);
  }

  private takeLog(text: unknown): string {
    const s = typeof text === 'string' ? text : '';
    const out = s.length > this.logLeft ? s.slice(0, this.logLeft) : s;
    this.logLeft -= out.length;
    return out;
  }

  /** The seat leaves its slot (its player and log forgotten); the context stays warm for the next match. */
  async close(): Promise<void> {
    const shared = this.vm;
    this.vm = null;
    if (!shared) return;
    shared.slots.delete(this.slot);
    try {
      shared.handle.freeSlot(this.slot);
    } catch {
      this.spoil();
    }
  }
}

/** A new context for a built-in, kept for its code: the prelude, then its module evaluated once (each seat loads a player from its exports). */
function coldVm(req: LoadRequest): SharedVm {
  const artifact = parseArtifactForHost(req.code);
  if (artifact.kind !== 'script') throw new SandboxInfraError('a shipped built-in player is a script');
  const context = vm.createContext({});
  const handle = runWithLexicalGlobals(context, req.prelude, 'prelude.js') as BotHandle;
  const factory = runWithLexicalGlobals(context, artifact.code, req.filename);
  const shared: SharedVm = { handle, exports: typeof factory === 'function' ? (factory as () => unknown)() : factory, slots: new Set() };
  sharedVms.set(req.code, shared);
  return shared;
}

export class InProcessBotHost implements BotHost {
  private handle: BotHandle | null = null;
  private readonly cpu: CpuAccount = { used: 0, budget: Infinity };

  async load(req: LoadRequest): Promise<LoadReply> {
    const start = process.cpuUsage();
    this.cpu.budget = req.cpuBudgetMs;
    const artifact = parseArtifactForHost(req.code);
    try {
      const context = vm.createContext({});
      const handle = runWithLexicalGlobals(context, req.prelude, 'prelude.js') as BotHandle;
      handle.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      let loaded: [string, string, string];
      switch (artifact.kind) {
        case 'wasm': {
          // A compiled module (trusted code only here, as everything in this host).
          const { wasm, name, game } = artifact;
          loaded = handle.loadCpp(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer, name, game);
          break;
        }
        case 'script':
          loaded = handle.load(runWithLexicalGlobals(context, artifact.code, req.filename));
          break;
      }
      const [name, game, log] = loaded;
      this.handle = handle;
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: true, name, game, log, cpuMs };
    } catch (err) {
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs };
    }
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.playSync(req);
  }

  playSync(req: PlayRequest): PlayReply {
    const handle = this.handle;
    if (!handle) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    return playInProcess(handle, req, this.cpu);
  }

  async close(): Promise<void> {
    this.handle = null;
  }
}

/** A bot's CPU time over its match, and its budget. */
export interface CpuAccount {
  used: number;
  budget: number;
}

/**
 * One play() of a bot in this process (node:vm), for this host and the built-in one: its CPU charged to
 * `cpu`, what comes back checked as the sandbox checks it. `takeLog` bounds the log (by default kept whole).
 */
export function playInProcess(
  handle: BotHandle,
  req: PlayRequest,
  cpu: CpuAccount,
  takeLog: (text: unknown) => string = keepLog,
  timer: CallTimer = cpuTimer,
): PlayReply {
  const start = timer.start();
  try {
    const [count, orders, log] = handle.play(req.names, req.status, ...req.arrays);
    const cpuMs = timer.since(start);
    cpu.used += cpuMs;
    if (cpu.used > cpu.budget) return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(cpu.budget), log: takeLog(log), cpuMs };
    if (typeof orders !== 'string' || orders.length > MAX_ORDERS_JSON || typeof count !== 'number')
      return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: takeLog(log), cpuMs };
    return { ok: true, count, orders, log: takeLog(log), cpuMs };
  } catch (err) {
    const cpuMs = timer.since(start);
    cpu.used += cpuMs;
    let log = '';
    try {
      log = handle.drainLog();
    } catch {
      /* the bot broke its own runtime */
    }
    return { ok: false, reason: 'exception', message: describeError(err), log: takeLog(log), cpuMs };
  }
}

const keepLog = (text: unknown): string => (typeof text === 'string' ? text : '');

/** How a call's time is taken: a reading before it, and the ms since that reading after it. */
export interface CallTimer {
  start(): number;
  since(start: number): number;
}

/** The process's CPU time, ms (one process.cpuUsage() call). */
function cpuClockMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The process's CPU time around the call: two process.cpuUsage() calls, about 1.7 µs. */
const cpuTimer: CallTimer = { start: cpuClockMs, since: (start) => cpuClockMs() - start };

/** Wall time over which the share of a core the process gets is measured (builtinTimer). */
const SHARE_WINDOW_MS = 20;
/** The process's CPU over wall time in the last window (at most 1), and where the current window started. */
const coreShare = { ratio: 1, wall: 0, cpu: 0 };

/** Starts a new window of coreShare (a seat's load: what came before, maybe idle, says nothing of the match). */
function startShareWindow(): void {
  coreShare.wall = performance.now();
  coreShare.cpu = cpuClockMs();
}

/**
 * A built-in's time (WarmBuiltinHost): the call's wall time (performance.now(), a few tens of
 * nanoseconds) times the share of a core this process had over its last SHARE_WINDOW_MS (one
 * process.cpuUsage() per window, not two per call). The call is synchronous on the process's one
 * thread, so on a core of its own its wall time is its CPU time (the share is 1); on a busy machine
 * the share takes out, on average, the time the process waited for a core.
 */
const builtinTimer: CallTimer = {
  start: () => performance.now(),
  since(start) {
    const now = performance.now();
    if (now - coreShare.wall >= SHARE_WINDOW_MS) {
      const cpu = cpuClockMs();
      coreShare.ratio = Math.min(1, (cpu - coreShare.cpu) / (now - coreShare.wall));
      coreShare.wall = now;
      coreShare.cpu = cpu;
    }
    return (now - start) * coreShare.ratio;
  },
};

const NOT_BINDABLE = new Set(['globalThis', 'eval', 'undefined', 'NaN', 'Infinity', 'arguments']);

/** Evaluates `expression` in `context` with every current global passed in as a parameter. */
export function runWithLexicalGlobals(context: vm.Context, expression: string, filename: string): unknown {
  const global = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(global).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !NOT_BINDABLE.has(n));
  const wrapper = vm.runInContext(`(function (${names.join(', ')}) { return ${expression}; })`, context, { filename }) as (...args: unknown[]) => unknown;
  return wrapper(...names.map((n) => global[n]));
}
