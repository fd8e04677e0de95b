// Fixed windows counted in this process's memory: a count per key that lapses when its window ends. The
// rate limits (MemoryLimits) and the attempt budgets (MemoryCounters) keep their windows here when there
// is no Redis, or while it does not answer. Many addresses at once must not grow it without end: past
// maxKeys windows, the lapsed ones go, then the oldest live ones, down to 90% (room for the next burst
// before the next sweep).

export interface CountWindow {
  count: number;
  endsAt: number;
}

export class BoundedWindows {
  private readonly windows = new Map<string, CountWindow>();
  constructor(private readonly maxKeys = 100_000) {}

  /** The window of `key` still running at `now`, if any (a lapsed one is dropped). */
  live(key: string, now: number): CountWindow | undefined {
    const w = this.windows.get(key);
    if (w && w.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Starts a window for `key` (replacing any), holding `count` until `endsAt`. */
  start(key: string, count: number, endsAt: number, now: number): CountWindow {
    const w = { count, endsAt };
    this.windows.set(key, w);
    if (this.windows.size > this.maxKeys) this.sweep(now);
    return w;
  }

  delete(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    const target = Math.floor(this.maxKeys * 0.9);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= target) break;
      this.windows.delete(k);
    }
  }
}
