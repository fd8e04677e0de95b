// A match's seat compiled for its host: used by match-process/match-pool.ts before it hands a
// match to a match process, by entries/play-match.ts (host 'local') and match-process/play-resolved.ts,
// the play page and the CLI's eval. Here, in the languages' room, below all of them.

import { BotCompileError, CompileInfraError } from './compile-errors.ts';
import { botSourceMap, compileBot } from './index.ts';
import { SandboxInfraError } from '../../match/bot-host.ts';
import type { CompiledSeat } from '../../match/types.ts';

/** Compiles a seat's source; the bot's own compile error freezes it, any other failure is the judge's. */
export async function compileSeat(source: string, filename: string, me: number, game?: string): Promise<CompiledSeat> {
  try {
    const code = await compileBot(source, filename, game);
    const map = botSourceMap(code, filename);
    return map ? { code, map } : { code };
  } catch (err) {
    // Anything but the bot's own compile error is the judge's: SandboxInfraError, and the worker pool decides whether the match is played again.
    if (err instanceof CompileInfraError) throw new SandboxInfraError(`seat ${me}: ${err.message}`, { cause: err });
    if (!(err instanceof BotCompileError)) throw err;
    return { error: err.message };
  }
}
