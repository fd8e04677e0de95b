// Parent side of sandbox/bot-process.ts. Each bot of a match gets its own child
// process from a pool; a process that crashed, was killed or served many
// matches is thrown away (isolated-vm leaks a little, and a catastrophic OOM
// leaves nothing worth reusing).
//
// What freezes a bot is what the bot did: its CPU, its memory (our meter, or
// V8's catastrophic OOM), its orders, its exceptions. Everything else that
// ends a sandbox process (a signal we did not send, the pool closing, a
// process that would not start, a watchdog firing before the bot used its
// budget) is the judge's failure: the call throws SandboxInfraError and the
// match is played again.
//
// No more bot calls run at once in this process than there are cores, so a
// bot's wall time tracks its CPU time and the watchdog can be sized from it.
// The processes are started in their own process group: a Ctrl-C or a stop
// aimed at the worker's group leaves them to finish the running matches.

import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SandboxInfraError, type BotHost, type Failure, type LoadReply, type LoadRequest, type PlayReply, type PlayRequest } from './host.ts';
import { cpuBudgetUsedUp } from '../src/limits.ts';

export { SandboxInfraError } from './host.ts';

const childPath = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/**
 * Wall-clock safety net per call. A call waits for no other bot call (see
 * BotCallSlots), so its wall time is its CPU time plus what other programs
 * take of its core: three times the budget left, plus time to start.
 */
export function watchdogMs(cpuLeftMs: number): number {
  return Math.max(0, cpuLeftMs) * 3 + watchdogSettings.startMs;
}

/** The watchdog's allowance on top of the CPU left (tests shorten it). */
export const watchdogSettings = { startMs: 5_000 };

const MAX_USES = 40;

/** At most `limit` bot calls in flight in this process; the others wait their turn, first come first served. */
export class BotCallSlots {
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

/** Shared by every pool of this process. */
export const botCallSlots = new BotCallSlots(Math.max(1, availableParallelism()));

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU (user + system) a process has used so far, ms, read from /proc; null where that is not available. */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return null;
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
  /** The process's CPU when the call was sent, and at the last poll (ms; null where /proc is missing). */
  cpuAtStart: number | null;
  cpuLast: number | null;
}

/** How often the parent notes a busy child's CPU, so a call that ends in a crash still counts what it used. */
const CPU_POLL_MS = 20;

/**
 * What a bot process prints when it runs out of memory: V8's report, or a
 * failed C++ allocation once the process's data limit (bot-process.ts) is
 * reached. Bot code cannot write to this stream.
 */
const OOM_REPORT = /<--- Last few GCs --->|out of memory|allocation failure|Reached heap limit|std::bad_alloc/i;

/**
 * Signals a process raises on itself when it faults. Nobody here sends them,
 * so a bot process that dies of one during a call died of what its bot did;
 * under the data limit a failed allocation often ends in SIGSEGV or SIGBUS
 * without a report. Any other signal (SIGKILL, SIGTERM, SIGINT, ...) came from
 * outside: the judge's failure.
 */
