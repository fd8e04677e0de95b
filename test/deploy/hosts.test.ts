// Any part on any host: the API (with the recorder and the scheduler) in one
// network namespace, a second API in another and a worker in a third, each with a /tmp of its own (a
// tmpfs in its own mount namespace), reaching Redis and PostgreSQL in the
// default namespace only over veth addresses, as two machines on a network
// would. A submission is judged end to end through them: uploaded to the API
// over its veth address, its compile check and matches played by the worker,
// recorded, the verdict read back from the second API, which also shares the
// first one's upload rate limit through Redis. Each namespace reaches nothing but the
// addresses it was given (not the host's loopback Redis, not the other
// namespace). Needs root and `ip netns` (skipped with the reason otherwise);
// slow (a whole gate): ARBITER_SLOW_TESTS=1.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { freshDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/queue.ts';
import { spawnArbiter, type ArbiterProcess } from '../helpers/faults.ts';
import { MORIA_BOTS } from '../helpers/judge.ts';
import { slow } from '../helpers/slow.ts';

const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });

/** Why network namespaces cannot be made here, or null when they can. */
function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return '`ip netns` needs root';
  const probe = `arbiter-probe-${process.pid}`;
  const made = ip('netns', 'add', probe);
  if (made.error) return `no \`ip\` command: ${made.error.message}`;
  if (made.status !== 0) return `\`ip netns add\` is not permitted here: ${made.stderr.trim()}`;
  ip('netns', 'del', probe);
  return null;
}

const unavailable = slow.skip ? 'a whole gate across network namespaces: ARBITER_SLOW_TESTS=1 runs it' : netnsUnavailable();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
});

