// POST /api/play/compile's compile: the judge's own compile, for a match in
// the visitor's browser, kept apart from judging. It runs in the play lane
// (toolchain.ts: its own compile server and slots, at nice 19, with a bounded
// queue), so the gate's and rejudges' compiles never wait for it; it is
// bounded per client (play-budget.ts: one at a time, compiler CPU seconds per
// hour), and a C++ compile is for signed-in users only. A compile stopped for
// the client's budget or refused for the lane's queue is a 429 with a stable
// code, never the file's compile error and never cached.

import type { CompiledSeat } from '../match/types.ts';
import { HttpError, unauthorized } from './errors.ts';
import { BotCompileError, botSourceMap, CompileInfraError, PlayCompileRefusal } from '../sandbox/languages/javascript/compile.ts';
import { compileBot, languageOfFile } from '../sandbox/languages/index.ts';
import { playCompileBudget } from '../sandbox/play-budget.ts';

/**
 * Compiles for the play page as `client` (user:<id> or ip:<address>); a C++ file against `game`'s headers (else its
 * // GAME: line). Throws HttpError for the lane's and the client's bounds.
 */
export async function playCompile(source: string, filename: string, client: string, signedIn: boolean, game?: string): Promise<CompiledSeat> {
  // A compile of seconds (C++) is for signed-in users only.
  if (languageOfFile(filename).slowCompile && !signedIn)
    throw unauthorized('C++ bots are compiled for the play page for signed-in users only: log in first (TypeScript and JavaScript bots need no account)');
  const budget = playCompileBudget();
  const ticket = budget.begin(client);
  if ('code' in ticket) throw new HttpError(429, ticket.message, ticket.code);
  let cpuMs = 0;
  try {
    const code = await compileBot(source, filename, game, { lane: 'play', budgetSeconds: ticket.remaining, onCpu: (ms) => (cpuMs += ms) });
    const map = botSourceMap(code);
    return map ? { code, map } : { code };
  } catch (err) {
    if (err instanceof PlayCompileRefusal) {
      if (err.reason === 'busy')
        throw new HttpError(
          429,
          "the play page's compiler is busy with other files: try again in a minute (the judge still compiles your submissions)",
          'play-compile-busy',
        );
      throw new HttpError(
        429,
        `this compile used up what was left of your compiler CPU time on the play page (${budget.cpuSecondsPerHour} s an hour): try again later, or submit the file (the judge compiles it)`,
        'play-compile-budget',
      );
    }
    // The bot's own compile error comes back as { error } (it freezes that bot, as in a judged match).
    if (err instanceof BotCompileError) return { error: err.message };
    if (err instanceof CompileInfraError)
      throw new HttpError(503, `the compiler failed (not your file's fault): try again later. ${err.message}`, 'compiler-failed');
    throw err;
  } finally {
    ticket.done(cpuMs);
  }
}
