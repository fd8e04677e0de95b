// Stops a bot's call from outside the thread that runs it, without a timer:
// a small isolate of its own (never any bot's) holds a handle to each bot
// isolate of this process and waits on a shared word; when the watcher thread
// (call-meter.ts) sees the bot in flight pass its CPU budget, it names that
// isolate there, and this isolate disposes of it. The bot's
// synchronous call then throws in the match thread ("Isolate was disposed
// during execution"), and the bot is frozen in place, its match going on.
//
// Why not isolated-vm's `timeout` on every call: each one arms a timer that
// lives until its deadline (one heap entry and, when its deadline comes
// first, a new thread), which cost a Bola de Drac match of 2,400 short calls
// about 8% of its CPU; and it counts wall time, so a busy machine cut calls
// short that had CPU left. The watcher counts CPU.
//
// The waiting isolate runs on one of isolated-vm's pool threads. Handing it a
// new isolate needs that isolate's lock, so register() asks the loop to
// return, hands the handle over, and starts the loop again: a load's
// business, never a call's. process.exit waits for isolated-vm's threads, so
// the switch ends its loop when the process exits.

import ivm from './ivm.ts';

/** Words of the control array (Int32), shared with the watcher thread. */
export const CTL = {
  /** Bumped (and notified) whenever the loop has something to do. */
  bell: 0,
  /** 1 + the slot of the isolate to dispose of (0: none); the loop clears it. */
  stop: 1,
  /** 1: the loop returns (see register). */
  yield: 2,
} as const;
export const CTL_WORDS = 3;

/** The loop, in the switch's own isolate: `isolates` and `ctl` are its globals. */
const LOOP = `
for (;;) {
  const seen = Atomics.load(ctl, ${CTL.bell});
  const k = Atomics.exchange(ctl, ${CTL.stop}, 0);
  if (k > 0) {
    const isolate = isolates[k - 1];
    try { if (isolate && !isolate.isDisposed) isolate.dispose(); } catch {}
  }
  if (Atomics.exchange(ctl, ${CTL.yield}, 0) === 1) break;
  Atomics.wait(ctl, ${CTL.bell}, seen);
}
`;

export class StopSwitch {
  private readonly isolate = new ivm.Isolate({ memoryLimit: 8 });
  private readonly context = this.isolate.createContextSync();
  private readonly loop = this.isolate.compileScriptSync(LOOP, { filename: 'stop-switch.js' });
  private readonly assign: ivm.Reference<(slot: number, isolate: ivm.Isolate | undefined) => void>;
  private running: Promise<unknown> | null = null;
  /** Registrations, one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly free: number[] = [];
  private next = 0;

  /** process.exit waits for isolated-vm's threads, and the loop holds one until it is ended. */
  private readonly onExit = () => this.close();

  constructor(private readonly ctl: Int32Array) {
    process.once('exit', this.onExit);
    const global = this.context.global;
    global.setSync('ctl', new ivm.ExternalCopy(ctl.buffer).copyInto({ release: true }));
    this.isolate.compileScriptSync('globalThis.ctl = new Int32Array(ctl); globalThis.isolates = [];').runSync(this.context);
    this.assign = this.isolate.compileScriptSync('(function (slot, isolate) { isolates[slot] = isolate; })').runSync(this.context, { reference: true });
  }

  /** A slot for `isolate`: the watcher names it to have the isolate disposed of. */
  register(isolate: ivm.Isolate): Promise<number> {
    const done = this.queue.then(async () => {
      await this.pause();
      const slot = this.free.pop() ?? this.next++;
      await this.assign.apply(undefined, [slot, isolate]);
      this.resume();
      return slot;
    });
    this.queue = done.catch(() => {});
    return done;
  }

  /** The isolate in `slot` is gone (disposed of by its host): its handle is dropped at the next registration. */
  release(slot: number): void {
    this.free.push(slot);
  }

  /** Ends the loop and the switch's isolate (the process exits, or its meter is replaced or closed). */
  close(): void {
    process.off('exit', this.onExit);
    try {
      this.isolate.dispose();
    } catch {
      /* already gone */
    }
  }

  private async pause(): Promise<void> {
    if (!this.running) return;
    Atomics.store(this.ctl, CTL.yield, 1);
    Atomics.add(this.ctl, CTL.bell, 1);
    Atomics.notify(this.ctl, CTL.bell);
    await this.running;
    this.running = null;
  }

  private resume(): void {
    // Errors are not expected (the loop only disposes); a failed loop is started again at the next registration.
    this.running = this.loop.run(this.context).catch(() => {});
  }
}
