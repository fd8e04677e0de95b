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
// The kit's built-in players (kit.json's, the judge's own code) play in the
// judge's own host for them (WarmBuiltinHost, inprocess-host.ts): one warm
// context per built-in, shared by its seats and kept between the matches of
// a thread, as in the judge's match process; a fresh context per match runs
// their code cold, about three times their warm CPU. Each seat still starts
// from nothing a last one left (its own slot of the runtime, a new player);
// the student's file gets a fresh context every match, as it gets a fresh
// isolate at the judge.

import type { BotHost, LoadReply, LoadRequest, PlayReply, PlayRequest } from '../../match/bot-host.ts';
import { MatchRun } from '../../match/match-run.ts';
import { verifyReplayWithGame, type VerifyResult } from '../../match/replay-verify.ts';
import type { CompiledSeat, ForcedFreeze, MatchOutcome } from '../../match/types.ts';
import { InProcessBotHost, WarmBuiltinHost } from '../../sandbox/hosts/inprocess-host.ts';
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
