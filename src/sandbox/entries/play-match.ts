// Playing one match, the entry the worker calls (playMatch): the parent's
// side of the match process. A sandboxed match (the default) is handed to a
// match process (match-process/match-pool.ts), whose side plays it with host
// 'isolate' (match-process/play-resolved.ts); trusted code plays it in this
// process (host 'inprocess', the same function). The match loop itself, the
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

import { getGame } from '../../games/registry.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { resolveLimits } from '../../sdk/limits.ts';
import type { MatchOutcome, MatchSpec, ResolvedMatchSpec, RunOptions } from '../../match/types.ts';
import { runSandboxedMatch } from '../match-process/match-pool.ts';
import { playResolvedMatch } from '../match-process/play-resolved.ts';
import { compileSeat } from '../languages/compile-seat.ts';
import { builtinCodes } from '../hosts/builtin-host.ts';

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
  const host = options.host ?? 'sandbox';
  if (host === 'local') {
    // The game's own built-ins are the judge's code, which a match process runs in node:vm too: a match of
    // nothing else is played right here, as that process would play it; any other bot takes the sandbox.
    const compiled = options.compiled ?? (await Promise.all(resolved.seats.map((s, me) => compileSeat(s.source, s.filename, me, game.id))));
    const builtins = await builtinCodes(game);
    if (compiled.every((c) => 'code' in c && builtins.has(c.code)))
      return playResolvedMatch(game, resolved, { ...options, host: 'isolate', compiled, builtins });
    return runSandboxedMatch(game, resolved, { ...options, host: 'sandbox', compiled });
  }
  // The sandbox plays the match in a child process of its own, which plays it with host 'isolate' (playResolvedMatch).
  if (host === 'sandbox') return runSandboxedMatch(game, resolved, options);
  return playResolvedMatch(game, resolved, options);
}
