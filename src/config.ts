// Arbiter's configuration: every environment variable it reads is declared
// here, once, in SETTINGS (as BullMQ documents its options: one table, each
// entry with its default and a sentence). A declaration names its variable,
// says what it sets, and parses its text; a bad value stops the process with
// a message naming the variable. None is required: the embedded defaults run
// everything on a laptop.
//
// The server reads them all at start (loadConfig); a process that is not the
// server (a compiler, the command line, a match child) reads only the ones it
// needs, through the same declarations (readSettings). .env.example and the
// settings table in docs/operations.md are generated from SETTINGS
// (`npm run gen:config-docs`), and test/config-docs.test.ts fails when they
// drift. Adding a variable is one entry in SETTINGS.

import { createHash } from 'node:crypto';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

/** One environment variable: what it sets, its default, and how its text becomes a value. */
export interface Setting<T> {
  /** The environment variable. */
  readonly name: string;
  /** What it sets, a sentence or two (.env.example and docs/operations.md print it). */
  readonly doc: string;
  /** The default as the documentation shows it: a value, or words where it is computed ('' = unset). */
  readonly shownDefault: string;
  /** The value .env.example writes on the variable's commented-out line: an example, else the default's text. */
  readonly example: string;
  /** The section of the documentation it is listed in (section() sets it). */
  readonly group: string;
  /** The value of the variable's text (trimmed; undefined when unset or blank). Throws ConfigError naming the variable. */
  readonly read: (text: string | undefined) => T;
}

interface Described {
  doc: string;
  example?: string;
}

