// The match in this process, its spec resolved already: the match process's
// side (match-child.ts plays each match it is sent here, host 'isolate':
// the game's shipped built-ins in node:vm, every other bot in its isolate),
// and trusted code's (host 'inprocess', entries/play-match.ts). The parent's
// side, which hands a match to a match process, is match-pool.ts; nothing
// here reaches back to it.

import { mapBotPositions, readBotHeader } from '../languages/index.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { MatchRun, type JsonMatchOutcome } from '../../match/match-run.ts';
import type { MatchOutcome, ResolvedMatchSpec, RunOptions } from '../../match/types.ts';
import { compileSeat } from '../languages/compile-seat.ts';
import { buildPrelude } from '../hosts/prelude.ts';
import { InProcessBotHost } from '../hosts/inprocess-host.ts';
import { IsolateBotHost } from '../hosts/isolate-host.ts';
import { BuiltinOrIsolateHost } from '../hosts/builtin-host.ts';

/** The match in this process, its spec resolved already: host 'isolate' (the match process) or 'inprocess' (trusted code). */
export async function playResolvedMatch(game: AnyGame, spec: ResolvedMatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  return matchRun(game, spec, options).playOut();
}

/** The same match, its replay written as JSON round by round (MatchRun.playOutAsJson): the match process, which sends it encoded. */
export async function playResolvedMatchAsJson(game: AnyGame, spec: ResolvedMatchSpec, options: RunOptions = {}): Promise<JsonMatchOutcome> {
  return matchRun(game, spec, options).playOutAsJson();
}

function matchRun(game: AnyGame, spec: ResolvedMatchSpec, options: RunOptions): MatchRun {
  return new MatchRun(game, spec, spec.seed, {
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
    lastRoundOnly: options.lastRoundOnly,
  });
}
