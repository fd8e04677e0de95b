// Request rates the API and the website's forms share.

import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** The upload rate limit, per user (the API and the form share it). */
export const submitRateLimit = (config: Config) => ({
  rateLimit: {
    max: config.rateLimitSubmit,
    timeWindow: '1 minute',
    keyGenerator: (req: FastifyRequest) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
  },
});
