import type { Limits } from '../game-kit/types.ts';
import type { Replay } from '../replay/format.ts';

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
  limits?: Partial<Limits>;
  seats: MatchSeat[];
}

export interface MatchOutcome {
  replay: Replay;
  /** Each bot's console output (capped), private to its owner. */
  logs: string[];
}

export interface RunOptions {
  /** 'sandbox' (isolated-vm in killable child processes, the default) or 'inprocess' (node:vm; trusted code, benchmarks). */
  host?: 'sandbox' | 'inprocess';
  /** Called after every round, for progress displays. */
  onRound?: (round: number, totalRounds: number) => void;
}
