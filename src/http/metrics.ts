// What /metrics answers (Prometheus text, through prom-client): the default
// process metrics of the API process, counters of what the judge recorded,
// and gauges of the queue right now.
//
// The counters (submissions, verdicts, matches by kind and outcome, frozen
// bots by reason) are counted in the database at scrape time, not
// incremented in memory: the recorder that writes a verdict or a match may
// be another process than the API that serves /metrics (npm run recorder),
// there may be several of each, and any of them may restart. The rows are
// the events, written in the recorder's transaction, so every process
// answers the same totals, none is lost or counted twice, and they only grow
// (submissions, verdicts and finished matches are never deleted; replay
// retention keeps the matches). Each series is one count with no total
// series beside it, so summing over a label never double counts (the old
// matches_per_minute gauge had an unlabelled total next to its kinds).

import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/client.ts';
import { quantile, readQueueStats } from '../domain/queue-overview.ts';
import { statusOut, VERDICTS } from '../statuses.ts';
import type { AppDeps } from './deps.ts';
import { languages } from '../sandbox/languages/index.ts';

interface Snapshot {
  submissions: { game: string; language: string; n: number }[];
  verdicts: { game: string; verdict: string; n: number }[];
  matches: { game: string; kind: string; outcome: string; n: number }[];
  frozen: { game: string; reason: string; n: number }[];
  byStatus: { status: string; n: number }[];
  queue: Awaited<ReturnType<typeof readQueueStats>>;
  gateLatencies: number[];
}

/** The language of a submitted file by its extension, in SQL (one group per language, not per file name; a language's other files, C++ headers, in its group). */
const LANGUAGE_SQL = `CASE
${languages.map((l) => `  WHEN filename ~* '\\.(${[...l.extensions, ...l.companionExtensions].map((e) => e.replace(/[+.]/g, '\\$&')).join('|')})$' THEN '${l.id}'`).join('\n')}
  ELSE 'other' END`;

async function readSnapshot(deps: AppDeps): Promise<Snapshot> {
  const db: Db = deps.db;
  const num = <T extends { n: bigint | number | string }>(rows: T[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));
  const [submissions, verdicts, matches, frozen, byStatus, queue, latest] = await Promise.all([
    db.$queryRawUnsafe<{ game: string; language: string; n: bigint }[]>(
      `SELECT game, ${LANGUAGE_SQL} AS language, count(*) AS n FROM "Submission" GROUP BY 1, 2`,
    ),
    db.$queryRawUnsafe<{ game: string; verdict: string; n: bigint }[]>(
      `SELECT game, status::text AS verdict, count(*) AS n FROM "Submission" WHERE status IN ('qualified', 'rejected') GROUP BY 1, 2`,
    ),
    db.$queryRawUnsafe<{ game: string; kind: string; outcome: string; n: bigint }[]>(
      `SELECT game, kind::text AS kind, CASE status WHEN 'done' THEN 'finished' ELSE 'failed' END AS outcome, count(*) AS n FROM "Match" WHERE status IN ('done', 'failed') GROUP BY 1, 2, 3`,
    ),
    db.$queryRawUnsafe<{ game: string; reason: string; n: bigint }[]>(
      `SELECT m.game, p."frozenReason" AS reason, count(*) AS n FROM "Participant" p JOIN "Match" m ON m.id = p."matchId" WHERE p."frozenReason" IS NOT NULL AND m.status = 'done' GROUP BY 1, 2`,
    ),
    db.submission.groupBy({ by: ['status'], _count: { _all: true } }),
    readQueueStats(deps),
    db.submission.findMany({
      where: { status: { in: VERDICTS }, finishedAt: { not: null } },
      orderBy: { finishedAt: 'desc' },
      take: 200,
      select: { createdAt: true, finishedAt: true },
    }),
  ]);
  return {
    submissions: num(submissions),
    verdicts: num(verdicts),
    matches: num(matches),
    frozen: num(frozen),
    byStatus: byStatus.map((r) => ({ status: statusOut(r.status), n: r._count._all })),
    queue,
    // Clamped at 0: the verdict time comes from the recorder's clock, the creation time from the database's.
    gateLatencies: latest.map((v) => Math.max(0, (v.finishedAt!.getTime() - v.createdAt.getTime()) / 1000)).sort((a, b) => a - b),
  };
}

