// A pool of match runners: one BullMQ worker on the `matches` queue running up
// to `concurrency` jobs at once (default: one per core), and one on the
// `checks` lane running the gate's compile checks up to `checkConcurrency` at
// once (default: the cores), so a check never waits for a match to end, and
// gets the CPU first: match processes run `matchNiceOffset` niceness steps
// above this process, the compilers and the checks' loads at its own. Each
// job plays a match (or does a compile check) with the lead's runner, which plays it
// in a sandbox child process it can kill (the engine and the bots' isolates),
// then puts the outcome on the `results` queue. This
// module never opens the database and needs no database credentials.
//
// This pool, through BullMQ's attempts (MATCH_JOB_OPTIONS, CHECK_JOB_OPTIONS),
// is the only place that decides a match is played again after a failure.
// Below it a failure is thrown once, typed by whose fault it is (faultOf): the
// judge's machinery (SandboxInfraError: a sandbox process killed from outside,
// a watchdog on a busy machine, a compiler that failed) is tried again on the
// next attempt; a spec the judge cannot play (MatchSpecError) would fail the
// same way every time and is recorded failed at once. Only after the last
// attempt does a failed result (never a result with frozen bots) go to the
// recorder: a judge's fault is never charged to a bot.

import type { Log } from '../../log.ts';
import { Worker, type Job } from 'bullmq';
import { availableParallelism, hostname } from 'node:os';
import { readBotHeader } from '../../sandbox/languages/index.ts';
import { SandboxInfraError } from '../../match/bot-host.ts';
import { checkPool, sharedPool } from '../../sandbox/match-process/match-pool.ts';
import { MatchSpecError, playMatch } from '../../sandbox/entries/play-match.ts';
import { checkBot } from '../../sandbox/entries/check-bot.ts';
import { encodeReplay } from '../../match/replay-io.ts';
import {
  CHECKS_QUEUE,
  MATCHES_QUEUE,
  WORKER_HEARTBEAT_MS,
  WORKER_HEARTBEAT_TTL_MS,
  workerKey,
  openJudgeQueues,
  redisOptions,
  watchRedis,
  type JudgeJobData,
  type JudgeQueues,
  type MatchJobData,
  type CheckJobData,
} from '../../queue/index.ts';
import type { RunOptions } from '../../match/types.ts';
import { serveWorkerHealth, WorkerCounters } from './health.ts';

export interface WorkerPoolOptions {
  redisUrl: string;
  prefix: string;
  /** Matches played at once by this pool. */
  concurrency: number;
  /** Compile checks done at once by this pool (default: the machine's cores; a check is a compile and a load, seconds at most). */
  checkConcurrency?: number;
  /** MATCH_NICE_OFFSET: niceness steps its match processes run above this process's, so checks win the CPU (default 0). */
  matchNiceOffset?: number;
  /** BullMQ lock of a running job: a worker that dies loses it after this long and the job is re-queued. */
  lockDurationMs?: number;
  /** How often this pool looks for stalled jobs (any pool's). */
  stalledIntervalMs?: number;
  /** Name shown in results and BullMQ's worker list. */
  name?: string;
  /** Runner host: the sandbox unless a benchmark asks otherwise. */
  host?: RunOptions['host'];
  /** WORKER_HEALTH_PORT: /health and /metrics on this port (0: any free one); none when unset. */
  healthPort?: number;
  /** Where the health port listens (HOST). */
  healthHost?: string;
  log?: Log;
}

export interface WorkerPool {
  readonly name: string;
  readonly worker: Worker<JudgeJobData>;
  /** The checks' lane's worker. */
  readonly checker: Worker<CheckJobData>;
  /** The port /health and /metrics are served on, if any. */
  readonly healthPort: number | null;
  close(): Promise<void>;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Whose fault a failure below the pool is: 'infra', the judge's machinery
 * (worth another attempt); 'spec', a job the judge cannot play (never worth
 * one); 'judge', any other error of the judge's code (tried again, as it may
 * pass). A bot's own faults are never failures: they freeze it in the result.
 */
