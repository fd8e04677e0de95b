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
import { quantile, readQueueStats } from '../domain/queue-overview.ts';
import { countJudgeEvents, type JudgeCounts } from '../domain/judge-counts.ts';
import type { AppDeps } from './deps.ts';

interface Snapshot extends JudgeCounts {
  queue: Awaited<ReturnType<typeof readQueueStats>>;
}

async function readSnapshot(deps: AppDeps): Promise<Snapshot> {
  const [counts, queue] = await Promise.all([countJudgeEvents(deps.db), readQueueStats(deps)]);
  return { ...counts, queue };
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
