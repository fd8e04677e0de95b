// The play page's compiles, bounded per client (a signed-in user, else an
// address): one at a time, and a budget of compiler CPU seconds per hour
// (PLAY_COMPILE_CPU_SECONDS_PER_HOUR, default 300). A compile is given what
// is left of the budget and stopped there (toolchain.ts: the play lane); the
// CPU it used is charged to the client, never to the file. In memory, per
// API process.

import { readSettings } from '../../config.ts';

export interface PlayTicket {
  /** CPU seconds the client may still use now. */
  remaining: () => number;
  /** Charges the compile's CPU time and frees the client's turn. */
  done: (cpuMs: number) => void;
}

export type PlayRefusal = { code: 'play-compile-running' | 'play-compile-budget'; message: string };

const HOUR_MS = 3600_000;

/** Compiler CPU charged per key (a client, an address) over the last hour: the window both play budgets keep. */
export class CpuHourWindow {
  private readonly spent = new Map<string, { at: number; ms: number }[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** CPU ms charged to the key in the last hour. */
  used(key: string): number {
    const cutoff = this.now() - HOUR_MS;
    const list = (this.spent.get(key) ?? []).filter((e) => e.at > cutoff);
    if (list.length) this.spent.set(key, list);
    else this.spent.delete(key);
    return list.reduce((a, e) => a + e.ms, 0);
  }

  charge(key: string, cpuMs: number): void {
    if (cpuMs > 0) this.spent.set(key, [...(this.spent.get(key) ?? []), { at: this.now(), ms: cpuMs }]);
  }

  /** Few entries: forgets keys that spent nothing in the last hour, once there are many. */
  prune(): void {
    if (this.spent.size > 10_000) for (const k of [...this.spent.keys()]) this.used(k);
  }
}

export class PlayCompileBudget {
  private readonly running = new Set<string>();
  private readonly window: CpuHourWindow;

  constructor(
    readonly cpuSecondsPerHour: number,
    now: () => number = Date.now,
  ) {
    this.window = new CpuHourWindow(now);
  }

  /** CPU ms the client used in the last hour. */
  used(key: string): number {
    return this.window.used(key);
  }

  /** The client's turn, or why not now. */
  begin(key: string): PlayTicket | PlayRefusal {
    if (this.running.has(key))
      return { code: 'play-compile-running', message: 'one compile at a time: your previous compile is still running; try again when it ends' };
    const left = this.cpuSecondsPerHour - this.used(key) / 1000;
    if (left < 1) {
      return {
        code: 'play-compile-budget',
        message: `your compiles on the play page used ${this.cpuSecondsPerHour} s of compiler CPU time in the last hour, the limit: try again later (the judge still compiles your submissions)`,
      };
    }
    this.running.add(key);
    this.window.prune();
    let ended = false;
    return {
      remaining: () => Math.max(0, this.cpuSecondsPerHour - this.used(key) / 1000),
      done: (cpuMs) => {
        if (ended) return;
        ended = true;
        this.running.delete(key);
        this.window.charge(key, cpuMs);
      },
    };
  }
}

let shared: PlayCompileBudget | null = null;

/** The process's budget (PLAY_COMPILE_CPU_SECONDS_PER_HOUR). */
export function playCompileBudget(): PlayCompileBudget {
  return (shared ??= new PlayCompileBudget(readSettings(['playCompileCpuSecondsPerHour']).playCompileCpuSecondsPerHour));
}
