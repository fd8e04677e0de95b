// Real Redis for the judge's tests (127.0.0.1:6379, or TEST_REDIS_URL), a
// unique queue prefix per test file (as BullMQ's own tests do), and real
// worker processes spawned as `npm run worker` would.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { deletePrefix, openJudgeQueues, type JudgeQueues } from '../../src/queue/index.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface FreshQueues {
  redisUrl: string;
  prefix: string;
  queues: JudgeQueues;
  /** Closes the queues and deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

export async function freshQueues(): Promise<FreshQueues> {
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const queues = openJudgeQueues({ redisUrl: TEST_REDIS_URL, prefix });
  await queues.matches.waitUntilReady();
  return {
    redisUrl: TEST_REDIS_URL,
    prefix,
    queues,
    async cleanup() {
      await deletePrefix(queues.redis(), prefix);
      await queues.close();
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** SIGKILL, as a crashed machine would. */
  kill(): Promise<void>;
  /** SIGTERM and wait for it to exit. */
  stop(): Promise<void>;
}

export interface SpawnWorkerOptions {
  redisUrl: string;
  prefix: string;
  concurrency?: number;
  lockMs?: number;
  stalledMs?: number;
  env?: Record<string, string>;
}

/**
 * Spawns a worker (`bin/server.js worker`, as `npm run worker` does: the sources with the suite's ARBITER_FROM_SOURCE=1,
 * bundled once per run by scripts/run-tests.js) in its own process and waits until it takes jobs.
 */
export async function spawnWorker(options: SpawnWorkerOptions): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.prefix,
    WORKER_CONCURRENCY: String(options.concurrency ?? 2),
    MATCH_LOCK_MS: String(options.lockMs ?? 30_000),
    STALLED_INTERVAL_MS: String(options.stalledMs ?? 15_000),
    ARBITER_FROM_SOURCE: '1',
    // At the suite's niceness, not production's (WORKER_NICE 10, matches 5 steps above): beside the other files'
    // processes at nice 0, a niced worker's matches got a sliver of a core, and a gate's verdict took minutes of wall
    // time on a loaded machine (past its wait). test/sandbox/match-nice.test.ts proves the niceness itself.
    WORKER_NICE: '0',
    MATCH_NICE_OFFSET: '0',
    ...options.env,
  };
  delete env.DATABASE_URL; // a worker holds no database credentials
  delete env.NODE_TEST_CONTEXT; // it is not a test file
  const child = spawn(process.execPath, ['--no-node-snapshot', 'bin/server.js', 'worker'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = once(child, 'exit');
  // A wait, not a measure: on a machine loaded by other files (or other checkouts) a worker's start, tsx and
  // the warm sandboxes included, has taken more than 30 s.
  const deadline = Date.now() + 120_000;
  while (!/worker pool: /.test(out)) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not get ready in 120 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Polls `fn` until it returns a truthy value. */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
