// A lease in Redis that lets one process of a kind do its work (the
// scheduler, the recorder) while the others wait as standbys: start as many
// as wanted, on any hosts, and exactly one works at a time.
//
// The lease is `${prefix}:lease:<name>`, taken with SET NX PX (the holder's
// token as its value) and renewed every ttl/3 by a script that extends it
// only while it still holds the holder's token. A holder that dies stops
// renewing: its lease lapses after at most ttl, and a standby, trying every
// ttl/3, takes it within ttl + ttl/3 of the death. (A holder that stalled past
// its lease and finds it untaken takes it again, so a single busy process does
// not stop and restart its work.) Each taking increments
// `${prefix}:lease:<name>:epoch`, the fencing token: the holder's work checks
// `stillHeld()` (one round trip: is the lease's value still my token?) before
// each step it must not do twice, and a holder that cannot renew in time (a
// long pause, Redis unreachable) stops its work before its lease can lapse,
// and goes back to waiting. A holder that stops cleanly gives the lease up at
// once, so its standby takes over without waiting out the ttl.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { Log } from '../log.ts';
import { watchRedis, withTimeout } from './connection.ts';

/** LEASE_TTL_MS's default: a dead holder's standby takes over within this plus a third of it. */
export const LEASE_TTL_MS = 15_000;

export const leaseKey = (prefix: string, name: string) => `${prefix}:lease:${name}`;

// 1: renewed. 2: it had lapsed (this holder stalled past it) and nobody took it meanwhile: taken again, same term.
// 0: another process holds it.
const RENEW_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not current then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** What holds the lease: a name people can read, then a random part (two processes never share a token). */
interface LeaseValue {
  holder: string;
  epoch: number;
}

export interface LeaseOptions {
  redisUrl: string;
  prefix: string;
  /** What the lease is for: 'scheduler', 'recorder'. */
  name: string;
  ttlMs?: number;
  log?: Log;
}

/** The work a lease guards: started when the lease is taken, stopped when it is lost or given up. */
export interface LeasedWork {
  close(): Promise<void>;
}

export interface LeaseRunner {
  /** 'standby' while waiting for the lease, 'active' while holding it and working, 'closed' after close(). */
  readonly state: 'standby' | 'active' | 'closed';
  /** The fencing token of this holder's current term (0 while standby). */
  readonly epoch: number;
  /** Whether this process holds the lease right now, asked of Redis (the check before a step that must not be done twice). */
  stillHeld(): Promise<boolean>;
  /** Resolves when this process first holds the lease and its work has started. */
  active(): Promise<void>;
  /** Stops the work, gives the lease up (a standby takes over at once), stops waiting. */
  close(): Promise<void>;
}

/**
 * Runs `start` only while this process holds the lease `name`: waits as a standby until it is
 * free, starts the work, renews the lease, and when the lease is lost stops the work and waits again.
 */
