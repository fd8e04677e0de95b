// A bot in an isolated-vm isolate of this process, called synchronously: the
// host a match process (match-child.ts) gives each seat. Its calls cost a
// few microseconds on top of the bot's own work: no IPC, no thread hop.
//
// CPU is process.cpuUsage() around each call (the process runs nothing else
// meanwhile). What stops a call that runs too long:
// - a bot loaded with load() in a process with a watcher (a match process)
//   has a slot in the stop switch (stop-switch.ts): its calls have no
//   timeout, and the watcher thread (call-meter.ts) ends one the moment the
//   bot's CPU passes its budget, by having the switch dispose of its isolate.
//   The bot is frozen in place; a busy machine never cuts a call short.
// - any other call (a load, a benchmark's host) carries isolated-vm's
//   `timeout`, which counts wall time. At first it is the CPU the bot has
//   left, stretched by how much slower than their CPU time the calls have run
//   lately (the machine's load), with a margin: an endless loop ends soon
//   after its budget and the bot is frozen in place. If it fires before the
//   bot used its budget (the bot waited for a core), CallCutShort asks the
//   match process to play the match again from its seed, and that call then
//   gets the generous watchdog (three times the CPU left, plus a start
//   allowance) while the watcher stops the process the moment the bot's CPU
//   passes its budget.
// Memory: the isolate's heap limit, the heap statistics after each long call
// (and every few short ones), and the process's resident memory, watched
// during the call by the same thread.
//
// A bot whose match went cleanly leaves its isolate for its next match in
// this process (BotIsolate).
//
// Everything a bot controls is cut here: error messages and stacks, its log
// (never more than what is left of its cap), its name, the size of its orders.
// Never a Reference, an ivm object, cached data or a snapshot reaches the bot:
// it gets strings and copies of typed arrays, and gives back one array of
// primitives.

import ivm from './ivm.ts';
import { openSync, readSync } from 'node:fs';
import {
  capText,
  cpuSinceMs,
  describeError,
  packViewArrays,
  SandboxInfraError,
  type BotHost,
  type Failure,
  type LoadReply,
  type LoadRequest,
  type PlayReply,
  type PlayRequest,
} from '../../match/bot-host.ts';
import { callMeter } from './call-meter.ts';
import type { StopSwitch } from './stop-switch.ts';
import { cpuBudgetUsedUp, MAX_NAME_CHARS, MAX_ORDERS_JSON, memoryLimitExceeded } from '../../sdk/limits.ts';
import { unpackResult } from './bot-runtime.ts';
import type { FreezeReason } from '../../sdk/replay-format.ts';
import { parseArtifactForHost, type BotArtifact } from '../languages/artifact.ts';

/** RSS allowed above the process's resident memory at the start of a call, on top of the bot's limit. */
const RSS_HEADROOM_MB = 32;
/**
 * A call of at least this much CPU is followed by a heap check and a new
 * reading of the process's RSS; shorter calls, by a heap check every
 * HEAP_CHECK_EVERY calls. A short call cannot touch much memory (filling 10
 * MiB takes about a millisecond), the isolate's own limit stops a heap that
 * outgrows it, and each of these reads costs about 2 µs, a tenth of a short
 * call's overhead (Bola de Drac's bots make 2,400 calls of 50 µs a match).
 */
const LONG_CALL_MS = 0.5;
const HEAP_CHECK_EVERY = 8;
/** Room for the runtime's "[log truncated]" line on top of the log cap. */
const LOG_SLACK = 256;

/**
 * Wall-clock safety net of a call that may wait for a core: three times the
 * CPU left, plus time to start.
 */
export function watchdogMs(cpuLeftMs: number): number {
  return Math.max(0, cpuLeftMs) * 3 + watchdogSettings.startMs;
}

/** The watchdog's allowance on top of the CPU left (tests shorten it). */
export const watchdogSettings = { startMs: 5_000 };

/**
 * How much slower than its CPU time a bot call has run lately in this
 * process (wall / CPU, at least 1): the machine's load as the bots see it.
 * Calls of less than a millisecond of CPU say little and are left out.
 */
