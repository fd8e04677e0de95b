// The queue as people see it: waiting and running matches per kind, the
// workers, throughput, gate latency and the wait a new submission can
// expect (GET /api/queue, the /queue page, /metrics).

import type { Db } from '../db/client.ts';
import { CLOSED_MATCH, GateStep, JUDGING, MATCH_KINDS, OPEN_MATCH, VERDICTS } from '../statuses.ts';
import { GATE_DUMMY_MATCHES } from './gate.ts';
import { englishWait, type GateWorkAhead, type WaitEstimate, type WaitWhy } from './wait-estimate.ts';
import { withTimeout, type JudgeQueues, type QueueStats, type WorkerHeartbeat } from '../queue/index.ts';

export type { GateWorkAhead, WaitEstimate, WaitWhy };

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export async function readQueueStats(deps: { queues: JudgeQueues | null }): Promise<{ ok: boolean; stats: QueueStats | null; error?: string }> {
  const { queues } = deps;
  if (!queues) return { ok: false, stats: null, error: 'no queues configured in this process' };
  try {
    await withTimeout(queues.redis().ping(), 2000, 'redis');
    return { ok: true, stats: await withTimeout(queues.stats(), 3000, 'queue stats') };
  } catch (err) {
    return { ok: false, stats: null, error: (err as Error).message };
  }
}

/** Throughput is averaged over this many minutes (and shown minute by minute). */
export const THROUGHPUT_MINUTES = 10;
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
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
  /** Run time (a worker's start to end, no queue time) of the last matches of each kind, in seconds, as free of compile checks (see freeRunSeconds). */
  durations: MatchDurations;
  /** How long the recent gates really were (the last 50 verdicts); null before any. */
  gateLengths: GateLengths | null;
  /** Expected seconds from a new submission to its verdict, and how it was computed. */
  /** The explanation in English (the API's), and `why`: its code and figures, which the pages word in their language. */
  expectedWait: { seconds: number | null; explanation: string; ahead: GateWorkAhead; why: WaitWhy };
}

export interface MatchDurations {
  selfplay: number | null;
  dummy: number | null;
  ranked: number | null;
  tournament: number | null;
  challenge: number | null;
}

/**
 * What the recent gates really held, per submission: the share that passed
 * the compile check (and so played a self-play), the share that passed
 * self-play (and so played Dummy matches), and the Dummy matches those played
 * (a gate stops at the first loss, so most play fewer than four).
 */
export interface GateLengths {
  samples: number;
  /** Of the submissions judged, the share that compiled (played a self-play). */
  selfplayShare: number;
  /** The share that passed self-play (played Dummy matches). */
  dummyShare: number;
  /** Dummy matches a gate that played any needed (1 to 4): up to the one that decided it. */
  dummiesPerGate: number;
  /** Of the gates that played Dummy matches, the share that needed 1, 2, 3 and 4 (the first loss, or four wins). */
  dummyCounts: number[];
}

/**
 * The verdicts a learned share stands on before it counts fully: the first
 * few verdicts are drawn towards a typical gate (GATE_PRIOR: it compiles,
 * passes self-play and plays half its Dummy matches). A deadline's first
 * verdicts are the files that do not compile (their check is seconds, their
 * gate none), and an estimate learned from them alone would promise minutes
 * for hours; one that took every gate as the longest (four Dummy matches)
 * would promise twice the wait of a course whose gates mostly stop at their
 * first loss.
 */
export const GATE_LENGTH_PRIOR = 5;
/** The gate assumed before any verdict: it compiles, passes self-play and plays 2.5 Dummy matches (halfway from the first loss to the fourth win). */
export const GATE_PRIOR: Omit<GateLengths, 'samples'> = {
  selfplayShare: 1,
  dummyShare: 1,
  dummiesPerGate: (1 + GATE_DUMMY_MATCHES) / 2,
  dummyCounts: Array.from({ length: GATE_DUMMY_MATCHES }, () => 1 / GATE_DUMMY_MATCHES),
};

/**
 * A gate's length as it was played: the steps it reached and the Dummy
 * matches it needed, up to the one that decided it (what is kept). The four
 * are queued together, but those after the first wait behind every needed
 * gate job until the ones before them are won (GATE_LOOKAHEAD_PRIORITY): a
 * runner plays one beside the deciding match only when no needed gate work
 * waits, so it delays no other submission and is not counted.
 */
