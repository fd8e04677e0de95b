// The two queues and what travels on them. Workers read `matches` and write
// `results`; the recorder (the only process with database credentials) reads
// `results`. A match job carries everything needed to play it, so a worker
// never opens the database.

import type { GateStep, MatchStatus, SubmissionStatusOut } from '../statuses.ts';
import type { Limits } from '../sdk/limits.ts';
import type { MatchSpec } from '../match/types.ts';
import type { ReplayPlayer } from '../sdk/replay-format.ts';

export const MATCHES_QUEUE = 'matches';
export const RESULTS_QUEUE = 'results';
/**
 * The gate's compile checks, a lane of their own: every worker pool takes them
 * up to its cores at once, beside its match runners, so a check never waits
 * behind a match (the upload's answer and its compile error come within
 * seconds whatever the queue of matches holds).
 */
export const CHECKS_QUEUE = 'checks';

export type MatchKind = 'gate' | 'ranked' | 'tournament' | 'challenge';

/**
 * BullMQ priorities: an integer 1..2,097,152, lower first, first in first out
 * within one priority. Gate jobs (compile check, self-play, Dummy matches) take
 * their submission's priority from the band 1..GATE_PRIORITY_BAND, so a
 * submission's whole gate goes before any job of a later submission (first
 * come, first served), and every gate job goes before the other kinds, which
 * sit above the band.
 */
export const GATE_PRIORITY_BAND = 2_000_000;
/**
 * A gate's Dummy match that is played ahead of need: one whose earlier Dummy
 * matches are not all won yet, so a loss among them would drop it. It waits
 * behind every gate job that is surely needed (any submission's), first in
 * first out, and goes before the other kinds: a runner plays it only when no
 * needed gate work waits (an idle queue: the four side by side), and once the
 * matches before it are won the recorder moves it up to its submission's
 * priority. In a deadline's burst most gates stop at their first loss, and a
 * runner that played the next three Dummy matches beside it played them for
 * nothing.
 */
export const GATE_LOOKAHEAD_PRIORITY = GATE_PRIORITY_BAND + 1;
export const PRIORITY = {
  challenge: GATE_PRIORITY_BAND + 5,
  tournament: GATE_PRIORITY_BAND + 6,
  ranked: GATE_PRIORITY_BAND + 10,
} as const;

/**
 * The priority of every gate job of a submission: its id in the band. At the
 * band's end the numbering wraps: submission 2,000,001 takes priority 1 again,
 * so once every two million submissions a new one may pass the few submissions
 * just below the end that are still waiting; nothing is lost or starved, since
 * later ids keep rising from 1.
 */
export function gatePriority(submissionId: number | string): number {
  const id = Math.max(1, Math.trunc(Number(submissionId)) || 1);
  return 1 + ((id - 1) % GATE_PRIORITY_BAND);
}

/**
 * A compile check's priority on the checks' lane: first come, first served among the checks of one kind, and
 * the quick ones (a JavaScript or TypeScript file: esbuild, a tenth of a second) before the slow ones (a C++
 * compile: seconds, one at a time per npm compile server), so that a TypeScript file's check never waits
 * behind a line of C++ compiles. With the npm toolchain, a 250-upload burst's TypeScript compile verdicts came
 * p95 87 s after the upload, behind 75 C++ compiles. Each kind numbers its checks in half the band, wrapping at
 * its end as gatePriority does.
 */
export const CHECK_PRIORITY_HALF = GATE_PRIORITY_BAND / 2;
export function checkPriority(submissionId: number | string, slowCompile: boolean): number {
  return 1 + ((gatePriority(submissionId) - 1) % CHECK_PRIORITY_HALF) + (slowCompile ? CHECK_PRIORITY_HALF : 0);
}

/** Play one match. Job id = matchJobId(...), so a re-run is recognised. */
export interface MatchJobData {
  type: 'match';
  matchId: string;
  kind: MatchKind;
  /** The submission whose gate this match belongs to (for live progress). */
  submissionId?: string;
  /**
   * The match, its limits resolved when the job was created (resolveLimits);
   * a job queued before jobs carried them has none, and playMatch resolves it
   * the same way.
   */
  spec: MatchSpec;
}

/** The gate's compile step for one submission. Job id = checkJobId(...). */
export interface CheckJobData {
  type: 'check';
  submissionId: string;
  game: string;
  source: string;
  filename: string;
  /** The bot's limits for its load, resolved when the job was created (resolveLimits); a job queued before has none, and checkBot resolves it the same way. */
  limits?: Limits;
}

export type JudgeJobData = MatchJobData | CheckJobData;

/**
 * A check's verdict: the file compiles and loads (its name and game), or not
 * (the compiler's or the loader's message, the file's fault). A check the
 * judge could not do (the compiler could not run) has no verdict: its job
 * fails and is tried again.
 */
export type CheckVerdict = { ok: true; name: string; game: string } | { ok: false; message: string; line?: number };

export interface MatchResultOk {
  type: 'match';
  matchId: string;
  /** The match job's id (the result's own id is derived from it). */
  jobId: string;
  ok: true;
  /** The replay, gzip'd JSON (encodeReplay), base64. */
  replayGz: string;
  /** Each seat's console output (capped by the runner). */
  logs: string[];
  players: ReplayPlayer[];
  scores: number[];
  ranks: number[];
  winner: number | null;
  startedAt: string;
  durationMs: number;
  /** Which worker played it, and on which attempt (1 = first). */
  worker: string;
  attempt: number;
}

export interface MatchResultFailed {
  type: 'match';
  matchId: string;
  jobId: string;
  ok: false;
  /** Why the judge could not play it (an infrastructure problem, never the bot's fault). */
  error: string;
  worker: string;
  attempt: number;
}

export interface CheckResult {
  type: 'check';
  submissionId: string;
  jobId: string;
  verdict: CheckVerdict;
  worker: string;
}

export type ResultJobData = MatchResultOk | MatchResultFailed | CheckResult;

// Job ids: the row's id and creation time. Re-queuing a row gives the same id
// (BullMQ keeps the first job with an id), while a fresh database whose ids
// start again at 1 never meets the jobs an older one left in Redis. BullMQ
// refuses custom ids that are plain integers or contain ':'.
export const matchJobId = (matchId: string | number, createdAt: Date) => `m-${matchId}-${createdAt.getTime()}`;
export const checkJobId = (submissionId: string | number, createdAt: Date) => `c-${submissionId}-${createdAt.getTime()}`;
export const resultJobId = (r: Pick<ResultJobData, 'jobId'> | string) => `r-${typeof r === 'string' ? r : r.jobId}`;
/** The match id in a match job's id, or null. */
export const matchIdOfJob = (jobId: string): number | null => {
  const m = /^m-(\d+)-\d+$/.exec(jobId);
  return m ? Number(m[1]) : null;
};

/** A submission's status changed (the recorder publishes it). */
export interface SubmissionEvent {
  submissionId: string;
  matchId?: undefined;
  status: SubmissionStatusOut;
  reason?: string;
}

/** A match started, progressed or ended (the workers and the recorder publish it). */
export interface MatchEvent {
  matchId: string;
  /** The gate's submission, for a gate match. */
  submissionId?: string;
  status: MatchStatus;
  /** While a match runs: progress. */
  round?: number;
  totalRounds?: number;
  step?: GateStep;
}

/** What the recorder and the workers publish on `${prefix}:events` (the API's live streams forward them). */
export type JudgeEvent = SubmissionEvent | MatchEvent;
