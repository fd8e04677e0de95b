// The starter kit's match runner (play/runner.mjs in the kit, bundled for
// Node with one game's engine): the judge's own match loop (MatchRun) with
// each bot in a node:vm context of the student's own Node, given the judge's
// prelude (its bot runtime, API and C++ glue) and the bots as the judge's
// compile made them. So a seed gives the match the judge plays with the same
// bots, but for the CPU figures. It is the student's own code on their own
// machine: no isolate, no memory limit, and a bot that loops is stopped by
// Ctrl-C, not by the judge's watchdog (a bot over its CPU budget is still
// frozen, after its call).

import { readBotHeader } from '../../sandbox/languages/index.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { resolveLimits } from '../../sdk/limits.ts';
import { MatchRun } from '../../match/match-run.ts';
import type { CompiledSeat, MatchOutcome } from '../../match/types.ts';
import { mapPositions } from '../../sandbox/languages/javascript/bot-source.ts';
import { InProcessBotHost } from '../../sandbox/hosts/inprocess-host.ts';

export interface KitSeat {
  filename: string;
  source: string;
  compiled: CompiledSeat;
}

export interface KitMatch {
  seed: number;
  seats: KitSeat[];
  prelude: string;
  config?: Record<string, unknown>;
  onRound?: (round: number, total: number) => void;
}

export async function runKitMatch(game: AnyGame, o: KitMatch): Promise<MatchOutcome> {
  const spec = {
    game: game.id,
    seed: o.seed,
    config: o.config,
    limits: resolveLimits(game.defaultLimits),
    seats: o.seats.map((s) => ({ source: s.source, filename: s.filename })),
  };
  const run = new MatchRun(game, spec, o.seed, {
    host: () => new InProcessBotHost(),
    prelude: async () => o.prelude,
    declaredName: (source) => readBotHeader(source).name,
    compile: async (me) => o.seats[me]!.compiled,
    mapPositions: (seat, filename, message) => mapPositions(seat.map, filename, message),
    onRound: o.onRound,
  });
  try {
    await run.loadBots();
    return await run.play();
  } finally {
    await run.close();
  }
}
