// Creating matches and queueing them. A match row and its participants are
// written first; the job is then built from the database alone (sources of
// the submissions, files of the built-ins), so a job can always be rebuilt
// and re-queued under the same id (the sweep does that for a job Redis lost).

import { randomInt } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import { builtinSeat } from '../match/builtins.ts';
import { getGame } from '../games/registry.ts';
import { resolveLimits, type Limits } from '../sdk/limits.ts';
import type { MatchSeat, ResolvedMatchSpec } from '../match/types.ts';
import type { GateStep } from '../statuses.ts';
import { GATE_LOOKAHEAD_PRIORITY, MATCH_JOB_OPTIONS, PRIORITY, gatePriority, matchJobId, type JudgeQueues, type MatchKind } from '../queue/index.ts';

/** A seat: a submission (with its player name) or a built-in bot. */
export type SeatRef = { submissionId: number; playerId: number | null; name: string } | { builtinName: string };

/** Seeds the judge picks: 0 .. 2^31-1 (the games' RNG takes 31 bits). */
export function pickSeed(): number {
  return randomInt(0, 0x7fffffff);
}

export interface NewMatch {
  game: string;
  kind: MatchKind;
  seed?: number;
  config?: Record<string, unknown> | null;
  seats: SeatRef[];
  submissionId?: number;
  gateStep?: GateStep;
  gateIndex?: number;
  /** Overrides of the game's limits (a tournament's, a match's): merged over its defaults once, here (resolveLimits). */
  limits?: Partial<Limits>;
  /** A challenge: the user who asked for it. */
  requestedById?: number;
}

export async function createMatch(tx: Tx | Db, m: NewMatch): Promise<number> {
  // The row records the match's limits resolved: the job built from it carries them as they are.
  const limits = resolveLimits((await getGame(m.game)).defaultLimits, m.limits);
  const match = await tx.match.create({
    data: {
      game: m.game,
      limits: { cpuBudgetMs: limits.cpuBudgetMs, memoryMb: limits.memoryMb },
      seed: m.seed ?? pickSeed(),
      kind: m.kind,
      status: 'queued',
      ...(m.config ? { config: m.config as Prisma.InputJsonValue } : {}),
      ...(m.submissionId !== undefined ? { submissionId: m.submissionId } : {}),
      ...(m.gateStep ? { gateStep: m.gateStep } : {}),
      ...(m.gateIndex !== undefined ? { gateIndex: m.gateIndex } : {}),
      ...(m.requestedById !== undefined ? { requestedById: m.requestedById } : {}),
      participants: {
        create: m.seats.map((s, seat) =>
          'builtinName' in s
            ? { seat, builtinName: s.builtinName, name: s.builtinName }
            : { seat, submissionId: s.submissionId, playerId: s.playerId, name: s.name },
        ),
      },
    },
    select: { id: true },
  });
  return match.id;
}

/**
 * A match job's BullMQ priority: a gate match takes its submission's (first
 * come, first served), or, played ahead of need (`lookahead`: a Dummy match
 * whose earlier ones are not all won), GATE_LOOKAHEAD_PRIORITY, behind every
 * needed gate job; the other kinds come after every gate job.
 */
export function priorityOf(kind: MatchKind, submissionId: number | null | undefined, lookahead = false): number {
  if (kind === 'gate') {
    if (submissionId === null || submissionId === undefined) throw new Error('a gate match belongs to a submission');
    return lookahead ? GATE_LOOKAHEAD_PRIORITY : gatePriority(submissionId);
  }
  return PRIORITY[kind];
}

