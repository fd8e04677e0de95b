// A match of bots the judge compiled beforehand (the play page's, the starter kit's local
// play): the judge's own MatchRun with the game's default limits, each seat's compile as
// given, the names read by the bots' languages. Only the host differs (a Web Worker per bot,
// a node:vm context), so a seed gives the judge's match. Node-free: the browser bundles it.

import type { BotHost } from '../../match/bot-host.ts';
import { MatchRun } from '../../match/match-run.ts';
import type { CompiledSeat, MatchOutcome } from '../../match/types.ts';
import { resolveLimits } from '../../sdk/limits.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { mapSeatPositions, readBotHeader } from '../languages/index.ts';

export interface CompiledMatchSeat {
  filename: string;
  source: string;
  /** From the judge's compile (POST /api/play/compile), or its error. */
  compiled: CompiledSeat;
}

export interface CompiledMatch {
  seed: number;
  seats: CompiledMatchSeat[];
  /** The game's prelude as the judge builds it. */
  prelude: string;
  config?: Record<string, unknown>;
  onRound?: (round: number, total: number) => void;
  onLog?: (me: number, round: number, text: string) => void;
}

export async function playCompiledMatch(game: AnyGame, o: CompiledMatch, host: (me: number) => BotHost): Promise<MatchOutcome> {
  const spec = {
    game: game.id,
    seed: o.seed,
    config: o.config,
    limits: resolveLimits(game.defaultLimits),
    seats: o.seats.map((s) => ({ source: s.source, filename: s.filename })),
  };
  const run = new MatchRun(game, spec, o.seed, {
    host,
    prelude: async () => o.prelude,
    declaredName: (source) => readBotHeader(source).name,
    compile: async (me) => o.seats[me]!.compiled,
    mapPositions: (seat, filename, message) => mapSeatPositions(seat.map, filename, message),
    onRound: o.onRound,
    onLog: o.onLog,
  });
  return run.playOut();
}
