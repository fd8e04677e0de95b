// /api/queue: what the /queue page shows (waiting and running matches, workers,
// throughput, gate latency, the expected wait for a new submission).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { QUEUE_SNAPSHOT_MS, queueOverview } from '../../../domain/queue-overview.ts';

const nullableNumber = { type: ['number', 'null'] } as const;
export const queueOverviewSchema = {
  type: 'object',
  properties: {
    redis: { type: 'object', properties: { ok: { type: 'boolean' }, error: { type: ['string', 'null'] } } },
    matches: {
      type: 'array',
      items: { type: 'object', properties: { kind: { type: 'string' }, waiting: { type: 'integer' }, running: { type: 'integer' } } },
    },
    waiting: { type: 'integer' },
    running: { type: 'integer' },
    jobs: {
      type: ['object', 'null'],
      properties: {
        waiting: { type: 'integer' },
        prioritized: { type: 'integer' },
        active: { type: 'integer' },
        delayed: { type: 'integer' },
        failed: { type: 'integer' },
      },
    },
    workers: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, host: { type: 'string' }, concurrency: { type: 'integer' } } },
    },
    workerSlots: { type: 'integer' },
    throughput: {
      type: 'object',
      properties: { minutes: { type: 'integer' }, perMinute: { type: 'array', items: { type: 'integer' } }, average: { type: 'number' } },
    },
    matchSeconds: nullableNumber,
    gate: {
      type: 'object',
      properties: {
        samples: { type: 'integer' },
        latencyP50: nullableNumber,
        latencyP90: nullableNumber,
        workSeconds: nullableNumber,
        ahead: { type: 'integer' },
      },
    },
    durations: {
      type: 'object',
      properties: { selfplay: nullableNumber, dummy: nullableNumber, ranked: nullableNumber, tournament: nullableNumber, challenge: nullableNumber },
    },
    expectedWait: {
      type: 'object',
      properties: {
        seconds: nullableNumber,
        explanation: { type: 'string' },
        ahead: {
          type: 'object',
          properties: {
            submissions: { type: 'integer' },
            checks: { type: 'integer' },
            selfplays: { type: 'integer' },
            dummies: { type: 'integer' },
            otherRunning: { type: 'integer' },
          },
        },
      },
    },
  },
} as const;

export default async function queueRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get(
    '/queue',
    {
      config: { access: 'public' },
      schema: {
        tags: ['ops'],
        summary: 'Matches waiting and running by kind, workers, throughput, gate latency, expected wait for a new submission',
        response: { 200: queueOverviewSchema },
      },
    },
    // Polled by every open queue page: one read a second serves them all.
    async () => queueOverview(app.deps, Date.now(), { maxAgeMs: QUEUE_SNAPSHOT_MS }),
  );
}
