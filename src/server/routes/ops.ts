// /health (database, Redis, queue depth, workers seen) and /metrics
// (Prometheus text: queue depth, matches per minute, gate latency).

import type { FastifyInstance } from 'fastify';
import type { QueueStats } from '../../queue/index.ts';

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export default async function opsRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  async function queueStats(): Promise<{ ok: boolean; stats: QueueStats | null; error?: string }> {
    const { queues } = app.deps;
    if (!queues) return { ok: false, stats: null, error: 'no queues configured in this process' };
    try {
      await withTimeout(queues.redis().ping(), 2000, 'redis');
      return { ok: true, stats: await withTimeout(queues.stats(), 3000, 'queue stats') };
    } catch (err) {
      return { ok: false, stats: null, error: (err as Error).message };
    }
  }

  app.get('/health', { schema: { tags: ['ops'], summary: 'Database, Redis, queue depth, workers seen (503 when a dependency is down)' } }, async (_request, reply) => {
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
    const q = await queueStats();
    const ok = dbOk && q.ok;
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded',
      db: { ok: dbOk, latencyMs: dbMs, ...(dbError ? { error: dbError } : {}) },
      redis: { ok: q.ok, ...(q.error ? { error: q.error } : {}) },
      queue: q.stats ? { depth: q.stats.depth, matches: q.stats.matches, results: q.stats.results } : null,
      workers: q.stats ? { seen: q.stats.workersSeen, slots: q.stats.workerSlots } : null,
    });
  });

  app.get('/metrics', { schema: { tags: ['ops'], summary: 'Prometheus text format' } }, async (_request, reply) => {
    const now = Date.now();
    const windowMin = 5;
    const since = new Date(now - windowMin * 60_000);
    const [recent, byStatus, verdicts, q] = await Promise.all([
      db.match.groupBy({ by: ['kind'], where: { status: 'done', finishedAt: { gte: since } }, _count: { _all: true } }),
      db.submission.groupBy({ by: ['status'], _count: { _all: true } }),
      db.submission.findMany({
        where: { status: { in: ['qualified', 'rejected'] }, finishedAt: { not: null } },
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
    const kinds = ['gate', 'ranked', 'tournament', 'challenge'];
    const perKind = new Map(recent.map((r) => [r.kind as string, r._count._all]));
    metric(
      'arbiter_matches_per_minute',
      'gauge',
      `Matches finished per minute, averaged over the last ${windowMin} minutes.`,
      [['', [...perKind.values()].reduce((a, b) => a + b, 0) / windowMin], ...kinds.map((k): [string, number] => [`{kind="${k}"}`, (perKind.get(k) ?? 0) / windowMin])],
    );
    metric(
      'arbiter_submissions',
      'gauge',
      'Submissions per status.',
      byStatus.map((r): [string, number] => [`{status="${r.status === 'self_play' ? 'self-play' : r.status}"}`, r._count._all]),
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