export const pace = {
  wall: 0,
  cpu: 0,
  note(wallMs: number, cpuMs: number): void {
    if (cpuMs < 1) return;
    this.wall = this.wall * 0.8 + wallMs;
    this.cpu = this.cpu * 0.8 + cpuMs;
  },
  get slowness(): number {
    return this.cpu > 0 ? Math.max(1, this.wall / this.cpu) : 1;
  },
};

/**
 * The first wall-clock limit of a call: the CPU left, stretched by the
 * machine's recent slowness with a margin, plus a little for the clocks'
 * disagreement. On an idle core an endless loop ends right past its budget.
 */
function tightMs(cpuLeftMs: number): number {
  return Math.max(1, cpuLeftMs * Math.max(1.02, 1.15 * pace.slowness) + 5);
}

/** Past this much CPU in a call that is not patient, the watcher stops the process (the machine got faster during the call). */
function cpuBackstopMs(cpuLeftMs: number): number {
  return cpuLeftMs * 1.3 + 10;
}

/**
 * A call was cut short by the wall clock before the bot used its CPU: the
 * match must be played again, this call with patience. Should it escape, it
 * is the judge's failure like any other.
 */
export class CallCutShort extends SandboxInfraError {
  override name = 'CallCutShort';
  constructor(
    readonly seat: number,
    readonly round: number,
    readonly cpuMs: number,
  ) {
    super(`seat ${seat}, round ${round}: the call was cut short by the wall clock after ${cpuMs.toFixed(1)} ms of CPU`);
  }
}

export const callKey = (seat: number, round: number) => `${seat}:${round}`;

const TIMED_OUT = /Script execution timed out/;

/** Hooks of the process that hosts the isolates (the match process installs them). */
export const isolateHooks = {
  /** Called from V8's catastrophic error, before the process aborts. */
  onCatastrophic: (_cpuMs: number, _message: string): void => {},
};

/** CPU at the start of the call in flight, for the report of a catastrophic error. */
let callStart: NodeJS.CpuUsage | null = null;

export interface IsolateHostOptions {
  /** Calls (callKey) that get the generous watchdog from the start. */
  patient?: ReadonlySet<string>;
  /**
   * The compiled code of the game's shipped built-in players (the judge's own
   * code): such a bot keeps its whole context in its spare, warm (see WarmContext).
   */
  builtins?: ReadonlySet<string>;
}

export class IsolateBotHost implements BotHost {
  private context: ivm.Context | null = null;
  private playFn: ivm.Reference<unknown> | null = null;
  private drainFn: ivm.Reference<unknown> | null = null;
  private collectFn: ivm.Reference<unknown> | null = null;
  private me = 0;
  private round = 0;
  private budgetMs = 0;
  private usedMs = 0;
  private memoryMb = 0;
  private logLeft = 0;
  private callsSinceHeapCheck = 0;
  /** The bot's isolate and what comes with it: kept as a spare at close if `clean`. */
  private record: BotIsolate | null = null;
  /** The bot loaded and every call went cleanly so far (see BotIsolate). */
  private clean = false;
  /** Every reference into the current context, released with it. */
  private refs: ivm.Reference<unknown>[] = [];

  constructor(private readonly options: IsolateHostOptions = {}) {}

  private get isolate(): ivm.Isolate | null {
    return this.record?.isolate ?? null;
  }

