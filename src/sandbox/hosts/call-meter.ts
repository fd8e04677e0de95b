// What a match process knows about the bot call in flight, shared between the
// thread that runs the bots (synchronously) and a watcher thread that looks
// at the process every POLL_MS while a call runs.
// - Past the CPU the bot may still use, in a call the stop switch can reach
//   (its isolate has a slot there, stop-switch.ts): the watcher has the
//   switch dispose of the bot's isolate, which ends the call and freezes the
//   bot in place; should the call still run STOP_GRACE_MS later, the process
//   is killed as below.
// - Past that CPU in any other call, or past the resident memory the bot may
//   take: the watcher writes a note and kills the process at once. The
//   parent reads the note and plays the match again from its seed with that
//   bot frozen in that round (match-pool.ts).
//
// The note file is written by this process only: at the start of every call
// (seat, round, in call), by the watcher (the call's end, the CPU used so far
// in the call) and by whoever stops the process (the call, the reason, V8's
// message). The parent
// reads it after the process died, so even a death without a word (a fault
// under the data limit) is charged to the bot whose call was running.
//
// CPU is process.cpuUsage() (the whole process: the bot's thread, V8's GC
// helpers and the watcher's polls, which cost well under 1%): while a call
// runs the process does nothing else.

import { Worker } from 'node:worker_threads';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { CTL, CTL_WORDS, StopSwitch } from './stop-switch.ts';

/**
 * How often the watcher looks. Each look wakes a thread that, with one match
 * per core, takes a core from a match for a moment: two match processes of
 * Moria played 1.82-1.84 times one's matches per minute polling every 2 ms,
 * 1.89-1.91 every 5 ms. A bot overruns its CPU by at most this much before
 * it is stopped (the CPU it is charged is measured, not polled).
 */
export const POLL_MS = 5;

/**
 * Polls without a call before the watcher sleeps until the next one begins
 * (begin() wakes it). An idle match process polling every POLL_MS used 14 ms
 * of CPU a second, which a match of the game's built-ins alone (they never
 * call begin) paid for its whole wall time; between an isolate's calls within
 * a round the watcher keeps polling, so a call wakes no thread.
 */
export const IDLE_POLLS = 40;

/**
 * How often a sleeping watcher looks at a call of the judge's own code (a
 * built-in's, beginTrusted), which neither wakes it nor reads the CPU: such a
 * call that runs on is stopped within its CPU limit plus two of these.
 */
export const TRUSTED_POLL_MS = 100;

/** Why the process was stopped, as written in the note. */
export const STOP = { none: 0, cpu: 1, memory: 2, catastrophic: 3, stuck: 4 } as const;

/** A call whose thread sleeps this long without running is stuck (V8 hangs on some out-of-memory errors in a synchronous call). */
export const STUCK_MS = 500;

/** How long the stop switch has to end a call before the watcher kills the process instead. */
export const STOP_GRACE_MS = 500;

// Layout of the note file (little-endian, what Int32Array/Float64Array give on the machines we run on).
const NOTE_BYTES = 1024;
const OFF_CALL = 0; // Int32 x3: in call (0/1), seat, round
const OFF_REASON = 12; // Int32
const OFF_CPU = 16; // Float64: CPU used by the call so far, ms
const OFF_MSG_LEN = 24; // Int32
const OFF_MSG = 32; // UTF-8, up to NOTE_BYTES - OFF_MSG
const MSG_MAX = NOTE_BYTES - OFF_MSG;

// Shared state: Int32 [inCall, seat, round, stopReason, generation], Float64 [cpuStartUs, cpuLimitMs, rssLimitBytes].
const I_IN_CALL = 0;
const I_SEAT = 1;
const I_ROUND = 2;
const I_GEN = 4;
const I_SLOT = 5; // 1 + the call's isolate's slot in the stop switch, 0: none
const I_STOP_GEN = 6; // the call the watcher had the switch stop
const I_ASLEEP = 7; // 1: the watcher waits on this word until begin() clears it
const I_TRUSTED_GEN = 8; // a call of trusted code (beginTrusted): odd while one runs
const I_TRUSTED_SEAT = 9;
const I_TRUSTED_ROUND = 10;
const INT_WORDS = 12;
const F_CPU_START = 0;
const F_CPU_LIMIT = 1;
const F_RSS_LIMIT = 2;
const F_TRUSTED_LIMIT = 3; // the trusted call's CPU limit, ms

