// The judge's limits on a bot, in one place: the numbers and the words the
// sandbox, the in-process host, the runner and the pages use. Pure (no Node
// APIs): the bot runtime is bundled into isolates and imports it too.

/** Per bot per match; each game sets its defaults and a match records its own. */
export interface Limits {
  /** CPU time for the whole match, loading included, in milliseconds. */
  cpuBudgetMs: number;
  /** Heap cap of the bot's isolate, in MiB. */
  memoryMb: number;
}

/**
 * The one place a match's limits are merged: the game's defaults under a
 * match's or tournament's override. A match job is created with the result
 * (src/domain/match-setup.ts), and everything below it (the sandbox, the match
 * process, MatchRun) reads that object as it is; only a job queued before
 * jobs carried their limits is resolved again, by the same function, where
 * the worker plays it (playMatchWithGame).
 */
export function resolveLimits(defaults: Limits, override?: Partial<Limits> | null): Limits {
  const pick = (key: keyof Limits): number => {
    const value = override?.[key];
    return typeof value === 'number' ? value : defaults[key];
  };
  return { cpuBudgetMs: pick('cpuBudgetMs'), memoryMb: pick('memoryMb') };
}

/** Orders a bot may give in one round; past it the bot is frozen (the judge's rules). */
export const MAX_ORDERS = 1000;
/** The JSON of one round's orders, checked before it is parsed. */
export const MAX_ORDERS_JSON = 256 * 1024;
/** The console log each bot keeps per match (the judge's rules: 64 KiB). */
export const LOG_CAP_BYTES = 64 * 1024;
/** Anything a bot's code writes that the judge shows (error messages, stacks). */
export const MAX_MESSAGE_CHARS = 2048;
/** A player's name as a bot reports it. */
export const MAX_NAME_CHARS = 64;

export function cpuBudgetUsedUp(budgetMs: number, detail?: string): string {
  return `CPU budget of ${budgetMs} ms for the match used up${detail ? ` (${detail})` : ''}`;
}

export function memoryLimitExceeded(memoryMb: number): string {
  return `memory limit of ${memoryMb} MiB exceeded`;
}

export function tooManyOrders(): string {
  return `more than ${MAX_ORDERS} orders in one round`;
}

export function logTruncated(): string {
  return `[log truncated: ${LOG_CAP_BYTES / 1024} KiB per match]`;
}

/** "10 s", "2.5 s": a CPU budget for people. */
export function formatBudget(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