/** The job payload of a match, from the database alone. */
export async function matchSpecFromDb(
  db: Db | Tx,
  matchId: number,
): Promise<{ spec: ResolvedMatchSpec; kind: MatchKind; submissionId: number | null; createdAt: Date }> {
  const match = await db.match.findUniqueOrThrow({
    where: { id: matchId },
    include: { participants: { orderBy: { seat: 'asc' }, include: { submission: { select: { source: true, filename: true } } } } },
  });
  const seats: MatchSeat[] = [];
  // A built-in in several seats (a gate's three Dummies) is looked up once.
  const builtins = new Map<string, MatchSeat>();
  for (const p of match.participants) {
    if (p.submission) seats.push({ source: p.submission.source, filename: p.submission.filename });
    else if (p.builtinName) {
      let seat = builtins.get(p.builtinName);
      if (!seat) builtins.set(p.builtinName, (seat = await resolveBuiltin(db, match.game, p.builtinName)));
      seats.push(seat);
    } else throw new Error(`match ${matchId} seat ${p.seat} has neither a submission nor a built-in`);
  }
  // The job carries its limits resolved (older rows without any get the game's defaults), so nothing below merges them again.
  const limits = resolveLimits((await getGame(match.game)).defaultLimits, matchLimits(match.limits));
  const spec: ResolvedMatchSpec = { game: match.game, seed: match.seed, limits, seats };
  if (match.config && typeof match.config === 'object' && !Array.isArray(match.config)) spec.config = match.config as Record<string, unknown>;
  return { spec, kind: match.kind, submissionId: match.submissionId, createdAt: match.createdAt };
}

/** The name of the built-in a deployment may replace with its own (PrivateDummy). */
export const DUMMY = 'Dummy';

/**
 * A built-in seat when a job is built: the game's private Dummy when an admin
 * installed one (every kind of match plays it: gate, ranked, tournament,
 * challenge), else the shipped file. Matches and replays still call it Dummy.
 */
export async function resolveBuiltin(db: Db | Tx, game: string, name: string): Promise<MatchSeat> {
  if (name === DUMMY) {
    const own = await db.privateDummy.findUnique({ where: { game }, select: { source: true, filename: true } });
    if (own) return { source: own.source, filename: own.filename };
  }
  return builtinSeat(game, name);
}

/**
 * Queues the match's job (idempotent: the job id is the match id, BullMQ keeps
 * the first). `lookahead`: a gate's Dummy match that may not be needed, queued
 * behind every needed gate job (priorityOf) until promoteGateMatch moves it up.
 */
export async function enqueueMatch(db: Db, queues: JudgeQueues, matchId: number, options: { lookahead?: boolean } = {}): Promise<void> {
  const { spec, kind, submissionId, createdAt } = await matchSpecFromDb(db, matchId);
  await queues.matches.add(
    'match',
    { type: 'match', matchId: String(matchId), kind, ...(submissionId !== null ? { submissionId: String(submissionId) } : {}), spec },
    { ...MATCH_JOB_OPTIONS, jobId: matchJobId(matchId, createdAt), priority: priorityOf(kind, submissionId, options.lookahead ?? false) },
  );
}

/**
 * A gate match queued ahead of need that is needed now (the matches before it
 * are won): its waiting job takes its submission's priority. A job already
 * taken by a runner, or gone, is left as it is.
 */
export async function promoteGateMatch(queues: JudgeQueues, match: { id: number; createdAt: Date; submissionId: number | null }): Promise<boolean> {
  if (match.submissionId === null) return false;
  const job = await queues.matches.getJob(matchJobId(match.id, match.createdAt));
  if (!job || job.priority === gatePriority(match.submissionId)) return false;
  const state = await job.getState();
  if (state !== 'prioritized' && state !== 'waiting') return false;
  await job.changePriority({ priority: gatePriority(match.submissionId) });
  return true;
}

/** A match row's recorded limits, or null (older rows: the game's defaults apply). */
export function matchLimits(value: unknown): Limits | null {
  if (!value || typeof value !== 'object') return null;
  const { cpuBudgetMs, memoryMb } = value as Record<string, unknown>;
  return typeof cpuBudgetMs === 'number' && typeof memoryMb === 'number' ? { cpuBudgetMs, memoryMb } : null;
}