export function faultOf(e: unknown): 'infra' | 'spec' | 'judge' {
  if (e instanceof SandboxInfraError) return 'infra';
  if (e instanceof MatchSpecError || (e instanceof Error && e.name === 'MatchSpecError')) return 'spec';
  return 'judge';
}

export async function startWorkerPool(options: WorkerPoolOptions): Promise<WorkerPool> {
  const name = options.name ?? `${hostname()}-${process.pid}`;
  const log = options.log ?? (() => {});
  // Match processes niced above this process, so the checks lane's compiles and loads (at its niceness) go first.
  sharedPool.niceOffset = Math.max(0, options.matchNiceOffset ?? 0);
  const queues: JudgeQueues = openJudgeQueues({ redisUrl: options.redisUrl, prefix: options.prefix, log });

  const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

  async function check(job: Job<CheckJobData> | Job<JudgeJobData>, data: CheckJobData) {
    // Running now, not merely queued: the submission's page shows its compile as running from here.
    queues.publish({ submissionId: data.submissionId, status: 'compiling' }).catch(() => {});
    const startedAt = Date.now();
    let verdict;
    let compileCpuMs: number | null = null;
    try {
      verdict = await checkBot(
        { game: data.game, source: data.source, filename: data.filename, ...(data.limits ? { limits: data.limits } : {}) },
        { onCompileCpu: (ms) => (compileCpuMs = ms) },
      );
    } catch (e) {
      // checkBot reports the bot's own errors as { ok: false }; a throw is the judge's (the compiler could not
      // run, a sandbox killed from outside): no verdict, the job fails and is tried again (its attempts, then
      // the scheduler's sweep), never charged to the file.
      log('compile check failed: the judge could not check the file; it will be tried again', {
        submissionId: Number(data.submissionId),
        error: errorText(e),
        attempt: job.attemptsMade + 1,
        level: 'warn',
      });
      throw e;
    }
    // The compiler's CPU (a C++ compile that ran), and the processes that load the checked bots (checkPool's,
    // not the matches'): what the burst bench's CPU breakdown reads.
    log('compile check done', {
      submissionId: Number(data.submissionId),
      filename: data.filename,
      ok: verdict.ok,
      durationMs: Date.now() - startedAt,
      compileCpuMs,
      checkPids: checkPool.pids,
      worker: name,
    });
    await queues.addResult({ type: 'check', submissionId: data.submissionId, jobId: job.id!, verdict, worker: name });
  }

  async function play(job: Job<JudgeJobData>, data: MatchJobData) {
    const attempt = job.attemptsStarted || job.attemptsMade + 1;
    const base = { matchId: data.matchId, ...(data.submissionId ? { submissionId: data.submissionId } : {}) };
    queues.publish({ ...base, status: 'running' }).catch(() => {});
    let lastSent = 0;
    const onRound = (round: number, totalRounds: number) => {
      const now = Date.now();
      if (now - lastSent < 500 && round < totalRounds) return;
      lastSent = now;
      queues.publish({ ...base, status: 'running', round, totalRounds }).catch(() => {});
      job.updateProgress({ round, totalRounds }).catch(() => {});
    };
    const startedAt = new Date();
    const fields = {
      ...base,
      kind: data.kind,
      game: data.spec.game,
      seed: data.spec.seed,
      seats: data.spec.seats.map((s) => (readBotHeader(s.source).name ?? s.filename).slice(0, 64)),
      worker: name,
      attempt,
    };
    log('match start', fields);
    try {
      // A job queued before jobs carried their limits is resolved by playMatch, the same way the scheduler resolves a new one.
      const outcome = await playMatch(data.spec, { onRound, ...(options.host ? { host: options.host } : {}) });
      const replay = outcome.replay;
      const frozen = replay.players.flatMap((p, seat) => (p.frozenReason ? [{ seat, reason: p.frozenReason, round: p.frozenRound }] : []));
      // The match process's CPU for the match and each seat's: what the burst bench's CPU breakdown reads.
      log('match end', {
        ...fields,
        durationMs: Date.now() - startedAt.getTime(),
        frozen,
        scores: replay.result.scores,
        runs: outcome.runs ?? 1,
        processCpuMs: outcome.processCpuMs === undefined ? null : Math.round(outcome.processCpuMs),
        cpuMs: replay.players.map((p) => Math.round(p.cpuMs)),
      });
      await queues.addResult({
        type: 'match',
        matchId: data.matchId,
        jobId: job.id!,
        ok: true,
        replayGz: (outcome.replayGz ?? encodeReplay(replay)).toString('base64'),
        logs: outcome.logs,
        players: replay.players,
        scores: replay.result.scores,
        ranks: replay.result.ranks,
        winner: replay.result.winner,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        worker: name,
        attempt,
      });
    } catch (e) {
      const fault = faultOf(e);
      const infra = fault === 'infra';
      const again = fault !== 'spec' && !isLastAttempt(job);
      log(again ? 'match abandoned: the judge failed, not a bot; it will be played again' : 'match failed', {
        ...fields,
        durationMs: Date.now() - startedAt.getTime(),
        error: errorText(e),
        infra,
        fault,
        lastAttempt: !again,
        level: infra ? 'warn' : 'error',
      });
      if (again) throw e;
      await queues.addResult({ type: 'match', matchId: data.matchId, jobId: job.id!, ok: false, error: errorText(e), worker: name, attempt });
    }
  }

  const worker = new Worker<JudgeJobData>(
    MATCHES_QUEUE,
    async (job) => {
      const data = job.data;
      if (data.type === 'check') await check(job, data);
      else await play(job, data);
    },
    {
      connection: redisOptions(options.redisUrl),
      prefix: options.prefix,
      concurrency: Math.max(1, options.concurrency),
      name,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 15_000,
      // A worker killed twice on the same match is a problem with the match; the scheduler's sweep sees it failed.
      maxStalledCount: 2,
    },
  );
  watchRedis(worker, 'match worker', log);
  const checkConcurrency = Math.max(1, options.checkConcurrency ?? availableParallelism());
  const checker = new Worker<CheckJobData>(CHECKS_QUEUE, async (job) => check(job, job.data), {
    connection: redisOptions(options.redisUrl),
    prefix: options.prefix,
    concurrency: checkConcurrency,
    name,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 15_000,
    maxStalledCount: 2,
  });
  watchRedis(checker, 'check worker', log);
  const counters = new WorkerCounters();
  counters.watch(worker, checker);
  await Promise.all([worker.waitUntilReady(), checker.waitUntilReady()]);
  // One match process per runner, started now rather than by the first matches.
  void sharedPool.prewarm(Math.max(1, options.concurrency)).catch(() => {});

  // Heartbeat: /health and the scheduler count live pools and their runners.
  const key = workerKey(options.prefix, name);
  const beat = JSON.stringify({ name, concurrency: Math.max(1, options.concurrency), checkConcurrency, host: hostname(), pid: process.pid });
  const heartbeat = () =>
    queues
      .redis()
      .set(key, beat, 'PX', WORKER_HEARTBEAT_TTL_MS)
      .catch(() => {});
  await heartbeat();
  const timer = setInterval(heartbeat, WORKER_HEARTBEAT_MS);
  timer.unref();
  const concurrency = Math.max(1, options.concurrency);
  const health =
    options.healthPort === undefined
      ? null
      : await serveWorkerHealth(
          { name, concurrency, checkConcurrency, worker, checker, counters, redis: () => queues.redis(), matchProcesses: () => sharedPool.size },
          options.healthPort,
          options.healthHost ?? '127.0.0.1',
          log,
        );

  return {
    name,
    worker,
    checker,
    healthPort: health?.port ?? null,
    async close() {
      clearInterval(timer);
      await Promise.all([worker.close(), checker.close()]);
      await queues
        .redis()
        .del(key)
        .catch(() => {});
      // Open until here: while the matches finish, /health answers 503 "stopping", not a refused connection.
      await health?.close();
      await queues.close();
    },
  };
}
