// Queue handles shared by the API, recorder, scheduler and workers.

import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Log } from '../log.ts';
import { watchRedis } from './connection.ts';
import { CHECKS_QUEUE, MATCHES_QUEUE, RESULTS_QUEUE, type CheckJobData, type JudgeEvent, type JudgeJobData, type ResultJobData, resultJobId } from './jobs.ts';

export * from './jobs.ts';
export { resolveRedis, pingRedis } from './redis.ts';
export { watchRedis, withTimeout } from './connection.ts';

export interface QueueSettings {
  redisUrl: string;
  /** QUEUE_PREFIX: namespaces every key and the events channel. */
  prefix: string;
  /** Where connection state changes (Redis lost, Redis back) are logged. */
  log?: Log;
}

/** Results not recorded yet: what /health reports as the recorder's backlog. */
export interface ResultBacklog {
  /** Waiting, being recorded, or waiting to be retried. */
  waiting: number;
  /** Given up on (the sweep retries them). */
  failed: number;
  /** Age of the oldest of all those, in seconds; null when there is none. */
  oldestSeconds: number | null;
}

export interface QueueStats {
  matches: { waiting: number; prioritized: number; active: number; delayed: number; failed: number; completed: number };
  /** The compile checks' lane. */
  checks: { waiting: number; active: number; delayed: number; failed: number };
  results: { waiting: number; active: number; delayed: number; failed: number };
  /** Matches waiting or being played. */
  depth: number;
  /** Worker pools alive right now (heartbeat within WORKER_HEARTBEAT_TTL_MS). */
  workersSeen: number;
  /** Their match runners in all (sum of WORKER_CONCURRENCY). */
  workerSlots: number;
  /** Their compile checks at once, in all (each pool: its cores). */
  checkSlots: number;
}

/** A worker pool refreshes `${prefix}:workers:<name>` this often; the key lives three times as long. */
export const WORKER_HEARTBEAT_MS = 5000;
export const WORKER_HEARTBEAT_TTL_MS = 15000;
export const workerKey = (prefix: string, name: string) => `${prefix}:workers:${name}`;

export interface WorkerHeartbeat {
  name: string;
  concurrency: number;
  /** Compile checks this pool runs at once (older pools: none said, counted as one). */
  checkConcurrency?: number;
  host: string;
  pid: number;
}

export interface JudgeQueues {
  readonly prefix: string;
  readonly redisUrl: string;
  readonly matches: Queue<JudgeJobData>;
  /** The compile checks (CHECKS_QUEUE). */
  readonly checks: Queue<CheckJobData>;
  readonly results: Queue<ResultJobData>;
  /** `${prefix}:events`: JSON JudgeEvent messages (SSE). */
  readonly eventsChannel: string;
  publish(event: JudgeEvent): Promise<void>;
  /** A plain Redis client (not a subscriber) for small commands. */
  redis(): Redis;
  /** Live worker pools (from their heartbeats). */
  workers(): Promise<WorkerHeartbeat[]>;
  addResult(result: ResultJobData): Promise<void>;
  stats(): Promise<QueueStats>;
  resultBacklog(now?: number): Promise<ResultBacklog>;
  close(): Promise<void>;
}

/** ioredis options BullMQ wants for every connection. */
export function redisOptions(url: string) {
  return { url, maxRetriesPerRequest: null, enableReadyCheck: true } as const;
}

/** The results' retry backoff: 1 s, 2 s, 4 s... never more than this, so recording resumes soon after a long database outage. */
export const RESULT_BACKOFF_CAP_MS = 30_000;
export const RESULT_BACKOFF_TYPE = 'capped';

/** Delay before retry `attemptsMade` (1 = after the first failure) of a result. */
export function resultBackoffMs(attemptsMade: number): number {
  const n = Math.max(1, Math.min(attemptsMade, 30)); // 2^30 s is past the cap already; keeps the number finite
  return Math.min(1000 * 2 ** (n - 1), RESULT_BACKOFF_CAP_MS);
}

export const RESULT_JOB_OPTIONS: JobsOptions = {
  // The recorder down or the database unreachable: results wait, retried with
  // a capped backoff (the recorder's worker implements RESULT_BACKOFF_TYPE).
  // 2880 attempts at 30 s ride out a day's outage; after that the sweep retries.
  attempts: 2880,
  backoff: { type: RESULT_BACKOFF_TYPE, delay: 1000 },
  // A result job carries its replay (about 220 KB for a Moria match): once the
  // recorder has stored it, it leaves Redis at once. Failed ones (given up on
  // after a day; the sweep retries them) are kept, at most RESULT_FAILED_KEPT.
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
};
/** Failed result jobs kept in Redis at most (the oldest go first). */
export const RESULT_FAILED_KEPT = 1000;

