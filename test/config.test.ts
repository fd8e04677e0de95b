// Config: parsed once from the environment, defaults for everything, a bad
// value refused with a message naming the variable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig, ConfigError, readClientSettings, readSettings, SETTINGS } from '../src/config.ts';

test('defaults: embedded database and Redis, port 3000 on loopback, 256 KiB files, one runner per core', () => {
  const c = loadConfig({});
  assert.equal(c.databaseUrl, null);
  assert.equal(c.redisUrl, null);
  assert.equal(c.port, 3000);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.queuePrefix, 'arbiter');
  assert.equal(c.dataDir, './data');
  assert.equal(c.submissionMaxBytes, 256 * 1024);
  assert.equal(c.workerConcurrency, availableParallelism());
  // Password guessing per account and per address; a lab of 40 signs up from one address within the hour, and one
  // student cannot make enough accounts to multiply the per-user budgets (roster invitations are not counted).
  assert.deepEqual([c.passwordFailuresPerAccount, c.passwordFailuresPerIp, c.passwordFailuresWindowMinutes], [10, 100, 15]);
  assert.ok(c.rateLimitSignup >= 40 && c.rateLimitSignup <= 100, `${c.rateLimitSignup}`);
  assert.deepEqual([c.playCompilesRunningPerIp, c.playCompileCpuSecondsPerHourPerIp], [2, 1200]);
  assert.equal(c.sseMaxPerIp, 20);
  assert.equal(c.nameHoldHours, 24);
});

test('values are parsed and typed', () => {
  const c = loadConfig({
    DATABASE_URL: 'postgresql://u@db:5432/x',
    REDIS_URL: 'redis://r:6379',
    PORT: '8080',
    WORKER_CONCURRENCY: '3',
    OFFENSIVE_WORDS: ' Foo, bar ,,',
    COOKIE_SECURE: 'yes',
    RANKED_ENABLED: '0',
  });
  assert.equal(c.databaseUrl, 'postgresql://u@db:5432/x');
  assert.equal(c.port, 8080);
  assert.equal(c.workerConcurrency, 3);
  assert.deepEqual(c.offensiveWords, ['foo', 'bar']);
  assert.equal(c.registration, 'open');
  assert.equal(c.challengesPerHour, 30);
  assert.equal(c.cookieSecure, true);
  assert.equal(c.rankedEnabled, false);
});

test('a bad value is refused with a message naming the variable', () => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL/],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL must be a redis:\/\//],
    [{ WORKER_CONCURRENCY: '0' }, /^WORKER_CONCURRENCY must be between 1/],
    [{ SUBMISSION_MAX_BYTES: '1.5' }, /^SUBMISSION_MAX_BYTES must be an integer/],
    [{ COOKIE_SECURE: 'maybe' }, /^COOKIE_SECURE must be true or false/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ QUEUE_PREFIX: 'a b' }, /^QUEUE_PREFIX must be/],
    [{ GATE_START_TIMEOUT_MS: '10' }, /^GATE_START_TIMEOUT_MS must be between 50/],
    [{ RESULT_LOCK_MS: 'soon' }, /^RESULT_LOCK_MS must be an integer/],
    [{ PASSWORD_FAILURES_PER_ACCOUNT: '0' }, /^PASSWORD_FAILURES_PER_ACCOUNT must be between 1/],
    [{ SSE_MAX_PER_IP: 'many' }, /^SSE_MAX_PER_IP must be an integer/],
    [{ RETENTION_RANKED_DAYS: '-1' }, /^RETENTION_RANKED_DAYS must be between 0/],
    [{ RETENTION_RANKED_PER_PLAYER: 'ten' }, /^RETENTION_RANKED_PER_PLAYER must be an integer/],
    [{ COMPILE_MEMORY_MB: '64' }, /^COMPILE_MEMORY_MB must be between 128/],
    [{ COMPILE_TIMEOUT_MS: 'soon' }, /^COMPILE_TIMEOUT_MS must be an integer/],
    [{ NAME_HOLD_HOURS: '0' }, /^NAME_HOLD_HOURS must be between 1/],
    [{ NAME_HOLD_HOURS: 'a day' }, /^NAME_HOLD_HOURS must be an integer/],
  ];
  for (const [env, re] of bad)
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && re.test(e.message),
      JSON.stringify(env),
    );
});

test('ADMIN_USERS is refused at start, pointing to arbiter admin grant', () => {
  assert.throws(
    () => loadConfig({ ADMIN_USERS: 'root' }),
    (e: Error) => e instanceof ConfigError && /ADMIN_USERS is no longer read.*arbiter admin grant/.test(e.message),
  );
  assert.doesNotThrow(() => loadConfig({ ADMIN_USERS: '' }));
});