/** A registry for one app, and the function that answers a scrape. */
export function createMetrics(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Set by scrape() before the registry collects: every metric reads the same snapshot.
  let snap: Snapshot | null = null;

  // A metric's configuration whose collect() starts from zero and refills it from the scrape's snapshot.
  const fromSnapshot = <L extends string, M extends Counter<L> | Gauge<L>>(
    name: string,
    help: string,
    labelNames: L[],
    fill: (metric: M, s: Snapshot) => void,
  ) => ({
    name,
    help,
    labelNames,
    registers: [registry],
    collect(this: M) {
      this.reset();
      if (snap) fill(this, snap);
    },
  });
  const counter = <L extends string>(name: string, help: string, labelNames: L[], rows: (s: Snapshot) => ({ n: number } & Record<L, string>)[]) =>
    new Counter(
      fromSnapshot<L, Counter<L>>(name, help, labelNames, (metric, s) => {
        for (const r of rows(s)) metric.inc(Object.fromEntries(labelNames.map((l) => [l, String(r[l])])) as unknown as Record<L, string>, r.n);
      }),
    );
  counter('arbiter_submissions_total', 'Submissions uploaded, by game and language.', ['game', 'language'], (s) => s.submissions);
  counter('arbiter_verdicts_total', 'Gate verdicts recorded (qualified or rejected), by game.', ['game', 'verdict'], (s) => s.verdicts);
  counter(
    'arbiter_matches_total',
    'Matches ended, by game, kind and outcome (finished, or failed on the infrastructure).',
    ['game', 'kind', 'outcome'],
    (s) => s.matches,
  );
  counter('arbiter_frozen_bots_total', 'Bots frozen in finished matches, by game and reason.', ['game', 'reason'], (s) => s.frozen);

  const gauge = <L extends string>(name: string, help: string, labelNames: L[], samples: (s: Snapshot) => [Partial<Record<L, string>>, number][]) =>
    new Gauge(
      fromSnapshot<L, Gauge<L>>(name, help, labelNames, (metric, s) => {
        for (const [labels, v] of samples(s)) metric.set(labels as Record<L, string>, v);
      }),
    );
  gauge('arbiter_up', 'Dependencies answering (1) or not (0).', ['dep'], (s) => [
    [{ dep: 'redis' }, s.queue.ok ? 1 : 0],
    [{ dep: 'db' }, 1],
  ]);
  gauge('arbiter_queue_depth', 'Matches waiting or being played.', [], (s) => [[{}, s.queue.stats?.depth ?? NaN]]);
  gauge('arbiter_queue_jobs', 'Jobs per queue (matches, checks, results) and state.', ['queue', 'state'], (s) =>
    s.queue.stats
      ? [
          ...Object.entries(s.queue.stats.matches).map(([state, n]): [Record<string, string>, number] => [{ queue: 'matches', state }, n]),
          // The workers' other lane: their sum with the matches' is the backlog KEDA scales workers on (deploy/kubernetes).
          ...Object.entries(s.queue.stats.checks).map(([state, n]): [Record<string, string>, number] => [{ queue: 'checks', state }, n]),
          ...Object.entries(s.queue.stats.results).map(([state, n]): [Record<string, string>, number] => [{ queue: 'results', state }, n]),
        ]
      : [],
  );
  gauge('arbiter_workers_seen', 'Worker pools alive (heartbeats).', [], (s) => (s.queue.stats ? [[{}, s.queue.stats.workersSeen]] : []));
  gauge('arbiter_worker_slots', 'Match runners of the live worker pools.', [], (s) => (s.queue.stats ? [[{}, s.queue.stats.workerSlots]] : []));
  gauge('arbiter_submissions', 'Submissions per status now.', ['status'], (s) =>
    s.byStatus.map((r): [Record<string, string>, number] => [{ status: r.status }, r.n]),
  );

  let queue: Promise<unknown> = Promise.resolve();
  return {
    registry,
    contentType: registry.contentType,
    /** One scrape at a time: they share the snapshot. */
    scrape(): Promise<string> {
      const run = queue.then(() => scrapeOnce());
      queue = run.catch(() => {});
      return run;
    },
  };

  async function scrapeOnce(): Promise<string> {
    snap = await readSnapshot(deps);
    try {
      const lat = snap.gateLatencies;
      // A summary over the latest verdicts: computed here, so written by hand (prom-client's Summary observes in-process).
      const gate = [
        '# HELP arbiter_gate_latency_seconds Submission to verdict, over the last 200 verdicts.',
        '# TYPE arbiter_gate_latency_seconds summary',
        ...[0.5, 0.9, 0.99].map((q) => `arbiter_gate_latency_seconds{quantile="${q}"} ${Number.isFinite(quantile(lat, q)) ? quantile(lat, q) : 'NaN'}`),
        `arbiter_gate_latency_seconds_sum ${lat.reduce((a, b) => a + b, 0)}`,
        `arbiter_gate_latency_seconds_count ${lat.length}`,
      ];
      return (await registry.metrics()) + gate.join('\n') + '\n';
    } finally {
      snap = null;
    }
  }
}