export function gateLengthsOf(verdicts: { status: string; reasonDetail: unknown; dummies: number }[]): GateLengths | null {
  if (verdicts.length === 0) return null;
  const step = (v: { reasonDetail: unknown }) =>
    v.reasonDetail && typeof v.reasonDetail === 'object' ? (v.reasonDetail as { step?: unknown }).step : undefined;
  const compiled = verdicts.filter((v) => v.status === 'qualified' || step(v) !== 'compile');
  const dummied = verdicts.filter((v) => v.status === 'qualified' || (step(v) === 'dummy' && v.dummies > 0));
  const played = (v: { dummies: number }) => Math.min(GATE_DUMMY_MATCHES, Math.max(1, v.dummies));
  const r2 = (n: number) => Math.round(n * 100) / 100;
  const n = verdicts.length;
  const prior = GATE_LENGTH_PRIOR;
  // The prior's gates spread evenly over one to four Dummy matches (2.5 on average).
  const counts = Array.from({ length: GATE_DUMMY_MATCHES }, (_, k) => {
    const needed = dummied.filter((v) => played(v) === k + 1).length;
    return r2((needed + prior / GATE_DUMMY_MATCHES) / (dummied.length + prior));
  });
  return {
    samples: n,
    selfplayShare: r2((compiled.length + prior * GATE_PRIOR.selfplayShare) / (n + prior)),
    dummyShare: r2((dummied.length + prior * GATE_PRIOR.dummyShare) / (n + prior)),
    dummiesPerGate: r2((dummied.reduce((sum, v) => sum + played(v), 0) + prior * GATE_PRIOR.dummiesPerGate) / (dummied.length + prior)),
    dummyCounts: counts,
  };
}

/** A compile check is not a match and its time is not stored; it takes about this long (esbuild and one isolate). */
export const CHECK_SECONDS = 1;
/** Run times are taken over this many recent matches of each kind. */
const DURATION_SAMPLES = 50;

/** A check's span is taken as at most this long: its compile and load are bounded well below it, and a submission left waiting longer is not being checked. */
const CHECK_SPAN_MAX_MS = 5 * 60_000;

/** A finished match as the estimate reads it: when it ran (ms since the epoch) and its players' CPU together. */
export interface PlayedMatch {
  startedAt: number;
  finishedAt: number;
  durationMs: number;
  /** The players' CPU time (ms), null when not recorded. */
  cpuMs: number | null;
}

/** A compile check's span: from the upload to its verdict (ms since the epoch; a check still waiting or running: to now). */
export interface CheckSpan {
  from: number;
  to: number;
}

/**
 * A match's run time per second of its players' CPU before any match ran
 * free of compile checks to tell it (the game's engine, the match process and
 * the bots' calls besides the bots' own CPU): about 1.5 in the burst bench on
 * a quiet machine (a Dummy match 0.6 s for 0.35 s of CPU), 3.5 to 14 on one
 * loaded three times over by other work; the matches that ran free replace it
 * as soon as there are a few.
 */
export const WALL_PER_CPU_PRIOR = 2;
/** Matches free of compile checks needed before their run time per CPU second replaces the prior. */
export const FREE_MATCHES_NEEDED = 3;

/**
 * The run time of a match of each kind as the queue ahead will see it, in
 * seconds (null for a kind with none): the mean over the recent matches
 * (the work ahead is their sum, and a busy runner's slow matches count as
 * much as its fast ones), each counted as it would have run without a compile
 * check beside it. The checks' lane runs at a higher priority than the match
 * processes (the worker's niceness), so a deadline's uploads slow the matches
 * played while they come, several times over (a first self-play took 44 s
 * against 1.3 s once the uploads stopped); the queue they leave behind is
 * played without them. A match that overlapped no check counts its run time;
 * one that did counts its players' CPU times the run time per CPU second of
 * those that did not (WALL_PER_CPU_PRIOR before FREE_MATCHES_NEEDED of them),
 * or, without a CPU figure, its run time when no match of its kind ran free.
 */
