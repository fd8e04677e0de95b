// A worker's own small HTTP port (WORKER_HEALTH_PORT; none by default), for
// an orchestrator's probes and a Prometheus scrape:
//   GET /health   200 {"status":"ready",...} while the pool's two BullMQ
//                 workers run and Redis answers a PING within a second;
//                 503 {"status":"not-ready",...} otherwise (Redis lost, the
//                 pool closing), with what is wrong.
//   GET /metrics  Prometheus text: match runners and check slots busy and
//                 idle, matches and compile checks done, jobs failed (the
//                 judge's failures: each is tried again), match processes
//                 alive, and whether Redis answers.
// It reads only counters the pool keeps and asks Redis a PING: no job, no
// bot and no secret is reachable through it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Log } from '../../log.ts';
import { withTimeout } from '../../queue/connection.ts';

/** What the pool's jobs did since it started, from its BullMQ workers' events. */
export class WorkerCounters {
  /** Jobs running now, by id (a set, so that an end seen without its start changes nothing). */
  readonly matchesRunning = new Set<string>();
  readonly checksRunning = new Set<string>();
  matchesPlayed = 0;
  checksDone = 0;
  /** Jobs that threw: the judge's failures (a sandbox killed, a compiler that could not run), each tried again. */
  matchFailures = 0;
  checkFailures = 0;

  get matchesBusy() {
    return this.matchesRunning.size;
  }
  get checksBusy() {
    return this.checksRunning.size;
  }

  /** Counts the jobs of the matches worker (matches, and checks queued there by older judges) and of the checks lane. */
  watch(worker: Worker, checker: Worker): void {
    const isCheck = (job: { data?: { type?: string } }) => job.data?.type === 'check';
    const running = (job: { data?: { type?: string } }, lane: 'matches' | 'checks') =>
      lane === 'checks' || isCheck(job) ? this.checksRunning : this.matchesRunning;
    for (const [w, lane] of [
      [worker, 'matches'],
      [checker, 'checks'],
    ] as const) {
      w.on('active', (job) => running(job, lane).add(String(job.id)));
      w.on('completed', (job) => {
        const set = running(job, lane);
        if (set === this.checksRunning) this.checksDone++;
        else this.matchesPlayed++;
        set.delete(String(job.id));
      });
      w.on('failed', (job) => {
        if (!job) return;
        const set = running(job, lane);
        if (set === this.checksRunning) this.checkFailures++;
        else this.matchFailures++;
        set.delete(String(job.id));
      });
    }
  }
}

export interface WorkerHealthSource {
  name: string;
  concurrency: number;
  checkConcurrency: number;
  worker: Worker;
  checker: Worker;
  counters: WorkerCounters;
  redis: () => Redis;
  /** Match processes alive (idle or playing). */
  matchProcesses: () => number;
}

export interface WorkerHealthServer {
  readonly port: number;
  close(): Promise<void>;
}

interface Readiness {
  ready: boolean;
  redis: boolean;
  runners: boolean;
  problems: string[];
}

async function readiness(source: WorkerHealthSource): Promise<Readiness> {
  const problems: string[] = [];
  const runners = source.worker.isRunning() && source.checker.isRunning() && !source.worker.closing && !source.checker.closing;
  if (!runners) problems.push('the match runners are stopped or stopping');
  let redis = false;
  try {
    redis = (await withTimeout(source.redis().ping(), 1000, 'Redis PING')) === 'PONG';
  } catch (err) {
    problems.push(`Redis does not answer: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { ready: runners && redis, redis, runners, problems };
}

function metricsText(source: WorkerHealthSource, ready: Readiness): string {
  const c = source.counters;
  const worker = `worker="${source.name.replace(/["\\\n]/g, '_')}"`;
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}{${[worker, labels].filter(Boolean).join(',')}} ${value}`);
  };
  metric('arbiter_worker_runners', 'gauge', 'Match runners of this worker, by state (WORKER_CONCURRENCY in all).', [
    ['state="busy"', c.matchesBusy],
    ['state="idle"', Math.max(0, source.concurrency - c.matchesBusy)],
  ]);
  metric('arbiter_worker_check_slots', 'gauge', 'Compile-check slots of this worker, by state.', [
    ['state="busy"', c.checksBusy],
    ['state="idle"', Math.max(0, source.checkConcurrency - c.checksBusy)],
  ]);
  metric('arbiter_worker_matches_total', 'counter', 'Matches this worker played to a result (a failed one after its last attempt included).', [
    ['', c.matchesPlayed],
  ]);
  metric('arbiter_worker_checks_total', 'counter', 'Compile checks this worker gave a verdict on.', [['', c.checksDone]]);
  metric('arbiter_worker_failures_total', 'counter', "Jobs that failed for the judge's own fault (tried again), by kind.", [
    ['kind="match"', c.matchFailures],
    ['kind="check"', c.checkFailures],
  ]);
  metric('arbiter_worker_match_processes', 'gauge', 'Match processes alive (idle or playing).', [['', source.matchProcesses()]]);
  metric('arbiter_worker_redis_up', 'gauge', 'Whether Redis answered a PING within a second.', [['', ready.redis ? 1 : 0]]);
  metric('arbiter_worker_ready', 'gauge', 'Whether /health answers ready.', [['', ready.ready ? 1 : 0]]);
  return `${lines.join('\n')}\n`;
}

/** Serves /health and /metrics for the pool on `port` (0: any free port) at `host`. */
export async function serveWorkerHealth(source: WorkerHealthSource, port: number, host: string, log: Log): Promise<WorkerHealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end(JSON.stringify({ code: 'method-not-allowed', message: 'GET only' }));
      return;
    }
    if (path !== '/health' && path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not-found', message: 'this port serves /health and /metrics' }));
      return;
    }
    readiness(source).then(
      (ready) => {
        if (path === '/metrics') {
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(metricsText(source, ready));
          return;
        }
        const body = {
          status: ready.ready ? 'ready' : 'not-ready',
          worker: source.name,
          redis: ready.redis ? 'up' : 'down',
          runners: { busy: source.counters.matchesBusy, total: source.concurrency },
          ...(ready.problems.length ? { problems: ready.problems } : {}),
        };
        res.writeHead(ready.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'health-failed', message: String(err) }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  log(`worker health: /health and /metrics on http://${host}:${bound}`);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