test('REGISTRATION: open by default; invite needs a code, domain needs domains; bad values are refused', () => {
  assert.equal(loadConfig({}).registration, 'open');
  const invite = loadConfig({ REGISTRATION: 'invite', REGISTRATION_INVITE_CODE: 'eda-2026-spring' });
  assert.deepEqual([invite.registration, invite.registrationInviteCode], ['invite', 'eda-2026-spring']);
  const domain = loadConfig({ REGISTRATION: 'domain', REGISTRATION_EMAIL_DOMAINS: 'Estudiantat.UPC.edu, @upc.edu' });
  assert.deepEqual(domain.registrationEmailDomains, ['estudiantat.upc.edu', 'upc.edu']);
  const bad: [Record<string, string>, RegExp][] = [
    [{ REGISTRATION: 'closed' }, /^REGISTRATION must be one of open, invite, domain/],
    [{ REGISTRATION: 'invite' }, /^REGISTRATION=invite needs REGISTRATION_INVITE_CODE/],
    [{ REGISTRATION: 'invite', REGISTRATION_INVITE_CODE: 'abc' }, /^REGISTRATION_INVITE_CODE must be at least 6/],
    [{ REGISTRATION: 'domain' }, /^REGISTRATION=domain needs REGISTRATION_EMAIL_DOMAINS/],
    [{ REGISTRATION: 'domain', REGISTRATION_EMAIL_DOMAINS: 'not a domain' }, /is not a domain name/],
    [{ CHALLENGES_PER_HOUR: 'lots' }, /^CHALLENGES_PER_HOUR must be an integer/],
  ];
  for (const [env, re] of bad)
    assert.throws(
      () => loadConfig(env),
      (e: Error) => e instanceof ConfigError && re.test(e.message),
      JSON.stringify(env),
    );
});

test("the compilers' and the play page's variables are refused as the others are, naming themselves (they once fell back silently)", () => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ CPP_COMPILE_MEMORY_MB: 'lots' }, /^CPP_COMPILE_MEMORY_MB must be an integer, got "lots"/],
    [{ CPP_COMPILE_TIMEOUT_MS: '0' }, /^CPP_COMPILE_TIMEOUT_MS must be between 1000/],
    [{ CPP_COMPILE_CPU_SECONDS: '-5' }, /^CPP_COMPILE_CPU_SECONDS must be between 1/],
    [{ CPP_JUDGE_COMPILES: 'all' }, /^CPP_JUDGE_COMPILES must be an integer/],
    [{ ARBITER_CPP_CLANG: 'gcc' }, /^ARBITER_CPP_CLANG must be one of auto, npm, system, got "gcc"/],
    [{ CPP_PCH: 'maybe' }, /^CPP_PCH must be true or false/],
    [{ CPP_PREWARM: 'later' }, /^CPP_PREWARM must be true or false/],
    [{ PLAY_COMPILE_CPU_SECONDS_PER_HOUR: '0' }, /^PLAY_COMPILE_CPU_SECONDS_PER_HOUR must be between 1/],
  ];
  for (const [env, re] of bad) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && re.test(e.message),
      JSON.stringify(env),
    );
    // A process that reads only its own settings refuses the same value the same way.
    const key = Object.keys(SETTINGS).find((k) => SETTINGS[k as keyof typeof SETTINGS].name === Object.keys(env)[0]) as keyof typeof SETTINGS;
    assert.throws(() => readSettings([key], env), ConfigError, JSON.stringify(env));
  }
  const c = loadConfig({ CPP_PCH: '0', CPP_PREWARM: 'off', ARBITER_CPP_CLANG: 'System', CPP_CACHE_DIR: '/var/cache/cpp' });
  assert.deepEqual(
    [c.cppPch, c.cppPrewarm, c.cppToolchain, c.cppCacheDir, c.cppPchDir, c.cppCompileCpuSeconds],
    [false, false, 'system', '/var/cache/cpp', null, null],
  );
  assert.deepEqual([c.cppCompileTimeoutMs, c.cppCompileMemoryMb, c.cppPlayCompiles, c.cppPlayQueue, c.playCompileCpuSecondsPerHour], [60_000, 2048, 1, 4, 300]);
});

test('readSettings reads only what it is asked for, through the same declarations', () => {
  // PORT is wrong, but a compiler that reads only CPP_PCH is not stopped by it.
  assert.deepEqual(readSettings(['cppPch', 'logLevel'], { PORT: 'eighty', CPP_PCH: 'no', LOG_LEVEL: ' WARN ' }), { cppPch: false, logLevel: 'warn' });
  assert.deepEqual(readSettings(['gamesPath'], { ARBITER_GAMES_PATH: '/a: /b/ ::' }).gamesPath, ['/a', '/b']);
});

test("the command-line client's variables: blank is unset", () => {
  assert.deepEqual(readClientSettings({ ARBITER_URL: 'http://judge', ARBITER_TOKEN: ' ', XDG_CONFIG_HOME: '/cfg' }), {
    url: 'http://judge',
    token: null,
    configHome: '/cfg',
  });
});