  /**
   * loadSync, then the isolate's slot in the stop switch where this process
   * has one: its calls then need no timeout (see playOnce).
   */
  async load(req: LoadRequest): Promise<LoadReply> {
    const reply = this.loadSync(req);
    const record = this.record;
    const stopSwitch = callMeter().stopSwitch();
    if (reply.ok && record && stopSwitch && record.stop?.stopSwitch !== stopSwitch) {
      try {
        record.stop = { stopSwitch, slot: await stopSwitch.register(record.isolate) };
      } catch (err) {
        throw new SandboxInfraError(`the bot's isolate could not be given to the stop switch: ${describeError(err)}`);
      }
    }
    return reply;
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.playSync(req);
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  /** Disposes of the isolate whatever the match was (benchmarks: what a new isolate costs). */
  closeWithoutSpare(): void {
    this.clean = false;
    this.closeSync();
  }

  /** Disposes of the isolate, or keeps it for this bot's next match if its match went cleanly (see BotIsolate). */
  closeSync(): void {
    const record = this.record;
    const context = this.context;
    const clean = this.clean;
    this.context = null;
    this.playFn = null;
    this.drainFn = null;
    this.collectFn = null;
    this.record = null;
    this.clean = false;
    const refs = this.refs;
    this.refs = [];
    if (!record) return;
    if (clean && context && !record.isolate.isDisposed && spareHeapBytes(record.isolate) <= SPARE_MAX_HEAP_BYTES) {
      try {
        if (record.warm) {
          // A shipped built-in: its context, prelude and module stay for its next match (WarmContext).
          record.warm.refs = refs;
          record.warm.context = context;
          keepSpare(record);
          return;
        }
        for (const ref of refs) ref.release();
        context.release();
        keepSpare(record);
        return;
      } catch {
        /* not kept */
      }
    }
    disposeOf(record);
  }

  private takeLog(text: unknown): string {
    const s = typeof text === 'string' ? text : '';
    const out = s.length > this.logLeft ? s.slice(0, this.logLeft) : s;
    this.logLeft -= out.length;
    return out;
  }

  loadSync(req: LoadRequest): LoadReply {
    rssAtStart = null;
    this.me = req.me;
    this.round = 0;
    this.budgetMs = req.cpuBudgetMs;
    this.usedMs = 0;
    this.memoryMb = req.memoryMb;
    this.logLeft = req.logCapBytes + LOG_SLACK;
    this.closeSync();
    const artifact: BotArtifact = parseArtifactForHost(req.code);
    const spare = takeSpare(req) ?? {
      isolate: new ivm.Isolate({ memoryLimit: req.memoryMb, onCatastrophicError }),
      prelude: null,
      bot: null,
      stop: null,
      memoryMb: req.memoryMb,
      preludeText: req.prelude,
      filename: req.filename,
      code: req.code,
      warm: null,
    };
    const isolate = spare.isolate;
    this.record = spare;
    if (spare.warm?.context) return this.settle(this.loadWarm(req, spare.warm));
    let handle: ivm.Reference<Record<string, unknown>>;
    let context: ivm.Context;
    try {
      context = isolate.createContextSync();
      spare.prelude ??= isolate.compileScriptSync(req.prelude, { filename: 'prelude.js' });
      handle = spare.prelude.runSync(context, { reference: true }) as ivm.Reference<Record<string, unknown>>;
    } catch (err) {
      this.closeSync();
      throw new SandboxInfraError(`the bot's isolate could not be prepared: ${describeError(err)}`);
    }
    this.context = context;
    this.refs.push(handle);
    const get = (name: string) => {
      const ref = handle.getSync(name, { reference: true }) as ivm.Reference<unknown>;
      this.refs.push(ref);
      return ref;
    };
    this.playFn = get('playPacked');
    this.drainFn = get('drainLog');
    this.collectFn = get('collectGarbage');
    get('setup').applySync(undefined, [req.me, req.seed, req.logCapBytes, req.memoryMb]);
    if (artifact.kind === 'wasm') return this.settle(this.loadWasm(artifact, get('loadCpp')));
    const code = artifact.code;
    let script: ivm.Script;
    try {
      // A function that evaluates the bot: the runtime calls it, so what the bot's
      // top level throws is cut inside the isolate. Same line numbers as `code`.
      script = spare.bot ??= isolate.compileScriptSync(`(function(){return ${code}\n})`, { filename: req.filename });
    } catch (err) {
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs: 0 };
    }
    const loadFn = get('load');
    const builtin = artifact.kind === 'script' && this.options.builtins?.has(req.code) === true;
    const run = this.metered(() => {
      const factory = script.runSync(context, { reference: true }) as ivm.Reference<unknown>;
      this.refs.push(factory);
      if (builtin) {
        // The module evaluated here, once: its exports are what the warm context loads again each match.
        const exports = factory.applySync(undefined, [], { result: { reference: true }, timeout: this.timeoutMs() }) as ivm.Reference<unknown>;
        this.refs.push(exports);
        spare.warm = {
          context: null,
          refs: [],
          exports,
          setup: get('setup'),
          load: loadFn,
          play: this.playFn!,
          drain: this.drainFn!,
          collect: this.collectFn!,
        };
        return loadFn.applySync(undefined, [exports.derefInto()], { result: { copy: true }, timeout: this.timeoutMs() }) as [string, string, string];
      }
      return loadFn.applySync(undefined, [factory.derefInto()], { result: { copy: true }, timeout: this.timeoutMs() }) as [string, string, string];
    });
    if (!run.ok) return run.failure('compile');
    const value = run.value;
    if (!Array.isArray(value)) return this.failure(new Error('the bot could not be loaded'), run.cpuMs, '', 'compile');
    if (this.overMemory()) return this.memoryFailure(run.cpuMs, value[2]);
    const [name, game, log] = value;
    return this.settle(this.loaded(name, game, log, run.cpuMs));
  }

