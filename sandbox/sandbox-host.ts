// Parent side of sandbox/bot-process.ts. Each bot of a match gets its own child
// process from a pool; a process that crashed, was killed or served many
// matches is thrown away (isolated-vm leaks a little, and a catastrophic OOM
// leaves nothing worth reusing).

import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BotHost, Failure, LoadReply, LoadRequest, PlayReply, PlayRequest } from './host.ts';

const childPath = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/** Wall-clock safety net per call: generous, since CPU is what the rules count. */
export function watchdogMs(cpuLeftMs: number): number {
  return Math.max(0, cpuLeftMs) * 4 + 10_000;
}

const MAX_USES = 40;

class BotProcess {
  readonly child: ChildProcess;
  uses = 0;
  dead = false;
  catastrophic: string | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; timer: NodeJS.Timeout }>();
  readonly ready: Promise<void>;

  constructor() {
    this.child = fork(childPath, [], {
      execArgv: ['--no-node-snapshot', '--import', tsxLoader],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8192);
      const m = /ARBITER_CATASTROPHIC (.*)/.exec(stderr);
      if (m) this.catastrophic = m[1]!;
    });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (msg: { ready?: boolean }) => {
        if (msg.ready) {
          this.child.off('message', onMessage);
          resolve();
        }
      };
      this.child.on('message', onMessage);
      this.child.once('exit', () => reject(new Error(`sandbox process failed to start: ${stderr.trim().slice(-500)}`)));
    });
    this.ready.catch(() => {});
    this.child.on('message', (msg: { id?: number; reply?: unknown }) => {
      if (msg.id === undefined) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve(msg.reply);
    });
    this.child.once('exit', () => {
      this.dead = true;
      // Let the stderr pipe drain so a catastrophic report is not missed.
      setImmediate(() => {
        const reason: Failure = this.catastrophic
          ? { ok: false, reason: 'memory', message: `the bot crashed V8 (${this.catastrophic})`, log: '', cpuMs: 0 }
          : { ok: false, reason: 'crash', message: 'the sandbox process died', log: '', cpuMs: 0 };
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          p.resolve(reason);
          this.pending.delete(id);
        }
      });
    });
  }

  request<T>(message: Record<string, unknown>, timeoutMs: number): Promise<T | Failure> {
    if (this.dead) return Promise.resolve({ ok: false, reason: 'crash', message: 'the sandbox process died', log: '', cpuMs: 0 });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.kill();
        resolve({ ok: false, reason: 'watchdog', message: `no answer within ${Math.round(timeoutMs / 1000)} s of wall time`, log: '', cpuMs: 0 });
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, timer });
      this.child.send({ ...message, id });
    });
  }

  /** An idle process must not keep its parent alive: the child, its IPC channel and its stderr pipe are all unref'd. */
  setBusy(busy: boolean): void {
    const channel = (this.child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
    const stderr = this.child.stderr as unknown as { ref?(): void; unref?(): void } | null;
    if (busy) {
      this.child.ref();
      channel?.ref();
      stderr?.ref?.();
    } else {
      this.child.unref();
      channel?.unref();
      stderr?.unref?.();
    }
  }

  kill(): void {
    if (!this.dead) this.child.kill('SIGKILL');
    this.dead = true;
  }
}

export class BotProcessPool {
  private idle: BotProcess[] = [];
  private all = new Set<BotProcess>();

  async acquire(): Promise<BotProcess> {
    let proc = this.idle.pop();
    while (proc && proc.dead) proc = this.idle.pop();
    if (!proc) {
      proc = new BotProcess();
      this.all.add(proc);
      proc.child.once('exit', () => this.all.delete(proc!));
    }
    proc.setBusy(true);
    await proc.ready;
    return proc;
  }

  async release(proc: BotProcess): Promise<void> {
    proc.uses++;
    if (proc.dead || proc.uses >= MAX_USES) {
      proc.kill();
      return;
    }
    const reset = await proc.request<{ ok: true }>({ t: 'reset' }, 5000);
    if (!reset.ok || proc.dead) {
      proc.kill();
      return;
    }
    proc.setBusy(false);
    this.idle.push(proc);
  }

  /** Kills every process (idle and busy). */
  shutdown(): void {
    for (const proc of this.all) proc.kill();
    this.all.clear();
    this.idle = [];
  }

  get size(): number {
    return this.all.size;
  }
}

export const sharedPool = new BotProcessPool();

export class SandboxBotHost implements BotHost {
  private proc: BotProcess | null = null;
  private budgetLeft = 0;

  constructor(private readonly pool: BotProcessPool = sharedPool) {}

  /** The child's pid while it runs (tests use it to kill a bot's process). */
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  async load(req: LoadRequest): Promise<LoadReply> {
    try {
      this.proc = await this.pool.acquire();
    } catch (err) {
      return { ok: false, reason: 'crash', message: String(err), log: '', cpuMs: 0 };
    }
    this.budgetLeft = req.cpuBudgetMs;
    const reply = await this.proc.request<LoadReply>({ t: 'load', req }, watchdogMs(this.budgetLeft));
    this.budgetLeft -= reply.cpuMs;
    return reply;
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    if (!this.proc) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    const reply = await this.proc.request<PlayReply>({ t: 'play', names: req.names, status: req.status, arrays: req.arrays }, watchdogMs(this.budgetLeft));
    this.budgetLeft -= reply.cpuMs;
    return reply;
  }

  async close(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (proc) await this.pool.release(proc);
  }
}