export function freeRunSeconds(kinds: PlayedMatch[][], checks: CheckSpan[]): (number | null)[] {
  const slowed = besideACheck(checks);
  const marked = kinds.map((ms) => ms.map((m) => ({ m, slowed: slowed(m) })));
  const free = marked.flat().filter((x) => !x.slowed && x.m.cpuMs !== null && x.m.cpuMs > 0);
  const wallPerCpu =
    free.length >= FREE_MATCHES_NEEDED ? free.reduce((a, x) => a + x.m.durationMs, 0) / free.reduce((a, x) => a + x.m.cpuMs!, 0) : WALL_PER_CPU_PRIOR;
  return marked.map((ms) => {
    const anyFree = ms.some((x) => !x.slowed);
    const seconds = ms.flatMap(({ m, slowed }) => {
      if (!slowed) return [m.durationMs / 1000];
      if (m.cpuMs !== null && m.cpuMs > 0) return [(m.cpuMs * wallPerCpu) / 1000];
      return anyFree ? [] : [m.durationMs / 1000];
    });
    return seconds.length ? orNull(seconds.reduce((a, b) => a + b, 0) / seconds.length) : null;
  });
}

/**
 * Whether a match ran beside a compile check (a span that began before the
 * match ended and ended after it began), by a sorted sweep rather than every
 * match against every span (250 x 250 in a burst, on each read): the spans
 * sorted by their start with the latest end so far, so the spans begun before
 * a match ended are a prefix (a binary search), and one of them overlaps it
 * exactly when the latest end in that prefix is after the match began.
 */
export function besideACheck(checks: readonly CheckSpan[]): (m: { startedAt: number; finishedAt: number }) => boolean {
  const sorted = [...checks].sort((a, b) => a.from - b.from);
  const starts = Float64Array.from(sorted, (c) => c.from);
  const latestEnd = new Float64Array(sorted.length);
  let latest = -Infinity;
  sorted.forEach((c, i) => {
    latest = Math.max(latest, c.to);
    latestEnd[i] = latest;
  });
  return (m) => {
    // How many spans began before the match ended.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < m.finishedAt) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && latestEnd[lo - 1]! > m.startedAt;
  };
}

/** What the overview is computed from: one read of the database and Redis, shared by the requests of the next moment. */
interface QueueInputs {
  /** When it was read (ms since the epoch): the figures counted from "now" count from it. */
  at: number;
  q: Awaited<ReturnType<typeof readQueueStats>>;
  open: { kind: string; status: string; _count: { _all: number } }[];
  finished: { finishedAt: Date | null }[];
  durations: { durationMs: number | null }[];
  verdicts: { id: number; status: string; reasonDetail: unknown; createdAt: Date; startedAt: Date | null; finishedAt: Date | null }[];
  workers: WorkerHeartbeat[];
  /** Open gate matches, and every gate match of the gates playing their Dummy matches, by submission, step and status (a waiting submission counts those of the submissions before it). */
  gateOpen: { submissionId: number | null; gateStep: string | null; status: string; _count: { _all: number } }[];
  /** Submissions being judged, by id (a waiting submission counts those before it). */
  judging: { id: number; status: string }[];
  /** The recent matches of each kind: self-play, Dummy, ranked, tournament, challenge. */
  kindDurations: PlayedMatch[][];
  /** The compile checks over the time those matches were played. */
  checks: CheckSpan[];
  dummyCounts: { submissionId: number | null; _count: { _all: number } }[];
  /** The matches being played: since when (ms) and how far (their progress, rounds played of all). */
  playing: { processedOn?: number | undefined; progress: unknown }[];
}

