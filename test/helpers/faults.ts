// Fault injection on real processes, for the recovery tests and `npm run
// bench recovery`: Arbiter's parts spawned as `npm start` / `npm run
// recorder` would run them, a private redis-server that can be restarted or
// wiped, and a TCP proxy that can cut a part off from Postgres; and what the
// tests that kill them share: short locks, matches of built-ins to record,
// and the check that each was recorded once.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/client.ts';
import { createMatch } from '../../src/domain/match-setup.ts';
import { pingRedis } from '../../src/queue/redis.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Short locks and checks: a dead process's work is taken up within about a second. */
export const FAST_RECOVERY = {
  MATCH_LOCK_MS: '1000',
  STALLED_INTERVAL_MS: '500',
  RESULT_LOCK_MS: '1000',
  RESULT_STALLED_INTERVAL_MS: '500',
  SWEEP_INTERVAL_MS: '500',
  SWEEP_AFTER_MS: '2000',
  RANKED_ENABLED: 'false',
  RATE_LIMIT_SUBMIT: '1000',
};

/** `n` challenge matches of Moria's built-ins (Demo, Null, Demo, Null) of `rounds` rounds, seeds from `firstSeed` up. */
export async function builtinMatches(db: Db, n: number, rounds: number, firstSeed = 100): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      await createMatch(db, {
        game: 'moria',
        kind: 'challenge',
        seed: firstSeed + i,
        config: { nb_rounds: rounds },
        seats: ['Demo', 'Null', 'Demo', 'Null'].map((builtinName) => ({ builtinName })),
      }),
    );
  }
  return ids;
}

/** Every match done, once: one replay, four scored seats. */
export async function assertRecordedOnce(db: Db, ids: number[]): Promise<void> {
  for (const id of ids) {
    const m = await db.match.findUniqueOrThrow({ where: { id }, include: { participants: true } });
    assert.equal(m.status, 'done', `match ${id}`);
    assert.equal(await db.replay.count({ where: { matchId: id } }), 1, `one replay for match ${id}`);
    assert.equal(m.participants.length, 4);
    assert.ok(
      m.participants.every((p) => p.score !== null && p.rank !== null),
      `match ${id} scored`,
    );
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** One JSON log line of a part (src/log.ts), or the raw text of a line that is not JSON. */
export type LogLine = Record<string, unknown> & { msg?: string };

export interface ArbiterProcess {
  child: ChildProcess;
  /** The API's address when the API part runs (PORT=0 picks a free port). */
  url: string | null;
  lines(): LogLine[];
  output(): string;
  /** SIGKILL, as a crashed machine would. */
  kill(): Promise<void>;
  /** SIGTERM and wait for it to exit. */
  stop(): Promise<void>;
}

/**
 * Spawns `bin/server.js [parts]` from the sources (all parts when none) with `env` on top of
 * this process's environment, and waits until every part it runs is up.
 */
export async function spawnArbiter(options: {
  parts?: string[];
  env: Record<string, string>;
  timeoutMs?: number;
  /** Up once its recorder and scheduler wait as standbys for another process's leases (src/queue/lease.ts). */
  standby?: boolean;
  /** A command the process is started through (e.g. `ip netns exec <ns> ...`): it runs the node command given after it. */
  via?: string[];
}): Promise<ArbiterProcess> {
  const parts = options.parts ?? [];
  // A short lease: a process restarted after a SIGKILL takes its own dead lease over within four seconds.
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', LEASE_TTL_MS: '3000', ARBITER_FROM_SOURCE: '1', ...options.env };
  delete env.NODE_TEST_CONTEXT; // it is not a test file
  if (!('DATABASE_URL' in options.env)) delete env.DATABASE_URL;
  const command = [process.execPath, '--no-node-snapshot', 'bin/server.js', ...parts];
  const [file, ...args] = [...(options.via ?? []), ...command] as [string, ...string[]];
  const child = spawn(file, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = once(child, 'exit');
  const all = parts.length === 0;
  const ready = (text: string) =>
    (!(all || parts.includes('api')) || /API on http/.test(text)) &&
    (!(all || parts.includes('recorder')) || (options.standby ? /recorder: standby/ : /recorder: consuming results/).test(text)) &&
    (!(all || parts.includes('scheduler')) || (options.standby ? /scheduler: standby/ : /scheduler: ranked play/).test(text)) &&
    (!(all || parts.includes('worker')) || /worker pool: /.test(text));
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!ready(out)) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`arbiter ${parts.join(' ') || '(all)'} exited with ${child.exitCode ?? child.signalCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`arbiter ${parts.join(' ') || '(all)'} did not start in time:\n${out}`);
    }
    await sleep(50);
  }
  const url = /API on (http:\/\/[^\s"]+)/.exec(out)?.[1] ?? null;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    url,
    output: () => out,
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          try {
            return JSON.parse(l) as LogLine;
          } catch {
            return { msg: l, raw: true };
          }
        }),
    async kill() {
      if (!gone()) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (!gone()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM: its append-only file is flushed) and starts it again on the same port and data. */
  restart(downMs?: number): Promise<void>;
  /** FLUSHALL: every key gone, as a lost or replaced Redis would leave it. */
  wipe(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server of its own on a free port, data in a temp directory (never the shared one on 6379). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const c = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    child = c;
    for (let i = 0; i < 200; i++) {
      if (c.exitCode !== null) throw new Error(`redis-server exited with ${c.exitCode}`);
      if (await pingRedis('127.0.0.1', port, 200)) return;
      await sleep(25);
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const halt = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = once(c, 'exit');
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  const command = (text: string) =>
    new Promise<string>((done, fail) => {
      const s = connect({ host: '127.0.0.1', port }, () => s.write(text + '\r\n'));
      s.on('data', (d) => {
        done(d.toString());
        s.destroy();
      });
      s.on('error', fail);
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart(downMs = 0) {
      await halt();
      if (downMs > 0) await sleep(downMs);
      await start();
    },
    async wipe() {
      const answer = await command('FLUSHALL');
      if (!answer.startsWith('+OK')) throw new Error(`FLUSHALL answered ${answer}`);
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<port> to a target; cut() stands for a network or database outage. */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: targetHost, port: targetPort });
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      down = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
