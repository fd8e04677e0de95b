// POST /api/play/compile's compile: the judge's own compile, for a match in
// the visitor's browser, kept apart from judging. It runs in the play lane
// (toolchain.ts: its own compile server and slots, at nice 19, with a bounded
// queue), so the gate's and rejudges' compiles never wait for it; it is
// bounded per client (one at a time, compiler CPU seconds per hour:
// PLAY_COMPILE_CPU_SECONDS_PER_HOUR) and per client address, whatever
// accounts it uses (so many at once, compiler CPU seconds per hour), so that
// one student's many accounts cannot fill the lane; a C++ compile is for
// signed-in users only. A compile stopped for a budget or refused for the
// lane's queue is a 429 with a stable code, never the file's compile error and
// never cached. Both budgets are kept in the shared limits
// (src/queue/shared-limits.ts: in Redis, so they hold across API replicas; a
// running compile is a hold that lapses if its replica dies).

import type { CompiledSeat } from '../match/types.ts';
import type { Config } from '../config.ts';
import { HttpError, unauthorized } from './errors.ts';
import { BotCompileError, CompileInfraError, PlayCompileRefusal } from '../sandbox/languages/compile-errors.ts';
import { botSourceMap, compileBot, languageOfFile } from '../sandbox/languages/index.ts';
import { playCompileCpuSecondsPerHour } from '../sandbox/entries/play-budget.ts';
import { clientKey } from '../domain/attempt-budgets.ts';
import type { SharedLimits } from '../queue/shared-limits.ts';

const HOUR_MS = 3600_000;

/** The play page's bounds: per client (one compile at a time), and per address. */
export interface PlayCompileBounds {
  clientCpuSecondsPerHour: number;
  addressRunning: number;
  addressCpuSecondsPerHour: number;
}

export function playCompileBounds(config: Pick<Config, 'playCompilesRunningPerIp' | 'playCompileCpuSecondsPerHourPerIp'>): PlayCompileBounds {
  return {
    clientCpuSecondsPerHour: playCompileCpuSecondsPerHour(),
    addressRunning: config.playCompilesRunningPerIp,
    addressCpuSecondsPerHour: config.playCompileCpuSecondsPerHourPerIp,
  };
}

/** A compile's turn: the CPU seconds it may use, and the end that charges what it used to the client and the address. */
export interface PlayTurn {
  remainingSeconds: number;
  /** The address has less left than the client: a compile stopped for its budget was stopped for the address's. */
  addressShort: boolean;
  done(cpuMs: number): Promise<void>;
}

/** The CPU windows' keys, for a test that spends them. */
export const playCpuKeys = (clientKeyText: string, address: string) => ({
  client: `play-cpu:${clientKeyText}`,
  address: `play-cpu:address:${clientKey(address)}`,
});

/**
 * A turn for a compile from `client` (its key: user:<id> or ip:<address>) at address `ip`, or why
 * not now: the address's compiles at once and CPU hour first, then the client's one compile and CPU hour.
 */