async function readQueueInputs(deps: { db: Db; queues: JudgeQueues | null }, now: number): Promise<QueueInputs> {
  const { db } = deps;
  const since = new Date(now - THROUGHPUT_MINUTES * 60_000);
  const recentOf = (where: { kind: 'gate' | 'ranked' | 'tournament' | 'challenge'; gateStep?: 'selfplay' | 'dummy' }) =>
    db.match.findMany({
      where: { ...where, status: 'done', durationMs: { not: null } },
      orderBy: { id: 'desc' },
      take: DURATION_SAMPLES,
      select: { durationMs: true, startedAt: true, finishedAt: true, participants: { select: { cpuMs: true } } },
    });
  const [q, open, finished, durations, verdicts, workers, gateOpen, judging, kindDurations] = await Promise.all([
    readQueueStats(deps),
    db.match.groupBy({ by: ['kind', 'status'], where: { status: { in: OPEN_MATCH } }, _count: { _all: true } }),
    db.match.findMany({ where: { status: { in: CLOSED_MATCH }, finishedAt: { gte: since } }, select: { finishedAt: true } }),
    db.match.findMany({ where: { status: 'done', durationMs: { not: null } }, orderBy: { id: 'desc' }, take: 100, select: { durationMs: true } }),
    db.submission.findMany({
      where: { status: { in: VERDICTS }, finishedAt: { not: null } },
      orderBy: { finishedAt: 'desc' },
      take: 50,
      select: { id: true, status: true, reasonDetail: true, createdAt: true, startedAt: true, finishedAt: true },
    }),
    deps.queues ? withTimeout(deps.queues.workers(), 3000, 'workers').catch(() => [] as WorkerHeartbeat[]) : Promise.resolve([] as WorkerHeartbeat[]),
    db.match.groupBy({
      by: ['submissionId', 'gateStep', 'status'],
      where: { kind: 'gate', OR: [{ status: { in: OPEN_MATCH } }, { submission: { status: 'qualifying' } }] },
      _count: { _all: true },
    }),
    db.submission.findMany({ where: { status: { in: JUDGING } }, select: { id: true, status: true } }),
    Promise.all([
      recentOf({ kind: 'gate', gateStep: GateStep.selfplay }),
      recentOf({ kind: 'gate', gateStep: 'dummy' }),
      recentOf({ kind: 'ranked' }),
      recentOf({ kind: 'tournament' }),
      recentOf({ kind: 'challenge' }),
    ]),
  ]);
  const played: PlayedMatch[][] = kindDurations.map((rows) =>
    rows.map((r) => {
      const finishedAt = r.finishedAt?.getTime() ?? now;
      const cpu = r.participants.every((p) => p.cpuMs !== null) ? r.participants.reduce((a, p) => a + p.cpuMs!, 0) : 0;
      return { startedAt: r.startedAt?.getTime() ?? finishedAt - r.durationMs!, finishedAt, durationMs: r.durationMs!, cpuMs: cpu > 0 ? cpu : null };
    }),
  );
  const playedSince = Math.min(now, ...played.flat().map((m) => m.startedAt));
  // The checks of the time those matches were played: passed (the gate started), refused (the verdict), or still to come.
  const checks = played.flat().length
    ? (
        await db.submission.findMany({
          where: {
            createdAt: { lte: new Date(now) },
            OR: [
              { startedAt: { gte: new Date(playedSince) } },
              { startedAt: null, finishedAt: { gte: new Date(playedSince) } },
              { status: { in: ['queued', 'compiling'] } },
            ],
          },
          select: { createdAt: true, startedAt: true, finishedAt: true },
        })
      ).map((s) => {
        const from = s.createdAt.getTime();
        return { from, to: Math.min((s.startedAt ?? s.finishedAt)?.getTime() ?? now, from + CHECK_SPAN_MAX_MS) };
      })
    : [];
  const dummyCounts = verdicts.length
    ? await db.match.groupBy({
        by: ['submissionId'],
        where: { submissionId: { in: verdicts.map((v) => v.id) }, kind: 'gate', gateStep: 'dummy', status: { in: CLOSED_MATCH } },
        _count: { _all: true },
      })
    : [];
  // Only when no match has finished yet (a new deployment's first minutes): the running ones tell how long a match takes.
  const playing =
    durations.length === 0 && deps.queues && q.ok ? await withTimeout(deps.queues.matches.getActive(0, 20), 2000, 'active jobs').catch(() => []) : [];
  return { at: now, q, open, finished, durations, verdicts, workers, gateOpen, judging, kindDurations: played, checks, dummyCounts, playing };
}

/**
 * A gate match's seconds assumed before any match has finished while compile
 * checks are still queued or running. Checks take the runners first, so the
 * matches being played then crawl (a first self-play took 50 s in the burst
 * bench against 0.6 s typical) and a projection from them made the first
 * minute's estimates 60-140 times too long. On the 2-core reference machine a
 * gate match runs 0.6 s at the median, 1.9 s at the 95th percentile (bench
 * burst, Moria), a 4-Dummy match 0.2-0.9 s of CPU in the four games; the
 * first finished match replaces it.
 */
export const COLD_MATCH_SECONDS = 1;

/**
 * How long a match takes when none has finished yet: COLD_MATCH_SECONDS while
 * compile checks are ahead of the matches (`checksWaiting`), else the
 * projection from the matches being played (projectedMatchSeconds).
 */