  /**
   * A shipped built-in's next match in its warm context: the runtime set up
   * afresh for this seat and seed (setup resets all its per-match state) and
   * a new instance of the player class its module already exported.
   */
  private loadWarm(req: LoadRequest, warm: WarmContext): LoadReply {
    this.context = warm.context;
    this.refs = warm.refs;
    warm.context = null;
    warm.refs = [];
    this.playFn = warm.play;
    this.drainFn = warm.drain;
    this.collectFn = warm.collect;
    warm.setup.applySync(undefined, [req.me, req.seed, req.logCapBytes, req.memoryMb]);
    const run = this.metered(
      () => warm.load.applySync(undefined, [warm.exports.derefInto()], { result: { copy: true }, timeout: this.timeoutMs() }) as [string, string, string],
    );
    if (!run.ok) return run.failure('compile');
    const value = run.value;
    if (!Array.isArray(value)) return this.failure(new Error('the bot could not be loaded'), run.cpuMs, '', 'compile');
    if (this.overMemory()) return this.memoryFailure(run.cpuMs, value[2]);
    const [name, game, log] = value;
    return this.loaded(name, game, log, run.cpuMs);
  }

  /** A bot that loaded cleanly may leave its isolate as a spare when it closes; one that did not, never. */
  private settle(reply: LoadReply): LoadReply {
    this.clean = reply.ok;
    return reply;
  }

  /** A bot loaded: what it declared, cut to size, and its log so far. */
  private loaded(name: unknown, game: unknown, log: unknown, cpuMs: number): LoadReply {
    return { ok: true, name: String(name).slice(0, MAX_NAME_CHARS), game: String(game).slice(0, MAX_NAME_CHARS), log: this.takeLog(log), cpuMs };
  }

  /** A compiled module (a C++ player): the runtime instantiates it (the bytes are copied in; no bot code runs before). */
  private loadWasm(cpp: Extract<BotArtifact, { kind: 'wasm' }>, loadFn: ivm.Reference<unknown>): LoadReply {
    const bytes = new ivm.ExternalCopy(cpp.wasm.buffer.slice(cpp.wasm.byteOffset, cpp.wasm.byteOffset + cpp.wasm.byteLength));
    const run = this.metered(
      () =>
        loadFn.applySync(undefined, [bytes.copyInto(), cpp.name, cpp.game], { result: { copy: true }, timeout: this.timeoutMs() }) as [string, string, string],
    );
    bytes.release();
    if (!run.ok) return run.failure('compile');
    const [name, game, log] = run.value;
    if (this.overMemory()) return this.memoryFailure(run.cpuMs, log);
    return this.loaded(name, game, log, run.cpuMs);
  }

  playSync(req: PlayRequest): PlayReply {
    const reply = this.playOnce(req);
    if (!reply.ok) this.clean = false;
    return reply;
  }

