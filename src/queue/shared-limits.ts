// Limits every API process shares: request counts in fixed windows (the rate
// limits), holds of a bounded resource (live-status streams, running play
// compiles) and amounts spent over a sliding window (the play page's compiler
// CPU seconds per hour). Kept in Redis, so that N API replicas hold one limit,
// not N: each check-and-take is one Lua script (atomic), timed by Redis's own
// clock (replicas' clocks may differ), and every key expires on its own.
//
// A hold is a member of a sorted set scored by its expiry, renewed while its
// holder lives (every HOLD_TTL_MS / 3): the holds of a replica that crashed
// lapse within HOLD_TTL_MS, so no count leaks. Without Redis (an app built
// with no queues: a single process) the same limits are kept in memory
// (MemoryLimits); while Redis does not answer, RedisLimits counts in this
// process's memory and says so once in its log, as the attempt budgets do.

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withTimeout } from './connection.ts';
import { BoundedWindows } from './bounded-windows.ts';

/** A hold lapses this long after its last renewal (its holder crashed). */
export const HOLD_TTL_MS = 30_000;

/** One of a bounded number of holds of a resource, and the amount to charge when it ends. */
export interface Hold {
  /** Ends the hold, charging `spent` (> 0) to the window named when it was taken. Idempotent. */
  release(spent?: number): Promise<void>;
}

/** What a hold is taken on: at most `max` at once under `key`, and, if `spent` is set, only while its window is under `below`. */
export interface HoldRequest {
  key: string;
  max: number;
  spent?: { key: string; windowMs: number; below: number };
}

export type HoldAnswer =
  | { ok: true; hold: Hold; held: number; spent: number }
  | { ok: false; reason: 'busy'; held: number }
  | { ok: false; reason: 'spent'; spent: number };

