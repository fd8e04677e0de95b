// Parent side of src/sandbox/match-process/match-child.ts: each sandboxed match is played in a
// child process of its own, the engine and the four isolates together, from
// a pool of such processes (a process that crashed, was killed, grew or served
// many matches is thrown away: isolated-vm leaks a little, and a catastrophic
// OOM leaves nothing worth reusing). Every message to and from a child is
// declared in match-protocol.ts; one the protocol does not know ends the
// process as the judge's failure.
//
// What freezes a bot is what the bot did. When a bot brought the match
// process down (V8's catastrophic out-of-memory, the watcher stopping it past
// its CPU or memory, a fault while its call ran), the process's note file says
// which bot in which round: the match is played again from its seed in a
// fresh process with that bot frozen from that round, and recorded exactly
// as if the process had survived (matches are deterministic). Everything else
// that ends a match process (a signal we did not send, the pool closing, a
// process that would not start, a process that gets no CPU at all) is the
// judge's failure: SandboxInfraError, thrown once; whether the match is
// played again is the worker pool's decision (src/jobs/worker/pool.ts), not this
// file's. The two re-runs here reach a verdict a bot caused (its freeze) or
// that a busy machine hid (a call cut short): they tell the bot's fault from
// the judge's, and never answer a failure of the judge's.
//
// No more matches are played at once in this process than there are cores,
// and a match plays one bot at a time, so a bot never waits for a core
// because of the judge. The processes are started in their own process
// group: a Ctrl-C or a stop aimed at the worker's group leaves them to
// finish the running matches. Bots are compiled here, before the match
// process starts them, so the compiler's own failures stay the judge's.
//
// The gate's checks go ahead of matches for the CPU: a pool's processes can
// run some niceness steps above this process's own (the worker sets
// sharedPool's to MATCH_NICE_OFFSET), and a check's load runs in checkPool,
// whose processes keep this process's niceness, under checkSlots rather than
// waiting for a match's slot. A bot is charged CPU time, not wall time, and
// a call that load cut short is played again with patience, so a niced match
// reaches the same verdict, later.

import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxInfraError, type LoadReply, type LoadRequest } from '../../match/bot-host.ts';
import { Slots } from '../system/slots.ts';
import { readNote, STOP, type CallNote } from '../hosts/call-meter.ts';
import { callKey, watchdogSettings } from '../hosts/isolate-host.ts';
import { assertNever, readChildMessage, type ChildMessage, type GameRef, type JobReply, type MatchProcessJob } from './match-protocol.ts';
import { cpuBudgetUsedUp, memoryLimitExceeded, type Limits } from '../../sdk/limits.ts';
import { loadGames } from '../../games/registry.ts';
import type { AnyGame } from '../../sdk/types.ts';
import type { ForcedFreeze, MatchOutcome, ResolvedMatchSpec, RunOptions } from '../../match/types.ts';
import { withRoundsFrom } from '../../match/replay-io.ts';
import { builtEntryUrl } from '../../sdk/modules.ts';
import { botProcessEnv } from '../system/child-env.ts';

export { SandboxInfraError } from '../../match/bot-host.ts';
// Slots lives in slots.ts (compile-process.ts and cpp/toolchain.ts use it too, and this file must not be below them).
export { Slots } from '../system/slots.ts';
export { watchdogSettings } from '../hosts/isolate-host.ts';

/** The match child's file and loader: the built judge's (dist/match-child.js), or match-child.ts through tsx from the sources. */
function childEntry(): { path: string; loader: string[] } {
  const built = builtEntryUrl('match-child.js');
  if (built) return { path: fileURLToPath(built), loader: [] };
  return { path: fileURLToPath(new URL('./match-child.ts', import.meta.url)), loader: ['--import', import.meta.resolve('tsx')] };
}

/**
 * Matches a process plays before it is replaced. A fresh process's first
 * match costs about twice a warm one's CPU (its JIT warms up over about five
 * matches), and its resident memory stayed flat (133 to 147 MiB) over 100
 * Bola de Drac matches; MAX_IDLE_RSS catches a process that grows.
 */
const MAX_USES = 100;
/** A process whose resident memory stays above this after a match is replaced. */
const MAX_IDLE_RSS = 512 * 1024 * 1024;

/** Shared by every pool of this process: one match (one bot at a time) per core. */
export const matchSlots = new Slots(Math.max(1, availableParallelism()));
/** The gate's loads at once in this process, one per core, beside the matches (they run at a higher priority). */
export const checkSlots = new Slots(Math.max(1, availableParallelism()));

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU (user + system) a process has used so far, ms, read from /proc; null where that is not available. */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return null;
  }
}

