import type { Limits } from '../sdk/types.ts';
import type { FreezeReason, Replay } from '../sdk/replay-format.ts';

/** One seat of a match: a bot source file (built-ins are ordinary files too). */
export interface MatchSeat {
  /** Source text, JavaScript or TypeScript. */
  source: string;
  /** For messages and to pick the loader: "Demo.ts", "my-bot.js". */
  filename: string;
}

/** Everything needed to play a match: a match job carries exactly this. */
export interface MatchSpec {
  game: string;
  seed: number;
  /** Overrides of the game's defaults. */
  config?: Record<string, unknown>;
  /**
   * The bots' limits: a job carries them resolved (resolveLimits, when it is
   * created); a caller may give only some, or none, for the game's defaults.
   */
  limits?: Partial<Limits>;
  seats: MatchSeat[];
}

/** A spec whose limits are resolved (resolveLimits): what everything below playMatch reads, without merging again. */
export type ResolvedMatchSpec = MatchSpec & { limits: Limits };

export interface MatchOutcome {
  replay: Replay;
  /** Each bot's console output (capped), private to its owner. */
  logs: string[];
  /** Times the sandbox played the match to get this outcome: more than 1 when a call was cut short by a busy machine or a bot brought the match process down. */
  runs?: number;
  /** CPU the match process spent on the run that gave this outcome (all its threads), ms. */
  processCpuMs?: number;
  /** The replay already encoded (encodeReplay) by the match process, so the work scales with the runners. */
  replayGz?: Buffer;
}

export interface RunOptions {
  /**
   * 'sandbox' (the default): the match in a killable child process of its own,
   * the engine and the bots' isolated-vm isolates together (src/sandbox/match-process/match-pool.ts);
   * 'isolate': the same isolates in this process (what that child runs; benchmarks);
   * 'inprocess': node:vm, trusted code only (tests, benchmarks);
   * 'local': in this process when every seat is one of the game's shipped built-ins (the judge's own
   * code, in node:vm as a match process runs them: the CLI's `play` of built-ins starts no second
   * process), else 'sandbox'.
   */
  host?: 'sandbox' | 'isolate' | 'inprocess' | 'local';
  /** Called after every round, for progress displays. */
  onRound?: (round: number, totalRounds: number) => void;
  /** The seats already compiled (the sandbox compiles in the calling process); otherwise each seat is compiled here. */
  compiled?: CompiledSeat[];
  /** Freezes decided by an earlier run of the same match whose process died: applied instead of calling the bot. */
  forced?: ForcedFreeze[];
  /** Calls (seat:round) that get the generous wall-clock watchdog from the start (host 'isolate'). */
  patient?: string[];
  /** The compiled code of the game's shipped built-in players, which run in a warm node:vm context of the match process, not an isolate (host 'isolate'; sandbox/hosts/builtin-host.ts). */
  builtins?: ReadonlySet<string>;
  /**
   * An evaluation's match (arbiter eval): the replay keeps only its last round's record (the result, the
   * players and the round count; no frames of the rounds before), and the match process sends it as it is,
   * not encoded. The match played, its freezes and scores, are the same.
   */
  lastRoundOnly?: boolean;
}

/** A seat's compiled code with its decoded source map (its language's, src/sandbox/languages/types.ts SourceMaps), or the file's compile error. */
export type CompiledSeat = { code: string; map?: number[][][] } | { error: string };

/** A bot frozen in a given round for what it did in an earlier run of the match (it brought the process down). */
export interface ForcedFreeze {
  seat: number;
  /** 0: at load. */
  round: number;
  reason: FreezeReason;
  message: string;
  cpuMs: number;
}
