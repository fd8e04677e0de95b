// Arbiter's configuration: read from the environment once at start, validated,
// typed. A bad value stops the process with a message naming the variable.
// Every key is documented in .env.example; none is required (the embedded
// defaults run everything on a laptop).

import { createHash } from 'node:crypto';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  /** postgres:// URL, or null for embedded PGlite under DATA_DIR. */
  databaseUrl: string | null;
  /** redis:// URL, or null: 127.0.0.1:6379 if it answers, else a private redis-server. */
  redisUrl: string | null;
  port: number;
  host: string;
  /** BullMQ prefix; live events go to `${queuePrefix}:events`. */
  queuePrefix: string;
  /** Match runners per worker process. */
  workerConcurrency: number;
  /** WORKER_NICE: the niceness of a worker process run apart from the API (its matches and compilers inherit it). */
  workerNice: number;
  dataDir: string;
  /** CACHE_DIR: this instance's caches (the C++ compile cache, the precompiled headers), absolute. */
  cacheDir: string;
  submissionMaxBytes: number;
  /** Extra words refused in player names (lowercase). */
  offensiveWords: string[];
  /** How long a name no submission has carried through self-play stays its owner's after their latest submission under it, hours; then anyone may claim it. */
  nameHoldHours: number;
  /** Challenge matches a user may ask for per hour. */
  challengesPerHour: number;
  /** Who may sign up: anyone, whoever has the invite code, or e-mail addresses of the listed domains. */
  registration: 'open' | 'invite' | 'domain';
  /** REGISTRATION=invite: the code sign-up asks for. */
  registrationInviteCode: string | null;
  /** REGISTRATION=domain: the e-mail domains (lowercase) accepted at sign-up. */
  registrationEmailDomains: string[];
  /** SIGNUP_REQUIRE: the fields sign-up (the form and POST /api/users) asks for beyond username and password. */
  signupRequire: SignupField[];
  /** Failed password checks per account (username, any case) from one client address per window. */
  passwordFailuresPerAccount: number;
  /** Failed password checks per account from all addresses per window; past it only known browsers may try. */
  passwordFailuresPerAccountTotal: number;
  /** Failed password checks per client address per window. */
  passwordFailuresPerIp: number;
  passwordFailuresWindowMinutes: number;
  /** Accounts created per client address per hour. */
  rateLimitSignup: number;
  /** The play page's compiles from one client address (all its accounts and visitors): at once, and compiler CPU seconds per hour. */
  playCompilesRunningPerIp: number;
  playCompileCpuSecondsPerHourPerIp: number;
  /** Open live-status streams (SSE) per client address. */
  sseMaxPerIp: number;
  /** Per user (or IP) per minute. */
  rateLimitSubmit: number;
  sessionTtlHours: number;
  /** Set the Secure flag on the session cookie (behind HTTPS). */
  cookieSecure: boolean;
  trustProxy: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The course's IANA time zone (COURSE_TIME_ZONE, default UTC): dates on pages are shown in it, UTC beside them, and typed in it. */
  courseTimeZone: string;
  /** BullMQ lockDuration for match jobs, ms. */
  matchLockMs: number;
  /** BullMQ stalled-job check interval, ms. */
  stalledIntervalMs: number;
  /** How long an upload waits for the queue when starting the gate, ms; then the row stays queued for the sweep. */
  gateStartTimeoutMs: number;
  /** BullMQ lockDuration of a result being recorded, ms. */
  resultLockMs: number;
  /** The recorder's stalled-result check interval, ms. */
  resultStalledIntervalMs: number;
  /** LEASE_TTL_MS: the scheduler's and the recorder's lease in Redis (one of each works, the others wait); a dead holder's standby takes over within this plus a third. */
  leaseTtlMs: number;
  /** WORKER_HEALTH_PORT: a worker's /health and /metrics (Prometheus) port; 0 = none. */
  workerHealthPort: number;
  /** Max ranked matches waiting/active; 0 = 2 x the workers' concurrency seen. */
  rankedQueueTarget: number;
  rankedIntervalMs: number;
  rankedEnabled: boolean;
  /** The scheduler's sweep: how often it runs, and how old a row must be before it is repaired (ms). */
  sweepIntervalMs: number;
  sweepAfterMs: number;
  /** Ranked replays older than this many days are pruned; 0 = keep. */
  retentionRankedDays: number;
  /** A ranked replay is kept while among the newest N ranked matches of any of its players; 0 = keep. */
  retentionRankedPerPlayer: number;
  retentionIntervalMs: number;
  /** One bot file's compile: wall time (ms) and memory (MiB) allowed to its compiler process. */
  compileTimeoutMs: number;
  compileMemoryMb: number;
  /** GATE_SEED_SECRET: the key the gate's seeds are derived with; null: one the judge makes and keeps in the database. */
  gateSeedSecret: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function str(env: Env, key: string): string | undefined {
  const v = env[key];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, key: string, def: number, min: number, max: number): number {
  const v = str(env, key);
  if (v === undefined) return def;
  if (!/^-?\d+$/.test(v)) throw new ConfigError(`${key} must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${key} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, key: string, def: boolean): boolean {
  const v = str(env, key)?.toLowerCase();
  if (v === undefined) return def;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${key} must be true or false, got "${v}"`);
}

