// The starter kit's match runner (play/runner.mjs in the kit, bundled for
// Node with one game's engine): the judge's own match loop (MatchRun) with
// each bot in a node:vm context of the student's own Node, given the judge's
// prelude (its bot runtime, API and C++ glue) and the bots as the judge's
// compile made them. So a seed gives the match the judge plays with the same
// bots, but for the CPU figures. It is the student's own code on their own
// machine: no isolate, no memory limit, and a bot that loops is stopped by
// Ctrl-C, not by the judge's watchdog (a bot over its CPU budget is still
// frozen, after its call).

import type { MatchOutcome } from '../../match/types.ts';
import { InProcessBotHost } from '../../sandbox/hosts/inprocess-host.ts';
import { type CompiledMatch, type CompiledMatchSeat, playCompiledMatch } from '../../sandbox/play-compiled.ts';
import type { AnyGame } from '../../sdk/types.ts';

export type KitSeat = CompiledMatchSeat;
export type KitMatch = Omit<CompiledMatch, 'onLog'>;

export async function runKitMatch(game: AnyGame, o: KitMatch): Promise<MatchOutcome> {
  return playCompiledMatch(game, o, () => new InProcessBotHost());
}
