// Rows → JSON as the API shows them.

import { playCommandLine } from './play-line.ts';

export { FINAL_STATUSES, statusOut } from '../statuses.ts';

export interface ParticipantRow {
  seat: number;
  name: string;
  builtinName: string | null;
  submissionId: number | null;
  playerId: number | null;
  score: number | null;
  rank: number | null;
  cpuMs: number | null;
  frozenRound: number | null;
  frozenReason: string | null;
  frozenMessage: string | null;
  /** The seat's submission's file name, when selected: the `arbiter play` line names it. */
  submission?: { filename: string } | null;
}

export function participantOut(p: ParticipantRow) {
  return {
    seat: p.seat,
    name: p.name,
    builtin: p.builtinName,
    submissionId: p.submissionId,
    score: p.score,
    rank: p.rank,
    cpuMs: p.cpuMs,
    frozen: p.frozenReason ? { round: p.frozenRound, reason: p.frozenReason, message: p.frozenMessage } : null,
  };
}

export interface MatchRow {
  id: number;
  game: string;
  seed: number;
  kind: string;
  status: string;
  submissionId: number | null;
  gateStep: string | null;
  gateIndex: number | null;
  winnerSeat: number | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
  participants: ParticipantRow[];
  replay?: { sizeBytes: number } | null;
  /** The game's settings the match was played with (gate matches may be shortened in tests), null for the defaults. */
  config?: unknown;
}

/**
 * The match's `arbiter play` line: seats in order, the seed, the settings. In
 * a gate match the submission's seat is the file's name as its owner uploaded
 * it (the file they have); elsewhere a player's file is named after it, as on
 * the tournament pages (other people's file names are theirs).
 */
export function matchPlayLine(m: Pick<MatchRow, 'game' | 'seed' | 'kind' | 'participants' | 'config'>): string {
  const config = m.config && typeof m.config === 'object' && !Array.isArray(m.config) ? (m.config as Record<string, unknown>) : null;
  const seats = [...m.participants]
    .sort((a, b) => a.seat - b.seat)
    .map((p) => ({ name: p.builtinName ?? p.name, builtin: p.builtinName !== null, file: m.kind === 'gate' ? (p.submission?.filename ?? null) : null }));
  return playCommandLine(m.game, m.seed, seats, config);
}

export function matchOut(m: MatchRow) {
  return {
    id: m.id,
    game: m.game,
    seed: m.seed,
    kind: m.kind,
    status: m.status,
    submissionId: m.submissionId,
    gateStep: m.gateStep,
    gateIndex: m.gateIndex,
    winnerSeat: m.winnerSeat,
    error: m.error,
    createdAt: m.createdAt,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    durationMs: m.durationMs,
    participants: [...m.participants].sort((a, b) => a.seat - b.seat).map(participantOut),
    replay: m.replay ? { url: `/api/matches/${m.id}/replay`, sizeBytes: m.replay.sizeBytes } : null,
    /** The `arbiter play` line that plays this match again on the student's machine. */
    play: matchPlayLine(m),
  };
}

export const participantSelect = {
  seat: true,
  name: true,
  builtinName: true,
  submissionId: true,
  playerId: true,
  score: true,
  rank: true,
  cpuMs: true,
  frozenRound: true,
  frozenReason: true,
  frozenMessage: true,
  submission: { select: { filename: true } },
} as const;

export const matchInclude = {
  participants: { select: participantSelect },
  replay: { select: { sizeBytes: true } },
} as const;

/** What every list of submissions reads of one (never its source): the API, the pages, a student's record. */
export const submissionSummarySelect = {
  id: true,
  game: true,
  version: true,
  filename: true,
  sizeBytes: true,
  status: true,
  reason: true,
  reasonLine: true,
  reasonDetail: true,
  createdAt: true,
  finishedAt: true,
  disabledAt: true,
} as const;

/** An account as the admin's lists show it. */
export interface AccountSummary {
  id: number;
  username: string;
  email: string | null;
  isAdmin: boolean;
  createdAt: Date;
  disabledAt: Date | null;
}

/** A submission as the API and the submission page read it (never its source). */
export const submissionSelect = {
  ...submissionSummarySelect,
  startedAt: true,
  userId: true,
  user: { select: { username: true } },
  player: { select: { name: true, locked: true, qualifiedSubmissionId: true } },
} as const;
