// /health (database, Redis, queue depth, workers seen), /metrics
// (Prometheus text: queue depth, matches per minute, gate latency) and
// /api/queue (what the /queue page shows: waiting and running matches,
// workers, throughput, gate latency, the expected wait for a new submission).

import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { PRIORITY, type QueueStats, type WorkerHeartbeat } from '../../queue/index.ts';

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

async function readQueueStats(deps: Pick<AppDeps, 'queues'>): Promise<{ ok: boolean; stats: QueueStats | null; error?: string }> {
  const { queues } = deps;
  if (!queues) return { ok: false, stats: null, error: 'no queues configured in this process' };
  try {
    await withTimeout(queues.redis().ping(), 2000, 'redis');
    return { ok: true, stats: await withTimeout(queues.stats(), 3000, 'queue stats') };
  } catch (err) {
    return { ok: false, stats: null, error: (err as Error).message };
  }
}

const KINDS = ['gate', 'ranked', 'tournament', 'challenge'] as const;
/** Throughput is averaged over this many minutes (and shown minute by minute). */
export const THROUGHPUT_MINUTES = 10;
const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
const orNull = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);

export interface QueueOverview {
  redis: { ok: boolean; error: string | null };
  /** Matches by kind as the database has them (queued = waiting for a runner). */
  matches: { kind: string; waiting: number; running: number }[];
  waiting: number;
  running: number;
  /** Jobs in Redis (null without Redis): gate jobs go first (BullMQ priority). */
  jobs: { waiting: number; prioritized: number; active: number; delayed: number; failed: number } | null;
  workers: { name: string; host: string; concurrency: number }[];
  workerSlots: number;
  /** Matches finished per minute, oldest minute first, and their average. */
  throughput: { minutes: number; perMinute: number[]; average: number };
  /** Median wall time of the last 100 matches played, in seconds. */
  matchSeconds: number | null;
  /** Submission to verdict over the last 50 verdicts: median and 90th percentile; gate work = start to verdict. */
  gate: { samples: number; latencyP50: number | null; latencyP90: number | null; workSeconds: number | null; ahead: number };
  /** Expected seconds from a new submission to its verdict, and how it was computed. */
  expectedWait: { seconds: number | null; explanation: string };
}

/** The queue's state for the /queue page and GET /api/queue. Without Redis it still answers from the database. */
export async function queueOverview(deps: Pick<AppDeps, 'db' | 'queues'>, now = Date.now()): Promise<QueueOverview> {
  const { db } = deps;
  const since = new Date(now - THROUGHPUT_MINUTES * 60_000);
  const [q, open, finished, durations, verdicts, workers] = await Promise.all([
    readQueueStats(deps),
    db.match.groupBy({ by: ['kind', 'status'], where: { status: { in: ['queued', 'running'] } }, _count: { _all: true } }),
    db.match.findMany({ where: { status: { in: ['done', 'failed'] }, finishedAt: { gte: since } }, select: { finishedAt: true } }),
    db.match.findMany({ where: { status: 'done', durationMs: { not: null } }, orderBy: { id: 'desc' }, take: 100, select: { durationMs: true } }),
    db.submission.findMany({
      where: { status: { in: ['qualified', 'rejected'] }, finishedAt: { not: null } },
      orderBy: { finishedAt: 'desc' },
      take: 50,
      select: { createdAt: true, startedAt: true, finishedAt: true },
    }),
    deps.queues ? withTimeout(deps.queues.workers(), 3000, 'workers').catch(() => [] as WorkerHeartbeat[]) : Promise.resolve([] as WorkerHeartbeat[]),
  ]);
  const count = (kind: string, status: string) => open.find((r) => r.kind === kind && r.status === status)?._count._all ?? 0;
  const matches = KINDS.map((kind) => ({ kind, waiting: count(kind, 'queued'), running: count(kind, 'running') }));
  const waiting = matches.reduce((n, m) => n + m.waiting, 0);
  const running = matches.reduce((n, m) => n + m.running, 0);

  const perMinute = Array.from({ length: THROUGHPUT_MINUTES }, () => 0);
  for (const m of finished) {
    const ago = Math.floor((now - m.finishedAt!.getTime()) / 60_000);
    if (ago >= 0 && ago < THROUGHPUT_MINUTES) perMinute[THROUGHPUT_MINUTES - 1 - ago]!++;
  }
  const average = Math.round((finished.length / THROUGHPUT_MINUTES) * 100) / 100;

  const matchSeconds = orNull(median(durations.map((d) => d.durationMs! / 1000)));
  // Clamped at 0: the verdict time comes from the recorder's clock, the creation time from the database's.
  const latency = verdicts.map((v) => Math.max(0, (v.finishedAt!.getTime() - v.createdAt.getTime()) / 1000)).sort((a, b) => a - b);
  const work = verdicts.filter((v) => v.startedAt).map((v) => Math.max(0, (v.finishedAt!.getTime() - v.startedAt!.getTime()) / 1000));
  const ahead = matches.find((m) => m.kind === 'gate')!.waiting;
  const gate = {
    samples: verdicts.length,
    latencyP50: orNull(quantile(latency, 0.5)),
    latencyP90: orNull(quantile(latency, 0.9)),
    workSeconds: orNull(median(work)),
    ahead,
  };
  const live = workers.map((w) => ({ name: w.name, host: w.host, concurrency: Number(w.concurrency) || 0 }));
  const slots = q.stats?.workerSlots ?? live.reduce((n, w) => n + w.concurrency, 0);
  return {
    redis: { ok: q.ok, error: q.error ?? null },
    matches,
    waiting,
    running,
    jobs: q.stats ? { waiting: q.stats.matches.waiting, prioritized: q.stats.matches.prioritized, active: q.stats.matches.active, delayed: q.stats.matches.delayed, failed: q.stats.matches.failed } : null,
    workers: live,
    workerSlots: slots,
    throughput: { minutes: THROUGHPUT_MINUTES, perMinute, average },
    matchSeconds,
    gate,
    expectedWait: expectedWait({ redisOk: q.ok, slots, running, ahead, matchSeconds, gateWork: gate.workSeconds }),
  };
}

