// The system clang inside a judge's container, as the shipped deployments run
// it (docker-compose.yml, deploy/kubernetes/): the default seccomp and AppArmor
// profiles refuse user and mount namespaces, so the judge confines clang with
// Landlock (confine.ts). Run here the way the container runs the compiling
// part: a worker's (and the API's) process as an unprivileged user with no
// capabilities and no_new_privs, where making a namespace is refused (a user
// namespace of its own whose max_user_namespaces is 0, as the seccomp profile
// refuses unshare), with the container's environment: REDIS_URL and
// DATABASE_URL carrying a secret, a GATE_SEED_SECRET, a HOME with a key in it,
// a DATA_DIR with a database file. Every include trick of the confinement tests
// and every way through /proc to the judge's own process, its parent and pid 1
// is compiled there: the secret never comes back, and each is the file's own
// error or a module.
//
// Needs ARBITER_CPP_CLANG=system (CI's last C++ step), Linux with unprivileged
// user namespaces (to stand in for the container) and Landlock; skipped, with
// the reason, elsewhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function unavailable(): string | false {
  if (process.env['ARBITER_CPP_CLANG'] !== 'system') return 'needs ARBITER_CPP_CLANG=system (and the system clang for wasm32)';
  if (process.platform !== 'linux') return 'needs Linux';
  const userns = spawnSync('unshare', ['--user', '--map-user=1000', 'true'], { encoding: 'utf8' });
  if (userns.status !== 0) return `needs unprivileged user namespaces to stand in for the container: ${(userns.stderr || userns.error?.message || '').trim()}`;
  return false;
}

test('in a container under the default seccomp profile (no namespaces), the system clang confined by Landlock reads no secret', {
  skip: unavailable(),
  timeout: 900_000,
}, (t) => {
  const MARKER = `ARBITER_SECRET_${Math.random().toString(36).slice(2)}`;
  const base = mkdtempSync(join(tmpdir(), 'arbiter-container-'));
  try {
    const secret = join(base, 'secret.txt');
    writeFileSync(secret, `${MARKER} is not C++;\n${MARKER}\n`);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'arbiter.db'), `${MARKER} data\n`);
    const home = join(base, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), `${MARKER} key\n`);
    const projectEnv = join(ROOT, '.env');
    mkdirSync(join(base, 'tmp'));
    // The worker container's environment (docker-compose.yml, deploy/kubernetes/): the secrets in it, nothing of this test's.
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: '3000',
      DATA_DIR: dataDir,
      CACHE_DIR: join(base, 'cache'),
      TMPDIR: join(base, 'tmp'),
      REDIS_URL: `redis://:${MARKER}@redis:6379`,
      DATABASE_URL: `postgresql://arbiter:${MARKER}@postgres:5432/arbiter`,
      GATE_SEED_SECRET: `${MARKER}-seed`,
      QUEUE_PREFIX: 'arbiter',
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'warn',
    };
    const child = [
      process.execPath,
      '--no-node-snapshot',
      '--import',
      'tsx',
      join(ROOT, 'test/sandbox/languages/cpp/container-compile.ts'),
      JSON.stringify({ secret, dataDir, projectEnv, parent: process.pid, marker: MARKER, out: join(base, 'out.json') }),
    ];
    // A user namespace as the container's user (uid 1000), whose own namespaces are capped at 0 (the seccomp
    // profile's refusal of unshare), then every capability dropped and no_new_privs (allowPrivilegeEscalation: false).
    const stand = [
      'unshare',
      '--user',
      '--map-user=1000',
      '--map-group=1000',
      '--keep-caps',
      'sh',
      '-c',
      'echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all --no-new-privs -- "$@"',
      'container',
      ...child,
    ];
    const r = spawnSync(stand[0]!, stand.slice(1), { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 880_000 });
    assert.equal(r.status, 0, `the stand-in container failed: ${r.stderr}`);
    const out = JSON.parse(readFileSync(join(base, 'out.json'), 'utf8')) as {
      toolchain: string;
      confinement: string | null;
      reason?: string;
      control?: unknown;
      results: { what: string; ok: boolean; kind?: string; said: string }[];
    };
    if (out.confinement === null && /Landlock is not available/.test(out.reason ?? '')) {
      t.skip(`this kernel has no Landlock: ${out.reason}`);
      return;
    }
    assert.equal(out.toolchain, 'system', `the system clang is used: ${out.reason ?? ''}`);
    assert.equal(out.confinement, 'landlock', 'namespaces refused: Landlock');
    assert.equal(out.control, 'ok', 'the headers and the sysroot are there');
    assert.ok(out.results.length > 40);
    for (const { what, ok, kind, said } of out.results) {
      assert.ok(!said.includes(MARKER), `${what}: the secret came back: ${said.slice(0, 600)}`);
      assert.ok(!/root:x:0:0/.test(said), `${what}: /etc/passwd came back`);
      assert.ok(!/redis:\/\/|postgresql:\/\//.test(said), `${what}: an environment came back`);
      assert.ok(ok || kind === 'rejected', `${what}: ${said.slice(0, 400)}`);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