export function runUnderLease(options: LeaseOptions, start: (lease: LeaseRunner) => Promise<LeasedWork>): LeaseRunner {
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const everyMs = Math.max(50, Math.floor(ttlMs / 3));
  const log = options.log ?? (() => {});
  const key = leaseKey(options.prefix, options.name);
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  watchRedis(redis, `${options.name} lease`, log);
  const holder = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;

  let state: 'standby' | 'active' | 'closed' = 'standby';
  let epoch = 0;
  let token = '';
  let work: LeasedWork | null = null;
  let timer: NodeJS.Timeout | null = null;
  /** Until when the lease is surely ours: the ttl from when the last renewal was sent, less a margin for clocks. */
  let safeUntil = 0;
  let loggedWaiting = false;
  let busy: Promise<void> = Promise.resolve();
  let starting: Promise<void> = Promise.resolve();
  let becameActive: () => void = () => {};
  const activePromise = new Promise<void>((resolve) => (becameActive = resolve));

  const schedule = (ms: number) => {
    if (state === 'closed') return;
    timer = setTimeout(() => {
      busy = tick();
    }, ms);
  };

  async function stopWork(why: string) {
    const w = work;
    work = null;
    token = '';
    epoch = 0;
    if (state !== 'closed') state = 'standby';
    if (w) {
      log(`${options.name}: lease lost (${why}); stopping and waiting as a standby`, { level: 'warn', lease: options.name });
      await w.close().catch((e: unknown) => log(`${options.name}: stopping: ${e instanceof Error ? e.message : String(e)}`, { level: 'error' }));
    }
  }

  async function tryTake(): Promise<boolean> {
    const nextEpoch = await redis.incr(`${key}:epoch`);
    const value: LeaseValue = { holder, epoch: nextEpoch };
    const candidate = JSON.stringify(value);
    const sentAt = Date.now();
    const ok = await redis.set(key, candidate, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return false;
    token = candidate;
    epoch = nextEpoch;
    safeUntil = sentAt + ttlMs - everyMs;
    return true;
  }

  async function tick(): Promise<void> {
    if (state === 'closed') return;
    try {
      if (state === 'standby') {
        // The epoch counts attempts too: only the value set with NX is a term's token.
        const current = await withTimeout(redis.get(key), everyMs, 'Redis');
        if (current === null && (await withTimeout(tryTake(), everyMs, 'Redis'))) {
          state = 'active';
          loggedWaiting = false;
          log(`${options.name}: took the lease (term ${epoch}, holder ${holder})`, { lease: options.name, epoch });
          // Started beside the renewals: a slow start (Redis or the database slow to answer) must not let the lease lapse.
          starting = begin(token);
        } else if (!loggedWaiting && current !== null) {
          loggedWaiting = true;
          let who = current;
          try {
            who = (JSON.parse(current) as LeaseValue).holder;
          } catch {}
          log(`${options.name}: standby, waiting for the lease held by ${who}`, { lease: options.name });
        }
      } else {
        const sentAt = Date.now();
        const renewed = await withTimeout(redis.eval(RENEW_SCRIPT, 1, key, token, String(ttlMs)), everyMs, 'Redis').catch((e: unknown) => {
          // Unreachable: keep working while the lease is surely still ours, then stop.
          if (Date.now() < safeUntil) return 'unknown';
          throw e;
        });
        if (renewed === 1 || renewed === 2) safeUntil = sentAt + ttlMs - everyMs;
        else if (renewed !== 'unknown') await stopWork('another process holds it');
        if (renewed === 2)
          log(`${options.name}: the lease had lapsed (this process stalled) and nobody took it: held again`, { level: 'warn', lease: options.name });
      }
    } catch (e) {
      if (state === 'active') await stopWork(`Redis: ${e instanceof Error ? e.message : String(e)}`);
    }
    schedule(everyMs);
  }

  /** Starts the work for the term whose token is `term`; stops it at once if the term ended meanwhile. */
  async function begin(term: string): Promise<void> {
    let started: LeasedWork;
    try {
      started = await start(runner);
    } catch (e) {
      log(`${options.name}: could not start: ${e instanceof Error ? e.message : String(e)}`, { level: 'error' });
      if (token === term) {
        await release();
        token = '';
        epoch = 0;
        if (state === 'active') state = 'standby';
      }
      return;
    }
    if (state !== 'active' || token !== term) {
      // Closed, or the lease lost, while starting.
      await started.close();
      return;
    }
    work = started;
    becameActive();
  }

  async function release() {
    if (!token) return;
    await withTimeout(redis.eval(RELEASE_SCRIPT, 1, key, token), 2000, 'Redis').catch(() => {});
  }

  const runner: LeaseRunner = {
    get state() {
      return state;
    },
    get epoch() {
      return epoch;
    },
    async stillHeld() {
      if (state !== 'active' || !token) return false;
      try {
        return (await withTimeout(redis.get(key), everyMs, 'Redis')) === token;
      } catch {
        return Date.now() < safeUntil;
      }
    },
    active: () => activePromise,
    async close() {
      if (state === 'closed') return;
      const wasActive = state === 'active';
      state = 'closed';
      if (timer) clearTimeout(timer);
      await busy.catch(() => {});
      await starting.catch(() => {});
      const w = work;
      work = null;
      if (w) await w.close();
      if (wasActive || token) await release();
      token = '';
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  busy = tick();
  return runner;
}