/** A plain default (a value, not words about one) is also the example. */
function declare<T>(name: string, shownDefault: string, d: Described, read: (text: string | undefined) => T): Setting<T> {
  const plain = /^[^\s`]*$/.test(shownDefault);
  return { name, doc: d.doc, shownDefault, example: d.example ?? (plain ? shownDefault : ''), group: '', read };
}

/** An integer in [min, max]; the default may be computed where it is read (the number of cores). */
function integer(name: string, o: Described & { default: number | (() => number); shown?: string; note?: string; min: number; max: number }): Setting<number> {
  const shown = o.shown ?? String(o.default);
  const described = o.note === undefined ? o : { ...o, example: o.example ?? shown };
  return declare(name, o.note === undefined ? shown : `${shown} (${o.note})`, described, (v) =>
    v === undefined ? (typeof o.default === 'function' ? o.default() : o.default) : parseInteger(name, v, o.min, o.max),
  );
}

/** An integer in [min, max], or null when unset. */
function optionalInteger(name: string, o: Described & { shown: string; min: number; max: number }): Setting<number | null> {
  return declare(name, o.shown, o, (v) => (v === undefined ? null : parseInteger(name, v, o.min, o.max)));
}

function parseInteger(name: string, v: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(v)) throw new ConfigError(`${name} must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function flag(name: string, o: Described & { default: boolean }): Setting<boolean> {
  return declare(name, String(o.default), o, (text) => {
    const v = text?.toLowerCase();
    if (v === undefined) return o.default;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    throw new ConfigError(`${name} must be true or false, got "${v}"`);
  });
}

/** One of a few words (case-insensitive). */
function oneOf<const V extends readonly string[]>(name: string, values: V, o: Described & { default: V[number]; shown?: string }): Setting<V[number]> {
  return declare(name, o.shown ?? o.default, o, (text) => {
    const v = (text ?? o.default).toLowerCase();
    if (!values.includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${v}"`);
    return v as V[number];
  });
}

/** Free text with a default, checked by `check` (which returns what is wrong, if anything). */
function text(name: string, o: Described & { default: string; check?: (v: string) => string | undefined }): Setting<string> {
  return declare(name, o.default, o, (v) => {
    const value = v ?? o.default;
    const wrong = o.check?.(value);
    if (wrong !== undefined) throw new ConfigError(`${name} ${wrong}, got "${value}"`);
    return value;
  });
}

/** Free text, or null when unset. */
function optionalText(name: string, o: Described & { shown?: string; check?: (v: string) => string | undefined }): Setting<string | null> {
  return declare(name, o.shown ?? '', o, (v) => {
    if (v === undefined) return null;
    const wrong = o.check?.(v);
    if (wrong !== undefined) throw new ConfigError(`${name} ${wrong}`);
    return v;
  });
}

/** Comma-separated words, lowercased, blanks dropped. */
function words(name: string, o: Described & { shown?: string }): Setting<string[]> {
  return declare(name, o.shown ?? '', o, (v) => splitList(v, ',').map((w) => w.toLowerCase()));
}

function splitList(v: string | undefined, separator: string): string[] {
  return (v ?? '')
    .split(separator)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

/** A URL of one of `schemes`, or null when unset. */
function url(name: string, schemes: string[], o: Described & { shown: string }): Setting<string | null> {
  return declare(name, o.shown, o, (v) => {
    if (v === undefined) return null;
    let parsed: URL;
    try {
      parsed = new URL(v);
    } catch {
      throw new ConfigError(`${name} is not a valid URL`);
    }
    const scheme = parsed.protocol.replace(/:$/, '');
    if (!schemes.includes(scheme)) throw new ConfigError(`${name} must be a ${schemes.map((s) => s + '://').join(' or ')} URL, got ${scheme}://`);
    return v;
  });
}

/** A variable of its own kind: `read` parses it (undefined when unset). */
function custom<T>(name: string, o: Described & { shown: string; read: (text: string | undefined) => T }): Setting<T> {
  return declare(name, o.shown, o, o.read);
}

/** The settings of one section of the documentation, titled. */
function section<S extends Record<string, Setting<unknown>>>(title: string, settings: S): S {
  return Object.fromEntries(Object.entries(settings).map(([key, s]) => [key, { ...s, group: title }])) as S;
}

/** The checkout this code runs from (src/config.ts is in its src/). */
const CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * CACHE_DIR's default: a folder of the temp dir named by the user and the
 * checkout, so two checkouts (two versions of the judge) on one machine never
 * share a cache.
 */
function defaultCacheDir(): string {
  let user: string;
  try {
    user = String(userInfo().uid);
  } catch {
    user = 'user';
  }
  return join(tmpdir(), `arbiter-cache-${user}-${createHash('sha256').update(CHECKOUT).digest('hex').slice(0, 12)}`);
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const REGISTRATION_POLICIES = ['open', 'invite', 'domain'] as const;
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The fields a course may require at sign-up (SIGNUP_REQUIRE=email,studentId,fullName). */
export const SIGNUP_FIELDS = ['email', 'studentId', 'fullName'] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];

/** SIGNUP_REQUIRE: comma-separated, any of SIGNUP_FIELDS (case-insensitive), each once. */
function signupFields(v: string | undefined): SignupField[] {
  const out: SignupField[] = [];
  for (const raw of splitList(v, ',')) {
    const f = SIGNUP_FIELDS.find((x) => x.toLowerCase() === raw.toLowerCase());
    if (!f) throw new ConfigError(`SIGNUP_REQUIRE: "${raw}" is not a sign-up field: use ${SIGNUP_FIELDS.join(', ')} (comma-separated)`);
    if (!out.includes(f)) out.push(f);
  }
  return out;
}

const MIB = 1024 * 1024;

/**
 * Every variable the judge reads (the server's parts, the compilers, the match
 * processes and the commands run on the server), by section. The key is the
 * field of Config it fills.
 */
export const SETTINGS = {
  ...section('Where things are', {
    databaseUrl: url('DATABASE_URL', ['postgres', 'postgresql'], {
      shown: 'unset: embedded PGlite under `DATA_DIR`',
      doc: 'The PostgreSQL database, a `postgres://` or `postgresql://` URL.',
      example: 'postgresql://postgres@127.0.0.1:5432/arbiter',
    }),
    redisUrl: url('REDIS_URL', ['redis', 'rediss'], {
      shown: 'unset: 127.0.0.1:6379 if it answers, else a private `redis-server` from PATH (noeviction, data under `DATA_DIR`)',
      doc: 'Redis for the BullMQ queues and live events, a `redis://` or `rediss://` URL.',
      example: 'redis://127.0.0.1:6379',
    }),
    dataDir: text('DATA_DIR', { default: './data', doc: 'Where embedded data (PGlite, the private Redis) and the control socket live.' }),
    cacheDir: custom('CACHE_DIR', {
      shown: '`<temp>/arbiter-cache-<uid>-<checkout hash>`',
      doc:
        "This instance's caches: the C++ compile cache (`cpp/`) and the games' precompiled headers (`pch/`). The default is one per user and " +
        'checkout, so two checkouts on one machine never share one; name one to share it on purpose (workers of one version on one host, ' +
        'containers with a volume): writes there are atomic.',
      example: '/var/cache/arbiter',
      read: (v) => (v === undefined ? defaultCacheDir() : resolve(v)),
    }),
    port: integer('PORT', { default: 3000, min: 0, max: 65535, doc: "The API's port." }),
    host: text('HOST', { default: '127.0.0.1', doc: "The API's address (keep it behind a proxy; `0.0.0.0` in a container)." }),
    queuePrefix: text('QUEUE_PREFIX', {
      default: 'arbiter',
      doc: 'The BullMQ key prefix (1-64 of `A-Z a-z 0-9 _ . -`); live status events are published on `<prefix>:events`.',
      check: (v) => (/^[A-Za-z0-9_.-]{1,64}$/.test(v) ? undefined : 'must be 1-64 characters of A-Z a-z 0-9 _ . -'),
    }),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, {
      default: 'info',
      doc: 'The least level logged: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
    }),
    courseTimeZone: text('COURSE_TIME_ZONE', {
      default: 'UTC',
      doc: "The course's IANA time zone: pages show every date in it with UTC beside it, and dates typed on the admin pages without an offset are read in it (the API's JSON keeps UTC instants).",
      example: 'Europe/Madrid',
      check: (tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return undefined;
        } catch {
          return 'must be an IANA time zone such as Europe/Madrid';
        }
      },
    }),
    gamesPath: custom('ARBITER_GAMES_PATH', {
      shown: '',
      doc: 'More folders of games, colon-separated, searched like `src/games/` (each subfolder with an `index.ts` that default-exports `defineGame({...})` is a game).',
      read: (v) => splitList(v, ':').map((p) => resolve(p)),
    }),
  }),
  ...section('HTTP, accounts and abuse', {
    trustProxy: flag('TRUST_PROXY', {
      default: false,
      doc: 'Behind a reverse proxy: the client address comes from `X-Forwarded-For`, the scheme from `X-Forwarded-Proto`.',
    }),
    cookieSecure: flag('COOKIE_SECURE', {
      default: false,
      doc: "Always set the session cookie's `Secure` flag (it is set anyway on HTTPS requests, as `X-Forwarded-Proto` says with `TRUST_PROXY`).",
    }),
    passwordHashCost: integer('PASSWORD_HASH_COST', {
      default: 15,
      min: 10,
      max: 20,
      doc: "scrypt's cost for new password hashes, as a power of two (15: N = 32768, 32 MiB and about a tenth of a second a hash); a stored hash keeps the cost it was made with, so changing it locks no one out (the test suite hashes at 10).",
    }),
    sessionTtlHours: integer('SESSION_TTL_HOURS', { default: 24 * 14, note: '14 days', min: 1, max: 24 * 365, doc: "The session cookie's lifetime, hours." }),
    registration: oneOf('REGISTRATION', REGISTRATION_POLICIES, {
      default: 'open',
      doc: 'Who may sign up: `open` (anyone), `invite` (whoever types `REGISTRATION_INVITE_CODE`) or `domain` (an e-mail address of one of `REGISTRATION_EMAIL_DOMAINS`, asked at sign-up).',
    }),
    registrationInviteCode: optionalText('REGISTRATION_INVITE_CODE', {
      doc: 'The code `REGISTRATION=invite` asks for at sign-up (at least 6 characters).',
      check: (v) => (v.length < 6 ? 'must be at least 6 characters' : undefined),
    }),
    registrationEmailDomains: custom('REGISTRATION_EMAIL_DOMAINS', {
      shown: '',
      doc: 'The e-mail domains `REGISTRATION=domain` accepts, comma-separated.',
      example: 'estudiantat.upc.edu,upc.edu',
      read: (v) => {
        const domains = splitList(v, ',').map((d) => d.toLowerCase().replace(/^@/, ''));
        const bad = domains.find((d) => !DOMAIN_RE.test(d));
        if (bad !== undefined) throw new ConfigError(`REGISTRATION_EMAIL_DOMAINS: "${bad}" is not a domain name`);
        return domains;
      },
    }),
    signupRequire: custom('SIGNUP_REQUIRE', {
      shown: '',
      doc: 'The fields sign-up (the form and POST /api/users) asks for beyond username and password: any of `email`, `studentId`, `fullName`, comma-separated. A student id is unique; students invited by a roster import get them from their link.',
      example: 'email,studentId,fullName',
      read: signupFields,
    }),
    passwordFailuresPerIp: integer('PASSWORD_FAILURES_PER_IP', {
      default: 100,
      min: 1,
      max: 1_000_000,
      doc: 'Failed password checks (POST /api/sessions, POST /api/tokens with a password, the login form) per client address per window; past it, 429 with Retry-After, before the password is even hashed.',
    }),
    passwordFailuresPerAccount: integer('PASSWORD_FAILURES_PER_ACCOUNT', {
      default: 10,
      min: 1,
      max: 1_000_000,
      doc: 'Failed password checks per account (username, any case) from one client address, or one known browser, per window.',
    }),
    passwordFailuresPerAccountTotal: integer('PASSWORD_FAILURES_PER_ACCOUNT_TOTAL', {
      default: 100,
      min: 1,
      max: 1_000_000,
      doc: 'Failed password checks per account from all addresses per window; past it, only browsers that logged in to it before may try (a device cookie).',
    }),
    passwordFailuresWindowMinutes: integer('PASSWORD_FAILURES_WINDOW_MINUTES', {
      default: 15,
      min: 1,
      max: 24 * 60,
      doc: 'The window of the password counts, minutes.',
    }),
    rateLimitSignup: integer('RATE_LIMIT_SIGNUP', {
      default: 60,
      min: 1,
      max: 1_000_000,
      doc: 'Accounts created per client address per hour, sized for a course (a lab of 40 behind one NAT signs up in its first session); sign-ups through a roster invitation are not counted.',
    }),
    rateLimitSubmit: integer('RATE_LIMIT_SUBMIT', { default: 20, min: 1, max: 1_000_000, doc: 'Submissions per user (or client address) per minute.' }),
    sseMaxPerIp: integer('SSE_MAX_PER_IP', {
      default: 20,
      min: 1,
      max: 100_000,
      doc: 'Live status streams (GET /api/submissions/:id/events) open at once per client address, across every API process (counted in Redis).',
    }),
    challengesPerHour: integer('CHALLENGES_PER_HOUR', {
      default: 30,
      min: 0,
      max: 100_000,
      doc: "Challenge matches (a user's own bot against chosen players, unrated) each user may ask for per hour; past it, 429 with Retry-After (0 = none).",
    }),
  }),
  ...section('Submissions and the gate', {
    submissionMaxBytes: integer('SUBMISSION_MAX_BYTES', {
      default: 256 * 1024,
      note: '256 KiB',
      min: 1,
      max: 16 * MIB,
      doc: "One bot file's size cap, bytes.",
    }),
    offensiveWords: words('OFFENSIVE_WORDS', { doc: 'Comma-separated words refused inside player names (case-insensitive), added to the built-in list.' }),
    nameHoldHours: integer('NAME_HOLD_HOURS', {
      default: 24,
      min: 1,
      max: 24 * 365,
      doc: "How long a player name not yet through self-play stays its owner's after their latest submission under it, hours; then anyone may claim it (once through self-play it is theirs for good).",
    }),
    gateSeedSecret: optionalText('GATE_SEED_SECRET', {
      shown: 'unset: one the judge makes and keeps in the database',
      doc: "The key the gate's seeds are derived with (an HMAC of the game and the file's normalized content: the same code gets the same gate matches). At least 16 characters; set it to keep the seeds across a fresh database.",
      check: (v) => (v.length < 16 ? 'must be at least 16 characters (or unset: the judge then makes one and keeps it in the database)' : undefined),
    }),
    gateStartTimeoutMs: integer('GATE_START_TIMEOUT_MS', {
      default: 2000,
      min: 50,
      max: 60_000,
      doc: "How long an upload waits for Redis to queue its gate, ms; past it the upload still answers 202 and the scheduler's sweep starts the gate once Redis is back.",
    }),
    compileTimeoutMs: integer('COMPILE_TIMEOUT_MS', {
      default: 10_000,
      min: 100,
      max: 600_000,
      doc: "One JavaScript/TypeScript compile's wall time (esbuild, a process of its own, in the upload's check, the gate and every match), ms.",
    }),
    compileMemoryMb: integer('COMPILE_MEMORY_MB', {
      default: 256,
      min: 128,
      max: 16_384,
      doc: 'Its memory, MiB; a file over either limit on two fresh tries is a compile error naming the limit.',
    }),
  }),
  ...section('Queues, ranked play, retention', {
    workerConcurrency: integer('WORKER_CONCURRENCY', {
      default: availableParallelism,
      shown: 'the number of cores',
      min: 1,
      max: 1024,
      doc: 'Match runners per worker process.',
      example: '4',
    }),
    workerNice: integer('WORKER_NICE', {
      default: 10,
      min: 0,
      max: 19,
      doc: 'The niceness a worker process run apart from the API takes at start; its match processes and compilers inherit it, so on a host shared with the API uploads and pages are answered while judging takes every core (a bot is charged CPU time, not wall time: its budget is the same). 0 leaves it as started.',
    }),
    matchNiceOffset: integer('MATCH_NICE_OFFSET', {
      default: 5,
      min: 0,
      max: 19,
      doc: "Niceness steps a worker's match processes run above the worker's own (capped at 19), so the gate's compile checks, at the worker's niceness, take the cores first and a file that does not compile gets its error while matches wait (a bot is charged CPU time, not wall time: its budget is the same). 0 = the same niceness.",
    }),
    matchLockMs: integer('MATCH_LOCK_MS', {
      default: 30_000,
      min: 1000,
      max: 3_600_000,
      doc: "BullMQ's lock on a match job, ms: a dead worker's match is re-run after about this long.",
    }),
    stalledIntervalMs: integer('STALLED_INTERVAL_MS', { default: 15_000, min: 500, max: 3_600_000, doc: "BullMQ's stalled-job check, ms." }),
    resultLockMs: integer('RESULT_LOCK_MS', {
      default: 5000,
      min: 1000,
      max: 600_000,
      doc: "The recorder's lock on a result, ms: a result in flight when the recorder dies is taken up again after about this long.",
    }),
    resultStalledIntervalMs: integer('RESULT_STALLED_INTERVAL_MS', { default: 5000, min: 500, max: 600_000, doc: "The recorder's stalled-result check, ms." }),
    rankedEnabled: flag('RANKED_ENABLED', { default: true, doc: 'Ranked play on or off.' }),
    rankedIntervalMs: integer('RANKED_INTERVAL_MS', { default: 2000, min: 100, max: 3_600_000, doc: "The scheduler's ranked tick, ms." }),
    leaseTtlMs: integer('LEASE_TTL_MS', {
      default: 15_000,
      min: 300,
      max: 600_000,
      doc: "The scheduler's and the recorder's lease in Redis, ms (one of each works, the others wait); a dead holder's standby takes over within this plus a third.",
    }),
    workerHealthPort: integer('WORKER_HEALTH_PORT', {
      default: 0,
      note: 'none',
      min: 0,
      max: 65535,
      doc: "A worker's /health and /metrics (Prometheus) port, at HOST; 0 = none.",
    }),
    rankedSettledMatches: integer('RANKED_SETTLED_MATCHES', {
      default: 100,
      min: 0,
      max: 1_000_000,
      doc: "Ranked play of a game rests once every qualified player has played this many finished ranked matches since the newest qualification or the last wake (POST /api/admin/games/:game/ranked/wake); 0 = never rest. By 100 every rating is below the leaderboard's provisional mark.",
    }),
    rankedQueueTarget: integer('RANKED_QUEUE_TARGET', {
      default: 0,
      note: "twice the workers' concurrency seen",
      min: 0,
      max: 100_000,
      doc: 'Ranked matches waiting or running at once.',
    }),
    sweepIntervalMs: integer('SWEEP_INTERVAL_MS', {
      default: 15_000,
      min: 100,
      max: 3_600_000,
      doc: 'How often the sweep re-queues what a crash or a Redis wipe lost, ms.',
    }),
    sweepAfterMs: integer('SWEEP_AFTER_MS', {
      default: 30_000,
      min: 0,
      max: 86_400_000,
      doc: 'How old a queued or running row must be before the sweep counts it lost, ms.',
    }),
    retentionRankedDays: integer('RETENTION_RANKED_DAYS', {
      default: 0,
      note: 'keep',
      min: 0,
      max: 36_500,
      doc: 'Ranked replays older than this many days are deleted (the match, its scores and the ratings stay; gate, tournament and challenge replays are kept forever).',
    }),
    retentionRankedPerPlayer: integer('RETENTION_RANKED_PER_PLAYER', {
      default: 0,
      note: 'keep',
      min: 0,
      max: 1_000_000,
      doc: 'A ranked replay is kept while among the newest N ranked matches of any of its players.',
    }),
    retentionIntervalMs: integer('RETENTION_INTERVAL_MS', { default: 600_000, min: 1000, max: 86_400_000, doc: 'How often the replay pruning pass runs, ms.' }),
  }),
  ...section('Compilers and the play page', {
    esbuildPath: optionalText('ARBITER_ESBUILD', {
      shown: "unset: esbuild's own binary for the platform",
      doc: "The esbuild binary the judge compiles JavaScript and TypeScript bots with (the esbuild that loads Arbiter's own code is not affected).",
    }),
    esbuildBinaryPath: optionalText('ESBUILD_BINARY_PATH', {
      doc: "esbuild's own variable: it also steers the esbuild that loads Arbiter's TypeScript; the judge's compiles use it when `ARBITER_ESBUILD` is unset.",
    }),
    cppToolchain: oneOf('ARBITER_CPP_CLANG', ['auto', 'npm', 'system'], {
      default: 'auto',
      shown: 'auto',
      doc: "The C++ toolchain: `auto` takes the system clang when present and confinable, else npm's; `npm` or `system` forces one.",
    }),
    cppConfinement: oneOf('CPP_CONFINEMENT', ['auto', 'namespaces', 'landlock'], {
      default: 'auto',
      shown: 'auto',
      doc: 'How the system clang is confined (src/sandbox/languages/cpp/confine.ts): `namespaces` (unprivileged user and mount namespaces), `landlock` (Linux 5.13+; works in a container under the default seccomp and AppArmor profiles, which refuse namespaces), or `auto`: the first that works here. Neither: C++ compiles with the npm toolchain.',
    }),
    cppPrewarm: flag('CPP_PREWARM', {
      default: true,
      doc: "Warm each language's compiler in the background at start (C++'s compile server and the games' precompiled headers), so the first upload compiles in seconds.",
    }),
    cppCompileTimeoutMs: integer('CPP_COMPILE_TIMEOUT_MS', {
      default: 60_000,
      min: 1000,
      max: 3_600_000,
      doc: "One C++ compile's CPU time, ms (the play lane's may be less: the client's budget); its wall time is three times it.",
    }),
    cppCompileCpuSeconds: optionalInteger('CPP_COMPILE_CPU_SECONDS', {
      shown: "unset: `CPP_COMPILE_TIMEOUT_MS`'s",
      min: 1,
      max: 3600,
      doc: "One C++ compile's CPU time, seconds, when not `CPP_COMPILE_TIMEOUT_MS`'s.",
    }),
    cppCompileMemoryMb: integer('CPP_COMPILE_MEMORY_MB', { default: 2048, min: 128, max: 65_536, doc: "One C++ compile's memory, MiB." }),
    cppCompileWarmupMs: integer('CPP_COMPILE_WARMUP_MS', {
      default: 120_000,
      min: 1000,
      max: 3_600_000,
      doc: 'The time a fresh npm compile server has to compile the toolchain itself, ms.',
    }),
    cppMaxModuleMb: integer('CPP_MAX_MODULE_MB', {
      default: 16,
      min: 1,
      max: 4096,
      doc: 'The largest compiled C++ module, MiB (initialized global data makes it big).',
    }),
    cppMemoryCacheMb: integer('CPP_MEMORY_CACHE_MB', { default: 64, min: 1, max: 65_536, doc: 'C++ compile results cached in memory, MiB.' }),
    cppDiskCacheMb: integer('CPP_DISK_CACHE_MB', { default: 512, min: 1, max: 1_048_576, doc: 'C++ compile results cached on disk, MiB.' }),
    cppCacheDir: optionalText('CPP_CACHE_DIR', { shown: '`CACHE_DIR/cpp`', doc: 'The C++ compile cache alone, when not under `CACHE_DIR`.' }),
    cppPchDir: optionalText('CPP_PCH_DIR', { shown: '`CACHE_DIR/pch`', doc: "The games' precompiled headers alone, when not under `CACHE_DIR`." }),
    cppPch: flag('CPP_PCH', {
      default: true,
      doc: 'Precompiled headers: a file that starts with `#include "Player.hh"` skips parsing it.',
    }),
    cppJudgeCompiles: integer('CPP_JUDGE_COMPILES', {
      default: () => Math.max(1, availableParallelism()),
      shown: 'the number of cores',
      min: 1,
      max: 1024,
      doc: "System-clang compiles at once in the judge's lane.",
      example: '4',
    }),
    cppPlayCompiles: integer('CPP_PLAY_COMPILES', { default: 1, min: 1, max: 1024, doc: "System-clang compiles at once in the play page's lane." }),
    cppPlayQueue: integer('CPP_PLAY_QUEUE', {
      default: 4,
      min: 0,
      max: 100_000,
      doc: 'Play compiles waiting for their lane; beyond, 429 `play-compile-busy`.',
    }),
    playCompileCpuSecondsPerHour: integer('PLAY_COMPILE_CPU_SECONDS_PER_HOUR', {
      default: 300,
      min: 1,
      max: 10_000_000,
      doc: 'Compiler CPU seconds per play-page client per hour.',
    }),
    playCompilesRunningPerIp: integer('PLAY_COMPILES_RUNNING_PER_IP', {
      default: 2,
      min: 1,
      max: 10_000,
      doc: 'Play-page compiles at once from one client address, whatever accounts it uses (a lab behind one NAT shares them); beyond, 429 `play-compile-address-busy`.',
    }),
    playCompileCpuSecondsPerHourPerIp: integer('PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP', {
      default: 1200,
      min: 1,
      max: 10_000_000,
      doc: 'Play-page compiler CPU seconds per client address per hour; beyond, 429 `play-compile-address-budget`.',
    }),
  }),
};

/**
 * Variables once read and now refused at start, each with what to do instead
 * (a deployment that still sets one must not believe it still works).
 */
export const RETIRED: Readonly<Record<string, string>> = {
  // Admins were once named here, which made admin whoever registered such a username first.
  ADMIN_USERS: 'ADMIN_USERS is no longer read: unset it, and make admins on the server with `arbiter admin grant <username>` (after they have registered)',
};

/**
 * The command-line client's variables (`arbiter submit` and `arbiter tokens`,
 * run on a student's machine, not the server's).
 */
export const CLIENT_SETTINGS = {
  ...section('The command-line client', {
    url: optionalText('ARBITER_URL', { doc: 'The judge `arbiter submit` talks to (else `--url`, else the saved `arbiter.json`).' }),
    token: optionalText('ARBITER_TOKEN', { doc: 'The API token it sends (else `--token`, else the saved `arbiter.json`).' }),
    configHome: optionalText('XDG_CONFIG_HOME', { shown: '`~/.config`', doc: 'Where the client keeps `arbiter.json` (the saved URL and token).' }),
  }),
};

type Settings = Record<string, Setting<unknown>>;
type Values<S extends Settings> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** The judge's configuration: one field per entry of SETTINGS. */
export type Config = Values<typeof SETTINGS>;
export type ClientSettings = Values<typeof CLIENT_SETTINGS>;

function readEach<S extends Settings, K extends keyof S & string>(settings: S, keys: readonly K[], env: Env): Pick<Values<S>, K> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const raw = env[settings[key]!.name]?.trim();
    out[key] = settings[key]!.read(raw === '' ? undefined : raw);
  }
  return out as Pick<Values<S>, K>;
}

