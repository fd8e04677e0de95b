// The Dummy gate, stopping at the first failure:
//   1. compile check (a `check` job on a worker),
//   2. self-play: one match of four copies; rejected if any copy froze,
//   3. four matches, the submission against three Dummies, on seeds the judge
//      picks (the submission takes seat 0, 1, 2, 3 in turn); accepted only if
//      it is ranked strictly first in all four (ties are not wins).
// On acceptance the player name locks and the player enters the ranked pool.
//
// startGate() is what the API calls after inserting a submission. The later
// steps run inside the recorder's transaction when a result comes back
// (gateOnCheck / gateOnMatch); they return the side effects (jobs to queue or
// cancel, events to publish) the recorder applies after the commit.

import type { Db, Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import { isOutrightWinner } from '../sdk/ranking.ts';
import { getGame } from '../games/registry.ts';
import { resolveLimits } from '../sdk/limits.ts';
import { withTimeout } from '../queue/connection.ts';
import { CHECK_JOB_OPTIONS, checkJobId, checkPriority, type CheckVerdict, type JudgeEvent, type JudgeQueues } from '../queue/index.ts';
import { initialRating } from './ratings/index.ts';
import { createMatch, type SeatRef } from './match-setup.ts';
import { GateStep, SELF_PLAY } from '../statuses.ts';
import { languageOf } from '../sandbox/languages/index.ts';
import { deriveGateSeeds, gateSecret, storedGateSeeds } from './gate-seeds.ts';
import { englishReason, type FrozenAt, type Reason } from './reasons.ts';

/** The production gate's opponent: always Dummy (the judge's rules); a deployment's private Dummy when an admin installed one (src/domain/private-dummy.ts). */
export const GATE_OPPONENT = 'Dummy';
export const GATE_DUMMY_MATCHES = 4;

export interface GateDeps {
  db: Db;
  queues: JudgeQueues;
}

/**
 * Options of the gate's later steps (the recorder holds them). Production
 * passes none. Tests may shorten gate matches (`config`) and, to build a
 * submission that surely qualifies, play the gate against another built-in
 * (`opponent`, e.g. Null); nothing outside tests sets these.
 */
export interface GateOptions {
  opponent?: string;
  config?: Record<string, unknown>;
}

export interface GateEffects {
  /** Matches to queue after the commit. */
  enqueue: number[];
  /** Of those, the Dummy matches queued ahead of need, behind every needed gate job (GATE_LOOKAHEAD_PRIORITY). */
  lookahead: number[];
  /** Dummy matches queued ahead of need that are needed now (the ones before them are won): moved up to their submission's priority. */
  promote: number[];
  /** Queued gate matches no longer needed (the submission was rejected): remove their jobs, then their rows. */
  cancel: number[];
  events: JudgeEvent[];
  /** The recorded match was not needed (a Dummy match after the one that decided the verdict): deleted, nothing to announce. */
  dropped?: boolean;
}

export const emptyEffects = (): GateEffects => ({ enqueue: [], lookahead: [], promote: [], cancel: [], events: [] });

/**
 * Starts judging a submission the API has just inserted (status `queued`):
 * queues its compile check on the checks' own lane (CHECKS_QUEUE), ahead of
 * every gate match. The row stays `queued` until the check's verdict: it is
 * shown compiling only while a worker really runs the check (the worker says
 * so on the events channel, and the check job is active). Idempotent. If it
 * throws (Redis unreachable), the row stays `queued` and the scheduler's
 * sweep starts the gate later.
 */
export async function startGate(deps: GateDeps, submissionId: number, stored?: GateStartRow): Promise<void> {
  // The upload hands over the row it has just inserted, seeds included: no read before the queue's write.
  const sub =
    stored ??
    (await deps.db.submission.findUnique({
      where: { id: submissionId },
      select: { id: true, status: true, game: true, source: true, filename: true, createdAt: true, gateSeeds: true },
    }));
  if (!sub) throw new Error(`startGate: no submission ${submissionId}`);
  if (sub.status !== 'queued' && sub.status !== 'compiling') return;
  // The gate's seeds, from the file (a rejudge arrives with its original's).
  if (!storedGateSeeds(sub.gateSeeds)) {
    const seeds = deriveGateSeeds(await gateSecret(deps.db), sub.game, sub.source, sub.filename);
    await deps.db.submission.update({ where: { id: sub.id }, data: { gateSeeds: seeds } });
  }
  await deps.queues.checks.add(
    'check',
    // The load's limits resolved here, once, as a match job's are (the gate's check has no override).
    {
      type: 'check',
      submissionId: String(sub.id),
      game: sub.game,
      source: sub.source,
      filename: sub.filename,
      limits: resolveLimits((await getGame(sub.game)).defaultLimits),
    },
    // First come, first served among checks of one kind (the submission's id), the quick ones (esbuild's) before the
    // C++ compiles, on a lane no match waits on.
    { ...CHECK_JOB_OPTIONS, jobId: checkJobId(sub.id, sub.createdAt), priority: checkPriority(sub.id, languageOf(sub.source, sub.filename).slowCompile) },
  );
}

/** What startGate reads of a submission (the upload passes the row it inserted). */
export interface GateStartRow {
  id: number;
  status: string;
  game: string;
  source: string;
  filename: string;
  createdAt: Date;
  gateSeeds: unknown;
}

async function lockSubmission(tx: Tx, submissionId: number) {
  // One verdict at a time per submission, whatever the recorder's concurrency.
  await tx.$queryRaw`SELECT id FROM "Submission" WHERE id = ${submissionId} FOR UPDATE`;
  return tx.submission.findUnique({ where: { id: submissionId }, include: { player: true } });
}

/**
 * Rejects with a reason: its code and parameters go into reasonDetail (each
 * page words them in its language), its English sentence into `reason` (the
 * API's, and older pages').
 */
async function reject(tx: Tx, effects: GateEffects, submissionId: number, why: Reason, detail: Record<string, unknown>, line?: number): Promise<void> {
  const reason = englishReason(why);
  await tx.submission.update({
    where: { id: submissionId },
    data: {
      status: 'rejected',
      reason,
      reasonDetail: { ...detail, code: why.code, params: why.params } as Prisma.InputJsonValue,
      ...(line !== undefined ? { reasonLine: line } : {}),
      finishedAt: new Date(),
    },
  });
  // Stop at the first failure: the gate matches still waiting are not played.
  const waiting = await tx.match.findMany({ where: { submissionId, kind: 'gate', status: 'queued' }, select: { id: true } });
  effects.cancel.push(...waiting.map((m) => m.id));
  effects.events.push({ submissionId: String(submissionId), status: 'rejected', reason });
}

/** Step 1 done: the compile check's verdict arrived. */
export async function gateOnCheck(tx: Tx, submissionId: number, verdict: CheckVerdict, options: GateOptions = {}): Promise<GateEffects> {
  const effects = emptyEffects();
  const sub = await lockSubmission(tx, submissionId);
  if (!sub || (sub.status !== 'queued' && sub.status !== 'compiling')) return effects; // delivered twice, or gone
  if (!verdict.ok) {
    const why: Reason = { code: 'compile-error', params: { message: verdict.message, line: verdict.line ?? null } };
    await reject(
      tx,
      effects,
      sub.id,
      why,
      { step: 'compile', message: verdict.message, ...(verdict.line !== undefined ? { line: verdict.line } : {}) },
      verdict.line,
    );
    return effects;
  }
  if (verdict.game !== sub.game) {
    await reject(tx, effects, sub.id, { code: 'game-mismatch', params: { declared: verdict.game, game: sub.game } }, { step: 'compile' });
    return effects;
  }
  if (verdict.name.toLowerCase() !== sub.player.nameLower) {
    await reject(tx, effects, sub.id, { code: 'name-mismatch', params: { declared: verdict.name, name: sub.player.name } }, { step: 'compile' });
    return effects;
  }
  const me: SeatRef = { submissionId: sub.id, playerId: sub.playerId, name: sub.player.name };
  const matchId = await createMatch(tx, {
    game: sub.game,
    kind: 'gate',
    submissionId: sub.id,
    gateStep: GateStep.selfplay,
    ...seedOf(sub, 0),
    config: options.config ?? null,
    seats: Array.from({ length: (await getGame(sub.game)).nbPlayers }, () => me),
  });
  await tx.submission.update({ where: { id: sub.id }, data: { status: 'self_play', ...(sub.startedAt ? {} : { startedAt: new Date() }) } });
  effects.enqueue.push(matchId);
  effects.events.push({ submissionId: String(sub.id), status: SELF_PLAY });
  return effects;
}

interface FinishedGateMatch {
  id: number;
  seed: number;
  submissionId: number | null;
  gateStep: string | null;
  gateIndex: number | null;
  status: 'done' | 'failed';
  error: string | null;
  participants: {
    seat: number;
    submissionId: number | null;
    builtinName: string | null;
    score: number | null;
    rank: number | null;
    frozenRound: number | null;
    frozenReason: string | null;
    frozenMessage: string | null;
  }[];
}

/** A bot's error in one line: its first line, plus where in the bot's file it happened when the stack says. */
export function oneLine(message: string | null | undefined): string {
  if (!message) return 'no message';
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? 'no message';
  const at = lines
    .slice(1)
    .map((l) => /\(([^()]+:\d+:\d+)\)$/.exec(l)?.[1] ?? /^at ([^\s()]+:\d+:\d+)$/.exec(l)?.[1])
    .find((x) => x && !/^(prelude|bot-runtime)\.js:/.test(x));
  return at ? `${first} (${at})` : first;
}

/** Where, why and how a seat froze, its error in one line. */
function frozenAt(p: Seat): FrozenAt {
  return { round: p.frozenRound ?? 0, why: p.frozenReason ?? 'exception', message: oneLine(p.frozenMessage) };
}

type LockedSubmission = NonNullable<Awaited<ReturnType<typeof lockSubmission>>>;

/** The gate match's stored seed (0: self-play, 1..4: the matches against the opponent); none on older rows (a random one then). */
function seedOf(sub: { gateSeeds: unknown }, index: number): { seed?: number } {
  const seeds = storedGateSeeds(sub.gateSeeds);
  return seeds ? { seed: seeds[index]! } : {};
}
type Seat = FinishedGateMatch['participants'][number];

/** Step 2 or 3: a gate match was recorded (its participants already hold the result). */
export async function gateOnMatch(tx: Tx, match: FinishedGateMatch, options: GateOptions = {}): Promise<GateEffects> {
  const effects = emptyEffects();
  if (match.submissionId === null) return effects;
  const sub = await lockSubmission(tx, match.submissionId);
  if (!sub) return effects;
  const seats = [...match.participants].sort((a, b) => a.seat - b.seat);
  if (match.gateStep === GateStep.selfplay) {
    // Recorded after a rejection by another step: nothing more to do.
    if (sub.status === 'self_play') await afterSelfPlay(tx, effects, sub, match, seats, options);
  } else if (sub.status === 'qualifying') await afterDummyMatch(tx, effects, sub, match, seats, options);
  else if (sub.status === 'rejected' && isAfterDecidingMatch(sub.reasonDetail, match.gateIndex)) {
    // Played side by side with the Dummy match that rejected it, after it in the gate's order: not needed, not kept.
    await tx.match.delete({ where: { id: match.id } });
    effects.dropped = true;
  }
  return effects;
}

/** Self-play: no copy may freeze; then the matches against the gate's opponent, the bot in each seat once. */
async function afterSelfPlay(
  tx: Tx,
  effects: GateEffects,
  sub: LockedSubmission,
  match: FinishedGateMatch,
  seats: Seat[],
  options: GateOptions,
): Promise<void> {
  if (match.status === 'failed') {
    await reject(
      tx,
      effects,
      sub.id,
      { code: 'judge-error', params: { step: 'selfplay', matchId: match.id, error: match.error ?? 'unknown error' } },
      { step: 'selfplay', matchId: match.id, internal: true },
    );
    return;
  }
  const frozen = seats.filter((p) => p.frozenReason !== null);
  if (frozen.length > 0) {
    const first = [...frozen].sort((a, b) => (a.frozenRound ?? 0) - (b.frozenRound ?? 0) || a.seat - b.seat)[0]!;
    const why: Reason = {
      code: 'selfplay-frozen',
      params: { seat: first.seat, copies: seats.length, frozen: frozen.length, matchId: match.id, ...frozenAt(first) },
    };
    await reject(tx, effects, sub.id, why, {
      step: 'selfplay',
      matchId: match.id,
      frozen: frozen.map((p) => ({ seat: p.seat, round: p.frozenRound, reason: p.frozenReason, message: p.frozenMessage })),
    });
    return;
  }
  const me: SeatRef = { submissionId: sub.id, playerId: sub.playerId, name: sub.player.name };
  const them: SeatRef = { builtinName: options.opponent ?? GATE_OPPONENT };
  for (let i = 0; i < GATE_DUMMY_MATCHES; i++) {
    const matchSeats: SeatRef[] = seats.map(() => them);
    matchSeats[i % seats.length] = me;
    const matchId = await createMatch(tx, {
      game: sub.game,
      kind: 'gate',
      submissionId: sub.id,
      gateStep: 'dummy',
      gateIndex: i,
      ...seedOf(sub, 1 + i),
      config: options.config ?? null,
      seats: matchSeats,
    });
    effects.enqueue.push(matchId);
    // The first is needed; the others only if the ones before them are won: they wait behind needed gate work.
    if (i > 0) effects.lookahead.push(matchId);
  }
  await tx.submission.update({ where: { id: sub.id }, data: { status: 'qualifying' } });
  // Compiled and passed self-play: the name is its owner's for good (src/domain/names.ts).
  await tx.playerName.updateMany({ where: { id: sub.playerId, heldAt: null }, data: { heldAt: new Date() } });
  effects.events.push({ submissionId: String(sub.id), status: 'qualifying' });
}

/**
 * A match against the opponent was recorded. The four are queued together and
 * played side by side on whatever runners are free (the first at the
 * submission's priority, the others behind every needed gate job until the
 * ones before them are won: then this moves the next one up), but the verdict is the one
 * a gate playing them one after another (1, 2, 3, 4) would give: the first
 * match in that order that is not a win rejects, and is decided as soon as all
 * the matches before it are won; the last of four wins qualifies. The matches
 * after the deciding one are not needed: the queued ones are cancelled, and
 * those already played or still being played are not kept (their rows and
 * replays go, a result that comes later is dropped), so what is stored for a
 * verdict is the same whatever the runners did: the matches 1 to the deciding
 * one, on the same seeds and seats.
 */
async function afterDummyMatch(
  tx: Tx,
  effects: GateEffects,
  sub: LockedSubmission,
  _match: FinishedGateMatch,
  _seats: Seat[],
  options: GateOptions,
): Promise<void> {
  const opponent = options.opponent ?? GATE_OPPONENT;
  const played = await tx.match.findMany({
    where: { submissionId: sub.id, kind: 'gate', gateStep: 'dummy' },
    include: { participants: true },
    orderBy: { gateIndex: 'asc' },
  });
  let won = 0;
  for (let i = 0; i < GATE_DUMMY_MATCHES; i++) {
    const m = played.find((p) => p.gateIndex === i);
    // Not played yet: the matches after it wait for it, whatever they gave. The ones before it won, it is needed now.
    if (!m || (m.status !== 'done' && m.status !== 'failed')) {
      if (m?.status === 'queued' && i > 0) effects.promote.push(m.id);
      break;
    }
    const seats = [...m.participants].sort((a, b) => a.seat - b.seat);
    if (m.status === 'done' && winsOutright(seats, sub.id)) {
      won++;
      continue;
    }
    await dropMatchesAfter(tx, sub.id, i);
    if (m.status === 'failed') {
      await reject(
        tx,
        effects,
        sub.id,
        { code: 'judge-error', params: { step: 'dummy', matchId: m.id, error: m.error ?? 'unknown error' } },
        { step: 'dummy', matchId: m.id, gateIndex: i, internal: true },
      );
      return;
    }
    const mine = seats.find((p) => p.submissionId === sub.id);
    const scores = seats.map((p) => p.score ?? 0);
    const myScore = mine?.score ?? 0;
    const best = Math.max(...seats.filter((p) => p !== mine).map((p) => p.score ?? 0));
    // The gate's own numbering (as the submission page shows it: match 1 to 4) and the match id (its URL).
    const why: Reason = {
      code: 'lost',
      params: {
        opponent,
        n: i + 1,
        of: GATE_DUMMY_MATCHES,
        matchId: m.id,
        seed: m.seed,
        seat: mine?.seat ?? null,
        tied: myScore === best,
        score: myScore,
        best,
        rank: mine?.rank ?? null,
        players: seats.length,
        froze: mine?.frozenReason ? frozenAt(mine) : null,
      },
    };
    await reject(tx, effects, sub.id, why, { step: 'dummy', matchId: m.id, gateIndex: i, seed: m.seed, seat: mine?.seat ?? null, scores });
    return;
  }
  if (won < GATE_DUMMY_MATCHES) {
    effects.events.push({ submissionId: String(sub.id), status: 'qualifying', reason: `won ${won} of ${GATE_DUMMY_MATCHES}` });
    return;
  }
  // A name locks once: another version that qualified first keeps it.
  if (sub.player.locked && sub.player.qualifiedSubmissionId !== sub.id) {
    await reject(
      tx,
      effects,
      sub.id,
      { code: 'name-locked', params: { version: sub.version, opponent, name: sub.player.name } },
      { step: 'dummy', locked: true },
    );
    return;
  }
  await qualify(tx, effects, sub);
}

/** Whether a Dummy match comes after the one that rejected the submission (its reasonDetail's gateIndex). */
function isAfterDecidingMatch(reasonDetail: unknown, gateIndex: number | null): boolean {
  if (gateIndex === null || !reasonDetail || typeof reasonDetail !== 'object') return false;
  const decided = (reasonDetail as { step?: unknown; gateIndex?: unknown }).gateIndex;
  return (reasonDetail as { step?: unknown }).step === 'dummy' && typeof decided === 'number' && gateIndex > decided;
}

/** The submission's seat is ranked strictly first (ties are not wins). */
function winsOutright(seats: { seat: number; submissionId: number | null; score: number | null }[], submissionId: number): boolean {
  const seat = seats.findIndex((p) => p.submissionId === submissionId);
  return (
    seat >= 0 &&
    isOutrightWinner(
      seats.map((p) => p.score ?? 0),
      seat,
    )
  );
}

/**
 * The Dummy matches after the deciding one (index `decided`) are not needed:
 * the recorded ones are deleted (participants and replay with them), the
 * others are cancelled (a queued one's job and row go after the commit; one
 * being played is dropped when its result comes, by gateOnMatch).
 */
async function dropMatchesAfter(tx: Tx, submissionId: number, decided: number): Promise<void> {
  const after = await tx.match.findMany({
    where: { submissionId, kind: 'gate', gateStep: 'dummy', gateIndex: { gt: decided } },
    select: { id: true, status: true },
  });
  const recorded = after.filter((m) => m.status === 'done' || m.status === 'failed').map((m) => m.id);
  // The queued ones: reject() cancels them.
  if (recorded.length > 0) await tx.match.deleteMany({ where: { id: { in: recorded } } });
}

/** Accepted: the name locks and the player enters the ranked pool. */
async function qualify(tx: Tx, effects: GateEffects, sub: LockedSubmission): Promise<void> {
  const now = new Date();
  await tx.submission.update({ where: { id: sub.id }, data: { status: 'qualified', reason: null, finishedAt: now } });
  await tx.playerName.update({
    where: { id: sub.playerId },
    data: { locked: true, lockedAt: now, qualifiedSubmissionId: sub.id, heldAt: sub.player.heldAt ?? now },
  });
  const start = initialRating();
  await tx.rating.upsert({
    where: { playerId_game: { playerId: sub.playerId, game: sub.game } },
    create: { playerId: sub.playerId, game: sub.game, mu: start.mu, sigma: start.sigma, ordinal: start.ordinal },
    update: {},
  });
  effects.events.push({ submissionId: String(sub.id), status: 'qualified' });
}

/**
 * A submission's status as it really is: `compiling` only while a worker runs
 * its check (the check job is active); `queued` while the check waits. The row
 * says `queued` until the check's verdict (workers never write it), so this
 * asks the checks' lane; without Redis the row's status stands.
 */
export async function liveStatus(queues: JudgeQueues | null, sub: { id: number; status: string; createdAt: Date }): Promise<string> {
  if (!queues || (sub.status !== 'queued' && sub.status !== 'compiling')) return sub.status;
  const jobId = checkJobId(sub.id, sub.createdAt);
  const read = async () => {
    const job = (await queues.checks.getJob(jobId)) ?? (await queues.matches.getJob(jobId));
    if (!job) return sub.status;
    return (await job.getState()) === 'active' ? 'compiling' : 'queued';
  };
  try {
    // Redis down holds commands until it is back: the page does not wait for it.
    return await withTimeout(read(), 500, "reading the compile check's state");
  } catch {
    return sub.status;
  }
}
