// POST /api/play/compile's compile: the judge's own compile, for a match in
// the visitor's browser, kept apart from judging. It runs in the play lane
// (toolchain.ts: its own compile server and slots, at nice 19, with a bounded
// queue), so the gate's and rejudges' compiles never wait for it; it is
// bounded per client (play-budget.ts: one at a time, compiler CPU seconds per
// hour) and per client address, whatever accounts it uses (AddressCompileBudget:
// so many at once, compiler CPU seconds per hour), so that one student's many
// accounts cannot fill the lane; a C++ compile is for signed-in users only. A
// compile stopped for a budget or refused for the lane's queue is a 429 with a
// stable code, never the file's compile error and never cached. Both budgets
// live in each API process's memory.

import type { CompiledSeat } from '../match/types.ts';
import { HttpError, unauthorized } from './errors.ts';
import { BotCompileError, CompileInfraError, PlayCompileRefusal } from '../sandbox/languages/compile-errors.ts';
import { botSourceMap, compileBot, languageOfFile } from '../sandbox/languages/index.ts';
import { CpuHourWindow, playCompileBudget } from '../sandbox/entries/play-budget.ts';
import { clientKey } from '../domain/attempt-budgets.ts';

/** The play page's compiles from one address: so many at once, and compiler CPU seconds per hour. */
export class AddressCompileBudget {
  private readonly running = new Map<string, number>();
  private readonly window: CpuHourWindow;

  constructor(
    readonly maxRunning: number,
    readonly cpuSecondsPerHour: number,
    now: () => number = Date.now,
  ) {
    this.window = new CpuHourWindow(now);
  }

  /** CPU ms compiles from the address used in the last hour. */
  used(address: string): number {
    return this.window.used(address);
  }

  /** A turn for a compile from the address, or why not now. */
  begin(address: string): { remaining: () => number; done: (cpuMs: number) => void } | { code: string; message: string } {
    const running = this.running.get(address) ?? 0;
    if (running >= this.maxRunning)
      return {
        code: 'play-compile-address-busy',
        message: `${running} compiles from your address are running on the play page: try again when one ends (the judge still compiles your submissions)`,
      };
    if (this.cpuSecondsPerHour - this.used(address) / 1000 < 1)
      return {
        code: 'play-compile-address-budget',
        message: `compiles from your address used ${this.cpuSecondsPerHour} s of compiler CPU time on the play page in the last hour, the limit for one address: try again later (the judge still compiles your submissions)`,
      };
    this.running.set(address, running + 1);
    this.window.prune();
    let ended = false;
    return {
      remaining: () => Math.max(0, this.cpuSecondsPerHour - this.used(address) / 1000),
      done: (cpuMs) => {
        if (ended) return;
        ended = true;
        const left = (this.running.get(address) ?? 1) - 1;
        if (left > 0) this.running.set(address, left);
        else this.running.delete(address);
        this.window.charge(address, cpuMs);
      },
    };
  }
}

const addressBudgets = new Map<string, AddressCompileBudget>();
/** The process's budget for these bounds (one per setting: a test app may set its own). */
export function addressCompileBudget(maxRunning: number, cpuSecondsPerHour: number): AddressCompileBudget {
  const key = `${maxRunning}/${cpuSecondsPerHour}`;
  let b = addressBudgets.get(key);
  if (!b) addressBudgets.set(key, (b = new AddressCompileBudget(maxRunning, cpuSecondsPerHour)));
  return b;
}

export interface PlayClient {
  /** user:<id> or ip:<address>: whose one-at-a-time and CPU budget. */
  key: string;
  signedIn: boolean;
  /** The request's address, and its budget. */
  ip: string;
  addressBudget: AddressCompileBudget;
}

/**
 * Compiles for the play page as `client`; a C++ file against `game`'s headers (else its
 * // GAME: line). Throws HttpError for the lane's, the client's and the address's bounds.
 */
export async function playCompile(source: string, filename: string, client: PlayClient, game?: string): Promise<CompiledSeat> {
  // A compile of seconds (C++) is for signed-in users only.
  if (languageOfFile(filename).slowCompile && !client.signedIn)
    throw unauthorized('C++ bots are compiled for the play page for signed-in users only: log in first (TypeScript and JavaScript bots need no account)');
  const address = client.addressBudget.begin(clientKey(client.ip));
  if ('code' in address) throw new HttpError(429, address.message, address.code);
  const budget = playCompileBudget();
  const ticket = budget.begin(client.key);
  if ('code' in ticket) {
    address.done(0);
    throw new HttpError(429, ticket.message, ticket.code);
  }
  const addressShort = () => address.remaining() < ticket.remaining();
  let cpuMs = 0;
  try {
    const code = await compileBot(source, filename, game, {
      lane: 'play',
      budgetSeconds: () => Math.min(ticket.remaining(), address.remaining()),
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
      if (addressShort())
        throw new HttpError(
          429,
          `this compile used up what was left of your address's compiler CPU time on the play page (${client.addressBudget.cpuSecondsPerHour} s an hour): try again later, or submit the file (the judge compiles it)`,
          'play-compile-address-budget',
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
    address.done(cpuMs);
  }
}
