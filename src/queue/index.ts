// Queue handles shared by the API, recorder, scheduler and workers.

import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import {
  MATCHES_QUEUE,
  RESULTS_QUEUE,
  type JudgeEvent,
  type JudgeJobData,
  type ResultJobData,
  resultJobId,
} from './jobs.ts';

export * from './jobs.ts';
export { resolveRedis, pingRedis, RedisUnavailableError, HOW_TO_GET_REDIS, type RedisHandle } from './redis.ts';

export interface QueueSettings {
  redisUrl: string;
  /** QUEUE_PREFIX: namespaces every key and the events channel. */
  prefix: string;
}

export interface QueueStats {
  matches: { waiting: number; prioritized: number; active: number; delayed: number; failed: number; completed: number };
  results: { waiting: number; active: number; delayed: number; failed: number };
  /** Matches waiting or being played. */
  depth: number;
  /** Worker pools alive right now (heartbeat within WORKER_HEARTBEAT_TTL_MS). */
  workersSeen: number;
  /** Their match runners in all (sum of WORKER_CONCURRENCY). */
  workerSlots: number;
}

/** A worker pool refreshes `${prefix}:workers:<name>` this often; the key lives three times as long. */
export const WORKER_HEARTBEAT_MS = 5000;
export const WORKER_HEARTBEAT_TTL_MS = 15000;
export const workerKey = (prefix: string, name: string) => `${prefix}:workers:${name}`;

export interface WorkerHeartbeat {
  name: string;
  concurrency: number;
  host: string;
  pid: number;
}

export interface JudgeQueues {
  readonly prefix: string;
  readonly redisUrl: string;
  readonly matches: Queue<JudgeJobData>;
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
  close(): Promise<void>;
}

/** ioredis options BullMQ wants for every connection. */
export function redisOptions(url: string) {
  return { url, maxRetriesPerRequest: null, enableReadyCheck: true } as const;
}

export const RESULT_JOB_OPTIONS: JobsOptions = {
  // The recorder down or the database unreachable: results wait, retried with backoff.
  attempts: 15,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: false,
};

export const CHECK_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
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
  const matches = new Queue<JudgeJobData>(MATCHES_QUEUE, { connection, prefix: settings.prefix });
  const results = new Queue<ResultJobData>(RESULTS_QUEUE, { connection, prefix: settings.prefix });
  let publisher: Redis | null = null;
  const channel = eventsChannel(settings.prefix);
  const redis = () => (publisher ??= new Redis(settings.redisUrl, { maxRetriesPerRequest: 3 }));
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
    async stats() {
      const [m, r, live] = await Promise.all([
        matches.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
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
        results: { waiting: n(r.waiting), active: n(r.active), delayed: n(r.delayed), failed: n(r.failed) },
        depth: n(m.waiting) + n(m.prioritized) + n(m.active) + n(m.delayed),
        workersSeen: live.length,
        workerSlots: live.reduce((sum, w) => sum + (Number(w.concurrency) || 0), 0),
      };
    },
    async close() {
      await Promise.all([matches.close(), results.close()]);
      if (publisher) await publisher.quit().catch(() => publisher?.disconnect());
    },
  };
}