/**
 * A new submission's wait, in words and seconds. Gate jobs have priority
 * over every other match (PRIORITY.check..dummy < ranked), so it waits only
 * for the gate matches already queued and for a runner to free up (running
 * matches are never interrupted), then for its own gate: the median of the
 * last verdicts' start-to-verdict time, or, with no history, its six jobs
 * (check, self-play, then four Dummy matches side by side) at the median
 * match time.
 */
function expectedWait(o: { redisOk: boolean; slots: number; running: number; ahead: number; matchSeconds: number | null; gateWork: number | null }): QueueOverview['expectedWait'] {
  if (!o.redisOk) return { seconds: null, explanation: 'The queue cannot be reached from this server, so no estimate.' };
  if (o.slots === 0) return { seconds: null, explanation: 'No match runner is up right now: a new submission waits until one starts.' };
  if (o.matchSeconds === null) return { seconds: null, explanation: 'No match has been played yet, so there is nothing to estimate from.' };
  const d = o.matchSeconds;
  const freeSlot = o.running >= o.slots ? d / 2 : 0; // on average a running match is half done
  const queued = Math.ceil(o.ahead / o.slots) * d;
  const dummyRounds = Math.ceil(4 / o.slots);
  const gate = o.gateWork ?? (2 + dummyRounds) * d;
  const seconds = Math.round(freeSlot + queued + gate);
  const parts = [
    freeSlot ? `a runner to free up (all ${o.slots} are busy: about half a match, ${Math.round(freeSlot)} s)` : `no wait for a runner (${o.slots - o.running} of ${o.slots} free)`,
    o.ahead ? `${o.ahead} gate match${o.ahead === 1 ? '' : 'es'} queued ahead, ${o.slots} at a time (${Math.round(queued)} s)` : 'no gate match queued ahead',
    o.gateWork !== null ? `its own gate, ${Math.round(gate)} s (the median of recent gates)` : `its own gate, ${Math.round(gate)} s (${2 + dummyRounds} matches of about ${d} s: compile check, self-play, four Dummy matches)`,
  ];
  return {
    seconds,
    explanation: `Gate jobs go before ranked and tournament matches (priority ${PRIORITY.check}-${PRIORITY.dummy} against ${PRIORITY.ranked}), so a new submission waits for: ${parts.join('; ')}.`,
  };
}

const nullableNumber = { type: ['number', 'null'] } as const;
const queueOverviewSchema = {
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
    expectedWait: { type: 'object', properties: { seconds: nullableNumber, explanation: { type: 'string' } } },
  },
} as const;

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
