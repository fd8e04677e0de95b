// /health (database, Redis, queue depth, workers seen), /metrics
// (Prometheus text: queue depth, matches per minute, gate latency) and
// /api/queue (what the /queue page shows: waiting and running matches,
// workers, throughput, gate latency, the expected wait for a new submission).

import type { FastifyInstance } from 'fastify';
import { quantile, queueOverview, readQueueStats } from '../../domain/queue-overview.ts';
import { withTimeout, type ResultBacklog } from '../../queue/index.ts';
import { MATCH_KINDS, statusOut, VERDICTS } from '../../domain/statuses.ts';
import { healthResponses } from '../schemas.ts';
import type { AppDeps } from '../app.ts';

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
      properties: { waiting: { type: 'integer' }, prioritized: { type: 'integer' }, active: { type: 'integer' }, delayed: { type: 'integer' }, failed: { type: 'integer' } },
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
      properties: { samples: { type: 'integer' }, latencyP50: nullableNumber, latencyP90: nullableNumber, workSeconds: nullableNumber, ahead: { type: 'integer' } },
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

/** What /health answers (the admin's queue page shows it too). */
export async function readHealth(deps: AppDeps) {
  const { db } = deps;
  const t0 = performance.now();
  let dbOk = true;
  let dbError: string | undefined;
  try {
    await withTimeout(db.$queryRawUnsafe('SELECT 1'), 3000, 'database');
  } catch (err) {
    dbOk = false;
    dbError = (err as Error).message;
  }
  const dbMs = Math.round((performance.now() - t0) * 10) / 10;
  const q = await readQueueStats(deps);
  let recorder: ResultBacklog | null = null;
  if (q.ok && deps.queues) recorder = await withTimeout(deps.queues.resultBacklog(), 2000, 'recorder backlog').catch(() => null);
  const ok = dbOk && q.ok;
  return {
    status: ok ? ('ok' as const) : ('degraded' as const),
    db: { ok: dbOk, latencyMs: dbMs, ...(dbError ? { error: dbError } : {}) },
    redis: { ok: q.ok, ...(q.error ? { error: q.error } : {}) },
    queue: q.stats ? { depth: q.stats.depth, matches: q.stats.matches, results: q.stats.results } : null,
    workers: q.stats ? { seen: q.stats.workersSeen, slots: q.stats.workerSlots } : null,
    // Results the recorder has not written yet, and how long the oldest has waited (seconds).
    recorder,
  };
}

export default async function opsRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const queueStats = () => readQueueStats(app.deps);

  app.get(
    '/api/queue',
    {
      schema: {
        tags: ['ops'],
        summary: 'Matches waiting and running by kind, workers, throughput, gate latency, expected wait for a new submission',
        response: { 200: queueOverviewSchema },
      },
    },
    async () => queueOverview(app.deps),
  );

  app.get('/health', { schema: { tags: ['ops'], summary: "Database, Redis, queue depth, workers seen, the recorder's backlog (503 when a dependency is down)", response: healthResponses } }, async (_request, reply) => {
    const health = await readHealth(app.deps);
    return reply.status(health.status === 'ok' ? 200 : 503).send(health);
  });

  app.get('/metrics', { schema: { tags: ['ops'], summary: 'Prometheus text format' } }, async (_request, reply) => {
    const now = Date.now();
    const windowMin = 5;
    const since = new Date(now - windowMin * 60_000);
    const [recent, byStatus, verdicts, q] = await Promise.all([
      db.match.groupBy({ by: ['kind'], where: { status: 'done', finishedAt: { gte: since } }, _count: { _all: true } }),
      db.submission.groupBy({ by: ['status'], _count: { _all: true } }),
      db.submission.findMany({
        where: { status: { in: VERDICTS }, finishedAt: { not: null } },
        orderBy: { finishedAt: 'desc' },
        take: 200,
        select: { createdAt: true, finishedAt: true },
      }),
      queueStats(),
    ]);
    const lines: string[] = [];
    const metric = (name: string, type: string, help: string, samples: [string, number][]) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, v] of samples) lines.push(`${name}${labels} ${Number.isFinite(v) ? v : 'NaN'}`);
    };
    const s = q.stats;
    metric('arbiter_up', 'gauge', 'Dependencies answering (1) or not (0).', [
      ['{dep="redis"}', q.ok ? 1 : 0],
      ['{dep="db"}', 1],
    ]);
    metric('arbiter_queue_depth', 'gauge', 'Matches waiting or being played.', [['', s?.depth ?? NaN]]);
    if (s) {
      metric(
        'arbiter_queue_jobs',
        'gauge',
        'Jobs per queue and state.',
        [
          ...Object.entries(s.matches).map(([state, n]): [string, number] => [`{queue="matches",state="${state}"}`, n]),
          ...Object.entries(s.results).map(([state, n]): [string, number] => [`{queue="results",state="${state}"}`, n]),
        ],
      );
      metric('arbiter_workers_seen', 'gauge', 'Worker pools alive (heartbeats).', [['', s.workersSeen]]);
      metric('arbiter_worker_slots', 'gauge', 'Match runners of the live worker pools.', [['', s.workerSlots]]);
    }
    const perKind = new Map(recent.map((r) => [r.kind as string, r._count._all]));
    metric(
      'arbiter_matches_per_minute',
      'gauge',
      `Matches finished per minute, averaged over the last ${windowMin} minutes.`,
      [['', [...perKind.values()].reduce((a, b) => a + b, 0) / windowMin], ...MATCH_KINDS.map((k): [string, number] => [`{kind="${k}"}`, (perKind.get(k) ?? 0) / windowMin])],
    );
    metric(
      'arbiter_submissions',
      'gauge',
      'Submissions per status.',
      byStatus.map((r): [string, number] => [`{status="${statusOut(r.status)}"}`, r._count._all]),
    );
    // Clamped at 0: the verdict time comes from the recorder's clock, the creation time from the database's.
    const lat = verdicts.map((v) => Math.max(0, (v.finishedAt!.getTime() - v.createdAt.getTime()) / 1000)).sort((a, b) => a - b);
    metric('arbiter_gate_latency_seconds', 'summary', 'Submission to verdict, over the last 200 verdicts.', [
      ['{quantile="0.5"}', quantile(lat, 0.5)],
      ['{quantile="0.9"}', quantile(lat, 0.9)],
      ['{quantile="0.99"}', quantile(lat, 0.99)],
    ]);
    lines.push(`arbiter_gate_latency_seconds_sum ${lat.reduce((a, b) => a + b, 0)}`, `arbiter_gate_latency_seconds_count ${lat.length}`);
    return reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(lines.join('\n') + '\n');
  });
}