  private playOnce(req: PlayRequest): PlayReply {
    this.round++;
    const isolate = this.isolate;
    const playFn = this.playFn;
    if (!isolate || !playFn || isolate.isDisposed) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    const view = packView(req);
    const args: unknown[] = [req.names, req.status, view.layout, view.copy.copyInto()];
    // With a slot in the stop switch the watcher ends the call, and the call needs no timeout.
    const stop = this.stopSlot();
    const run = this.metered(
      () => (stop >= 0 ? playFn.applySync(undefined, args) : playFn.applySync(undefined, args, { timeout: this.timeoutMs() })) as unknown,
      stop,
    );
    if (!run.ok) return run.failure('exception');
    const value = unpackResult(run.value);
    if (!value) return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: '', cpuMs: run.cpuMs };
    const [count, orders, log] = value;
    if (this.usedMs > this.budgetMs) return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(this.budgetMs), log: this.takeLog(log), cpuMs: run.cpuMs };
    if (this.heapCheckDue(run.cpuMs) && this.overMemory()) return this.memoryFailure(run.cpuMs, log);
    if (typeof orders !== 'string' || orders.length > MAX_ORDERS_JSON || typeof count !== 'number')
      return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: this.takeLog(log), cpuMs: run.cpuMs };
    return { ok: true, count, orders, log: this.takeLog(log), cpuMs: run.cpuMs };
  }

  /** The isolate's slot in this process's stop switch, or -1. */
  private stopSlot(): number {
    const stop = this.record?.stop;
    return stop && stop.stopSwitch === callMeter().stopSwitch() ? stop.slot : -1;
  }

  private patient(): boolean {
    const patient = this.options.patient;
    return patient !== undefined && patient.size > 0 && patient.has(callKey(this.me, this.round));
  }

  private timeoutMs(): number {
    const left = this.budgetMs - this.usedMs;
    return Math.ceil(this.patient() ? watchdogMs(left) : tightMs(left));
  }

  /**
   * Runs one synchronous call into the isolate, metered; classifies what went
   * wrong. `stop`: the isolate's slot in the stop switch (the call has no
   * timeout), or -1 (the call has one).
   */
  private metered<T>(
    work: () => T,
    stop = -1,
  ): { ok: true; value: T; cpuMs: number } | { ok: false; cpuMs: number; failure: (fallback: FreezeReason) => Failure } {
    const left = this.budgetMs - this.usedMs;
    const meter = callMeter();
    const patient = stop < 0 && this.patient();
    const wallStart = process.hrtime.bigint();
    const start = process.cpuUsage();
    callStart = start;
    // Past this much CPU the watcher ends the call (stop switch) or the process: the budget itself in a call
    // without timeout or a patient one; otherwise the timeout should stop the call first.
    const cpuLimit = stop >= 0 || patient ? left : cpuBackstopMs(left);
    if (rssAtStart === null) rssAtStart = residentBytes();
    const rssLimit = rssAtStart + (this.memoryMb + RSS_HEADROOM_MB) * 1024 * 1024;
    const call = meter.begin(this.me, this.round, start, cpuLimit, rssLimit, stop);
    let value: T;
    let error: unknown;
    let threw = false;
    try {
      value = work();
    } catch (e) {
      threw = true;
      error = e;
      // Stopped or thrown out of: this isolate is not kept for another match.
      this.clean = false;
    } finally {
      meter.end();
      callStart = null;
    }
    const cpuMs = cpuSinceMs(start);
    this.usedMs += cpuMs;
    if (cpuMs >= LONG_CALL_MS || threw) rssAtStart = null;
    pace.note(Number(process.hrtime.bigint() - wallStart) / 1e6, cpuMs);
    if (!threw) return { ok: true, value: value!, cpuMs };
    // The watcher had the stop switch dispose of the isolate: frozen for its CPU.
    if (stop >= 0 && meter.stoppedForCpu(call)) return { ok: false, cpuMs, failure: () => this.cpuFailure(cpuMs) };
    const timedOut = TIMED_OUT.test(errorMessage(error));
    if (timedOut) {
      // The clock stopped the call: the bot's fault only if it had used its CPU (one clock tick of slack).
      if (cpuMs + 1 >= left) return { ok: false, cpuMs, failure: () => this.cpuFailure(cpuMs) };
      if (patient)
        throw new SandboxInfraError(
          `no answer within ${Math.round(watchdogMs(left) / 1000)} s of wall time after ${Math.round(cpuMs)} ms of CPU: the machine is too busy`,
        );
      throw new CallCutShort(this.me, this.round, cpuMs);
    }
    return { ok: false, cpuMs, failure: (fallback) => this.failure(error, cpuMs, this.drain(), fallback) };
  }

  /** Frozen for its CPU, with what it logged in the call if its isolate is still there. */
  private cpuFailure(cpuMs: number): Failure {
    return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(this.budgetMs), log: this.takeLog(this.drain()), cpuMs };
  }

  private drain(): string {
    const isolate = this.isolate;
    if (!isolate || isolate.isDisposed || !this.drainFn) return '';
    try {
      return String(this.drainFn.applySync(undefined, [], { timeout: 50 }) ?? '');
    } catch {
      return '';
    }
  }

  /** Whether the heap is checked after this call (see LONG_CALL_MS). */
  private heapCheckDue(cpuMs: number): boolean {
    if (cpuMs < LONG_CALL_MS && ++this.callsSinceHeapCheck < HEAP_CHECK_EVERY) return false;
    this.callsSinceHeapCheck = 0;
    return true;
  }

  /**
   * Whether the bot's heap is over its limit. The heap statistics count
   * garbage not yet collected (a spare's earlier match's, say): over the
   * limit, a full collection decides, where the process allows one.
   */
  private overMemory(): boolean {
    const isolate = this.isolate;
    if (!isolate || isolate.isDisposed) return false;
    try {
      const limit = this.memoryMb * 1024 * 1024;
      if (heapBytes(isolate) <= limit) return false;
      if (this.collectFn?.applySync(undefined, [], { timeout: 1000 }) !== true) return true;
      return heapBytes(isolate) > limit;
    } catch {
      return false;
    }
  }

  private failure(error: unknown, cpuMs: number, log: string, fallback: FreezeReason): Failure {
    const message = describeError(error);
    let reason: FreezeReason = fallback;
    if (/memory limit|out of memory|allocation failed|array buffer allocation/i.test(message)) reason = 'memory';
    else if (this.isolate?.isDisposed) reason = 'memory';
    const text = reason === 'memory' ? memoryLimitExceeded(this.memoryMb) : message;
    return { ok: false, reason, message: capText(text), log: this.takeLog(log), cpuMs };
  }

  private memoryFailure(cpuMs: number, log: unknown): Failure {
    return { ok: false, reason: 'memory', message: memoryLimitExceeded(this.memoryMb), log: this.takeLog(log), cpuMs };
  }
}

