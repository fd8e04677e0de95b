// The gate's first step ("Compile"): the file parses, loads in a
// fresh isolate, and exposes what the player API requires.

import { getGame } from '../../games/registry.ts';
import { BotCompileError } from '../languages/compile-errors.ts';
import { compileBot, mapBotPositions } from '../languages/index.ts';
import { buildPrelude } from '../hosts/prelude.ts';
import { loadInSandbox } from '../match-process/match-pool.ts';
import { LOG_CAP_BYTES, resolveLimits, type Limits } from '../../sdk/limits.ts';

export type CheckResult = { ok: true; name: string; game: string } | { ok: false; message: string; line?: number };

export interface CheckOptions {
  /** Told the CPU time the compiler used, ms (C++ compiles that ran: a cache hit or a script's compile says nothing). */
  onCompileCpu?: (ms: number) => void;
}

export async function checkBot(req: { game: string; source: string; filename: string; limits?: Limits }, options: CheckOptions = {}): Promise<CheckResult> {
  const game = await getGame(req.game);
  // A job carries its limits resolved; one queued before jobs did is resolved here, by the same function.
  const { cpuBudgetMs, memoryMb } = req.limits ?? resolveLimits(game.defaultLimits);
  let code: string;
  try {
    code = await compileBot(req.source, req.filename, req.game, options.onCompileCpu ? { onCpu: options.onCompileCpu } : {});
  } catch (err) {
    if (err instanceof BotCompileError) return { ok: false, message: `compile error: ${err.message}`, ...(err.line ? { line: err.line } : {}) };
    // CompileInfraError and the like are the judge's: the check job fails and is tried again.
    throw err;
  }
  const reply = await loadInSandbox({
    prelude: await buildPrelude(game),
    code,
    filename: req.filename,
    me: 0,
    seed: 1,
    cpuBudgetMs,
    memoryMb,
    logCapBytes: LOG_CAP_BYTES,
  });
  if (!reply.ok) {
    reply.message = mapBotPositions(code, req.filename, reply.message);
    const line = /:(\d+)(?::\d+)?\)?\s*$/m.exec(reply.message)?.[1];
    return { ok: false, message: `compile error: ${reply.message}`, ...(line ? { line: Number(line) } : {}) };
  }
  if (reply.game !== game.id) return { ok: false, message: `compile error: the file declares GAME = "${reply.game}" but was submitted for ${game.id}` };
  return { ok: true, name: reply.name, game: reply.game };
}
