// Finding Redis (the embedded defaults): REDIS_URL if set; else
// 127.0.0.1:6379 if it answers; else a private `redis-server` from PATH
// (noeviction, data under DATA_DIR/redis), shared by the Arbiter processes of
// this checkout through DATA_DIR/redis/redis.url; else a clear error.

import type { Log } from '../log.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export interface RedisHandle {
  url: string;
  /** How it was found: 'env', 'local' (127.0.0.1:6379), 'shared' (another Arbiter process's private server), 'private' (started here). */
  source: 'env' | 'local' | 'shared' | 'private';
  /** Stops the private server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export const HOW_TO_GET_REDIS =
  'Arbiter needs Redis 6.2 or newer. Either set REDIS_URL (e.g. REDIS_URL=redis://127.0.0.1:6379), ' +
  'or run one on 127.0.0.1:6379 (`docker run -d -p 6379:6379 redis:7`, or `sudo apt install redis-server`), ' +
  'or put `redis-server` on PATH and Arbiter will start a private one with its data under DATA_DIR/redis.';

/** Sends PING over a raw socket; true only on "+PONG" (a password-protected or foreign server does not count). */
export function pingRedis(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    let buffer = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      if (buffer.includes('\r\n')) finish(buffer.startsWith('+PONG'));
    });
  });
}

async function pingUrl(url: string, timeoutMs = 500): Promise<boolean> {
  try {
    const u = new URL(url);
    if (u.username || u.password || u.protocol !== 'redis:') return true; // cannot check without AUTH; trust it
    return await pingRedis(u.hostname || '127.0.0.1', Number(u.port || 6379), timeoutMs);
  } catch {
    return false;
  }
}

function findOnPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ResolveRedisOptions {
  /** REDIS_URL from the config; unset means the embedded default. */
  redisUrl?: string | null | undefined;
  /** DATA_DIR: the private server keeps its data under DATA_DIR/redis. */
  dataDir: string;
  /** Where to look for the local default (tests may point elsewhere). */
  localPort?: number;
  log?: Log;
}

export async function resolveRedis(options: ResolveRedisOptions): Promise<RedisHandle> {
  const noop = async () => {};
  if (options.redisUrl) return { url: options.redisUrl, source: 'env', stop: noop };

  const localPort = options.localPort ?? 6379;
  if (await pingRedis('127.0.0.1', localPort)) {
    return { url: `redis://127.0.0.1:${localPort}`, source: 'local', stop: noop };
  }

  const dir = resolve(options.dataDir, 'redis');
  const urlFile = join(dir, 'redis.url');
  if (existsSync(urlFile)) {
    const url = readFileSync(urlFile, 'utf8').trim();
    if (url && (await pingUrl(url))) return { url, source: 'shared', stop: noop };
  }

  const binary = findOnPath('redis-server');
  if (!binary) throw new RedisUnavailableError(`No Redis found (nothing answers on 127.0.0.1:${localPort}, no redis-server on PATH). ${HOW_TO_GET_REDIS}`);

  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction', // BullMQ requires it: an evicted job is a lost match
      '--appendonly',
      'yes',
      '--appendfilename',
      'arbiter.aof',
      '--save',
      '',
      '--daemonize',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !exited; i++) {
    if (await pingRedis('127.0.0.1', port, 200)) break;
    await sleep(50);
  }
  if (exited || !(await pingRedis('127.0.0.1', port, 500))) {
    child.kill('SIGKILL');
    throw new RedisUnavailableError(`The private redis-server did not start: ${stderr.trim() || 'no answer on port ' + port}. ${HOW_TO_GET_REDIS}`);
  }
  writeFileSync(urlFile, url + '\n');
  options.log?.(`started a private redis-server on ${url} (data in ${dir})`);
  const stopSync = () => {
    if (!exited) child.kill('SIGTERM');
  };
  process.once('exit', stopSync);
  return {
    url,
    source: 'private',
    async stop() {
      process.removeListener('exit', stopSync);
      try {
        if (readFileSync(urlFile, 'utf8').trim() === url) unlinkSync(urlFile);
      } catch {
        /* already gone */
      }
      if (exited) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(5000)]);
      if (!exited) child.kill('SIGKILL');
    },
  };
}