function onCatastrophicError(message: string): void {
  try {
    isolateHooks.onCatastrophic(callStart ? cpuSinceMs(callStart) : 0, String(message));
  } catch {
    /* nothing left to do */
  }
  process.abort();
}

function heapBytes(isolate: ivm.Isolate): number {
  const h = isolate.getHeapStatisticsSync();
  return h.used_heap_size + h.externally_allocated_size;
}

/**
 * A bot's isolate and what comes with it: the prelude and the bot compiled
 * in it, its slot in the stop switch. After a match it is kept as a spare for
 * the same bot's next one in this process: same code, prelude, file name and
 * memory limit. Each match gets a new
 * context in it, so nothing the bot's code made in one match is reachable in
 * the next (globals, prototypes, Math.random are the new context's); what
 * carries over is what V8 keeps per isolate, the bytecode of the prelude and
 * the bot, which the in-process host shares the same way. Making an isolate,
 * compiling the prelude and the bot in it and warming them up again was
 * about a third of the sandbox's extra CPU in a Bola de Drac match. Only a
 * bot whose load and calls all went cleanly leaves a spare (none refused
 * here, stopped or thrown out of; what the engine refuses of its orders
 * does not touch its isolate), and only with a small heap, garbage
 * included: it counts until the next collection (overMemory collects
 * before it freezes a bot).
 */
interface BotIsolate {
  isolate: ivm.Isolate;
  prelude: ivm.Script | null;
  bot: ivm.Script | null;
  /** Its slot in a stop switch (the process's current one, if it is still in use). */
  stop: { stopSwitch: StopSwitch; slot: number } | null;
  memoryMb: number;
  preludeText: string;
  filename: string;
  code: string;
  /** A shipped built-in's context kept whole (null for any other bot). */
  warm: WarmContext | null;
}

/**
 * A shipped built-in player (the judge's own code, options.builtins) keeps
 * more than its isolate: the context with the prelude and its module as they
 * ran, so V8's compiled and optimised code (per context) carries over, and
 * its next match does not warm it up again (half a Moria Dummy's CPU). Each
 * match still starts from nothing the last one left: the runtime's setup()
 * resets every per-match state (seat, seed, generators, Math.random, log,
 * view), the game's API rebuilds its state from each round's view, and
 * load() makes a new instance of the player class; the built-ins keep
 * nothing at their module's top level but constants. `context` and `refs`
 * are null and empty while a match uses them.
 */