/** The highest niceness (the lowest priority) Linux has. */
const MAX_NICE = 19;

/**
 * Sets every thread of a process to at least `nice` (setpriority on Linux
 * sets one thread; threads started later inherit their creator's). A thread
 * already nicer is left alone: only root may lower a niceness. False when
 * the process is gone or the niceness could not be set.
 */
export function reniceProcess(pid: number, nice: number): boolean {
  let tids: number[];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    tids = [pid]; // no /proc: the process's main thread, as setpriority has it elsewhere
  }
  let ok = true;
  for (const tid of tids) {
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
    } catch {
      ok = false; // a thread (or the process) that ended meanwhile, or no permission
    }
  }
  return ok;
}

/**
 * Sets the niceness of the autogroup of a process that leads its own session
 * (a detached match process). With the kernel's autogrouping on (a desktop's
 * or a terminal's session, no CPU cgroup of its own) the scheduler first
 * shares the CPU between autogroups, by their niceness, and a thread's own
 * niceness counts only inside its group: without this a niced match process
 * in its session of one still gets as much CPU as the worker's whole session.
 * The kernel takes one such change per 100 ms from users who are not root
 * (EAGAIN): it is tried again a few times. No autogroups: nothing to do.
 */
export function reniceAutogroup(pid: number, nice: number, tries = 10): void {
  const file = `/proc/${pid}/autogroup`;
  try {
    const now = /nice (-?\d+)/.exec(readFileSync(file, 'utf8'))?.[1];
    if (now === undefined || Number(now) >= nice) return;
    writeFileSync(file, String(nice));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && tries > 1)
      setTimeout(() => reniceAutogroup(pid, nice, tries - 1), 110 + Math.random() * 100).unref();
  }
}

/**
 * What a match process prints when it runs out of memory: V8's report, or a
 * failed C++ allocation once the process's data limit is reached. Bot code
 * cannot write to this stream.
 */
const OOM_REPORT = /<--- Last few GCs --->|out of memory|allocation failure|Reached heap limit|std::bad_alloc/i;

/**
 * Signals a process raises on itself when it faults. Nobody here sends them,
 * so a match process that dies of one during a bot's call died of what that
 * bot did. Any other signal without a note came from outside: the judge's failure.
 */
