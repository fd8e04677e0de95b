// Playing one match, the entry the worker calls (playMatch): the game's
// engine in this process, each bot behind a BotHost. A sandboxed match (the
// default) is handed to a match process (match-pool.ts), which comes back
// here with host 'isolate' (playResolvedMatch). The match loop itself, the
// rounds, freezes and logs, is MatchRun's (src/match/match-run.ts), which the
// play page's driver in the browser shares. The result is a self-contained
// replay plus the bots' private logs.
//
// A bot that breaks a rule is frozen (its orders stop, its units stay) and the
// match goes on; nothing a bot does can stop the match or change how the
// other bots are treated.
//
// A bot's name is the one its file's header declares (what the judge checked
// at upload), in every match: what its code computes at run time never
// reaches the other bots or the replay. The bots of a match play one after
// another, so a match never runs more than one bot at a time. When the judge
// itself fails (SandboxInfraError, which a CompileInfraError becomes),
// playMatch throws it once and never plays the match again: that is the
// worker pool's decision (src/jobs/worker/pool.ts), and it never freezes a bot.

import { readBotHeader } from './languages/index.ts';
import { getGame } from '../games/registry.ts';
import type { AnyGame } from '../sdk/types.ts';
import { resolveLimits } from '../sdk/limits.ts';
import { MatchRun } from '../match/match-run.ts';
import type { MatchOutcome, MatchSpec, ResolvedMatchSpec, RunOptions } from '../match/types.ts';
import { mapBotPositions } from './languages/javascript/compile.ts';
import { compileSeat } from './compile-seat.ts';
import { buildPrelude } from './prelude.ts';
import { InProcessBotHost } from './hosts/inprocess-host.ts';
import { IsolateBotHost } from './hosts/isolate-host.ts';
import { BuiltinOrIsolateHost } from './hosts/builtin-host.ts';
import { runSandboxedMatch } from './match-pool.ts';

export { compileSeat } from './compile-seat.ts';

/** The spec itself is wrong (its seed, its seats): playing it again cannot help. */
export class MatchSpecError extends Error {
  override name = 'MatchSpecError';
}

export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff)
    throw new MatchSpecError(`bad seed ${JSON.stringify(seed)}: a whole number from 0 to 2147483647`);
  return seed;
}

/**
 * The spec checked and its limits resolved, once, by resolveLimits: a job
 * created since jobs carry their limits keeps its own values; one queued
 * before (no limits, or some) gets the game's defaults the scheduler would
 * have given it.
 */
export function resolveSpec(game: AnyGame, spec: MatchSpec): ResolvedMatchSpec {
  const seed = checkSeed(spec.seed);
  if (spec.seats.length !== game.nbPlayers) throw new MatchSpecError(`${game.title} needs ${game.nbPlayers} players, got ${spec.seats.length}`);
  return { ...spec, seed, limits: resolveLimits(game.defaultLimits, spec.limits) };
}

/** Plays a match of a game the registry knows: what the worker pool calls for a match job. */
export async function playMatch(spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  return playMatchWithGame(await getGame(spec.game), spec, options);
}

export async function playMatchWithGame(game: AnyGame, spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  const resolved = resolveSpec(game, spec);
  // The sandbox plays the match in a child process of its own, which comes back here (playResolvedMatch) with host 'isolate'.
  if ((options.host ?? 'sandbox') === 'sandbox') return runSandboxedMatch(game, resolved, options);
  return playResolvedMatch(game, resolved, options);
}

/** The match in this process, its spec resolved already: host 'isolate' (the match process) or 'inprocess' (trusted code). */
export async function playResolvedMatch(game: AnyGame, spec: ResolvedMatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  const run = new MatchRun(game, spec, spec.seed, {
    host: () => {
      if (options.host === 'inprocess') return new InProcessBotHost();
      const patient = new Set(options.patient ?? []);
      // The match process: the game's shipped built-ins run in a node:vm context here, any other bot in its isolate.
      return options.builtins ? new BuiltinOrIsolateHost({ patient, builtins: options.builtins }) : new IsolateBotHost({ patient });
    },
    prelude: () => buildPrelude(game),
    declaredName: (source) => readBotHeader(source).name,
    compile: async (me) => options.compiled?.[me] ?? (await compileSeat(spec.seats[me]!.source, spec.seats[me]!.filename, me, game.id)),
    mapPositions: (seat, filename, message) => mapBotPositions(seat.code, filename, message),
    forced: options.forced,
    onRound: options.onRound,
  });
  return run.playOut();
}
