// Finding Redis (the embedded defaults): REDIS_URL; else 127.0.0.1:6379 if it
// answers; else a private redis-server (noeviction, data under DATA_DIR/redis,
// shared by this checkout's processes); else a clear error.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pingRedis, resolveRedis, RedisUnavailableError } from '../../src/queue/redis.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-redis-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on. */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
}

test('REDIS_URL wins; without it, a Redis answering on the local port is used', async () => {
  const env = await resolveRedis({ redisUrl: 'redis://redis.example:6380', dataDir: dir });
  assert.deepEqual([env.source, env.url], ['env', 'redis://redis.example:6380']);
  const local = await resolveRedis({ dataDir: dir });
  assert.deepEqual([local.source, local.url], ['local', 'redis://127.0.0.1:6379']);
});

test('nothing on the local port: a private redis-server with noeviction, shared with the next process, stopped by stop()', async () => {
  const port = await unusedPort();
  const handle = await resolveRedis({ dataDir: dir, localPort: port });
  try {
    assert.equal(handle.source, 'private');
    const file = join(dir, 'redis', 'redis.url');
    assert.equal(readFileSync(file, 'utf8').trim(), handle.url);
    const client = new Redis(handle.url);
    try {
      assert.deepEqual(await client.config('GET', 'maxmemory-policy'), ['maxmemory-policy', 'noeviction']);
      assert.equal(await client.config('GET', 'dir').then((r) => (r as string[])[1]), join(dir, 'redis'));
    } finally {
      client.disconnect();
    }
    const again = await resolveRedis({ dataDir: dir, localPort: port });
    assert.deepEqual([again.source, again.url], ['shared', handle.url]);
  } finally {
    await handle.stop();
  }
  const u = new URL(handle.url);
  assert.equal(await pingRedis(u.hostname, Number(u.port)), false, 'stopped');
  assert.equal(existsSync(join(dir, 'redis', 'redis.url')), false);
});

test('no Redis and no redis-server on PATH: an error that says how to get one', async () => {
  const port = await unusedPort();
  const path = process.env.PATH;
  process.env.PATH = join(dir, 'empty');
  try {
    await assert.rejects(resolveRedis({ dataDir: join(dir, 'other'), localPort: port }), (e: Error) => {
      assert.ok(e instanceof RedisUnavailableError);
      assert.match(e.message, /REDIS_URL/);
      assert.match(e.message, /redis-server/);
      return true;
    });
  } finally {
    process.env.PATH = path;
  }
});