const SELF_INFLICTED = new Set<string>(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGSYS']);
const MEMORY_FAULTS = new Set<string>(['SIGSEGV', 'SIGBUS']);

/** How a job ended when the process died under it. */
interface Death {
  code: number | null;
  signal: NodeJS.Signals | null;
  note: CallNote | null;
  stderr: string;
  closing: boolean;
}

interface Job {
  resolve: (v: JobReply) => void;
  reject: (e: unknown) => void;
  onProgress?: (round: number, total: number) => void;
}

class MatchProcess {
  readonly child: ChildProcess;
  readonly notePath = join(tmpdir(), `arbiter-match-${process.pid}-${randomBytes(6).toString('hex')}`);
  uses = 0;
  dead = false;
  /** Its pool is closing: whatever it was doing is abandoned. */
  closing = false;
  private stderrTail = '';
  private nextId = 1;
  private job: { id: number; job: Job } | null = null;
  private stall: NodeJS.Timeout | null = null;
  readonly ready: Promise<void>;

  /** `nice`: the niceness its threads are given (at start, and again once it is ready, for the threads its start made); null: this process's. */
  constructor(private readonly nice: number | null) {
    const entry = childEntry();
    this.child = fork(entry.path, [this.notePath], {
      // --single-threaded: V8 compiles and collects garbage on this thread, not on helper threads. A
      // match process then takes one core, no more, so runners = cores holds (with helper threads one
      // match took 1.3 to 1.45 cores and two runners did 1.4 times one runner's matches), and what a
      // call costs, its GC and JIT included, is the bot's own: a helper thread compiling for one
      // isolate was charged to whichever bot ran meanwhile. It also spends less CPU in all.
      execArgv: ['--no-node-snapshot', '--single-threaded', '--expose-gc', ...entry.loader],
      serialization: 'advanced',
      // Without the judge's credentials (REDIS_URL in a worker): the bots' process needs none (system/child-env.ts).
      env: botProcessEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      detached: true,
    });
    if (this.nice !== null && this.child.pid) {
      reniceProcess(this.child.pid, this.nice);
      reniceAutogroup(this.child.pid, this.nice); // detached: its session, its autogroup, are its own
    }
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-8192);
    });
    this.ready = new Promise((resolve, reject) => {
      this.onReady = resolve;
      this.child.once('error', (err) => reject(new SandboxInfraError(`match process failed to start: ${err.message}`)));
      this.child.once('exit', () => reject(new SandboxInfraError(`match process failed to start: ${this.stderrTail.trim().slice(-500)}`)));
    });
    this.ready.catch(() => {});
    this.child.on('error', () => {
      /* reported through `ready` or `exit` */
    });
    this.child.on('message', (raw: unknown) => this.receive(raw));
    this.child.once('exit', (code, signal) => {
      this.dead = true;
      // Let the stderr pipe drain first.
      setImmediate(() => {
        const current = this.job;
        this.finish();
        const note = readNote(this.notePath);
        rmSync(this.notePath, { force: true });
        if (current) current.job.reject({ death: { code, signal, note, stderr: this.stderrTail, closing: this.closing } satisfies Death });
      });
    });
  }

  private onReady: () => void = () => {};

  /** One message from the child, by its type; one the protocol does not know ends the process (the judge's failure). */
  private receive(raw: unknown): void {
    let msg: ChildMessage;
    try {
      msg = readChildMessage(raw);
    } catch (err) {
      return this.fail(new SandboxInfraError(`the match process broke the protocol: ${(err as Error).message}`));
    }
    const current = this.job;
    switch (msg.t) {
      case 'ready':
        if (this.nice !== null && this.child.pid) reniceProcess(this.child.pid, this.nice);
        this.onReady();
        return;
      case 'progress':
        if (current && msg.id === current.id) current.job.onProgress?.(msg.round, msg.totalRounds);
        return;
      case 'refused':
        return this.fail(new SandboxInfraError(`the match process refused a message: ${msg.message}`));
      case 'played':
      case 'checked':
      case 'cut-short':
      case 'failed':
        if (!current || msg.id !== current.id) return;
        this.finish();
        current.job.resolve(msg);
        return;
      default:
        assertNever(msg, 'message type');
    }
  }

  /** Ends the process and its job with the judge's failure. */
  private fail(err: SandboxInfraError): void {
    const current = this.job;
    this.finish();
    this.kill();
    current?.job.reject(err);
  }

  private finish(): void {
    this.job = null;
    if (this.stall) clearInterval(this.stall);
    this.stall = null;
  }

  /**
   * Sends one job. A process that gets no CPU at all for the watchdog's start
   * allowance while it has a job (stopped, or starved by the machine) is
   * killed: the judge's failure. A slow bot is the match process's business
   * (its calls' own watchdogs).
   */
  request(message: MatchProcessJob, onProgress?: (round: number, total: number) => void): Promise<JobReply> {
    if (this.dead) return Promise.reject(new SandboxInfraError(this.closing ? 'the sandbox pool is closing' : 'the match process is gone'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.job = { id, job: { resolve, reject, ...(onProgress ? { onProgress } : {}) } };
      let lastCpu = processCpuMs(this.child.pid);
      let lastAlive = Date.now();
      const limit = watchdogSettings.startMs;
      this.stall = setInterval(
        () => {
          const cpu = processCpuMs(this.child.pid);
          if (cpu === null || cpu !== lastCpu) {
            lastCpu = cpu;
            lastAlive = Date.now();
          } else if (Date.now() - lastAlive > limit) {
            this.fail(new SandboxInfraError(`the match process got no CPU for ${(limit / 1000).toFixed(1)} s of wall time: the machine is too busy`));
          }
        },
        Math.max(50, Math.min(1000, limit / 4)),
      );
      // The message's type is checked here, at compile time; the child checks it again (readParentMessage).
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

export class MatchProcessPool {
  private idle: MatchProcess[] = [];
  private all = new Set<MatchProcess>();
  /** Processes this pool has started, ever (tests count them: a crash is not retried here). */
  started = 0;
  /** Niceness steps its processes started from now on run above this process's (0: the same; capped at 19). */
  niceOffset: number;

  constructor(options: { niceOffset?: number } = {}) {
    this.niceOffset = options.niceOffset ?? 0;
  }

  private spawn(): MatchProcess {
    const proc = new MatchProcess(this.niceOffset > 0 ? Math.min(MAX_NICE, getPriority() + this.niceOffset) : null);
    this.started++;
    this.all.add(proc);
    proc.child.once('exit', () => this.all.delete(proc));
    return proc;
  }

  async acquire(): Promise<MatchProcess> {
    let proc = this.idle.pop();
    while (proc?.dead) proc = this.idle.pop();
    proc ??= this.spawn();
    proc.setBusy(true);
    try {
      await proc.ready;
    } catch (err) {
      proc.kill();
      throw err;
    }
    return proc;
  }

  /** Starts processes until `count` are idle and ready (a worker does this at start, so its first matches do not wait for one). */
  async prewarm(count: number): Promise<void> {
    const fresh: MatchProcess[] = [];
    for (let i = this.idle.filter((p) => !p.dead).length; i < count; i++) fresh.push(this.spawn());
    for (const proc of fresh) {
      try {
        await proc.ready;
        proc.setBusy(false);
        this.idle.push(proc);
      } catch {
        proc.kill();
      }
    }
  }

  release(proc: MatchProcess, rss: number | null): void {
    proc.uses++;
    if (proc.dead || proc.uses >= MAX_USES || rss === null || rss > MAX_IDLE_RSS) {
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

  /** The pids of its live processes (tests watch their memory and kill them). */
  get pids(): number[] {
    return [...this.all].filter((p) => !p.dead && p.child.pid).map((p) => p.child.pid!);
  }
}

/** The matches' processes (the worker pool sets its niceOffset to MATCH_NICE_OFFSET). */
export const sharedPool = new MatchProcessPool();
/** The gate's loads' processes, at this process's niceness: a check goes ahead of the matches. */
export const checkPool = new MatchProcessPool();

/** How the match process finds the game: by id when the registry has this very game, else by its module. */
async function gameRef(game: AnyGame): Promise<GameRef> {
  if ((await loadGames().catch(() => new Map<string, AnyGame>())).get(game.id) === game) return { id: game.id };
  const module = join(dirname(game.bots.api), 'index.ts');
  if (!existsSync(module)) throw new Error(`${game.id}: the sandbox cannot find the game's module (no ${module})`);
  return { id: game.id, module };
}

/** What a bot's death did, as the freeze it earns; null when the bot did not cause it (the judge's failure). */
function freezeFromDeath(death: Death, limits: Limits): ForcedFreeze | null {
  const { note, signal } = death;
  if (death.closing || !note || !note.inCall) return null;
  const base = { seat: note.seat, round: note.round, cpuMs: Math.max(0, note.cpuMs) };
  if (note.reason === STOP.cpu) return { ...base, reason: 'cpu', message: cpuBudgetUsedUp(limits.cpuBudgetMs) };
  if (note.reason === STOP.memory) return { ...base, reason: 'memory', message: memoryLimitExceeded(limits.memoryMb) };
  if (note.reason === STOP.catastrophic) return { ...base, reason: 'memory', message: `the bot crashed V8 (${note.message.slice(0, 300)})` };
  // V8 can hang instead of calling its catastrophic handler when a synchronous call runs out of memory.
  if (note.reason === STOP.stuck)
    return OOM_REPORT.test(death.stderr)
      ? { ...base, reason: 'memory', message: 'the bot ran V8 out of memory (its heap limit)' }
      : { ...base, reason: 'crash', message: 'the bot stopped its isolate (the call hung)' };
  if (signal !== null && SELF_INFLICTED.has(signal)) {
    // The bot brought its process down (V8's out-of-memory, most often): its fault, and its CPU counts.
    const oom = OOM_REPORT.test(death.stderr) || MEMORY_FAULTS.has(signal);
    return {
      ...base,
      reason: oom ? 'memory' : 'crash',
      message: oom ? `the bot ran its process out of memory (${signal})` : `the bot crashed its process (${signal})`,
    };
  }
  return null;
}

function deathText(death: Death): string {
  const said = death.stderr.trim().slice(-300);
  const how = (death.signal ? `killed by ${death.signal}` : `exited with code ${death.code}`) + (said ? `: ${said}` : '');
  if (death.closing) return `the match process was stopped while its pool was closing (${how})`;
  return `the match process died (${how}) without a bot causing it`;
}

function isDeath(e: unknown): e is { death: Death } {
  return typeof e === 'object' && e !== null && 'death' in e;
}

/** How one job in a match process ended, short of a failure of the judge's (thrown). */
type JobEnd = Exclude<JobReply, { t: 'failed' } | { t: 'refused' }> | { t: 'died'; death: Death };

/**
 * Runs one job in a match process of the pool, once: a process that died
 * under it comes back as its Death (for the caller to judge), a failure the
 * child reports is thrown as the typed error it names (infra: SandboxInfraError).
 */
async function inMatchProcess(pool: MatchProcessPool, message: MatchProcessJob, onProgress?: (round: number, total: number) => void): Promise<JobEnd> {
  const proc = await pool.acquire();
  let rss: number | null = null;
  try {
    const reply = await proc.request(message, onProgress);
    if (reply.t === 'refused') throw new SandboxInfraError(`the match process refused a message: ${reply.message}`);
    rss = reply.rss;
    if (reply.t === 'failed') {
      if (reply.fault === 'infra') throw new SandboxInfraError(`the match process failed: ${reply.message}`);
      throw Object.assign(new Error(reply.message), { name: reply.name });
    }
    return reply;
  } catch (e) {
    if (isDeath(e)) return { t: 'died', death: e.death };
    throw e;
  } finally {
    pool.release(proc, rss);
  }
}

/** How many times a job may come back cut short before the machine is declared too busy (the judge's failure). */
const cutShortAllowance = (seats: number) => 4 * seats + 1;

/**
 * The sandboxed match: compiled here, played in a match process. Played again
 * only to reach the verdict: with a bot frozen from the round it brought the
 * process down, or with a call the machine's load cut short given patience.
 * The spec's limits are resolved already (playMatchWithGame): read, never merged.
 */
export async function runSandboxedMatch(
  game: AnyGame,
  spec: ResolvedMatchSpec,
  options: RunOptions = {},
  pool: MatchProcessPool = sharedPool,
): Promise<MatchOutcome> {
  const { compileSeat } = await import('../languages/compile-seat.ts');
  const compiled = options.compiled ?? (await Promise.all(spec.seats.map((s, me) => compileSeat(s.source, s.filename, me, game.id))));
  const ref = await gameRef(game);
  const forced = [...(options.forced ?? [])];
  const patient = new Set(options.patient ?? []);
  let runs = 0;
  let cutShort = 0;
  await matchSlots.acquire();
  try {
    for (;;) {
      const run = await inMatchProcess(
        pool,
        { t: 'match', game: ref, spec, options: { compiled, forced, patient: [...patient], lastRoundOnly: options.lastRoundOnly } },
        options.onRound,
      );
      runs++;
      switch (run.t) {
        case 'played': {
          const sent = run.outcome.replayGz;
          if (!sent) return { ...run.outcome, replay: run.outcome.replay, runs, processCpuMs: run.cpuMs };
          // A Buffer crosses the IPC channel as a Uint8Array.
          const replayGz = Buffer.from(sent.buffer, sent.byteOffset, sent.byteLength);
          return { ...run.outcome, replay: withRoundsFrom(run.outcome.replay, replayGz), replayGz, runs, processCpuMs: run.cpuMs };
        }
        case 'cut-short':
          if (++cutShort > cutShortAllowance(spec.seats.length))
            throw new SandboxInfraError(
              `seat ${run.seat}, round ${run.round}: calls were cut short by the wall clock ${cutShort} times: the machine is too busy`,
            );
          patient.add(callKey(run.seat, run.round));
          continue;
        case 'died': {
          const freeze = freezeFromDeath(run.death, spec.limits);
          if (!freeze) throw new SandboxInfraError(deathText(run.death));
          // A bot frozen from round r cannot bring the process down after r; it can before r in a run that went otherwise (CPU is not deterministic).
          const earlier = forced.findIndex((f) => f.seat === freeze.seat);
          if (earlier >= 0 && forced[earlier]!.round <= freeze.round)
            throw new SandboxInfraError(`a frozen bot brought the match process down again (${deathText(run.death)})`);
          if (earlier >= 0) forced.splice(earlier, 1);
          forced.push(freeze);
          continue;
        }
        case 'checked':
          throw new SandboxInfraError('the match process answered a match with a check');
        default:
          assertNever(run, 'job end');
      }
    }
  } finally {
    matchSlots.release();
  }
}

/**
 * The gate's load of one compiled file, in a match process (the same isolate,
 * limits and notes as a match). It takes a check slot, not a match slot: it
 * would wait for a match to end.
 */
export async function loadInSandbox(req: LoadRequest, pool: MatchProcessPool = checkPool): Promise<LoadReply> {
  await checkSlots.acquire();
  try {
    let patient: string[] = [];
    for (;;) {
      const run = await inMatchProcess(pool, { t: 'check', req, patient });
      switch (run.t) {
        case 'checked':
          return run.reply;
        case 'cut-short':
          // Once, as before: a load is one call.
          if (patient.length) throw new SandboxInfraError(`the load was cut short by the wall clock twice: the machine is too busy`);
          patient = [callKey(req.me, 0)];
          continue;
        case 'died': {
          const freeze = freezeFromDeath(run.death, req);
          if (!freeze) throw new SandboxInfraError(deathText(run.death));
          return { ok: false, reason: freeze.reason, message: freeze.message, log: '', cpuMs: freeze.cpuMs };
        }
        case 'played':
          throw new SandboxInfraError('the match process answered a check with a match');
        default:
          assertNever(run, 'job end');
      }
    }
  } finally {
    checkSlots.release();
  }
}
