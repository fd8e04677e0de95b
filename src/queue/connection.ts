// Redis connection state for every client Arbiter opens (BullMQ queues,
// workers and event streams, plain ioredis clients). While Redis is down
// ioredis retries every second or two and emits an error each time; without a
// listener it prints "Unhandled error event" per retry. watchRedis attaches the
// listener and logs the state once per change: one line when the connection
// is lost, one when it is back. Errors that are not about the connection are
// logged as they come.

import type { Log } from '../log.ts';

interface Emitter {
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/** A BullMQ Queue/Worker/QueueEvents: errors on itself, 'ready' on its backend. */
interface BullmqLike extends Emitter {
  getBackend(): Emitter;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', 'ECONNABORTED']);

/** True for errors that mean "Redis cannot be reached", as opposed to a failing command. */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  // Node reports "connect ECONNREFUSED" for a dual-stack host as an AggregateError of both attempts.
  if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection is closed|connect E[A-Z]+|read E[A-Z]+|write E[A-Z]+|Stream isn't writeable|MaxRetriesPerRequestError|Reached the max retries/i.test(
    message,
  );
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err));

export interface RedisWatch {
  /** 'up' until the first connection error, then 'down' until the client is ready again. */
  readonly state: 'up' | 'down';
}

/**
 * Attaches an 'error' listener to a Redis client and logs its connection state
 * once per change. `client` is an ioredis client or a BullMQ Queue, Worker or
 * QueueEvents (whose readiness its backend reports).
 */
export function watchRedis(client: Emitter | BullmqLike, name: string, log: Log): RedisWatch {
  const watch = { state: 'up' as 'up' | 'down' };
  client.on('error', (err: unknown) => {
    if (!isConnectionError(err)) {
      log(`${name}: ${messageOf(err)}`, { level: 'error', client: name });
      return;
    }
    if (watch.state === 'down') return;
    watch.state = 'down';
    log(`${name}: Redis unreachable (${messageOf(err)}); retrying quietly until it is back`, { level: 'warn', client: name, redis: 'down' });
  });
  const ready = 'getBackend' in client && typeof client.getBackend === 'function' ? client.getBackend() : client;
  ready.on('ready', () => {
    if (watch.state === 'up') return;
    watch.state = 'up';
    log(`${name}: Redis reachable again`, { level: 'info', client: name, redis: 'up' });
  });
  return watch;
}

/** Rejects after `ms` unless `promise` settles first; a late rejection of `promise` is swallowed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => {});
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}
