// The environment a process that runs bots starts with (the match and check processes of
// match-process/match-pool.ts): this process's, less the judge's credentials and what costs every start
// for nothing. A bot runs in an isolate and reads no environment; this is the layer behind it, for a bot
// that got out of its isolate and read /proc/self/environ (the compilers already start with PATH alone).

/** The judge's own settings that are credentials (src/config.ts): the worker holds REDIS_URL, the API the rest. */
export const SECRET_SETTINGS: readonly string[] = [
  'DATABASE_URL',
  'REDIS_URL',
  'TEST_REDIS_URL',
  'GATE_SEED_SECRET',
  'ARBITER_TOKEN',
  'REGISTRATION_INVITE_CODE',
];

/** A deployment's other credentials, by the usual names (AWS_SECRET_ACCESS_KEY, SMTP_PASSWORD, SENTRY_AUTH_TOKEN...). */
const CREDENTIAL_NAME = /(?:^|_)(?:PASSWORD|PASSWD|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(?:_ID)?$|(?:^|_)SECRET(?:_|$)/i;

/**
 * Variables that are no credential but that a bot's process never uses: Node reads NODE_EXTRA_CA_CERTS's
 * certificates at every start (36 ms of CPU on a machine whose bundle is Debian's), and a match process
 * opens no TLS connection.
 */
const UNUSED = new Set(['NODE_EXTRA_CA_CERTS']);

/** `env` without the credentials and the variables a process that runs bots does not use. */
export function botProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || SECRET_SETTINGS.includes(name) || UNUSED.has(name) || CREDENTIAL_NAME.test(name)) continue;
    out[name] = value;
  }
  return out;
}
