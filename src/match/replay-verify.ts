// `arbiter verify`: re-runs the engine from the replay's config, seed and
// recorded orders and checks that every recorded frame and score matches.

import { isDeepStrictEqual } from 'node:util';
import { getGame } from '../games/registry.ts';
import { isOver, type AnyGame } from '../sdk/types.ts';
import type { Replay } from '../sdk/replay-format.ts';

export type VerifyResult =
  | { ok: true; rounds: number }
  | { ok: false; round: number; message: string /** The replay's rules are another version: nothing was re-run. */; otherEngine?: boolean };

/** The trailing release number of an engine version ('moria-2' is 2), or null. */
function engineRelease(version: string): number | null {
  const m = /-(\d+)$/.exec(version);
  return m ? Number(m[1]) : null;
}

/** Why a replay recorded under other rules cannot be re-run, in words a student reads. */
export function otherEngineMessage(game: AnyGame, recorded: string): string {
  const then = engineRelease(recorded);
  const now = engineRelease(game.engineVersion);
  const age = then !== null && now !== null ? (then < now ? 'an older' : 'a newer') : 'another';
  const advice = age === 'an older' ? 'the Arbiter release that recorded it can still verify it' : 'verify it with the Arbiter release that recorded it';
  return `this replay was recorded under ${age} version of ${game.title}'s rules (engine ${recorded}); this Arbiter plays engine ${game.engineVersion}, so re-running it would not reproduce the match (${advice})`;
}

export async function verifyReplay(replay: Replay): Promise<VerifyResult> {
  return verifyReplayWithGame(await getGame(replay.game), replay);
}

export function verifyReplayWithGame(game: AnyGame, replay: Replay): VerifyResult {
  if (replay.engineVersion !== game.engineVersion) return { ok: false, round: 0, message: otherEngineMessage(game, replay.engineVersion), otherEngine: true };
  let state: unknown;
  let config: object;
  try {
    config = game.parseConfig(replay.config);
    state = game.create(config, replay.seed);
  } catch (err) {
    return { ok: false, round: 0, message: `cannot set the match up: ${(err as Error).message}` };
  }
  const first = replay.rounds[0];
  if (!first || !isDeepStrictEqual(game.frame(state), first.frame)) return { ok: false, round: 0, message: 'the initial board differs' };
  for (let i = 1; i < replay.rounds.length; i++) {
    const rec = replay.rounds[i]!;
    if (isOver(game, config, state)) return { ok: false, round: rec.round, message: 'the replay has more rounds than the match' };
    try {
      // `frozen` is recorded as the engine saw it in that round (bots frozen during it included).
      state = game.next(state, rec.orders, rec.frozen).state;
    } catch (err) {
      return { ok: false, round: rec.round, message: `the engine refused the recorded orders: ${(err as Error).message}` };
    }
    if (!isDeepStrictEqual(game.frame(state), rec.frame)) return { ok: false, round: rec.round, message: `the board after round ${rec.round} differs` };
    if (!isDeepStrictEqual(game.scores(state), rec.scores)) return { ok: false, round: rec.round, message: `the scores after round ${rec.round} differ` };
  }
  if (!isOver(game, config, state)) return { ok: false, round: replay.rounds.length - 1, message: 'the replay ends before the match does' };
  if (!isDeepStrictEqual(game.scores(state), replay.result.scores)) return { ok: false, round: replay.rounds.length - 1, message: 'the final scores differ' };
  return { ok: true, rounds: replay.rounds.length - 1 };
}