/** A namespace joined to the default one by a veth pair: the host side's address and the namespace side's. */
function hostOnNetwork(name: string, subnet: string): { ns: string; hostAddress: string; address: string } {
  const ns = `arbiter-${name}-${process.pid}`;
  // Interface names: at most 15 characters.
  const outside = `av${name[0]}${process.pid}`.slice(0, 15);
  const inside = `aw${name[0]}${process.pid}`.slice(0, 15);
  const hostAddress = `${subnet}.1`;
  const address = `${subnet}.2`;
  const run = (...args: string[]) => {
    const r = ip(...args);
    if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.trim()}`);
  };
  run('netns', 'add', ns);
  cleanups.push(() => ip('netns', 'del', ns));
  run('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
  cleanups.push(() => ip('link', 'del', outside));
  run('link', 'set', inside, 'netns', ns);
  run('addr', 'add', `${hostAddress}/30`, 'dev', outside);
  run('link', 'set', outside, 'up');
  run('-n', ns, 'addr', 'add', `${address}/30`, 'dev', inside);
  run('-n', ns, 'link', 'set', inside, 'up');
  run('-n', ns, 'link', 'set', 'lo', 'up');
  return { ns, hostAddress, address };
}

/**
 * Runs a command in the namespace, in a mount namespace of its own with a fresh /tmp. A checkout that
 * itself lies under /tmp (a CI clone) is bound back into the fresh /tmp at its own path first, so the
 * host still sees the judge's files and nothing else of the machine's /tmp.
 */
const ROOT = process.cwd();
const FRESH_TMP = [
  'set -e',
  'case "$0" in /tmp/*) keep=$(mktemp -d /run/arbiter-host-keep.XXXXXX); mount --bind "$0" "$keep" ;; *) keep= ;; esac',
  'mount -t tmpfs -o size=1g,mode=1777 arbiter-tmp /tmp',
  'if [ -n "$keep" ]; then mkdir -p "$0"; mount --bind "$keep" "$0"; umount "$keep"; rmdir "$keep"; fi',
  'exec "$@"',
].join('\n');
const inHost = (ns: string) => ['ip', 'netns', 'exec', ns, 'sh', '-c', FRESH_TMP, ROOT];

/** Whether a TCP connection from inside the namespace to host:port succeeds within two seconds. */
function reachableFrom(ns: string, host: string, port: number): boolean {
  const script = `const s=require('net').connect(${port},'${host}');s.setTimeout(2000);s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));s.on('timeout',()=>process.exit(1));`;
  return spawnSync('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { timeout: 10_000 }).status === 0;
}

/** PostgreSQL (on the host's loopback) offered on other addresses of the default namespace. */
async function forwardPostgres(addresses: string[], target: URL): Promise<number> {
  const servers: Server[] = [];
  let port = 0;
  for (const address of addresses) {
    const server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((ok, fail) => server.once('error', fail).listen(port, address, ok));
    port = (server.address() as { port: number }).port;
    servers.push(server);
  }
  cleanups.push(() => Promise.all(servers.map((s) => new Promise((ok) => s.close(ok)))));
  return port;
}

/** A redis-server of the test's own, listening only on the given addresses. */
async function redisOn(addresses: string[]): Promise<{ port: number; child: ChildProcess }> {
  const free = createServer();
  await new Promise<void>((ok) => free.listen(0, '127.0.0.1', ok));
  const port = (free.address() as { port: number }).port;
  await new Promise((ok) => free.close(ok));
  const child = spawn('redis-server', ['--port', String(port), '--bind', ...addresses, '--protected-mode', 'no', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  await waitFor(
    'redis-server',
    () =>
      new Promise<boolean>((ok) => {
        const s = connect(port, addresses[0]!, () => (s.end(), ok(true)));
        s.on('error', () => ok(false));
      }),
    10_000,
    50,
  );
  return { port, child };
}

async function api(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> };
}

test('two APIs and a worker on hosts of their own (network and mount namespaces), Redis and PostgreSQL over veth addresses: a submission judged end to end, one rate limit across the APIs', {
  skip: unavailable || false,
  timeout: 600_000,
}, async () => {
  // Subnets of this run's own: several test runs may share the machine.
  const k = 16 + (process.pid % 200);
  const apiHost = hostOnNetwork('api', `10.213.${k}`);
  const workerHost = hostOnNetwork('wrk', `10.214.${k}`);
  const secondHost = hostOnNetwork('sec', `10.215.${k}`);
  const redis = await redisOn([apiHost.hostAddress, workerHost.hostAddress, secondHost.hostAddress]);
  const database = await freshDatabase();
  cleanups.push(() => database.drop());
  // Only the API's host may reach the database: the worker's network has no route to it.
  const pgPort = await forwardPostgres([apiHost.hostAddress, secondHost.hostAddress], new URL(database.url));
  const dbUrlFrom = (hostAddress: string) => {
    const url = new URL(database.url);
    url.hostname = hostAddress;
    url.port = String(pgPort);
    return url.toString();
  };

  // Each host reaches what it was given, and nothing of the default namespace's loopback or of the other host.
  assert.ok(reachableFrom(apiHost.ns, apiHost.hostAddress, redis.port), 'the API host reaches Redis');
  assert.ok(reachableFrom(workerHost.ns, workerHost.hostAddress, redis.port), 'the worker host reaches Redis');
  assert.ok(reachableFrom(apiHost.ns, apiHost.hostAddress, pgPort), 'the API host reaches PostgreSQL');
  assert.ok(!reachableFrom(workerHost.ns, apiHost.hostAddress, pgPort), 'the worker host cannot reach PostgreSQL');
  assert.ok(!reachableFrom(workerHost.ns, '127.0.0.1', 6379), "the worker host does not see the machine's own Redis");

  const common = { QUEUE_PREFIX: `hosts-${process.pid}`, RANKED_ENABLED: 'false', CPP_PREWARM: '0', HOST: '0.0.0.0', RATE_LIMIT_SUBMIT: '2' };
  const started: ArbiterProcess[] = [];
  cleanups.push(async () => {
    for (const p of started) await p.kill();
  });
  const server = await spawnArbiter({
    parts: ['api', 'recorder', 'scheduler'],
    env: { ...common, PORT: '3000', DATABASE_URL: dbUrlFrom(apiHost.hostAddress), REDIS_URL: `redis://${apiHost.hostAddress}:${redis.port}` },
    via: inHost(apiHost.ns),
    timeoutMs: 180_000,
  });
  started.push(server);
  const worker = await spawnArbiter({
    parts: ['worker'],
    env: { ...common, WORKER_CONCURRENCY: '2', WORKER_NICE: '0', WORKER_HEALTH_PORT: '9464', REDIS_URL: `redis://${workerHost.hostAddress}:${redis.port}` },
    via: inHost(workerHost.ns),
    timeoutMs: 180_000,
  });
  started.push(worker);
  const second = await spawnArbiter({
    parts: ['api'],
    env: { ...common, PORT: '3000', DATABASE_URL: dbUrlFrom(secondHost.hostAddress), REDIS_URL: `redis://${secondHost.hostAddress}:${redis.port}` },
    via: inHost(secondHost.ns),
    timeoutMs: 180_000,
  });
  started.push(second);
  const secondBase = `http://${secondHost.address}:3000`;

  // Both answer on their own addresses only.
  const base = `http://${apiHost.address}:3000`;
  assert.equal((await api(base, '/health')).status, 200);
  const workerHealth = await fetch(`http://${workerHost.address}:9464/health`);
  assert.equal(workerHealth.status, 200);
  assert.equal(((await workerHealth.json()) as { status: string }).status, 'ready');
  const queue = (await api(base, '/api/queue')).body;
  assert.equal(queue.workers?.length, 1, `the API sees the worker's heartbeat through Redis: ${JSON.stringify(queue.workers)}`);

  const password = 'password on hosts';
  assert.equal((await api(base, '/api/users', { method: 'POST', body: { username: 'hana', password } })).status, 201);
  const token = (await api(base, '/api/tokens', { method: 'POST', body: { username: 'hana', password } })).body.token as string;
  const source = readFileSync(MORIA_BOTS + 'Null.ts', 'utf8').replace(/export const PLAYER_NAME = ['"][^'"]*['"]/, "export const PLAYER_NAME = 'Apart'");
  const sub = await api(base, '/api/submissions', { method: 'POST', token, body: { game: 'moria', source } });
  assert.equal(sub.status, 202, JSON.stringify(sub.body));
  const id = sub.body.id as number;
  // The upload rate limit (2 a minute) is one across both APIs: a second upload on the other host, then a third on either is refused.
  assert.equal((await api(secondBase, '/api/submissions', { method: 'POST', token, body: { game: 'chess', source: 'x' } })).status, 400);
  const third = await api(base, '/api/submissions', { method: 'POST', token, body: { game: 'moria', source } });
  assert.equal(third.status, 429, JSON.stringify(third.body));
  const verdict = await waitFor(
    'the verdict, read from the second API',
    async () => {
      const s = (await api(secondBase, `/api/submissions/${id}`)).body;
      return s.status === 'qualified' || s.status === 'rejected' ? s : null;
    },
    480_000,
    500,
  );
  assert.equal(verdict.status, 'rejected', 'Null cannot beat Dummy');
  assert.match(verdict.reason, /lost to Dummy/);
  const matches = (await api(base, `/api/matches?submission=${id}&limit=200`)).body.matches as Record<string, any>[];
  assert.ok(
    matches.some((m) => m.gateStep === 'selfplay' && m.status === 'done'),
    'self-play played and recorded',
  );
  assert.ok(
    matches.some((m) => m.gateStep === 'dummy' && m.status === 'done'),
    'a Dummy match played and recorded',
  );

  // The worker on its own host did it all: its metrics count the compile check and the matches.
  const metrics = await (await fetch(`http://${workerHost.address}:9464/metrics`)).text();
  const count = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  assert.ok(count('arbiter_worker_checks_total') >= 1, metrics);
  assert.ok(count('arbiter_worker_matches_total') >= 2, metrics);
});