export function coldMatchSeconds(checksWaiting: number, playing: { processedOn?: number | undefined; progress: unknown }[], now: number): number | null {
  return checksWaiting > 0 ? COLD_MATCH_SECONDS : projectedMatchSeconds(playing, now);
}

/**
 * How long a match takes, from the matches being played when none has
 * finished yet: each one's time so far over the share of its rounds played
 * (its progress, which the worker updates as it plays), the median of those
 * far enough along (a tenth of their rounds) to say. Null when none is.
 */
export function projectedMatchSeconds(playing: { processedOn?: number | undefined; progress: unknown }[], now: number): number | null {
  const projected: number[] = [];
  for (const job of playing) {
    const p = job.progress as { round?: unknown; totalRounds?: unknown } | null;
    if (!job.processedOn || !p || typeof p !== 'object' || typeof p.round !== 'number' || typeof p.totalRounds !== 'number' || p.totalRounds <= 0) continue;
    const share = p.round / p.totalRounds;
    if (share < 0.1) continue;
    projected.push((now - job.processedOn) / 1000 / Math.min(1, share));
  }
  return projected.length ? orNull(median(projected)) : null;
}

/** The last read of each database's (and queues') inputs, and when it was made (a read under way is shared too). */
const recentInputs = new WeakMap<Db, Map<JudgeQueues | null, { at: number; inputs: Promise<QueueInputs> }>>();

/**
 * The queue's inputs, read again only when the last read is older than
 * `maxAgeMs`: every waiting student's page asks for its place in the queue
 * every second or two, and a deadline has hundreds of them; one read a second
 * serves them all instead of a dozen queries each.
 */
function queueInputs(deps: { db: Db; queues: JudgeQueues | null }, now: number, maxAgeMs: number): Promise<QueueInputs> {
  let reads = recentInputs.get(deps.db);
  if (!reads) recentInputs.set(deps.db, (reads = new Map()));
  const last = reads.get(deps.queues);
  if (maxAgeMs > 0 && last && now - last.at >= 0 && now - last.at <= maxAgeMs) return last.inputs;
  const inputs = readQueueInputs(deps, now);
  reads.set(deps.queues, { at: now, inputs });
  // A failed read is not kept for the next request.
  inputs.catch(() => {
    if (reads.get(deps.queues)?.inputs === inputs) reads.delete(deps.queues);
  });
  return inputs;
}

/** Pages and API routes polled by many clients at once take the queue's state at most this old. */
export const QUEUE_SNAPSHOT_MS = 1000;

/** The queue's state for the /queue page and GET /api/queue. Without Redis it still answers from the database. */
export async function queueOverview(
  deps: { db: Db; queues: JudgeQueues | null },
  now = Date.now(),
  options: {
    /** The wait of submission `before`, already in the queue: only the gates of the submissions before it are ahead of it. */
    before?: number;
    /** Reuse a read of the database and Redis at most this old (0: read now). */
    maxAgeMs?: number;
  } = {},
): Promise<QueueOverview> {
  const inputs = await queueInputs(deps, now, options.maxAgeMs ?? 0);
  return overviewOf(inputs, options.before);
}

/** The overview's figures every caller of one read shares (all but the wait, which depends on `before`). */
interface OverviewBase {
  overview: Omit<QueueOverview, 'expectedWait'>;
  otherRunning: WorkAhead['otherRunning'];
}

/**
 * What one read of the inputs gave: the shared figures, and each answer asked
 * of it so far by `before` (undefined: a new submission's). A read is
 * immutable and a new read is a new object, so an answer is never served from
 * a snapshot other than its own: hundreds of waiting students polling in the
 * same second cost one computation of the shared figures (the free run times
 * above all) and one of the wait per submission polled, not one per request.
 * Kept as long as the read is (queueInputs keeps the last one).
 */
const computed = new WeakMap<QueueInputs, { base: OverviewBase; answers: Map<number | undefined, QueueOverview> }>();

/** The overview from one read, for the submission `before` (or a new one), computed once per read and `before`. */
function overviewOf(inputs: QueueInputs, before: number | undefined): QueueOverview {
  let entry = computed.get(inputs);
  if (!entry) computed.set(inputs, (entry = { base: overviewBase(inputs), answers: new Map() }));
  let answer = entry.answers.get(before);
  if (!answer) entry.answers.set(before, (answer = { ...entry.base.overview, expectedWait: waitOf(inputs, entry.base, before) }));
  return answer;
}