export interface SharedLimits {
  /** Counts one hit under `key` in a fixed window of `windowMs` started by its first hit: the count so far and the window's time left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** The count under `key` now, without counting. */
  hits(key: string): Promise<{ count: number; ttlMs: number }>;
  /** Takes a hold (renewed until released), or says why not. */
  hold(request: HoldRequest): Promise<HoldAnswer>;
  /** The amount charged under `key` in the last `windowMs`. */
  spent(key: string, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A unique id for each hold and charge: this process, then a count. */
function idMaker() {
  const process = randomBytes(6).toString('hex');
  let n = 0;
  return () => `${process}.${++n}`;
}

/** One process's limits (the single-process fallback); `now` for tests. */
export class MemoryLimits implements SharedLimits {
  private readonly windows: BoundedWindows;
  private readonly holds = new Map<string, Set<string>>();
  private readonly charges = new Map<string, { at: number; amount: number }[]>();
  private readonly nextId = idMaker();

  constructor(
    private readonly now: () => number = Date.now,
    maxKeys = 100_000,
  ) {
    this.windows = new BoundedWindows(maxKeys);
  }

  async hit(key: string, windowMs: number) {
    const now = this.now();
    const w = this.windows.live(key, now) ?? this.windows.start(key, 0, now + windowMs, now);
    w.count++;
    return { count: w.count, ttlMs: w.endsAt - now };
  }

  async hits(key: string) {
    const now = this.now();
    const w = this.windows.live(key, now);
    return w ? { count: w.count, ttlMs: w.endsAt - now } : { count: 0, ttlMs: 0 };
  }

  async hold(request: HoldRequest): Promise<HoldAnswer> {
    const held = this.holds.get(request.key)?.size ?? 0;
    if (held >= request.max) return { ok: false, reason: 'busy', held };
    const spent = request.spent ? await this.spent(request.spent.key, request.spent.windowMs) : 0;
    if (request.spent && spent >= request.spent.below) return { ok: false, reason: 'spent', spent };
    const id = this.nextId();
    let set = this.holds.get(request.key);
    if (!set) this.holds.set(request.key, (set = new Set()));
    set.add(id);
    let released = false;
    const hold: Hold = {
      release: async (amount = 0) => {
        if (released) return;
        released = true;
        const s = this.holds.get(request.key);
        s?.delete(id);
        if (s?.size === 0) this.holds.delete(request.key);
        if (request.spent && amount > 0) this.charge(request.spent.key, amount);
      },
    };
    return { ok: true, hold, held: held + 1, spent };
  }

  async spent(key: string, windowMs: number) {
    const cutoff = this.now() - windowMs;
    const list = (this.charges.get(key) ?? []).filter((c) => c.at > cutoff);
    if (list.length) this.charges.set(key, list);
    else this.charges.delete(key);
    return list.reduce((sum, c) => sum + c.amount, 0);
  }

  private charge(key: string, amount: number) {
    this.charges.set(key, [...(this.charges.get(key) ?? []), { at: this.now(), amount }]);
  }

  async close() {}
}

// Redis's clock in ms, so that every replica's windows and holds agree.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {n, ttl}
`;

// Charges are members "<amount>:<id>" scored by when they were made.
const SPENT = `
local function spent(key, window, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local sum = 0
  for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do sum = sum + tonumber(string.match(m, '^[^:]+')) end
  return sum
end
`;

// KEYS: holds[, spent]. ARGV: max, id, ttl[, window, below]. Answers {0, held, spent} | {1, held} | {2, spent}.
const HOLD_SCRIPT = `
${NOW}
${SPENT}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return {1, held} end
local used = 0
if #KEYS > 1 then
  used = spent(KEYS[2], tonumber(ARGV[4]), now)
  if used >= tonumber(ARGV[5]) then return {2, used} end
end
local ttl = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return {0, held + 1, used}
`;

// KEYS: holds... ARGV: ttl, then one id per key. Only holds still there are renewed (a lapsed one stays lapsed).
const RENEW_SCRIPT = `
${NOW}
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  if redis.call('ZSCORE', KEYS[i], ARGV[i + 1]) then
    redis.call('ZADD', KEYS[i], now + ttl, ARGV[i + 1])
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
end
return #KEYS
`;

// KEYS: holds[, spent]. ARGV: id[, amount, window].
const RELEASE_SCRIPT = `
${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
if #KEYS > 1 and tonumber(ARGV[2]) > 0 then
  redis.call('ZADD', KEYS[2], now, ARGV[2] .. ':' .. ARGV[1])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
end
return 1
`;

const SPENT_SCRIPT = `
${NOW}
${SPENT}
return spent(KEYS[1], tonumber(ARGV[1]), now)
`;

/**
 * The limits in Redis, every key under `${prefix}:limits:`. When Redis fails or takes longer than
 * `timeoutMs`, this process's MemoryLimits stand in until it answers again (logged once each way).
 */
export class RedisLimits implements SharedLimits {
  private readonly fallback = new MemoryLimits();
  private failing = false;
  private readonly nextId = idMaker();
  /** Holds taken in Redis and not released: renewed together, one script per round. */
  private readonly live = new Map<string, { key: string; id: string }>();
  private renewer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
    private readonly warn: (msg: string, err?: unknown) => void = () => {},
    private readonly holdTtlMs = HOLD_TTL_MS,
    private readonly timeoutMs = 1000,
  ) {}

  private k(key: string) {
    return `${this.prefix}:limits:${key}`;
  }

  private async attempt<T>(run: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await withTimeout(run(), this.timeoutMs, 'Redis');
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        this.warn("shared limits: Redis failed, counting in this process's memory until it answers", err);
      }
      return fallback();
    }
    if (this.failing) {
      this.failing = false;
      this.warn('shared limits: Redis answers again');
    }
    return out;
  }

  hit(key: string, windowMs: number) {
    return this.attempt(
      async () => {
        const [count, ttlMs] = (await this.redis.eval(HIT_SCRIPT, 1, this.k(`hit:${key}`), String(windowMs))) as [number, number];
        return { count, ttlMs };
      },
      () => this.fallback.hit(key, windowMs),
    );
  }

  hits(key: string) {
    return this.attempt(
      async () => {
        const [n, ttl] = await this.redis
          .multi()
          .get(this.k(`hit:${key}`))
          .pttl(this.k(`hit:${key}`))
          .exec()
          .then((r) => r!.map(([, v]) => v));
        return n === null ? { count: 0, ttlMs: 0 } : { count: Number(n), ttlMs: Math.max(0, Number(ttl)) };
      },
      () => this.fallback.hits(key),
    );
  }

  hold(request: HoldRequest): Promise<HoldAnswer> {
    return this.attempt(
      async (): Promise<HoldAnswer> => {
        const id = this.nextId();
        const key = this.k(`hold:${request.key}`);
        const keys = request.spent ? [key, this.k(`spent:${request.spent.key}`)] : [key];
        const args = [String(request.max), id, String(this.holdTtlMs)];
        if (request.spent) args.push(String(request.spent.windowMs), String(request.spent.below));
        const [answer, a, b] = (await this.redis.eval(HOLD_SCRIPT, keys.length, ...keys, ...args)) as number[];
        if (answer === 1) return { ok: false, reason: 'busy', held: a! };
        if (answer === 2) return { ok: false, reason: 'spent', spent: a! };
        this.live.set(id, { key, id });
        this.startRenewing();
        let released = false;
        const hold: Hold = {
          release: async (amount = 0) => {
            if (released) return;
            released = true;
            this.live.delete(id);
            const charge = request.spent && amount > 0 ? [String(Math.round(amount)), String(request.spent.windowMs)] : [];
            try {
              await withTimeout(
                this.redis.eval(RELEASE_SCRIPT, charge.length ? 2 : 1, ...keys.slice(0, charge.length ? 2 : 1), id, ...charge),
                this.timeoutMs,
                'Redis',
              );
            } catch (err) {
              // The hold lapses by itself within the hold's time; the charge is lost (in the client's favour).
              this.warn('shared limits: could not release a hold in Redis (it lapses by itself)', err);
            }
          },
        };
        return { ok: true, hold, held: a!, spent: b ?? 0 };
      },
      () => this.fallback.hold(request),
    );
  }

  spent(key: string, windowMs: number) {
    return this.attempt(
      async () => Number(await this.redis.eval(SPENT_SCRIPT, 1, this.k(`spent:${key}`), String(windowMs))),
      () => this.fallback.spent(key, windowMs),
    );
  }

  private startRenewing() {
    if (this.renewer) return;
    this.renewer = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.holdTtlMs / 3)));
    this.renewer.unref();
  }

  private async renew() {
    if (this.live.size === 0) {
      if (this.renewer) clearInterval(this.renewer);
      this.renewer = null;
      return;
    }
    const holds = [...this.live.values()];
    try {
      await withTimeout(
        this.redis.eval(RENEW_SCRIPT, holds.length, ...holds.map((h) => h.key), String(this.holdTtlMs), ...holds.map((h) => h.id)),
        this.timeoutMs,
        'Redis',
      );
    } catch (err) {
      this.warn('shared limits: could not renew the holds in Redis (tried again shortly)', err);
    }
  }

  async close() {
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
  }
}
