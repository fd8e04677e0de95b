// A counter of matches (or compiles) in flight with a first-come-first-served queue: a leaf
// of its own, shared by match-pool.ts, compile-process.ts and cpp/toolchain.ts (no import circle).

/** At most `limit` matches in flight in this process; the others wait their turn, first come first served. */
export class Slots {
  private busy = 0;
  private waiting: (() => void)[] = [];
  constructor(public limit: number) {}

  async acquire(): Promise<void> {
    if (this.busy < this.limit) {
      this.busy++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy--;
  }
}