interface WarmContext {
  context: ivm.Context | null;
  refs: ivm.Reference<unknown>[];
  exports: ivm.Reference<unknown>;
  setup: ivm.Reference<unknown>;
  load: ivm.Reference<unknown>;
  play: ivm.Reference<unknown>;
  drain: ivm.Reference<unknown>;
  collect: ivm.Reference<unknown>;
}

/** Spares kept at most, oldest disposed first: a match's four bots and a few more. */
const MAX_SPARES = 8;
/** A heap (garbage included) above this is not kept. */
const SPARE_MAX_HEAP_BYTES = 24 * 1024 * 1024;
const spares: BotIsolate[] = [];

function spareHeapBytes(isolate: ivm.Isolate): number {
  try {
    return heapBytes(isolate);
  } catch {
    return Infinity;
  }
}

function takeSpare(req: LoadRequest): BotIsolate | undefined {
  // From the newest: the spares of the match just played come first.
  for (let i = spares.length - 1; i >= 0; i--) {
    const s = spares[i]!;
    if (s.memoryMb === req.memoryMb && s.filename === req.filename && s.code === req.code && s.preludeText === req.prelude) {
      spares.splice(i, 1);
      if (!s.isolate.isDisposed) return s;
      disposeOf(s);
    }
  }
  return undefined;
}

function keepSpare(spare: BotIsolate): void {
  spares.push(spare);
  while (spares.length > MAX_SPARES) disposeOf(spares.shift()!);
}

/** How many isolates are kept as spares (tests). */
export function spareCount(): number {
  return spares.length;
}

/** Disposes of every spare isolate (tests, and a process about to exit). */
export function disposeSpares(): void {
  for (const s of spares.splice(0)) disposeOf(s);
}

/**
 * The round's view packed in one buffer, copied out of the host once for the
 * four bots (each call copies it into its isolate): a copy per array costs
 * several microseconds each, most of a call's overhead.
 */
let packed: { req: PlayRequest; copy: ivm.ExternalCopy<ArrayBuffer>; layout: string } | null = null;

function packView(req: PlayRequest): { copy: ivm.ExternalCopy<ArrayBuffer>; layout: string } {
  if (packed?.req === req) return packed;
  rssAtStart = null;
  packed?.copy.release();
  packed = null;
  const { bytes, layout } = packViewArrays(req.arrays);
  packed = { req, copy: new ivm.ExternalCopy(bytes.buffer), layout };
  return packed;
}

/**
 * The process's RSS the calls' limits start from: read again for each round
 * (packView), each load and after each long call (LONG_CALL_MS), so a bot
 * that keeps what it took in one call does not shrink the room of the next.
 */
let rssAtStart: number | null = null;

/** This process's resident memory, bytes, from /proc/self/statm kept open (a third of process.memoryUsage.rss()'s cost). */
let statm: number | null | undefined;
const statmBuf = Buffer.alloc(128);
const PAGE = 4096;
function residentBytes(): number {
  if (statm === undefined) {
    try {
      statm = openSync('/proc/self/statm', 'r');
    } catch {
      statm = null;
    }
  }
  if (statm !== null) {
    try {
      const n = readSync(statm, statmBuf, 0, statmBuf.length, 0);
      const text = statmBuf.toString('latin1', 0, n);
      const pages = Number(text.slice(text.indexOf(' ') + 1, text.indexOf(' ', text.indexOf(' ') + 1)));
      if (Number.isFinite(pages) && pages > 0) return pages * PAGE;
    } catch {
      /* fall back */
    }
  }
  return process.memoryUsage.rss();
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Disposes of a bot's isolate and gives its slot in the stop switch back. */
function disposeOf(record: BotIsolate): void {
  disposeQuietly(record.isolate);
  if (record.stop) record.stop.stopSwitch.release(record.stop.slot);
  record.stop = null;
}

function disposeQuietly(isolate: ivm.Isolate): void {
  try {
    if (!isolate.isDisposed) isolate.dispose();
  } catch {
    /* already gone */
  }
}
