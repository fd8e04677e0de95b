// The match process's host for a seat: a shipped built-in player (the game's
// own Dummy, Demo or Null, whose compiled code the match process recognises,
// builtinCodes below) runs in this process's warm node:vm context for its
// code, shared by the seats that run it (WarmBuiltinHost, inprocess-host.ts),
// so a call costs no isolate crossing and the player is compiled and
// optimised once; every other bot (an upload, a teacher's private player)
// runs in its isolate, metered per call as ever.
//
// A built-in's time is the wall time of its calls and its watchdog the call
// meter's look at trusted calls (beginTrusted): past the CPU budget it has
// left, the process is stopped and the match played again with that seat
// frozen, as for a bot's call. What it cannot do is measure a heap of its
// own: the judge's own players need none.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { compileBot } from '../languages/index.ts';
import type { AnyGame } from '../../sdk/types.ts';
import type { BotHost, LoadReply, LoadRequest, PlayReply, PlayRequest } from '../../match/bot-host.ts';
import { WarmBuiltinHost } from './inprocess-host.ts';
import { IsolateBotHost, type IsolateHostOptions } from './isolate-host.ts';
import { callMeter } from './call-meter.ts';

export { dropWarmBuiltins, warmBuiltinCount } from './inprocess-host.ts';

export class BuiltinOrIsolateHost implements BotHost {
  private host: WarmBuiltinHost | IsolateBotHost | null = null;

  constructor(private readonly options: IsolateHostOptions & { builtins: ReadonlySet<string> }) {}

  load(req: LoadRequest): Promise<LoadReply> {
    if (this.options.builtins.has(req.code)) {
      const meter = callMeter();
      this.host = new WarmBuiltinHost(meter.watched ? meter : undefined);
    } else this.host = new IsolateBotHost(this.options);
    return this.host.load(req);
  }

  play(req: PlayRequest): Promise<PlayReply> {
    if (!this.host) return Promise.resolve({ ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 });
    return this.host.play(req);
  }

  playSync(req: PlayRequest): PlayReply {
    if (!this.host) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    return this.host.playSync(req);
  }

  close(): Promise<void> {
    return this.host ? this.host.close() : Promise.resolve();
  }
}

/**
 * The compiled code of each game's shipped built-in players, compiled here
 * once per game: a seat whose code is one of them is the judge's own code and
 * runs in a warm node:vm context of the process that plays the match (the match process; the CLI
 * when every seat is one), not an isolate.
 */
const builtinCodeSets = new Map<AnyGame, Promise<ReadonlySet<string>>>();
export function builtinCodes(game: AnyGame): Promise<ReadonlySet<string>> {
  let codes = builtinCodeSets.get(game);
  if (!codes) {
    codes = Promise.all(
      Object.values(game.bots.builtin).map(async (path) => {
        try {
          return await compileBot(await readFile(path, 'utf8'), basename(path), game.id);
        } catch {
          // Not compiled here (a missing file, esbuild gone): that built-in runs as any bot does.
          return null;
        }
      }),
    ).then((list) => new Set(list.filter((c): c is string => c !== null)));
    builtinCodeSets.set(game, codes);
  }
  return codes;
}
