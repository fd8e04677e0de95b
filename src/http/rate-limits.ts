// Request rates the API and the website's forms share, counted in the shared
// limits (src/queue/shared-limits.ts: Redis, so every API replica counts
// against one limit; in memory for an app without queues).

import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { SharedLimits } from '../queue/shared-limits.ts';

/** The upload rate limit, per user (the API and the form share it). */
export const submitRateLimit = (config: Config) => ({
  rateLimit: {
    max: config.rateLimitSubmit,
    timeWindow: '1 minute',
    keyGenerator: (req: FastifyRequest) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
  },
});

type Answer = (err: Error | null, res?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's store (its `store` option) over the shared limits: each route's
 * window is a fixed window under `rate:<method><url>:<key>`.
 */
export function rateLimitStore(limits: SharedLimits) {
  return class SharedRateLimitStore {
    constructor(
      _params?: unknown,
      private readonly scope = 'rate:',
    ) {}

    incr(key: string, cb: Answer, timeWindow: number) {
      limits.hit(`${this.scope}${key}`, timeWindow).then(
        (r) => cb(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Answer) {
      limits.hits(`${this.scope}${key}`).then(
        (r) => cb(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => cb(err),
      );
    }

    /** A route's own counters (the plugin passes the route's options as routeInfo; typed as RouteOptions). */
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new SharedRateLimitStore(undefined, `rate:${String(route.method ?? '')}${String(route.url ?? '')}:`);
    }
  };
}
