// The play page's match: the server's own match loop (MatchRun, from
// src/match/match-run.ts) with the game's engine in this page and each bot
// in a Web Worker (worker-host.ts). The same seed and the same bots give the
// replay `arbiter play` writes, but for the CPU figures, which are wall time
// here, and for what that changes (a bot near its budget may be frozen in one
// and not the other).

import { readBotHeader } from '../../../sandbox/languages/index.ts';
import type { AnyGame } from '../../../sdk/types.ts';
import { resolveLimits } from '../../../sdk/limits.ts';
import { mapPositions } from '../../../sandbox/languages/javascript/bot-source.ts';
import { MatchRun } from '../../../match/match-run.ts';
import type { CompiledSeat, MatchOutcome } from '../../../match/types.ts';
import { WorkerBotHost } from './worker-host.ts';

export interface PlaySeat {
  filename: string;
  source: string;
  /** From the judge's compile (POST /api/play/compile), or its error. */
  compiled: CompiledSeat;
}

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
  const spec = {
    game: game.id,
    seed: o.seed,
    config: o.config,
    limits: resolveLimits(game.defaultLimits),
    seats: o.seats.map((s) => ({ source: s.source, filename: s.filename })),
  };
  const run = new MatchRun(game, spec, o.seed, {
    host: () => new WorkerBotHost(o.workerUrl),
    prelude: async () => o.prelude,
    declaredName: (source) => readBotHeader(source).name,
    compile: async (me) => o.seats[me]!.compiled,
    mapPositions: (seat, filename, message) => mapPositions(seat.map, filename, message),
    onRound: o.onRound,
    onLog: (me, round, text) => {
      const logs = roundLogs[me]!;
      logs.set(round, (logs.get(round) ?? '') + text);
    },
  });
  try {
    await run.loadBots();
    return { ...(await run.play()), roundLogs };
  } finally {
    await run.close();
  }
}
