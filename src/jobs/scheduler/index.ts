// The scheduler process: ranked matches for qualified players, continuously,
// the sweep that repairs lost jobs, official tournaments (started at their
// freeze time, repaired if a step was lost), and the ranked replays' retention. (Gate
// matches are queued by the gate itself, first by priority: see gate.ts.)

import type { Log } from '../../log.ts';
import type { Db } from '../../db/client.ts';
import type { JudgeQueues } from '../../queue/index.ts';
import { scheduleRanked, type RankedOptions } from './ranked.ts';
import { sweep } from './sweep.ts';
import { retentionPass, type RetentionOptions } from './retention.ts';
import { tournamentPass } from './tournaments.ts';
import { runUnderLease, type LeaseOptions, type LeaseRunner } from '../../queue/lease.ts';

export interface SchedulerOptions {
  db: Db;
  queues: JudgeQueues;
  rankedEnabled?: boolean;
  rankedIntervalMs?: number;
  ranked?: RankedOptions;
  sweepIntervalMs?: number;
  sweepOlderThanMs?: number;
  /** How often tournaments are started (at their freeze time) and repaired; 0 = never. */
  tournamentIntervalMs?: number;
  /** Ranked replay retention; the loop runs only when a limit is set. */
  retention?: RetentionOptions & { intervalMs?: number };
  log?: Log;
  /** Asked before each pass: false skips it (this process no longer holds the scheduler's lease). */
  stillLeader?: () => Promise<boolean>;
}

export interface Scheduler {
  close(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const log = options.log ?? (() => {});
  const deps = { db: options.db, queues: options.queues };
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const loop = (name: string, every: number, fn: () => Promise<unknown>) => {
    const tick = async () => {
      if (stopped) return;
      const lead = options.stillLeader ? await options.stillLeader().catch(() => false) : true;
      running = (lead ? fn() : Promise.resolve()).catch((e: unknown) => log(`${name}: ${e instanceof Error ? e.message : String(e)}`));
      await running;
      if (!stopped) timer = setTimeout(tick, every);
    };
    let timer = setTimeout(tick, Math.min(every, 1000));
    return () => clearTimeout(timer);
  };
  const stops = [
    loop('sweep', options.sweepIntervalMs ?? 15_000, async () => {
      const r = await sweep(deps, { olderThanMs: options.sweepOlderThanMs ?? 30_000 });
      if (r.started + r.requeued + r.failed + r.retried > 0) log(`sweep: ${JSON.stringify(r)}`);
    }),
  ];
  if ((options.tournamentIntervalMs ?? 2000) > 0) {
    stops.push(
      loop('tournaments', options.tournamentIntervalMs ?? 2000, async () => {
        const n = await tournamentPass({ ...deps, log });
        if (n > 0) log(`tournaments: ${n} matches queued`);
      }),
    );
  }
  const retention = options.retention;
  if (retention && ((retention.rankedDays ?? 0) > 0 || (retention.rankedPerPlayer ?? 0) > 0)) {
    stops.push(loop('retention', retention.intervalMs ?? 600_000, () => retentionPass(options.db, retention, log)));
  }
  if (options.rankedEnabled ?? true) {
    stops.push(loop('ranked', options.rankedIntervalMs ?? 2000, () => scheduleRanked(deps, options.ranked)));
  }
  return {
    async close() {
      stopped = true;
      for (const stop of stops) stop();
      await running;
    },
  };
}

/**
 * The scheduler under its lease (src/queue/lease.ts): however many are started, one runs its
 * passes and the others wait, and one of them takes over when it dies.
 */
export function startLeasedScheduler(options: SchedulerOptions, lease: Omit<LeaseOptions, 'name'>, onActive?: () => void): LeaseRunner {
  return runUnderLease({ ...lease, name: 'scheduler' }, async (held) => {
    const scheduler = startScheduler({ ...options, stillLeader: () => held.stillHeld() });
    onActive?.();
    return scheduler;
  });
}