export async function beginPlayCompile(
  limits: SharedLimits,
  client: { key: string; ip: string },
  bounds: PlayCompileBounds,
): Promise<PlayTurn | { code: string; message: string }> {
  const cpu = playCpuKeys(client.key, client.ip);
  // Refused once less than one CPU second is left.
  const below = (seconds: number) => seconds * 1000 - 1000 + 1;
  const address = await limits.hold({
    key: `play:address:${clientKey(client.ip)}`,
    max: bounds.addressRunning,
    spent: { key: cpu.address, windowMs: HOUR_MS, below: below(bounds.addressCpuSecondsPerHour) },
  });
  if (!address.ok)
    return address.reason === 'busy'
      ? {
          code: 'play-compile-address-busy',
          message: `${address.held} compiles from your address are running on the play page: try again when one ends (the judge still compiles your submissions)`,
        }
      : {
          code: 'play-compile-address-budget',
          message: `compiles from your address used ${bounds.addressCpuSecondsPerHour} s of compiler CPU time on the play page in the last hour, the limit for one address: try again later (the judge still compiles your submissions)`,
        };
  const own = await limits.hold({
    key: `play:${client.key}`,
    max: 1,
    spent: { key: cpu.client, windowMs: HOUR_MS, below: below(bounds.clientCpuSecondsPerHour) },
  });
  if (!own.ok) {
    await address.hold.release(0);
    return own.reason === 'busy'
      ? { code: 'play-compile-running', message: 'one compile at a time: your previous compile is still running; try again when it ends' }
      : {
          code: 'play-compile-budget',
          message: `your compiles on the play page used ${bounds.clientCpuSecondsPerHour} s of compiler CPU time in the last hour, the limit: try again later (the judge still compiles your submissions)`,
        };
  }
  const addressLeft = Math.max(0, bounds.addressCpuSecondsPerHour - address.spent / 1000);
  const clientLeft = Math.max(0, bounds.clientCpuSecondsPerHour - own.spent / 1000);
  return {
    remainingSeconds: Math.min(addressLeft, clientLeft),
    addressShort: addressLeft < clientLeft,
    async done(cpuMs) {
      await Promise.all([own.hold.release(cpuMs), address.hold.release(cpuMs)]);
    },
  };
}

export interface PlayClient {
  /** user:<id> or ip:<address>: whose one-at-a-time and CPU budget. */
  key: string;
  signedIn: boolean;
  /** The request's address. */
  ip: string;
  /** Where the budgets are kept (app.deps.limits), and their bounds. */
  limits: SharedLimits;
  bounds: PlayCompileBounds;
}

/**
 * Compiles for the play page as `client`; a C++ file against `game`'s headers (else its
 * // GAME: line). Throws HttpError for the lane's, the client's and the address's bounds.
 */
export async function playCompile(source: string, filename: string, client: PlayClient, game?: string): Promise<CompiledSeat> {
  // A compile of seconds (C++) is for signed-in users only.
  if (languageOfFile(filename).slowCompile && !client.signedIn)
    throw unauthorized('C++ bots are compiled for the play page for signed-in users only: log in first (TypeScript and JavaScript bots need no account)');
  const turn = await beginPlayCompile(client.limits, client, client.bounds);
  if ('code' in turn) throw new HttpError(429, turn.message, turn.code);
  let cpuMs = 0;
  try {
    const code = await compileBot(source, filename, game, {
      lane: 'play',
      budgetSeconds: () => turn.remainingSeconds,
      onCpu: (ms) => (cpuMs += ms),
    });
    const map = botSourceMap(code, filename);
    return map ? { code, map } : { code };
  } catch (err) {
    if (err instanceof PlayCompileRefusal) {
      if (err.reason === 'busy')
        throw new HttpError(
          429,
          "the play page's compiler is busy with other files: try again in a minute (the judge still compiles your submissions)",
          'play-compile-busy',
        );
      if (turn.addressShort)
        throw new HttpError(
          429,
          `this compile used up what was left of your address's compiler CPU time on the play page (${client.bounds.addressCpuSecondsPerHour} s an hour): try again later, or submit the file (the judge compiles it)`,
          'play-compile-address-budget',
        );
      throw new HttpError(
        429,
        `this compile used up what was left of your compiler CPU time on the play page (${client.bounds.clientCpuSecondsPerHour} s an hour): try again later, or submit the file (the judge compiles it)`,
        'play-compile-budget',
      );
    }
    // The bot's own compile error comes back as { error } (it freezes that bot, as in a judged match).
    if (err instanceof BotCompileError) return { error: err.message };
    if (err instanceof CompileInfraError)
      throw new HttpError(503, `the compiler failed (not your file's fault): try again later. ${err.message}`, 'compiler-failed');
    throw err;
  } finally {
    await turn.done(cpuMs);
  }
}
