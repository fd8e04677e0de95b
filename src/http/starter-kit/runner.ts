// The starter kit's match runner (play/runner.mjs in the kit, bundled for
// Node with one game's engine): the judge's own match loop (MatchRun) with
// each bot in a node:vm context of the student's own Node, given the judge's
// prelude (its bot runtime, API and C++ glue) and the bots as the judge's
// compile made them. So a seed gives the match the judge plays with the same
// bots, but for the CPU figures. It is the student's own code on their own
// machine: no isolate and no memory limit per bot. The CPU budget is the judge's:
// arbiter.mjs plays the match in a worker thread and watches the process's
// CPU while a bot's call runs (the meter below says which call); past the
// budget it ends the thread and plays the match again from its seed with
// that bot frozen from that round (`forced`), as the judge's match pool does.
// It also re-runs a replay's rounds (`verify`), as `arbiter verify` does, and
// sums up an evaluation's matches (eval-summary.ts).
//
// The kit's built-in players (kit.json's, the judge's own code) keep their
// context warm between the matches of a thread, as the judge's match process
// keeps them (src/sandbox/hosts/builtin-host.ts): a fresh context per match
// runs their code cold, about three times their warm CPU. Each match still
// starts from nothing the last one left (setup() resets the runtime's state,
// load() makes a new player); the student's file gets a fresh context every
// match, as it gets a fresh isolate at the judge.

import type { BotHost, LoadReply, LoadRequest, PlayReply, PlayRequest } from '../../match/bot-host.ts';
import { MatchRun } from '../../match/match-run.ts';
import { verifyReplayWithGame, type VerifyResult } from '../../match/replay-verify.ts';
import type { CompiledSeat, ForcedFreeze, MatchOutcome } from '../../match/types.ts';
import vm from 'node:vm';
import { cpuSinceMs, describeError } from '../../match/bot-host.ts';
import type { BotHandle } from '../../sandbox/hosts/bot-runtime.ts';
import { type CpuAccount, InProcessBotHost, playInProcess, runWithLexicalGlobals } from '../../sandbox/hosts/inprocess-host.ts';
import { parseArtifactForHost } from '../../sandbox/languages/artifact.ts';
import { mapSeatPositions, readBotHeader } from '../../sandbox/languages/index.ts';
import { cpuBudgetUsedUp, type Limits, memoryLimitExceeded, resolveLimits } from '../../sdk/limits.ts';
import type { Replay } from '../../sdk/replay-format.ts';
import type { AnyGame } from '../../sdk/types.ts';

export { cpuBudgetUsedUp, memoryLimitExceeded };
export { evalMatch, isWin, parseSeeds, summarize, summaryLines } from './eval-summary.ts';

export interface KitSeat {
  filename: string;
  source: string;
  compiled: CompiledSeat;
}

/**
 * The call in flight, shared with the thread that watches the CPU: Int32
 * [in call (0/1), seat, round, generation], then Float64 [process CPU at the
 * call's start (µs), the seat's CPU before the call (ms)].
 */
export const METER_BYTES = 32;

export interface KitMatch {
  seed: number;
  seats: KitSeat[];
  prelude: string;
  config?: Record<string, unknown>;
  /** The judge's limits for the game (kit.json's), or the student's smaller budget. */
  limits?: Partial<Limits>;
  /** Bots frozen from a round by an earlier run of this match (their call went past the budget). */
  forced?: ForcedFreeze[];
  /** A SharedArrayBuffer of METER_BYTES: the watcher reads it. */
  meter?: SharedArrayBuffer;
  onRound?: (round: number, total: number) => void;
  /** The compiled code of the kit's built-in players: a seat with one of them plays in a warm context. */
  builtinCodes?: ReadonlySet<string>;
  /** An evaluation's match: the replay keeps its last round only (MatchRunHooks.lastRoundOnly). */
  lastRoundOnly?: boolean;
}

/** Writes each call's seat, round and starting CPU to the meter, as the judge's call meter does. */
class MeteredHost implements BotHost {
  private round = 0;
  private used = 0;
  private readonly ints: Int32Array | null;
  private readonly floats: Float64Array | null;

  constructor(
    private readonly inner: BotHost,
    private readonly me: number,
    meter: SharedArrayBuffer | undefined,
  ) {
    this.ints = meter ? new Int32Array(meter, 0, 4) : null;
    this.floats = meter ? new Float64Array(meter, 16, 2) : null;
  }

