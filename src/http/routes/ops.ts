// /health (database, Redis, queue depth, workers seen) and /metrics
// (Prometheus text, src/http/metrics.ts). Not pages: their refusals are JSON
// (src/http/error-page.ts servesPages).

import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { readHealth } from '../../domain/health.ts';
import { createMetrics } from '../metrics.ts';
import { healthResponses } from '../schemas.ts';

/** What /health answers (the admin's queue page shows it too). */
export default async function opsRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['ops'],
        summary: "Database, Redis, queue depth, workers seen, the recorder's backlog (503 when a dependency is down)",
        response: healthResponses,
      },
    },
    async (_request, reply) => {
      const health = await readHealth(app.deps);
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  const metrics = createMetrics(app.deps);
  app.get(
    '/metrics',
    {
      config: { access: 'public' },
      schema: { tags: ['ops'], summary: 'Prometheus text format: counters of submissions, verdicts, matches and frozen bots, the queue, the process' },
    },
    async (_request, reply) => {
      const text = await metrics.scrape();
      return reply.header('content-type', metrics.contentType).send(text);
    },
  );
}