/** The figures that do not depend on whose wait is asked. Times are counted from the read's moment (`at`), so one read gives one answer. */
function overviewBase(inputs: QueueInputs): OverviewBase {
  const { q, open, finished, durations, verdicts, workers, kindDurations, dummyCounts, at: now } = inputs;
  const live = workers.map((w) => ({ name: w.name, host: w.host, concurrency: Number(w.concurrency) || 0 }));
  const slots = q.stats?.workerSlots ?? live.reduce((n, w) => n + w.concurrency, 0);
  const dummiesOf = new Map(dummyCounts.map((c) => [c.submissionId, c._count._all]));
  const gateLengths = gateLengthsOf(verdicts.map((v) => ({ status: v.status, reasonDetail: v.reasonDetail, dummies: dummiesOf.get(v.id) ?? 0 })));
  const count = (kind: string, status: string) => open.find((r) => r.kind === kind && r.status === status)?._count._all ?? 0;
  const matches = MATCH_KINDS.map((kind) => ({ kind, waiting: count(kind, 'queued'), running: count(kind, 'running') }));
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
  const [selfplay, dummy, ranked, tournament, challenge] = freeRunSeconds(kindDurations, inputs.checks) as [
    number | null,
    number | null,
    number | null,
    number | null,
    number | null,
  ];
  const measured: MatchDurations = { selfplay, dummy, ranked, tournament, challenge };
  return {
    overview: {
      redis: { ok: q.ok, error: q.error ?? null },
      matches,
      waiting,
      running,
      jobs: q.stats
        ? {
            waiting: q.stats.matches.waiting,
            prioritized: q.stats.matches.prioritized,
            active: q.stats.matches.active,
            delayed: q.stats.matches.delayed,
            failed: q.stats.matches.failed,
          }
        : null,
      workers: live,
      workerSlots: slots,
      throughput: { minutes: THROUGHPUT_MINUTES, perMinute, average },
      matchSeconds,
      gate,
      durations: measured,
      gateLengths,
    },
    otherRunning: MATCH_KINDS.filter((k) => k !== 'gate').map((kind) => ({ kind, running: count(kind, 'running') })),
  };
}

/** The wait of submission `before` (only the gates of earlier submissions are ahead of it), or of a new one. */
function waitOf(inputs: QueueInputs, base: OverviewBase, before: number | undefined): QueueOverview['expectedWait'] {
  const earlier = (id: number | null) => before === undefined || (id !== null && id < before);
  const gateOpen = inputs.gateOpen.filter((r) => earlier(r.submissionId));
  const judging = inputs.judging.filter((r) => earlier(r.id));
  const { gateLengths, workerSlots: slots, durations: measured, matchSeconds, redis } = base.overview;
  const gateCount = (step: string, status: string) => gateOpen.filter((r) => r.gateStep === step && r.status === status).reduce((n, r) => n + r._count._all, 0);
  const subs = (status: string) => judging.filter((r) => r.status === status).length;
  const compiling = subs('queued') + subs('compiling');
  const workAhead: WorkAhead = {
    compiling,
    inSelfPlay: subs('self_play'),
    selfplay: { queued: gateCount('selfplay', 'queued'), running: gateCount('selfplay', 'running') },
    dummy: { queued: dummiesStillToPlay(gateOpen, gateLengths), running: gateCount('dummy', 'running') },
    otherRunning: base.otherRunning,
    submissions: compiling + subs('self_play') + subs('qualifying'),
  };
  return expectedWait({
    redisOk: redis.ok,
    slots,
    durations: measured,
    // Before any match has finished: the cold start's figure while checks go first, else as long as the ones being played are taking.
    matchSeconds: matchSeconds ?? coldMatchSeconds(compiling, inputs.playing, inputs.at),
    work: workAhead,
    lengths: gateLengths,
  });
}

/**
 * The queued Dummy matches the gates playing them will still play: a gate
 * stops at its first loss and its queued matches after it are cancelled, so
 * of a gate's queued matches count only as many as the recent gates went on
 * to play (`dummiesPerGate`) beyond those it played or is playing.
 */
