// Plays one match: the game's engine in this process, each bot behind a
// BotHost. A sandboxed match (the default) is handed to a match process
// (sandbox/sandbox-host.ts), which comes back here with host 'isolate'. The result is a self-contained replay plus the bots' private logs.
// The rounds, freezes and logs are MatchRun's (match-run.ts), which the play
// page's driver in the browser shares.
// A bot that breaks a rule is frozen (its orders stop, its units stay) and the
// match goes on; nothing a bot does can stop the match or change how the
// other bots are treated.
//
// A bot's name is the one its file's header declares (what the judge checked
// at upload), in every match: what its code computes at run time never
// reaches the other bots or the replay. The bots of a match play one after
// another, so a match never runs more than one bot at a time. When the judge
// itself fails (SandboxInfraError, which a CompileInfraError becomes),
// runMatch throws and the match is played again: that never freezes a bot.

import { getGame } from '../game-kit/registry.ts';
import type { AnyGame } from '../game-kit/types.ts';
import { mapBotPositions } from '../../sandbox/compile.ts';
import { compileSeat } from '../../sandbox/compile-seat.ts';
import { buildPrelude } from '../../sandbox/prelude.ts';
import { InProcessBotHost } from '../../sandbox/inprocess-host.ts';
import { IsolateBotHost } from '../../sandbox/isolate-host.ts';
import { runSandboxedMatch } from '../../sandbox/sandbox-host.ts';
import { MatchRun } from './match-run.ts';
import type { MatchOutcome, MatchSpec, RunOptions } from './types.ts';

// compileSeat lives in sandbox/compile-seat.ts, where sandbox-host.ts reads it without importing this file (no import circle).
export { compileSeat } from '../../sandbox/compile-seat.ts';

export class MatchSpecError extends Error {
  override name = 'MatchSpecError';
}

export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff)
    throw new MatchSpecError(`bad seed ${JSON.stringify(seed)}: a whole number from 0 to 2147483647`);
  return seed;
}

export async function runMatch(spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  return runMatchWithGame(await getGame(spec.game), spec, options);
}

export async function runMatchWithGame(game: AnyGame, spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  const seed = checkSeed(spec.seed);
  if (spec.seats.length !== game.nbPlayers) throw new MatchSpecError(`${game.title} needs ${game.nbPlayers} players, got ${spec.seats.length}`);
  // The sandbox plays the match in a child process of its own, which comes back here with host 'isolate'.
  if ((options.host ?? 'sandbox') === 'sandbox') return runSandboxedMatch(game, { ...spec, seed }, options);
  const run = new MatchRun(game, spec, seed, {
    host: () => (options.host === 'inprocess' ? new InProcessBotHost() : new IsolateBotHost({ patient: new Set(options.patient ?? []) })),
    prelude: () => buildPrelude(game),
    compile: async (me) => options.compiled?.[me] ?? (await compileSeat(spec.seats[me]!.source, spec.seats[me]!.filename, me, game.id)),
    mapPositions: (seat, filename, message) => mapBotPositions(seat.code, filename, message),
    forced: options.forced,
    onRound: options.onRound,
  });
  try {
    await run.loadBots();
    return await run.play();
  } finally {
    await run.close();
  }
}