export interface CallNote {
  inCall: boolean;
  seat: number;
  round: number;
  reason: number;
  cpuMs: number;
  message: string;
}

/** Reads a note file the way the parent does after the match process died. */
export function readNote(path: string): CallNote | null {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return null;
  }
  if (buf.length < OFF_MSG) return null;
  const len = Math.min(buf.readInt32LE(OFF_MSG_LEN), MSG_MAX);
  return {
    inCall: buf.readInt32LE(OFF_CALL) === 1,
    seat: buf.readInt32LE(OFF_CALL + 4),
    round: buf.readInt32LE(OFF_CALL + 8),
    reason: buf.readInt32LE(OFF_REASON),
    cpuMs: buf.readDoubleLE(OFF_CPU),
    message: len > 0 ? buf.subarray(OFF_MSG, OFF_MSG + len).toString('utf8') : '',
  };
}

/** Pure JavaScript, run as an eval'd worker: no loader, nothing of the project. */
const WATCHER_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const ints = new Int32Array(workerData.ints);
const floats = new Float64Array(workerData.floats);
const ctl = new Int32Array(workerData.ctl);
const fd = workerData.fd;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const cpuBuf = Buffer.alloc(8);
function writeCall(inCall) {
  const b = Buffer.alloc(12);
  b.writeInt32LE(inCall, 0);
  b.writeInt32LE(ints[${I_SEAT}], 4);
  b.writeInt32LE(ints[${I_ROUND}], 8);
  try { fs.writeSync(fd, b, 0, 12, ${OFF_CALL}); } catch {}
}
function stop(reason, cpuMs) {
  writeCall(1);
  const b = Buffer.alloc(12);
  b.writeInt32LE(reason, 0);
  b.writeDoubleLE(cpuMs, 4);
  try { fs.writeSync(fd, b, 0, 12, ${OFF_REASON}); } catch {}
  process.kill(process.pid, 'SIGKILL');
}
// The bots' thread (the process's main thread): its state and CPU ticks, to tell a stuck call from a busy one.
const mainStat = '/proc/' + process.pid + '/task/' + process.pid + '/stat';
function mainThread() {
  try {
    const s = fs.readFileSync(mainStat, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: f[0], ticks: Number(f[11]) + Number(f[12]) };
  } catch { return null; }
}
// Has the stop switch end call \`gen\` (its isolate is in \`slot\`) for its CPU; past the grace, or without a slot, stops the process.
let asked = -1, askedAt = 0;
function endForCpu(gen, slot, cpuMs) {
  if (slot > 0 && asked !== gen) {
    asked = gen;
    askedAt = Date.now();
    Atomics.store(ints, ${I_STOP_GEN}, gen);
    Atomics.store(ctl, ${CTL.stop}, slot);
    Atomics.add(ctl, ${CTL.bell}, 1);
    Atomics.notify(ctl, ${CTL.bell});
  } else if (slot <= 0 || Date.now() - askedAt > ${STOP_GRACE_MS}) stop(${STOP.cpu}, cpuMs);
}
// A trusted call (odd generation) is timed from the look that first saw it: past its limit, the process is stopped as for a bot's call.
let trusted = -1, trustedFrom = 0;
function watchTrusted() {
  const gen = Atomics.load(ints, ${I_TRUSTED_GEN});
  if ((gen & 1) === 0) { trusted = -1; return; }
  const u = process.cpuUsage();
  const now = (u.user + u.system) / 1000;
  if (trusted !== gen) { trusted = gen; trustedFrom = now; return; }
  if (now - trustedFrom <= floats[${F_TRUSTED_LIMIT}] || Atomics.load(ints, ${I_TRUSTED_GEN}) !== gen) return;
  ints[${I_SEAT}] = ints[${I_TRUSTED_SEAT}];
  ints[${I_ROUND}] = ints[${I_TRUSTED_ROUND}];
  stop(${STOP.cpu}, now - trustedFrom);
}
let polls = 0, call = -1, sleptSince = 0, lastTicks = -1, cleared = -1, idle = 0;
for (;;) {
  Atomics.wait(sleeper, 0, 0, ${POLL_MS});
  if (Atomics.load(ints, ${I_IN_CALL}) !== 1) {
    watchTrusted();
    call = -1;
    // The bots' thread marks the start of a call in the note; its end is marked here.
    const gen = Atomics.load(ints, ${I_GEN});
    if (cleared !== gen) {
      cleared = gen;
      idle = 0;
      writeCall(0);
      // A call that started meanwhile is marked again.
      if (Atomics.load(ints, ${I_IN_CALL}) === 1 || Atomics.load(ints, ${I_GEN}) !== gen) { cleared = -1; writeCall(1); }
    } else if (++idle >= ${IDLE_POLLS}) {
      // Asleep until begin() clears the word; a call that began before it was set is seen here and not slept through.
      idle = 0;
      Atomics.store(ints, ${I_ASLEEP}, 1);
      // Trusted calls do not wake it: it looks at them every TRUSTED_POLL_MS.
      while (Atomics.load(ints, ${I_IN_CALL}) !== 1 && Atomics.load(ints, ${I_GEN}) === gen) {
        if (Atomics.wait(ints, ${I_ASLEEP}, 1, ${TRUSTED_POLL_MS}) !== 'timed-out') break;
        watchTrusted();
      }
      Atomics.store(ints, ${I_ASLEEP}, 0);
    }
    continue;
  }
  const gen = Atomics.load(ints, ${I_GEN});
  const slot = Atomics.load(ints, ${I_SLOT});
  const u = process.cpuUsage();
  const cpuMs = (u.user + u.system - floats[${F_CPU_START}]) / 1000;
  // Still the same call: what was read belongs to it.
  if (Atomics.load(ints, ${I_IN_CALL}) !== 1 || Atomics.load(ints, ${I_GEN}) !== gen) continue;
  cpuBuf.writeDoubleLE(cpuMs, 0);
  try { fs.writeSync(fd, cpuBuf, 0, 8, ${OFF_CPU}); } catch {}
  if (cpuMs > floats[${F_CPU_LIMIT}]) endForCpu(gen, slot, cpuMs);
  // Memory cannot wait for the switch: a bot doubling a string grows hundreds of MiB meanwhile.
  else if (process.memoryUsage.rss() > floats[${F_RSS_LIMIT}]) stop(${STOP.memory}, cpuMs);
  // Every 25th poll: is the call's thread asleep and not running? A bot cannot sleep; V8 stuck in an out-of-memory error does.
  if (++polls % 25 !== 0) continue;
  const t = mainThread();
  const now = Date.now();
  if (!t || t.state !== 'S' || call !== gen || t.ticks !== lastTicks) { call = gen; sleptSince = now; lastTicks = t ? t.ticks : -1; continue; }
  if (now - sleptSince > ${STUCK_MS}) stop(${STOP.stuck}, cpuMs);
}
`;

/**
 * The meter of this process. Without a note file (a benchmark, a test that
 * runs isolates in its own process) nothing watches the calls: only the
 * wall-clock timeout of each call stops a bot.
 */
export class CallMeter {
  private readonly ints = new Int32Array(new SharedArrayBuffer(INT_WORDS * 4));
  private readonly ctl = new Int32Array(new SharedArrayBuffer(CTL_WORDS * 4));
  private switch: StopSwitch | null = null;
  private readonly floats = new Float64Array(new SharedArrayBuffer(4 * 8));
  private readonly fd: number | null;
  private readonly worker: Worker | null;
  private readonly callBuf = Buffer.alloc(12);

  constructor(notePath: string | null) {
    if (!notePath) {
      this.fd = null;
      this.worker = null;
      return;
    }
    this.fd = openSync(notePath, 'w+');
    writeSync(this.fd, Buffer.alloc(NOTE_BYTES), 0, NOTE_BYTES, 0);
    this.worker = new Worker(WATCHER_SOURCE, {
      eval: true,
      workerData: { ints: this.ints.buffer, floats: this.floats.buffer, ctl: this.ctl.buffer, fd: this.fd },
    });
    this.worker.unref();
  }

  get watched(): boolean {
    return this.fd !== null;
  }

  /**
   * The stop switch of this process, started at its first use: null without
   * a watcher (nothing would ever name an isolate to it).
   */
  stopSwitch(): StopSwitch | null {
    if (this.fd === null) return null;
    return (this.switch ??= new StopSwitch(this.ctl));
  }

  /**
   * Marks the start of a call, and answers its number: past `cpuLimitMs` of
   * CPU the watcher has the stop switch dispose of the isolate in `slot` (if
   * not negative), else stops the process; past `rssLimit` bytes of RSS it
   * stops the process.
   */
  begin(seat: number, round: number, cpuStart: NodeJS.CpuUsage, cpuLimitMs: number, rssLimit: number, slot = -1): number {
    this.floats[F_CPU_START] = cpuStart.user + cpuStart.system;
    this.floats[F_CPU_LIMIT] = cpuLimitMs;
    this.floats[F_RSS_LIMIT] = rssLimit;
    this.ints[I_SEAT] = seat;
    this.ints[I_ROUND] = round;
    this.ints[I_SLOT] = slot + 1;
    const gen = Atomics.add(this.ints, I_GEN, 1) + 1;
    Atomics.store(this.ints, I_IN_CALL, 1);
    // A sleeping watcher is woken (IDLE_POLLS); one that is polling sees the call at its next look.
    if (Atomics.compareExchange(this.ints, I_ASLEEP, 1, 0) === 1) Atomics.notify(this.ints, I_ASLEEP);
    this.writeCall(1, seat, round);
    return gen;
  }

  /**
   * Marks the start of a call of the judge's own code (a built-in player's):
   * no note is written and no thread woken, only shared words stored, so it
   * costs next to nothing. The watcher looks at it every TRUSTED_POLL_MS (or
   * POLL_MS while awake); once the process's CPU has grown by `cpuLimitMs`
   * from its first look, it stops the process with the call charged to
   * `seat` in `round`, as for a bot's call past its CPU.
   */
  beginTrusted(seat: number, round: number, cpuLimitMs: number): void {
    if (this.fd === null) return;
    this.floats[F_TRUSTED_LIMIT] = cpuLimitMs;
    this.ints[I_TRUSTED_SEAT] = seat;
    this.ints[I_TRUSTED_ROUND] = round;
    Atomics.add(this.ints, I_TRUSTED_GEN, 1);
  }

  /** Marks the end of a trusted call (beginTrusted). */
  endTrusted(): void {
    if (this.fd === null) return;
    Atomics.add(this.ints, I_TRUSTED_GEN, 1);
  }

  /** Whether the watcher sleeps until the next call (IDLE_POLLS; tests). */
  get watcherAsleep(): boolean {
    return Atomics.load(this.ints, I_ASLEEP) === 1;
  }

  /** Whether the watcher had the stop switch end call `gen` (for its CPU). */
  stoppedForCpu(gen: number): boolean {
    return Atomics.load(this.ints, I_STOP_GEN) === gen;
  }

  /** Marks the end of a call (the watcher marks it in the note). */
  end(): void {
    Atomics.store(this.ints, I_IN_CALL, 0);
  }

  private writeCall(inCall: number, seat: number, round: number): void {
    if (this.fd === null) return;
    const b = this.callBuf;
    b.writeInt32LE(inCall, 0);
    b.writeInt32LE(seat, 4);
    b.writeInt32LE(round, 8);
    writeSync(this.fd, b, 0, 12, OFF_CALL);
  }

  /** For V8's catastrophic error: the reason, the CPU of the call and V8's words, written before the process aborts. */
  noteCatastrophic(cpuMs: number, message: string): void {
    if (this.fd === null) return;
    this.writeCall(1, this.ints[I_SEAT]!, this.ints[I_ROUND]!);
    const msg = Buffer.from(message.slice(0, MSG_MAX), 'utf8').subarray(0, MSG_MAX);
    const b = Buffer.alloc(NOTE_BYTES - OFF_REASON);
    b.writeInt32LE(STOP.catastrophic, 0);
    b.writeDoubleLE(cpuMs, OFF_CPU - OFF_REASON);
    b.writeInt32LE(msg.length, OFF_MSG_LEN - OFF_REASON);
    msg.copy(b, OFF_MSG - OFF_REASON);
    writeSync(this.fd, b, 0, b.length, OFF_REASON);
  }

  close(): void {
    this.switch?.close();
    this.switch = null;
    void this.worker?.terminate();
    if (this.fd !== null) closeSync(this.fd);
  }
}

let meter: CallMeter = new CallMeter(null);

/** The process's meter (a match process installs a watched one at start). */
export function callMeter(): CallMeter {
  return meter;
}

export function installCallMeter(notePath: string): CallMeter {
  meter.close();
  meter = new CallMeter(notePath);
  return meter;
}