  private async call<T extends { cpuMs: number }>(work: () => Promise<T>): Promise<T> {
    const { ints, floats } = this;
    if (ints && floats) {
      const cpu = process.cpuUsage();
      ints[1] = this.me;
      ints[2] = this.round;
      floats[0] = cpu.user + cpu.system;
      floats[1] = this.used;
      Atomics.add(ints, 3, 1);
      Atomics.store(ints, 0, 1);
    }
    try {
      const reply = await work();
      this.used += reply.cpuMs;
      return reply;
    } finally {
      if (ints) Atomics.store(ints, 0, 0);
    }
  }

  load(req: LoadRequest): Promise<LoadReply> {
    return this.call(() => this.inner.load(req));
  }

  play(req: PlayRequest): Promise<PlayReply> {
    this.round++;
    return this.call(() => this.inner.play(req));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A built-in's context with its runtime and its module's exports, idle between matches. */
interface WarmVm {
  handle: BotHandle;
  exports: unknown;
}
/** Idle warm contexts per built-in's code: a match's seats and no more. */
const warmVms = new Map<string, WarmVm[]>();
const WARM_PER_CODE = 6;

/** A built-in player in a context kept warm between matches (InProcessBotHost makes a new one for each). */
class WarmBuiltinHost implements BotHost {
  private vm: WarmVm | null = null;
  private code = '';
  private clean = false;
  private readonly cpu: CpuAccount = { used: 0, budget: Infinity };

  async load(req: LoadRequest): Promise<LoadReply> {
    const start = process.cpuUsage();
    this.cpu.budget = req.cpuBudgetMs;
    this.code = req.code;
    try {
      const warm = warmVms.get(req.code)?.pop() ?? coldVm(req);
      warm.handle.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      const [name, game, log] = warm.handle.load(warm.exports);
      this.vm = warm;
      this.clean = true;
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
    if (!this.vm) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    const reply = playInProcess(this.vm.handle, req, this.cpu);
    if (!reply.ok) this.clean = false;
    return reply;
  }

  /** Back to the idle ones after a clean match; one that failed is dropped. */
  async close(): Promise<void> {
    const warm = this.vm;
    this.vm = null;
    if (!warm || !this.clean) return;
    let list = warmVms.get(this.code);
    if (!list) warmVms.set(this.code, (list = []));
    if (list.length < WARM_PER_CODE) list.push(warm);
  }
}

/** A new context for a built-in: the prelude, then its module evaluated once (each match loads a player from its exports). */
function coldVm(req: LoadRequest): WarmVm {
  const artifact = parseArtifactForHost(req.code);
  if (artifact.kind !== 'script') throw new Error('a built-in player of the kit is a script');
  const context = vm.createContext({});
  const handle = runWithLexicalGlobals(context, req.prelude, 'prelude.js') as BotHandle;
  const factory = runWithLexicalGlobals(context, artifact.code, req.filename);
  return { handle, exports: typeof factory === 'function' ? (factory as () => unknown)() : factory };
}

export async function runKitMatch(game: AnyGame, o: KitMatch): Promise<MatchOutcome> {
  const limits = resolveLimits(game.defaultLimits, o.limits);
  const spec = { game: game.id, seed: o.seed, config: o.config, limits, seats: o.seats.map((s) => ({ source: s.source, filename: s.filename })) };
  const run = new MatchRun(game, spec, o.seed, {
    host: (me) => {
      const code = o.seats[me]!.compiled;
      const builtin = 'code' in code && o.builtinCodes?.has(code.code) === true;
      return new MeteredHost(builtin ? new WarmBuiltinHost() : new InProcessBotHost(), me, o.meter);
    },
    prelude: async () => o.prelude,
    declaredName: (source) => readBotHeader(source).name,
    compile: async (me) => o.seats[me]!.compiled,
    mapPositions: (seat, filename, message) => mapSeatPositions(seat.map, filename, message),
    forced: o.forced ?? [],
    onRound: o.onRound,
    lastRoundOnly: o.lastRoundOnly,
  });
  return run.playOut();
}

/** Every recorded state of `replay` checked against this kit's engine. */
export function verifyKitReplay(game: AnyGame, replay: Replay): VerifyResult {
  return verifyReplayWithGame(game, replay);
}
