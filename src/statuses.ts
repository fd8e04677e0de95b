// Statuses and kinds: the words the database, the queues, the worker, the API
// and the pages share. They are the Prisma enums of prisma/schema.prisma,
// written here apart from the database client so that a worker, which never
// opens the database, can name them without loading anything of src/db/
// (scripts/check-imports.js refuses that); test/statuses.test.ts fails when
// they and the schema's enums differ. Lists and groups of them are built here,
// never spelled out by hand elsewhere.

export const SubmissionStatus = {
  queued: 'queued',
  compiling: 'compiling',
  self_play: 'self_play',
  qualifying: 'qualifying',
  qualified: 'qualified',
  rejected: 'rejected',
} as const;
export type SubmissionStatus = (typeof SubmissionStatus)[keyof typeof SubmissionStatus];

export const MatchKind = { gate: 'gate', ranked: 'ranked', tournament: 'tournament', challenge: 'challenge' } as const;
export type MatchKind = (typeof MatchKind)[keyof typeof MatchKind];

export const MatchStatus = { queued: 'queued', running: 'running', done: 'done', failed: 'failed' } as const;
export type MatchStatus = (typeof MatchStatus)[keyof typeof MatchStatus];

export const GateStep = { selfplay: 'selfplay', dummy: 'dummy' } as const;
export type GateStep = (typeof GateStep)[keyof typeof GateStep];

export const MATCH_KINDS: readonly MatchKind[] = Object.values(MatchKind);
export const MATCH_STATUSES: readonly MatchStatus[] = Object.values(MatchStatus);
/** A match still to be played or being played. */
export const OPEN_MATCH: MatchStatus[] = [MatchStatus.queued, MatchStatus.running];
/** A match that reached its end, played or not. */
export const CLOSED_MATCH: MatchStatus[] = [MatchStatus.done, MatchStatus.failed];

/** A submission with its verdict. */
export const VERDICTS: SubmissionStatus[] = [SubmissionStatus.qualified, SubmissionStatus.rejected];
/** A submission the gate is still judging, in the order it goes through them. */
export const JUDGING: SubmissionStatus[] = [SubmissionStatus.queued, SubmissionStatus.compiling, SubmissionStatus.self_play, SubmissionStatus.qualifying];

/** The one spelling of self-play outside the database enum: 'self-play' (the API, pages, events, the CLI). */
export const SELF_PLAY = 'self-play';

/** A submission status as the API, pages and events spell it. */
export type SubmissionStatusOut = Exclude<SubmissionStatus, 'self_play'> | typeof SELF_PLAY;

export function statusOut(s: SubmissionStatus | string): SubmissionStatusOut {
  return (s === SubmissionStatus.self_play ? SELF_PLAY : s) as SubmissionStatusOut;
}

/** The statuses a submission goes through to qualify, as spelled outside the database. */
export const GATE_ORDER: readonly SubmissionStatusOut[] = [...JUDGING, SubmissionStatus.qualified].map(statusOut);

/** Verdicts as spelled outside the database. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(VERDICTS.map(statusOut));