function list(env: Env, key: string): string[] {
  const v = str(env, key);
  if (v === undefined) return [];
  return v
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
}

function url(env: Env, key: string, schemes: string[]): string | null {
  const v = str(env, key);
  if (v === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(`${key} is not a valid URL`);
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (!schemes.includes(scheme)) throw new ConfigError(`${key} must be a ${schemes.map((s) => s + '://').join(' or ')} URL, got ${scheme}://`);
  return v;
}

/**
 * The compiler's limits alone: the compiler reads them where it runs (API,
 * worker, command line), and loadConfig checks them at start.
 */
export function compilerLimits(env: Env = process.env): Pick<Config, 'compileTimeoutMs' | 'compileMemoryMb'> {
  return {
    compileTimeoutMs: int(env, 'COMPILE_TIMEOUT_MS', 10_000, 100, 600_000),
    compileMemoryMb: int(env, 'COMPILE_MEMORY_MB', 256, 128, 16_384),
  };
}

/**
 * GATE_SEED_SECRET alone: the gate reads it where it derives a submission's
 * seeds (src/domain/gate-seeds.ts), and loadConfig checks it at start. Null
 * when unset: the judge then makes one and keeps it in the database.
 */
export function gateSeedSecret(env: Env = process.env): string | null {
  const v = str(env, 'GATE_SEED_SECRET');
  if (v === undefined) return null;
  if (v.length < 16) throw new ConfigError('GATE_SEED_SECRET must be at least 16 characters (or unset: the judge then makes one and keeps it in the database)');
  return v;
}

/** The checkout this code runs from (src/config.ts is in its src/). */
const CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * CACHE_DIR alone: the C++ toolchain reads it where it compiles (API, worker,
 * command line), and loadConfig checks it at start. By default a folder of the
 * temp dir named by the user and the checkout, so two checkouts (two versions
 * of the judge) on one machine never share a cache; a deployment that wants
 * processes to share one (workers on one host, containers with one volume)
 * names it. Writes there are atomic (a file written, then renamed).
 */
export function cacheDir(env: Env = process.env): string {
  const v = str(env, 'CACHE_DIR');
  if (v !== undefined) return resolve(v);
  let user: string;
  try {
    user = String(userInfo().uid);
  } catch {
    user = 'user';
  }
  return join(tmpdir(), `arbiter-cache-${user}-${createHash('sha256').update(CHECKOUT).digest('hex').slice(0, 12)}`);
}

function timeZone(env: Env): string {
  const tz = str(env, 'COURSE_TIME_ZONE') ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new ConfigError(`COURSE_TIME_ZONE must be an IANA time zone such as Europe/Madrid, got "${tz}"`);
  }
  return tz;
}

const REGISTRATION_POLICIES = ['open', 'invite', 'domain'] as const;
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** REGISTRATION and what each policy needs: a code for invite, domains for domain. */
function registration(env: Env): Pick<Config, 'registration' | 'registrationInviteCode' | 'registrationEmailDomains'> {
  const policy = (str(env, 'REGISTRATION') ?? 'open').toLowerCase();
  if (!(REGISTRATION_POLICIES as readonly string[]).includes(policy)) {
    throw new ConfigError(`REGISTRATION must be one of ${REGISTRATION_POLICIES.join(', ')}, got "${policy}"`);
  }
  const code = str(env, 'REGISTRATION_INVITE_CODE') ?? null;
  const domains = list(env, 'REGISTRATION_EMAIL_DOMAINS').map((d) => d.replace(/^@/, ''));
  if (policy === 'invite' && !code) throw new ConfigError('REGISTRATION=invite needs REGISTRATION_INVITE_CODE (the code students type at sign-up)');
  if (code !== null && code.length < 6) throw new ConfigError('REGISTRATION_INVITE_CODE must be at least 6 characters');
  if (policy === 'domain' && domains.length === 0)
    throw new ConfigError('REGISTRATION=domain needs REGISTRATION_EMAIL_DOMAINS (comma-separated, e.g. estudiantat.upc.edu)');
  const bad = domains.find((d) => !DOMAIN_RE.test(d));
  if (bad !== undefined) throw new ConfigError(`REGISTRATION_EMAIL_DOMAINS: "${bad}" is not a domain name`);
  return { registration: policy as Config['registration'], registrationInviteCode: code, registrationEmailDomains: domains };
}

/** The fields a course may require at sign-up (SIGNUP_REQUIRE=email,studentId,fullName). */
export const SIGNUP_FIELDS = ['email', 'studentId', 'fullName'] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];

