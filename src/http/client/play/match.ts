// The play page's match: the server's own match loop (MatchRun, from
// src/match/match-run.ts, through src/sandbox/entries/play-compiled.ts) with the game's engine in this page and each bot
// in a Web Worker (worker-host.ts). The same seed and the same bots give the
// replay `arbiter play` writes, but for the CPU figures, which are wall time
// here, and for what that changes (a bot near its budget may be frozen in one
// and not the other).

import type { MatchOutcome } from '../../../match/types.ts';
import { type CompiledMatchSeat, playCompiledMatch } from '../../../sandbox/entries/play-compiled.ts';
import type { AnyGame } from '../../../sdk/types.ts';
import { WorkerBotHost } from './worker-host.ts';

export type PlaySeat = CompiledMatchSeat;

export interface BrowserMatch extends MatchOutcome {
  /** Per seat, what its log gained in each round (0: loading), capped as the judge caps it. */
  roundLogs: Map<number, string>[];
}

export async function playInBrowser(
  game: AnyGame,
  o: {
    seed: number;
    seats: PlaySeat[];
    prelude: string;
    workerUrl: string;
    config?: Record<string, unknown>;
    onRound?: (round: number, total: number) => void;
  },
): Promise<BrowserMatch> {
  const roundLogs = o.seats.map(() => new Map<number, string>());
  const onLog = (me: number, round: number, text: string) => {
    const logs = roundLogs[me]!;
    logs.set(round, (logs.get(round) ?? '') + text);
  };
  return { ...(await playCompiledMatch(game, { ...o, onLog }, () => new WorkerBotHost(o.workerUrl))), roundLogs };
}