export function dummiesStillToPlay(
  rows: { submissionId: number | null; gateStep: string | null; status: string; _count: { _all: number } }[],
  lengths: GateLengths | null,
): number {
  const perGate = lengths?.dummiesPerGate ?? GATE_PRIOR.dummiesPerGate;
  const gates = new Map<number | null, { queued: number; started: number }>();
  for (const r of rows) {
    if (r.gateStep !== 'dummy') continue;
    const g = gates.get(r.submissionId) ?? { queued: 0, started: 0 };
    if (r.status === 'queued') g.queued += r._count._all;
    else g.started += r._count._all;
    gates.set(r.submissionId, g);
  }
  let toPlay = 0;
  for (const g of gates.values()) toPlay += Math.min(g.queued, Math.max(0, perGate - g.started));
  return Math.round(toPlay * 100) / 100;
}

interface WorkAhead {
  /** Submissions queued or compiling: each still needs its check, a self-play and the Dummy matches. */
  compiling: number;
  /** Submissions in self-play: their Dummy matches are still to come. (dummy.queued: the queued ones expected to be played, see dummiesStillToPlay.) */
  inSelfPlay: number;
  selfplay: { queued: number; running: number };
  dummy: { queued: number; running: number };
  otherRunning: { kind: (typeof MATCH_KINDS)[number]; running: number }[];
  submissions: number;
}

const s1 = (n: number) => Math.round(n * 10) / 10;

/**
 * A new submission's wait, in words and seconds. Gate jobs are served first
 * come, first served (a whole gate before the next submission's) and before
 * every other kind, so a new submission waits for all the gate work of the
 * submissions before it: their self-plays and Dummy matches, queued, running
 * or still to come (the checks have a lane of their own and hold no runner).
 * The matches still to come are counted as the recent gates really were
 * (`lengths`: how many compiled, passed self-play, and how many Dummy matches
 * a gate played; four for every gate before any verdict). That work is
 * counted in runner-seconds from the measured run time of each kind of match
 * (a running match is on average half done), spread over the runners; the
 * matches of other kinds being played hold their runners until they end.
 * Then comes its own gate: a check, a self-play, and the Dummy matches it
 * will need (one after another while needed work waits, side by side on an
 * idle queue), its length taken in proportion over the recent gates' lengths.
 */