export const CHECK_JOB_OPTIONS: JobsOptions = {
  // A throw is the judge's (a compiler that could not run, a sandbox killed
  // from outside): tried again after 2, 4, 8, 16 s, never charged to the file.
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export const MATCH_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** Deletes every key under a prefix (tests and benchmarks clean up after themselves). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}

export function eventsChannel(prefix: string) {
  return `${prefix}:events`;
}

export function openJudgeQueues(settings: QueueSettings): JudgeQueues {
  const connection = redisOptions(settings.redisUrl);
  const log = settings.log ?? (() => {});
  const matches = new Queue<JudgeJobData>(MATCHES_QUEUE, { connection, prefix: settings.prefix });
  const results = new Queue<ResultJobData>(RESULTS_QUEUE, { connection, prefix: settings.prefix });
  const checks = new Queue<CheckJobData>(CHECKS_QUEUE, { connection, prefix: settings.prefix });
  watchRedis(matches, 'matches queue', log);
  watchRedis(checks, 'checks queue', log);
  watchRedis(results, 'results queue', log);
  let publisher: Redis | null = null;
  const channel = eventsChannel(settings.prefix);
  const redis = () => {
    if (publisher) return publisher;
    publisher = new Redis(settings.redisUrl, { maxRetriesPerRequest: 3 });
    watchRedis(publisher, 'redis client', log);
    return publisher;
  };
  async function workers(): Promise<WorkerHeartbeat[]> {
    const client = redis();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', workerKey(settings.prefix, '*'), 'COUNT', 200);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const values = await client.mget(...keys);
    return values.flatMap((v) => {
      try {
        return v ? [JSON.parse(v) as WorkerHeartbeat] : [];
      } catch {
        return [];
      }
    });
  }
  return {
    prefix: settings.prefix,
    redisUrl: settings.redisUrl,
    matches,
    checks,
    results,
    eventsChannel: channel,
    async publish(event) {
      await redis().publish(channel, JSON.stringify(event));
    },
    redis,
    workers,
    async addResult(result) {
      await results.add(result.type, result, { ...RESULT_JOB_OPTIONS, jobId: resultJobId(result) });
    },
    async resultBacklog(now = Date.now()) {
      const client = redis();
      // Ids only, then each one's creation time: result jobs carry replays, so whole jobs are not read.
      const [waitIds, activeIds, delayedIds, failedIds, counts] = await Promise.all([
        client.lrange(results.toKey('wait'), -1, -1), // LPUSH order: the oldest is last
        client.lrange(results.toKey('active'), 0, 99),
        client.zrange(results.toKey('delayed'), '0', '99'),
        client.zrange(results.toKey('failed'), '0', '0'), // by time of failure: the first failed first
        results.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
      ]);
      const ids = [...new Set([...waitIds, ...activeIds, ...delayedIds, ...failedIds])];
      const stamps = ids.length ? await Promise.all(ids.map((id) => client.hget(results.toKey(id), 'timestamp'))) : [];
      const times = stamps.map(Number).filter((t) => Number.isFinite(t) && t > 0);
      const n = (x: number | undefined) => x ?? 0;
      return {
        waiting: n(counts.waiting) + n(counts.prioritized) + n(counts.active) + n(counts.delayed),
        failed: n(counts.failed),
        oldestSeconds: times.length ? Math.max(0, Math.round((now - Math.min(...times)) / 100) / 10) : null,
      };
    },
    async stats() {
      const [m, c, r, live] = await Promise.all([
        matches.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
        checks.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
        results.getJobCounts('waiting', 'active', 'delayed', 'failed'),
        workers().catch(() => [] as WorkerHeartbeat[]),
      ]);
      const n = (x: number | undefined) => x ?? 0;
      return {
        matches: {
          waiting: n(m.waiting),
          prioritized: n(m.prioritized),
          active: n(m.active),
          delayed: n(m.delayed),
          failed: n(m.failed),
          completed: n(m.completed),
        },
        checks: { waiting: n(c.waiting) + n(c.prioritized), active: n(c.active), delayed: n(c.delayed), failed: n(c.failed) },
        results: { waiting: n(r.waiting), active: n(r.active), delayed: n(r.delayed), failed: n(r.failed) },
        depth: n(m.waiting) + n(m.prioritized) + n(m.active) + n(m.delayed),
        workersSeen: live.length,
        workerSlots: live.reduce((sum, w) => sum + (Number(w.concurrency) || 0), 0),
        checkSlots: live.reduce((sum, w) => sum + (Number(w.checkConcurrency) || 1), 0),
      };
    },
    async close() {
      await Promise.all([matches.close(), checks.close(), results.close()]);
      if (publisher) await publisher.quit().catch(() => publisher?.disconnect());
    },
  };
}
