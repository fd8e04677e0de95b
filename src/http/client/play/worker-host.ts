// A bot of a play-page match behind the runner's BotHost interface, in a Web
// Worker of its own (worker.ts). Time is wall time measured around each call
// inside the worker: a browser offers no CPU clock, so a busy computer counts
// against the bot, where the judge counts CPU time. The match budget is the
// judge's (the game's CPU budget, loading included); a call still running
// when the bot's budget is spent, plus a grace for the message round trip, is
// stopped by terminating the worker, and the bot is frozen, as the judge
// freezes it. A browser cannot cap a worker's memory: the judge's memory
// limit is not applied here.

import { packViewArrays, type BotHost, type Failure, type LoadReply, type LoadRequest, type PlayReply, type PlayRequest } from '../../../match/bot-host.ts';
import { cpuBudgetUsedUp, MAX_ORDERS_JSON } from '../../../sdk/limits.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

/** Beyond a bot's remaining budget, how long a call may take before its worker is stopped (message passing, a busy tab). */
export const WATCHDOG_GRACE_MS = 500;

const WALL = 'wall time in this browser';

type CallResult = WorkerReply | { kind: 'timeout'; ms: number } | { kind: 'died'; message: string; ms: number };

export class WorkerBotHost implements BotHost {
  private worker: Worker | null = null;
  private used = 0;
  private budget = Infinity;

  constructor(private readonly workerUrl: string) {}

  /** Posts one request and waits for its reply, or stops the worker once `limitMs` has passed. */
  private call(req: WorkerRequest, limitMs: number, transfer: Transferable[] = []): Promise<CallResult> {
    const worker = this.worker!;
    const start = performance.now();
    return new Promise((resolve) => {
      const done = (r: CallResult) => {
        clearTimeout(timer);
        worker.removeEventListener('message', onMessage);
        worker.removeEventListener('error', onError);
        resolve(r);
      };
      const onMessage = (e: MessageEvent<WorkerReply>) => done(e.data);
      const onError = (e: ErrorEvent) => {
        e.preventDefault();
        done({ kind: 'died', message: e.message || 'the worker failed', ms: performance.now() - start });
      };
      const timer = setTimeout(() => done({ kind: 'timeout', ms: performance.now() - start }), Math.max(0, limitMs) + WATCHDOG_GRACE_MS);
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      worker.postMessage(req, transfer);
    });
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  /**
   * Charges a call's time to the bot. A call that ran out of time, crashed the worker, answered out of turn or
   * failed stops the worker, and the reply saying why is returned; null when the call answered `kind` and succeeded.
   */
  private charge(r: CallResult, kind: WorkerReply['kind']): Failure | null {
    this.used += r.ms;
    if (r.kind === 'timeout' || r.kind === 'died' || r.kind !== kind) {
      this.stop();
      return r.kind === 'timeout'
        ? { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(this.budget, WALL), log: '', cpuMs: r.ms }
        : { ok: false, reason: 'crash', message: r.kind === 'died' ? r.message : 'the worker answered out of turn', log: '', cpuMs: r.ms };
    }
    if (!r.ok) {
      this.stop();
      return { ok: false, reason: r.reason, message: r.message, log: r.log, cpuMs: r.ms };
    }
    return null;
  }

  async load(req: LoadRequest): Promise<LoadReply> {
    this.budget = req.cpuBudgetMs;
    this.worker = new Worker(this.workerUrl, { type: 'module', name: `bot ${req.me + 1}` });
    const r = await this.call(
      {
        kind: 'load',
        prelude: req.prelude,
        code: req.code,
        filename: req.filename,
        me: req.me,
        seed: req.seed,
        logCapBytes: req.logCapBytes,
        memoryMb: req.memoryMb,
      },
      this.budget,
    );
    const failed = this.charge(r, 'load');
    if (failed) return failed;
    const ok = r as Extract<WorkerReply, { kind: 'load'; ok: true }>;
    return { ok: true, name: ok.name, game: ok.game, log: ok.log, cpuMs: ok.ms };
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    if (!this.worker) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    const { bytes, layout } = packViewArrays(req.arrays);
    const r = await this.call({ kind: 'play', names: req.names, status: req.status, layout, buffer: bytes.buffer }, this.budget - this.used, [bytes.buffer]);
    const failed = this.charge(r, 'play');
    if (failed) return failed;
    const ok = r as Extract<WorkerReply, { kind: 'play'; ok: true }>;
    if (this.used > this.budget) {
      this.stop();
      return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(this.budget, WALL), log: ok.log, cpuMs: ok.ms };
    }
    if (ok.orders.length > MAX_ORDERS_JSON) return { ok: false, reason: 'output', message: 'orders too large', log: ok.log, cpuMs: ok.ms };
    return { ok: true, count: ok.count, orders: ok.orders, log: ok.log, cpuMs: ok.ms };
  }

  async close(): Promise<void> {
    this.stop();
  }
}
