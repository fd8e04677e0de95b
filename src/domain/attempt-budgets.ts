// Budgets for what an attacker repeats: password checks and sign-ups. Fixed
// windows, kept in Redis when the app has queues so that every API process
// shares them, in memory otherwise (and while Redis does not answer).
//
// Password guessing is throttled without locking anybody out: failures are
// counted per client address (all accounts) and per account *and* address,
// so the guesser is refused while the owner, from a client that has not been
// guessing, still gets in. A guess spread over many addresses is caught by a
// third count per account (all addresses, a larger budget): past it, only
// clients that logged in to that account before (a device cookie, remembered
// here by its hash) are let through to the password check.

import { createHash, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { TooManyError } from './errors.ts';
import { withTimeout } from '../queue/connection.ts';

/** A 429 that says when to come back (the app's onError hook turns it into Retry-After). */
export class RetryLaterError extends TooManyError {
  override name = 'RetryLaterError';
  constructor(message: string, retryAfterSeconds: number) {
    super(message, retryAfterSeconds, 'too-many-attempts');
  }
}

export interface WindowLimit {
  key: string;
  max: number;
  windowMs: number;
}

export interface CounterStore {
  /**
   * Counts one against every limit, unless one of them is spent: then nothing
   * is counted and the answer is that limit's index and the time left in its window.
   */
  take(limits: WindowLimit[]): Promise<{ spent: number; retryAfterMs: number } | null>;
  /** Gives back one count of a key, or clears it. */
  giveBack(key: string, clear: boolean): Promise<void>;
  /** Remembers a key for ttlMs (a known device). */
  mark(key: string, ttlMs: number): Promise<void>;
  /** Whether a key is remembered. */
  marked(key: string): Promise<boolean>;
}

/** One process's counters; stale windows are swept when the map grows past maxKeys. */
export class MemoryCounters implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  constructor(private readonly maxKeys = 100_000) {}

  private live(key: string, now: number) {
    const w = this.windows.get(key);
    if (w && w.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  async take(limits: WindowLimit[]) {
    const now = Date.now();
    for (const [i, l] of limits.entries()) {
      const w = this.live(l.key, now);
      if (w && w.count >= l.max) return { spent: i, retryAfterMs: w.endsAt - now };
    }
    for (const l of limits) {
      const w = this.live(l.key, now);
      if (w) w.count++;
      else this.windows.set(l.key, { count: 1, endsAt: now + l.windowMs });
    }
    if (this.windows.size > this.maxKeys) this.sweep(now);
    return null;
  }

  async giveBack(key: string, clear: boolean) {
    const w = this.live(key, Date.now());
    if (!w) return;
    if (clear || w.count <= 1) this.windows.delete(key);
    else w.count--;
  }

  async mark(key: string, ttlMs: number) {
    this.windows.set(key, { count: 1, endsAt: Date.now() + ttlMs });
    if (this.windows.size > this.maxKeys) this.sweep(Date.now());
  }

  async marked(key: string) {
    return this.live(key, Date.now()) !== undefined;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    // Still full of live windows (many addresses at once): forget the oldest, so memory stays bounded.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= target) break;
      this.windows.delete(k);
    }
  }
}

// Atomic, so concurrent attempts cannot all pass the check before any is counted.
const TAKE_SCRIPT = `
for i = 1, #KEYS do
  local n = tonumber(redis.call('GET', KEYS[i]) or '0')
  if n >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl < 0 then ttl = tonumber(ARGV[2 * i]) end
    return {i, ttl}
  end
end
for i = 1, #KEYS do
  redis.call('INCR', KEYS[i])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return {0, 0}
`;

const GIVE_BACK_SCRIPT = `
if ARGV[1] == '1' then return redis.call('DEL', KEYS[1]) end
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 1 then return redis.call('DECR', KEYS[1]) end
return redis.call('DEL', KEYS[1])
`;

/** Counters in Redis; when Redis fails or is slow, this process's own counters stand in. */
export class RedisCounters implements CounterStore {
  private readonly fallback = new MemoryCounters();
  private failing = false;
  constructor(
    private readonly redis: Redis,
    private readonly warn: (msg: string, err?: unknown) => void = () => {},
    private readonly timeoutMs = 1000,
  ) {}

  private async attempt<T>(run: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    try {
      const out = await withTimeout(run(), this.timeoutMs, 'Redis');
      if (this.failing) {
        this.failing = false;
        this.warn('attempt budgets: Redis answers again');
      }
      return out;
    } catch (err) {
      if (!this.failing) {
        this.failing = true;
        this.warn('attempt budgets: Redis failed, counting in this process until it answers', err);
      }
      return fallback();
    }
  }

  take(limits: WindowLimit[]) {
    return this.attempt(
      async () => {
        const args = limits.flatMap((l) => [String(l.max), String(l.windowMs)]);
        const [spent, ttl] = (await this.redis.eval(TAKE_SCRIPT, limits.length, ...limits.map((l) => l.key), ...args)) as [number, number];
        return spent === 0 ? null : { spent: spent - 1, retryAfterMs: ttl };
      },
      () => this.fallback.take(limits),
    );
  }

  giveBack(key: string, clear: boolean) {
    return this.attempt(
      async () => {
        await this.redis.eval(GIVE_BACK_SCRIPT, 1, key, clear ? '1' : '0');
      },
      () => this.fallback.giveBack(key, clear),
    );
  }

  mark(key: string, ttlMs: number) {
    return this.attempt(
      async () => {
        await this.redis.set(key, '1', 'PX', ttlMs);
      },
      () => this.fallback.mark(key, ttlMs),
    );
  }

  marked(key: string) {
    return this.attempt(
      async () => (await this.redis.exists(key)) === 1,
      () => this.fallback.marked(key),
    );
  }
}

/** The address a budget counts: IPv6 clients by their /64, which one host usually holds whole. */
export function clientKey(ip: string): string {
  if (!isIPv6(ip) || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back] : front;
  return (
    groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  );
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** How a password check ended: the right password, a wrong one (or no such user), or not decided (a server fault). */
export type PasswordOutcome = 'right' | 'wrong' | 'unchecked';

/** Who is trying a password: the client's address and, from a browser that logged in before, its device cookie. */
export interface PasswordClient {
  ip: string;
  device?: string | null;
}

/** How long a browser that logged in to an account stays known to it (the device cookie's life). */
export const DEVICE_TTL_MS = 180 * 24 * 3600_000;

export interface AttemptBudgets {
  /**
   * Before a password check: a 429 if the address has used up its failures, or this address its
   * failures on this account, or (for a client the account does not know) the account its failures from everywhere.
   */
  beforePasswordCheck(username: string, client: PasswordClient): Promise<void>;
  /** After it: only a wrong password stays counted; the right one also clears this address's failures on the account. */
  afterPasswordCheck(username: string, client: PasswordClient, outcome: PasswordOutcome): Promise<void>;
  /** After a right password: a new device secret for the client's cookie, remembered for this account. */
  rememberDevice(username: string): Promise<string>;
  /** Before creating an account: a 429 past the address's sign-ups this hour. */
  beforeSignup(ip: string): Promise<void>;
  /** After it: only an account actually created is counted. */
  afterSignup(ip: string, created: boolean): Promise<void>;
}

export function createAttemptBudgets(
  config: Pick<
    Config,
    'passwordFailuresPerAccount' | 'passwordFailuresPerAccountTotal' | 'passwordFailuresPerIp' | 'passwordFailuresWindowMinutes' | 'rateLimitSignup'
  >,
  store: CounterStore,
  keyPrefix: string,
): AttemptBudgets {
  const windowMs = config.passwordFailuresWindowMinutes * 60_000;
  // Hashed: the key's size does not depend on what a client typed.
  const account = (username: string) => createHash('sha256').update(username.toLowerCase()).digest('hex').slice(0, 32);
  const accountKey = (username: string) => `${keyPrefix}:limits:password:account:${account(username)}`;
  const pairKey = (username: string, ip: string) => `${keyPrefix}:limits:password:pair:${account(username)}:${clientKey(ip)}`;
  const deviceKey = (username: string, device: string) =>
    `${keyPrefix}:devices:${account(username)}:${createHash('sha256').update(device).digest('hex').slice(0, 32)}`;
  const ipKey = (ip: string) => `${keyPrefix}:limits:password:ip:${clientKey(ip)}`;
  const knownDevice = async (username: string, device: string | null | undefined) =>
    typeof device === 'string' && device.length > 0 && device.length <= 128 && (await store.marked(deviceKey(username, device)));
  const signupKey = (ip: string) => `${keyPrefix}:limits:signup:ip:${clientKey(ip)}`;
  const refuse = (what: string, retryAfterMs: number): never => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new RetryLaterError(`${what}: try again in ${waitText(seconds)}`, seconds);
  };

  return {
    async beforePasswordCheck(username, { ip, device }) {
      const known = await knownDevice(username, device);
      const limits: WindowLimit[] = [
        { key: ipKey(ip), max: config.passwordFailuresPerIp, windowMs },
        { key: pairKey(username, ip), max: config.passwordFailuresPerAccount, windowMs },
      ];
      // A browser that logged in to this account before is not held by a guess spread over other addresses.
      if (!known) limits.push({ key: accountKey(username), max: config.passwordFailuresPerAccountTotal, windowMs });
      const spent = await store.take(limits);
      if (!spent) return;
      const what = [
        'too many failed password attempts from your address',
        'too many failed password attempts for this account from your address',
        'too many failed password attempts for this account from many addresses (log in from a browser you used before)',
      ];
      refuse(what[spent.spent]!, spent.retryAfterMs);
    },
    async afterPasswordCheck(username, { ip, device }, outcome) {
      if (outcome === 'wrong') return;
      await store.giveBack(ipKey(ip), false);
      await store.giveBack(pairKey(username, ip), outcome === 'right');
      if (!(await knownDevice(username, device))) await store.giveBack(accountKey(username), false);
    },
    async rememberDevice(username) {
      const device = randomBytes(24).toString('base64url');
      await store.mark(deviceKey(username, device), DEVICE_TTL_MS);
      return device;
    },
    async beforeSignup(ip) {
      const spent = await store.take([{ key: signupKey(ip), max: config.rateLimitSignup, windowMs: 3600_000 }]);
      if (spent) refuse('too many accounts created from your address this hour', spent.retryAfterMs);
    },
    async afterSignup(ip, created) {
      if (!created) await store.giveBack(signupKey(ip), false);
    },
  };
}