const SELF_INFLICTED = new Set<string>(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGSYS']);
const MEMORY_FAULTS = new Set<string>(['SIGSEGV', 'SIGBUS']);

class BotProcess {
  readonly child: ChildProcess;
  uses = 0;
  dead = false;
  /** Its pool is closing: whatever it was doing is abandoned. */
  closing = false;
  catastrophic: { cpuMs: number; message: string } | null = null;
  /** The end of what it wrote on stderr, for the report of its death. */
  private stderrTail = '';
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private cpuPoll: NodeJS.Timeout | null = null;
  readonly ready: Promise<void>;

  constructor() {
    this.child = fork(childPath, [], {
      execArgv: ['--no-node-snapshot', '--import', tsxLoader],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      detached: true,
    });
    let stderr = '';
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8192);
      this.stderrTail = stderr;
      const m = /ARBITER_CATASTROPHIC cpu=([\d.]+) (.*)/.exec(stderr);
      if (m) this.catastrophic = { cpuMs: Number(m[1]), message: m[2]! };
    });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (msg: { ready?: boolean }) => {
        if (msg.ready) {
          this.child.off('message', onMessage);
          resolve();
        }
      };
      this.child.on('message', onMessage);
      this.child.once('error', (err) => reject(new SandboxInfraError(`sandbox process failed to start: ${err.message}`)));
      this.child.once('exit', () => reject(new SandboxInfraError(`sandbox process failed to start: ${stderr.trim().slice(-500)}`)));
    });
    this.ready.catch(() => {});
    this.child.on('error', () => {
      /* reported through `ready` or `exit` */
    });
    this.child.on('message', (msg: { id?: number; reply?: unknown; infra?: string }) => {
      if (msg.id === undefined) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (p.timer) clearTimeout(p.timer);
      if (this.pending.size === 0) this.stopCpuPoll();
      if (msg.infra !== undefined) p.reject(new SandboxInfraError(`the sandbox process failed: ${msg.infra}`));
      else p.resolve(msg.reply);
    });
    this.child.once('exit', (code, signal) => {
      this.dead = true;
      // Let the stderr pipe drain so a catastrophic report is not missed.
      setImmediate(() => {
        this.stopCpuPoll();
        const selfInflicted = !this.closing && signal !== null && SELF_INFLICTED.has(signal);
        const oom = this.catastrophic !== null || (selfInflicted && (OOM_REPORT.test(this.stderrTail) || MEMORY_FAULTS.has(signal!)));
        for (const [id, p] of this.pending) {
          if (p.timer) clearTimeout(p.timer);
          this.pending.delete(id);
          if (this.catastrophic || selfInflicted) {
            // The bot brought its process down (V8's out-of-memory, most often): its fault, and its CPU counts.
            const polled = p.cpuAtStart !== null && p.cpuLast !== null ? p.cpuLast - p.cpuAtStart : 0;
            const cpuMs = Math.max(this.catastrophic?.cpuMs ?? 0, polled);
            const message = this.catastrophic
              ? `the bot crashed V8 (${this.catastrophic.message})`
              : oom
                ? `the bot ran its process out of memory (${signal})`
                : `the bot crashed its process (${signal})`;
            const failure: Failure = { ok: false, reason: oom ? 'memory' : 'crash', message, log: '', cpuMs };
            p.resolve(failure);
          } else p.reject(new SandboxInfraError(this.deathText(code, signal)));
        }
      });
    });
  }

  private deathText(code: number | null, signal: NodeJS.Signals | null): string {
    const said = this.stderrTail.trim().slice(-300);
    const how = (signal ? `killed by ${signal}` : `exited with code ${code}`) + (said ? `: ${said}` : '');
    if (this.closing) return `the sandbox process was stopped while its pool was closing (${how})`;
    return `the sandbox process died (${how}) without the bot causing it`;
  }

  /**
   * Sends one call. The watchdog fires after `timeoutMs` of wall time: if the
   * process used at least `cpuLeftMs` of CPU meanwhile, the bot had its
   * budget and is frozen for CPU; otherwise the machine was too slow to give
   * it that, and the call throws SandboxInfraError.
   */
  request<T>(message: Record<string, unknown>, timeoutMs: number, cpuLeftMs = Infinity, budgetMs = cpuLeftMs): Promise<T | Failure> {
    if (this.dead) return Promise.reject(new SandboxInfraError(this.closing ? 'the sandbox pool is closing' : 'the sandbox process is gone'));
    const id = this.nextId++;
    const cpuAtStart = processCpuMs(this.child.pid);
    this.startCpuPoll();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        const cpuNow = processCpuMs(this.child.pid);
        this.kill();
        const used = cpuAtStart !== null && cpuNow !== null ? cpuNow - cpuAtStart : null;
        const seconds = Math.round(timeoutMs / 1000);
        // /proc counts in 10 ms ticks: allow one tick of rounding.
        if (used !== null && used + CLOCK_TICK_MS >= cpuLeftMs)
          resolve({ ok: false, reason: 'cpu', message: cpuBudgetUsedUp(budgetMs, `the call ran ${seconds} s of wall time`), log: '', cpuMs: used });
        else
          reject(
            new SandboxInfraError(
              `no answer within ${seconds} s of wall time after ${used === null ? 'an unknown amount of' : Math.round(used) + ' ms of'} CPU: the machine is too busy`,
            ),
          );
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, cpuAtStart, cpuLast: cpuAtStart });
      this.child.send({ ...message, id });
    });
  }

  private startCpuPoll(): void {
    if (this.cpuPoll) return;
    this.cpuPoll = setInterval(() => {
      const cpu = processCpuMs(this.child.pid);
      if (cpu === null) return;
      for (const p of this.pending.values()) p.cpuLast = cpu;
    }, CPU_POLL_MS);
  }

  private stopCpuPoll(): void {
    if (this.cpuPoll) clearInterval(this.cpuPoll);
    this.cpuPoll = null;
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
    this.stopCpuPoll();
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
    const reset = await proc.request<{ ok: boolean }>({ t: 'reset' }, 5000).catch(() => null);
    if (!reset?.ok || proc.dead) {
      proc.kill();
      return;
    }
    proc.setBusy(false);
    this.idle.push(proc);
  }

  /** Kills every process (idle and busy); the matches they were playing throw SandboxInfraError. */
  shutdown(): void {
    for (const proc of this.all) {
      proc.closing = true;
      proc.kill();
    }
    this.all.clear();
    this.idle = [];
  }

  get size(): number {
    return this.all.size;
  }

  /** The pids of its live processes (tests watch their memory). */
  get pids(): number[] {
    return [...this.all].filter((p) => !p.dead && p.child.pid).map((p) => p.child.pid!);
  }
}

export const sharedPool = new BotProcessPool();

export class SandboxBotHost implements BotHost {
  private proc: BotProcess | null = null;
  private budgetLeft = 0;
  private budgetMs = 0;

  constructor(private readonly pool: BotProcessPool = sharedPool) {}

  /** The child's pid while it runs (tests use it to kill a bot's process). */
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  async load(req: LoadRequest): Promise<LoadReply> {
    try {
      this.proc = await this.pool.acquire();
    } catch (err) {
      throw err instanceof SandboxInfraError ? err : new SandboxInfraError(`sandbox process failed to start: ${String(err)}`);
    }
    this.budgetLeft = req.cpuBudgetMs;
    this.budgetMs = req.cpuBudgetMs;
    return this.call<LoadReply>({ t: 'load', req });
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.call<PlayReply>({ t: 'play', names: req.names, status: req.status, arrays: req.arrays });
  }

  private async call<T extends LoadReply | PlayReply>(message: Record<string, unknown>): Promise<T> {
    const proc = this.proc;
    if (!proc) throw new SandboxInfraError('bot not loaded');
    await botCallSlots.acquire();
    try {
      const reply = (await proc.request<T>(message, watchdogMs(this.budgetLeft), this.budgetLeft, this.budgetMs)) as T;
      this.budgetLeft -= reply.cpuMs;
      return reply;
    } finally {
      botCallSlots.release();
    }
  }

  async close(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (proc) await this.pool.release(proc);
  }
}