export function expectedWait(o: {
  redisOk: boolean;
  slots: number;
  durations: MatchDurations;
  matchSeconds: number | null;
  work: WorkAhead;
  lengths?: GateLengths | null;
}): QueueOverview['expectedWait'] {
  const w = o.work;
  const L = o.lengths ?? GATE_PRIOR;
  // Still to come: a submission not checked yet plays a self-play if it compiles, Dummy matches if it passes;
  // one in self-play plays Dummy matches if it passes.
  const selfplaysToCome = w.compiling * L.selfplayShare;
  const dummiesPerUnchecked = L.dummyShare * L.dummiesPerGate;
  const dummiesPerSelfPlay = L.selfplayShare > 0 ? Math.min(1, L.dummyShare / L.selfplayShare) * L.dummiesPerGate : 0;
  const dummiesToCome = w.compiling * dummiesPerUnchecked + w.inSelfPlay * dummiesPerSelfPlay;
  const selfplays = Math.round(selfplaysToCome + w.selfplay.queued + w.selfplay.running);
  const dummies = Math.round(dummiesToCome + w.dummy.queued + w.dummy.running);
  const otherRunning = w.otherRunning.reduce((n, k) => n + k.running, 0);
  const ahead: GateWorkAhead = { submissions: w.submissions, checks: w.compiling, selfplays, dummies, otherRunning };
  if (!o.redisOk) return { seconds: null, explanation: 'The queue cannot be reached from this server, so no estimate.', ahead, why: { code: 'no-queue' } };
  if (o.slots === 0)
    return { seconds: null, explanation: 'No match runner is up right now: a new submission waits until one starts.', ahead, why: { code: 'no-runner' } };
  const d = o.durations;
  const selfSec = d.selfplay ?? d.dummy ?? o.matchSeconds;
  const dummySec = d.dummy ?? d.selfplay ?? o.matchSeconds;
  if (selfSec === null || dummySec === null)
    return { seconds: null, explanation: 'No match has been played yet, so there is nothing to estimate from.', ahead, why: { code: 'no-data' } };
  const kindSec = (kind: string) => d[kind as keyof MatchDurations] ?? o.matchSeconds ?? dummySec;

  const selfWork = (selfplaysToCome + w.selfplay.queued) * selfSec + (w.selfplay.running * selfSec) / 2;
  const dummyWork = (dummiesToCome + w.dummy.queued) * dummySec + (w.dummy.running * dummySec) / 2;
  const otherWork = w.otherRunning.reduce((n, k) => n + (k.running * kindSec(k.kind)) / 2, 0);
  // Spread over the runners, but a gate's matches are played one after another (its Dummy matches each wait for the
  // one before): with fewer gates ahead than runners, a runner is free for this one at once, and in general it
  // starts once all but one runner's worth of the gates ahead are done (a mean gate ahead left on each other runner).
  const work = selfWork + dummyWork + otherWork;
  const gatesAhead = w.submissions + otherRunning;
  const aheadSeconds = gatesAhead > 0 ? Math.max(0, work - (o.slots - 1) * (work / gatesAhead)) / o.slots : 0;
  // Its own gate, one of a few lengths, if it compiles (one that does not is answered by its check in seconds, on a
  // lane of its own: no figure foresees which will not, and the estimate is for those that do): it waits for the
  // work ahead, then plays its self-play, and, if no copy froze, the Dummy matches up to its first loss (1 to 4, as
  // the recent gates needed them). With needed gate work waiting, each of those waits until the ones before it are
  // won (then for the next free runner: half a match spread over the runners); on an idle queue they are played
  // side by side, as many at a time as there are runners.
  const busy = aheadSeconds >= dummySec;
  const dummyTime = (n: number) => (busy ? n * dummySec * (1 + 1 / (2 * o.slots)) : Math.ceil(n / o.slots) * dummySec);
  const reached = aheadSeconds + CHECK_SECONDS + selfSec;
  const counts = L.dummyCounts.length === GATE_DUMMY_MATCHES ? L.dummyCounts : GATE_PRIOR.dummyCounts;
  const countSum = counts.reduce((a, b) => a + b, 0) || 1;
  const outcomes: [share: number, seconds: number][] = [
    [Math.max(0, L.selfplayShare - L.dummyShare), reached],
    ...counts.map((c, k): [number, number] => [(Math.min(L.dummyShare, L.selfplayShare) * c) / countSum, reached + dummyTime(k + 1)]),
  ];
  // Which length it will be is not known: the figure is their mean in proportion (a geometric mean, weighted by
  // how often each came lately), the one whose ratio to the real wait is smallest on average: a gate that stops
  // at its first loss and one that plays four matches one after another differ by more than twice on a short
  // queue, and no figure is within half of both unless it sits between them in proportion.
  const weight = outcomes.reduce((a, [share]) => a + share, 0) || 1;
  const seconds = Math.round(Math.exp(outcomes.reduce((a, [share, t]) => a + (share / weight) * Math.log(Math.max(0.1, t)), 0)));
  const ownDummies = dummiesPerSelfPlay;
  const own = Math.max(0, seconds - aheadSeconds);

  const estimate: WaitEstimate = {
    ahead,
    aheadSeconds: Math.round(aheadSeconds),
    slots: o.slots,
    ownSeconds: Math.round(own),
    checkSeconds: CHECK_SECONDS,
    selfplaySeconds: s1(selfSec),
    dummySeconds: s1(dummySec),
    dummyMatches: Math.max(1, Math.round(ownDummies)),
    atATime: busy ? 1 : Math.min(o.slots, GATE_DUMMY_MATCHES),
  };
  return { seconds, ahead, explanation: englishWait(estimate), why: { code: 'estimate', params: estimate } };
}

/**
 * A submission's place in the queue while its gate waits: how many earlier
 * submissions' gates are still ahead of it (first come, first served) and the
 * seconds to its verdict, estimated as for a new submission but counting only
 * the work of those earlier gates.
 */
export async function submissionWait(deps: { db: Db; queues: JudgeQueues | null }, submissionId: number): Promise<{ ahead: number; seconds: number | null }> {
  const q = await queueOverview(deps, Date.now(), { before: submissionId, maxAgeMs: QUEUE_SNAPSHOT_MS });
  return { ahead: q.expectedWait.ahead.submissions, seconds: q.expectedWait.seconds };
}