/** SIGNUP_REQUIRE: comma-separated, any of SIGNUP_FIELDS (case-insensitive), each once. */
function signupRequire(env: Env): SignupField[] {
  const v = str(env, 'SIGNUP_REQUIRE');
  if (v === undefined) return [];
  const out: SignupField[] = [];
  for (const raw of v
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '')) {
    const f = SIGNUP_FIELDS.find((x) => x.toLowerCase() === raw.toLowerCase());
    if (!f) throw new ConfigError(`SIGNUP_REQUIRE: "${raw}" is not a sign-up field: use ${SIGNUP_FIELDS.join(', ')} (comma-separated)`);
    if (!out.includes(f)) out.push(f);
  }
  return out;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Parses and validates the environment. Throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  // Admins were once named here, which made admin whoever registered such a username first.
  if (str(env, 'ADMIN_USERS') !== undefined) {
    throw new ConfigError(
      'ADMIN_USERS is no longer read: unset it, and make admins on the server with `arbiter admin grant <username>` (after they have registered)',
    );
  }
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const queuePrefix = str(env, 'QUEUE_PREFIX') ?? 'arbiter';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(queuePrefix)) throw new ConfigError(`QUEUE_PREFIX must be 1-64 characters of A-Z a-z 0-9 _ . -, got "${queuePrefix}"`);
  return {
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    port: int(env, 'PORT', 3000, 0, 65535),
    host,
    queuePrefix,
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', availableParallelism(), 1, 1024),
    workerNice: int(env, 'WORKER_NICE', 10, 0, 19),
    dataDir: str(env, 'DATA_DIR') ?? './data',
    cacheDir: cacheDir(env),
    submissionMaxBytes: int(env, 'SUBMISSION_MAX_BYTES', 256 * 1024, 1, 16 * 1024 * 1024),
    offensiveWords: list(env, 'OFFENSIVE_WORDS'),
    nameHoldHours: int(env, 'NAME_HOLD_HOURS', 24, 1, 24 * 365),
    challengesPerHour: int(env, 'CHALLENGES_PER_HOUR', 30, 0, 100_000),
    ...registration(env),
    signupRequire: signupRequire(env),
    passwordFailuresPerAccount: int(env, 'PASSWORD_FAILURES_PER_ACCOUNT', 10, 1, 1_000_000),
    passwordFailuresPerAccountTotal: int(env, 'PASSWORD_FAILURES_PER_ACCOUNT_TOTAL', 100, 1, 1_000_000),
    passwordFailuresPerIp: int(env, 'PASSWORD_FAILURES_PER_IP', 100, 1, 1_000_000),
    passwordFailuresWindowMinutes: int(env, 'PASSWORD_FAILURES_WINDOW_MINUTES', 15, 1, 24 * 60),
    rateLimitSignup: int(env, 'RATE_LIMIT_SIGNUP', 60, 1, 1_000_000),
    playCompilesRunningPerIp: int(env, 'PLAY_COMPILES_RUNNING_PER_IP', 2, 1, 10_000),
    playCompileCpuSecondsPerHourPerIp: int(env, 'PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP', 1200, 1, 10_000_000),
    sseMaxPerIp: int(env, 'SSE_MAX_PER_IP', 20, 1, 100_000),
    rateLimitSubmit: int(env, 'RATE_LIMIT_SUBMIT', 20, 1, 1_000_000),
    sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 24 * 14, 1, 24 * 365),
    cookieSecure: bool(env, 'COOKIE_SECURE', false),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    logLevel: logLevel as Config['logLevel'],
    courseTimeZone: timeZone(env),
    matchLockMs: int(env, 'MATCH_LOCK_MS', 30_000, 1000, 3_600_000),
    stalledIntervalMs: int(env, 'STALLED_INTERVAL_MS', 15_000, 500, 3_600_000),
    gateStartTimeoutMs: int(env, 'GATE_START_TIMEOUT_MS', 2000, 50, 60_000),
    resultLockMs: int(env, 'RESULT_LOCK_MS', 5000, 1000, 600_000),
    resultStalledIntervalMs: int(env, 'RESULT_STALLED_INTERVAL_MS', 5000, 500, 600_000),
    leaseTtlMs: int(env, 'LEASE_TTL_MS', 15_000, 300, 600_000),
    workerHealthPort: int(env, 'WORKER_HEALTH_PORT', 0, 0, 65535),
    rankedQueueTarget: int(env, 'RANKED_QUEUE_TARGET', 0, 0, 100_000),
    rankedIntervalMs: int(env, 'RANKED_INTERVAL_MS', 2000, 100, 3_600_000),
    rankedEnabled: bool(env, 'RANKED_ENABLED', true),
    sweepIntervalMs: int(env, 'SWEEP_INTERVAL_MS', 15_000, 100, 3_600_000),
    sweepAfterMs: int(env, 'SWEEP_AFTER_MS', 30_000, 0, 86_400_000),
    retentionRankedDays: int(env, 'RETENTION_RANKED_DAYS', 0, 0, 36_500),
    retentionRankedPerPlayer: int(env, 'RETENTION_RANKED_PER_PLAYER', 0, 0, 1_000_000),
    retentionIntervalMs: int(env, 'RETENTION_INTERVAL_MS', 600_000, 1000, 86_400_000),
    ...compilerLimits(env),
    gateSeedSecret: gateSeedSecret(env),
  };
}
