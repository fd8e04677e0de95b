// Budgets for what an attacker repeats: password checks and sign-ups. Fixed
// windows, kept in Redis when the app has queues so that every API process
// shares them, in memory otherwise (and while Redis does not answer).
//
// Password guessing is throttled without letting a neighbour lock anybody
// out (README.md, "Security", has the design). A failure counts against the
// account from that address (the pair), the account from everywhere, and the
// address; what may refuse a check, before any hashing, is:
// - the pair and the account's total, for a client the account does not know:
//   guessing at one account stays slow however many addresses share the work;
// - the address, only for a username that has no account: a spray of made-up
//   names from one address stops there, while a right password for a real
//   account from that address (a lab behind one NAT) is still checked, so one
//   student's guesses never stop a classmate. The hashing an address can cause
//   stays bounded: its budget, plus the pair budget per real account;
// - for a browser that logged in to the account before (its device cookie,
//   remembered here by its hash), only that device's own failures: nobody
//   else's guesses at the account, from its address or anywhere, hold it.

import { createHash, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { TooManyError } from './errors.ts';
import { withTimeout } from '../queue/connection.ts';
import { BoundedWindows } from '../queue/bounded-windows.ts';

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

/** One process's counters, in a bounded window map. */
export class MemoryCounters implements CounterStore {
  private readonly windows: BoundedWindows;
  constructor(maxKeys = 100_000) {
    this.windows = new BoundedWindows(maxKeys);
  }

  async take(limits: WindowLimit[]) {
    const now = Date.now();
    for (const [i, l] of limits.entries()) {
      const w = this.windows.live(l.key, now);
      if (w && w.count >= l.max) return { spent: i, retryAfterMs: w.endsAt - now };
    }
    for (const l of limits) {
      const w = this.windows.live(l.key, now);
      if (w) w.count++;
      else this.windows.start(l.key, 1, now + l.windowMs, now);
    }
    return null;
  }

  async giveBack(key: string, clear: boolean) {
    const w = this.windows.live(key, Date.now());
    if (!w) return;
    if (clear || w.count <= 1) this.windows.delete(key);
    else w.count--;
  }

  async mark(key: string, ttlMs: number) {
    const now = Date.now();
    this.windows.start(key, 1, now + ttlMs, now);
  }

  async marked(key: string) {
    return this.windows.live(key, Date.now()) !== undefined;
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
   * Before a password check: a 429 when a budget that may refuse this client is spent (see the
   * top of this file). `accountExists`: whether the username names an account (usernames are public).
   */
  beforePasswordCheck(username: string, client: PasswordClient, accountExists: boolean): Promise<void>;
  /** After it: only a wrong password stays counted; the right one also clears this address's failures on the account. */
  afterPasswordCheck(username: string, client: PasswordClient, outcome: PasswordOutcome): Promise<void>;
  /** After a right password: a new device secret for the client's cookie, remembered for this account. */
  rememberDevice(username: string): Promise<string>;
  /** Before creating an account: a 429 past the address's sign-ups this hour. */
  beforeSignup(ip: string): Promise<void>;
  /** After it: only an account actually created is counted. */
  afterSignup(ip: string, created: boolean): Promise<void>;
}

/** A limit that counts and never refuses (its count still refuses where another check reads it). */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

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
  const deviceHash = (device: string) => createHash('sha256').update(device).digest('hex').slice(0, 32);
  const accountKey = (username: string) => `${keyPrefix}:limits:password:account:${account(username)}`;
  const pairKey = (username: string, ip: string) => `${keyPrefix}:limits:password:pair:${account(username)}:${clientKey(ip)}`;
  const deviceFailuresKey = (username: string, device: string) => `${keyPrefix}:limits:password:device:${account(username)}:${deviceHash(device)}`;
  const deviceKey = (username: string, device: string) => `${keyPrefix}:devices:${account(username)}:${deviceHash(device)}`;
  const ipKey = (ip: string) => `${keyPrefix}:limits:password:ip:${clientKey(ip)}`;
  const knownDevice = async (username: string, device: string | null | undefined): Promise<string | null> =>
    typeof device === 'string' && device.length > 0 && device.length <= 128 && (await store.marked(deviceKey(username, device))) ? device : null;
  const signupKey = (ip: string) => `${keyPrefix}:limits:signup:ip:${clientKey(ip)}`;
  const refuse = (what: string, retryAfterMs: number): never => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new RetryLaterError(`${what}: try again in ${waitText(seconds)}`, seconds);
  };
  /** Every count a check takes, in the order of the refusals' messages; `known` is the client's device when the account knows it. */
  const limitsFor = (username: string, ip: string, known: string | null, accountExists: boolean): { limits: WindowLimit[]; what: string[] } => {
    if (known)
      return {
        limits: [
          { key: deviceFailuresKey(username, known), max: config.passwordFailuresPerAccount, windowMs },
          { key: ipKey(ip), max: UNCAPPED, windowMs },
          { key: accountKey(username), max: UNCAPPED, windowMs },
        ],
        what: ['too many failed password attempts for this account from this browser'],
      };
    return {
      limits: [
        { key: ipKey(ip), max: accountExists ? UNCAPPED : config.passwordFailuresPerIp, windowMs },
        { key: pairKey(username, ip), max: config.passwordFailuresPerAccount, windowMs },
        { key: accountKey(username), max: config.passwordFailuresPerAccountTotal, windowMs },
      ],
      what: [
        'too many failed password attempts from your address',
        'too many failed password attempts for this account from your address (a browser that logged in to it before still may)',
        'too many failed password attempts for this account from many addresses (log in from a browser you used before)',
      ],
    };
  };

  return {
    async beforePasswordCheck(username, { ip, device }, accountExists) {
      const { limits, what } = limitsFor(username, ip, await knownDevice(username, device), accountExists);
      const spent = await store.take(limits);
      if (spent) refuse(what[spent.spent]!, spent.retryAfterMs);
    },
    async afterPasswordCheck(username, { ip, device }, outcome) {
      if (outcome === 'wrong') return;
      const known = await knownDevice(username, device);
      await store.giveBack(ipKey(ip), false);
      await store.giveBack(accountKey(username), false);
      if (known) await store.giveBack(deviceFailuresKey(username, known), outcome === 'right');
      else await store.giveBack(pairKey(username, ip), outcome === 'right');
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
