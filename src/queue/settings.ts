// The judge's own settings from the environment (queues, workers, scheduler),
// parsed and validated once. Workers read only these: they need Redis, never
// the database. Documented in .env.example.

import { availableParallelism } from 'node:os';

export interface JudgeSettings {
  /** REDIS_URL; unset = the embedded default (see redis.ts). */
  redisUrl: string | undefined;
  /** QUEUE_PREFIX: namespaces the BullMQ keys and the events channel. */
  prefix: string;
  /** DATA_DIR: where the private redis-server keeps its data. */
  dataDir: string;
  /** WORKER_CONCURRENCY: matches one worker process plays at once (default: cores). */
  workerConcurrency: number;
  /** MATCH_LOCK_MS: a dead worker's match is re-queued after this long. */
  matchLockMs: number;
  /** STALLED_INTERVAL_MS: how often workers look for matches of dead workers. */
  stalledIntervalMs: number;
  /** RANKED_ENABLED: schedule ranked matches continuously. */
  rankedEnabled: boolean;
  /** RANKED_QUEUE_TARGET: ranked matches kept waiting or running (0 = twice the workers' slots seen, at least 2). */
  rankedQueueTarget: number;
  /** RANKED_INTERVAL_MS: scheduler tick. */
  rankedIntervalMs: number;
}

export class SettingsError extends Error {
  override name = 'SettingsError';
}

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingsError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new SettingsError(`${key} must be true or false, got "${raw}"`);
}

export function judgeSettings(env: NodeJS.ProcessEnv = process.env): JudgeSettings {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new SettingsError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  const prefix = env.QUEUE_PREFIX?.trim() || 'arbiter';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw new SettingsError(`QUEUE_PREFIX must be 1-64 characters of A-Z a-z 0-9 _ . -, got "${prefix}"`);
  const matchLockMs = int(env, 'MATCH_LOCK_MS', 30_000, 500, 3_600_000);
  return {
    redisUrl,
    prefix,
    dataDir: env.DATA_DIR?.trim() || './data',
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', availableParallelism(), 1, 256),
    matchLockMs,
    stalledIntervalMs: int(env, 'STALLED_INTERVAL_MS', Math.max(250, Math.floor(matchLockMs / 2)), 100, 3_600_000),
    rankedEnabled: bool(env, 'RANKED_ENABLED', true),
    rankedQueueTarget: int(env, 'RANKED_QUEUE_TARGET', 0, 0, 10_000),
    rankedIntervalMs: int(env, 'RANKED_INTERVAL_MS', 2000, 50, 3_600_000),
  };
}