/**
 * Some settings alone, for a process that is not the server (a compiler, a
 * command, a match child): the same declarations, so the same defaults and
 * the same refusals.
 */
export function readSettings<K extends keyof Config>(keys: readonly K[], env: Env = process.env): Pick<Config, K> {
  return readEach(SETTINGS, keys, env);
}

/** The command-line client's settings. */
export function readClientSettings(env: Env = process.env): ClientSettings {
  return readEach(CLIENT_SETTINGS, Object.keys(CLIENT_SETTINGS) as (keyof ClientSettings)[], env);
}

/** Settings that are right alone but not together: what each registration policy needs. */
function checkTogether(c: Config): void {
  if (c.registration === 'invite' && !c.registrationInviteCode)
    throw new ConfigError('REGISTRATION=invite needs REGISTRATION_INVITE_CODE (the code students type at sign-up)');
  if (c.registration === 'domain' && c.registrationEmailDomains.length === 0)
    throw new ConfigError('REGISTRATION=domain needs REGISTRATION_EMAIL_DOMAINS (comma-separated, e.g. estudiantat.upc.edu)');
}

/** Parses and validates the whole environment (the server, at start). Throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  for (const [name, why] of Object.entries(RETIRED)) if (env[name] !== undefined && env[name].trim() !== '') throw new ConfigError(why);
  const config = readSettings(Object.keys(SETTINGS) as (keyof Config)[], env);
  checkTogether(config);
  return config;
}

/** The compiler's limits alone (read where the compiler runs: API, worker, command line). */
export function compilerLimits(env: Env = process.env): Pick<Config, 'compileTimeoutMs' | 'compileMemoryMb'> {
  return readSettings(['compileTimeoutMs', 'compileMemoryMb'], env);
}

/** GATE_SEED_SECRET alone (read where the gate derives a submission's seeds: src/domain/gate-seeds.ts). */
export function gateSeedSecret(env: Env = process.env): string | null {
  return readSettings(['gateSeedSecret'], env).gateSeedSecret;
}

/** PASSWORD_HASH_COST alone (read where a password is hashed: src/domain/secrets.ts). */
export function passwordHashCost(env: Env = process.env): number {
  return readSettings(['passwordHashCost'], env).passwordHashCost;
}

/** CACHE_DIR alone (read where the C++ toolchain compiles). */
export function cacheDir(env: Env = process.env): string {
  return readSettings(['cacheDir'], env).cacheDir;
}
