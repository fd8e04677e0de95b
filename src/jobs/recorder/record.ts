// Writing one result to Postgres. Idempotent: the match row is claimed with a
// conditional update (queued|running → done|failed) inside the transaction,
// so a result delivered twice (a re-run after a worker died, a retried job)
// is stored once. Side effects that are not database writes (queue the next
// gate matches, cancel the ones no longer needed, publish events) happen
// after the commit; if they are lost, the scheduler's sweep repairs them.

import type { Log } from '../../log.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { JudgeEvent, JudgeQueues, MatchResultFailed, MatchResultOk, ResultJobData } from '../../queue/index.ts';
import { matchJobId } from '../../queue/index.ts';
import { rateMatch, initialRating } from '../../domain/ratings/index.ts';
import { emptyEffects, gateOnCheck, gateOnMatch, type GateEffects, type GateOptions } from '../../domain/gate.ts';
import { enqueueMatch, promoteGateMatch } from '../../domain/match-setup.ts';
import { tournamentOnMatch } from '../../domain/tournaments.ts';
import { OPEN_MATCH } from '../../statuses.ts';

export interface RecordDeps {
  db: Db;
  queues: JudgeQueues;
  gate?: GateOptions;
  log?: Log;
}

const TX = { timeout: 60_000, maxWait: 60_000 } as const;

/** What the logs say about a recorded match. */
interface RecordedMatch {
  kind: string;
  submissionId: number | null;
  gateStep: string | null;
  gateIndex: number | null;
}

/** Records one result; returns what it did ('duplicate' when it was already stored). */
export async function recordResult(deps: RecordDeps, result: ResultJobData): Promise<'recorded' | 'duplicate' | 'unknown'> {
  let outcome: 'recorded' | 'duplicate' | 'unknown' = 'recorded';
  let effects: GateEffects;
  let match: RecordedMatch | null = null;
  if (result.type === 'check') {
    const submissionId = Number(result.submissionId);
    effects = await deps.db.$transaction((tx) => gateOnCheck(tx, submissionId, result.verdict, deps.gate), TX);
  } else {
    effects = await deps.db.$transaction(async (tx) => {
      const r = await recordMatch(tx, result, deps.gate);
      outcome = r.outcome;
      match = r.match;
      return r.effects;
    }, TX);
  }
  if (deps.log) await logRecorded(deps.log, deps.db, result, outcome, match, effects).catch(() => {});
  await applyEffects(deps, effects);
  return outcome;
}

/**
 * One line per step of a submission's gate and per verdict, each with its
 * submissionId, so `grep '"submissionId":42'` across the logs tells where a
 * submission is (and why it is stuck, when the last line is old).
 */
async function logRecorded(log: Log, db: Db, result: ResultJobData, outcome: string, match: RecordedMatch | null, effects: GateEffects) {
  if (result.type === 'check') {
    const v = result.verdict;
    log('compile check recorded', {
      submissionId: Number(result.submissionId),
      ok: v.ok,
      ...(v.ok ? { name: v.name } : { message: v.message.slice(0, 300) }),
      worker: result.worker,
    });
  } else {
    log(outcome === 'recorded' ? 'match recorded' : `match result ${outcome}, nothing stored`, {
      matchId: Number(result.matchId),
      ...(match
        ? { kind: match.kind, ...(match.submissionId !== null ? { submissionId: match.submissionId, step: match.gateStep, gateIndex: match.gateIndex } : {}) }
        : {}),
      status: result.ok ? 'done' : 'failed',
      ...(result.ok ? { durationMs: Math.round(result.durationMs), winner: result.winner } : { error: result.error.slice(0, 300) }),
      worker: result.worker,
      attempt: result.attempt,
      ...(outcome !== 'recorded' ? { level: 'warn' as const } : {}),
    });
  }
  if (effects.enqueue.length > 0) {
    const queued = await db.match.findMany({
      where: { id: { in: effects.enqueue } },
      select: { id: true, kind: true, submissionId: true, gateStep: true, gateIndex: true },
    });
    for (const m of queued)
      log(`${m.kind} match created`, { matchId: m.id, kind: m.kind, submissionId: m.submissionId, step: m.gateStep, gateIndex: m.gateIndex });
  }
  for (const id of effects.cancel) log('gate match cancelled', { matchId: id, level: 'debug' });
  for (const e of effects.events) {
    if (e.submissionId === undefined || e.matchId !== undefined) continue;
    const fields = { submissionId: Number(e.submissionId), status: e.status, ...(e.reason !== undefined ? { reason: e.reason.slice(0, 500) } : {}) };
    if (e.status === 'qualified' || e.status === 'rejected') log('submission verdict', { ...fields, verdict: e.status });
    else log('submission step', fields);
  }
}

async function recordMatch(tx: Tx, result: MatchResultOk | MatchResultFailed, gate: GateOptions | undefined) {
  const effects = emptyEffects();
  const matchId = Number(result.matchId);
  const match = await tx.match.findUnique({
    where: { id: matchId },
    select: { id: true, kind: true, game: true, submissionId: true, gateStep: true, gateIndex: true, attempts: true },
  });
  if (!match) return { outcome: 'unknown' as const, effects, match: null };
  const finishedAt = new Date();
  const claimed = await tx.match.updateMany({
    where: { id: matchId, status: { in: OPEN_MATCH } },
    data: result.ok
      ? {
          status: 'done',
          startedAt: new Date(result.startedAt),
          finishedAt,
          durationMs: Math.round(result.durationMs),
          winnerSeat: result.winner,
          attempts: Math.max(match.attempts, result.attempt),
          error: null,
        }
      : { status: 'failed', finishedAt, error: result.error, attempts: Math.max(match.attempts, result.attempt) },
  });
  const recorded: RecordedMatch = { kind: match.kind, submissionId: match.submissionId, gateStep: match.gateStep, gateIndex: match.gateIndex };
  if (claimed.count === 0) return { outcome: 'duplicate' as const, effects, match: recorded };

  const base: JudgeEvent = {
    matchId: String(matchId),
    status: result.ok ? 'done' : 'failed',
    ...(match.submissionId !== null ? { submissionId: String(match.submissionId) } : {}),
    ...(match.gateStep ? { step: match.gateStep } : {}),
  };
  if (result.ok) {
    // All seats in one statement, and the replay in one that answers nothing: a statement per seat
    // and create (which reads the row back, replay included) cost the recorder's process more CPU
    // than anything else it does for a match.
    const seats = result.players.map((p, seat) => ({
      seat,
      score: result.scores[seat] ?? null,
      rank: result.ranks[seat] ?? null,
      cpuMs: p.cpuMs,
      frozenRound: p.frozenRound,
      frozenReason: p.frozenReason,
      frozenMessage: p.frozenMessage,
      log: result.logs[seat] ?? '',
    }));
    await tx.$executeRawUnsafe(
      `UPDATE "Participant" AS p SET
         "score" = (v->>'score')::double precision, "rank" = (v->>'rank')::integer, "cpuMs" = (v->>'cpuMs')::double precision,
         "frozenRound" = (v->>'frozenRound')::integer, "frozenReason" = v->>'frozenReason', "frozenMessage" = v->>'frozenMessage', "log" = v->>'log'
       FROM jsonb_array_elements($2::jsonb) AS v
       WHERE p."matchId" = $1 AND p."seat" = (v->>'seat')::integer`,
      matchId,
      JSON.stringify(seats),
    );
    // The replay as the job carries it, base64, decoded by the database: a bytes parameter costs the
    // embedded database's driver about 40 ms of CPU for a 170 KiB Moria replay, this about 4 ms.
    await tx.$executeRawUnsafe(
      `INSERT INTO "Replay" ("matchId", "data", "sizeBytes") VALUES ($1, decode($2, 'base64'), $3)`,
      matchId,
      result.replayGz,
      Buffer.byteLength(result.replayGz, 'base64'),
    );
    if (match.kind === 'ranked') await rate(tx, matchId, match.game);
  }

  if (match.kind === 'gate') {
    const full = await tx.match.findUniqueOrThrow({ where: { id: matchId }, include: { participants: true } });
    const gateEffects = await gateOnMatch(tx, { ...full, status: result.ok ? 'done' : 'failed' }, gate);
    effects.enqueue.push(...gateEffects.enqueue);
    effects.lookahead.push(...gateEffects.lookahead);
    effects.promote.push(...gateEffects.promote);
    effects.cancel.push(...gateEffects.cancel);
    // A Dummy match the verdict did not need is deleted by the gate: not announced as done.
    effects.events.push(...(gateEffects.dropped ? [] : [base]), ...gateEffects.events);
  } else if (match.kind === 'tournament') {
    // The tournament moves on in this transaction (eliminations, the next round's draw); its new matches are queued after the commit.
    const next = await tournamentOnMatch(tx, matchId);
    effects.enqueue.push(...next.enqueue);
    effects.events.push(base, ...next.events);
  } else effects.events.push(base);
  return { outcome: 'recorded' as const, effects, match: recorded };
}

/** OpenSkill update of the players (built-ins padding a match are not rated). */
async function rate(tx: Tx, matchId: number, game: string) {
  const seats = await tx.participant.findMany({ where: { matchId, playerId: { not: null } }, orderBy: { seat: 'asc' } });
  const players = [...new Map(seats.map((s) => [s.playerId!, s])).values()]; // one rating per player, even if seated twice
  if (players.length === 0) return;
  const start = initialRating();
  const current = [];
  for (const p of players) {
    current.push(
      await tx.rating.upsert({
        where: { playerId_game: { playerId: p.playerId!, game } },
        create: { playerId: p.playerId!, game, mu: start.mu, sigma: start.sigma, ordinal: start.ordinal },
        update: {},
      }),
    );
  }
  const next =
    players.length >= 2
      ? rateMatch(
          current,
          players.map((p) => p.rank ?? 4),
        )
      : current;
  for (let i = 0; i < players.length; i++) {
    const r = next[i]!;
    await tx.rating.update({
      where: { id: current[i]!.id },
      data: { mu: r.mu, sigma: r.sigma, ordinal: r.ordinal, matchesPlayed: { increment: 1 } },
    });
    await tx.ratingHistory.create({ data: { playerId: players[i]!.playerId!, game, matchId, mu: r.mu, sigma: r.sigma, ordinal: r.ordinal } });
  }
}

export async function applyEffects(deps: RecordDeps, effects: GateEffects): Promise<void> {
  for (const id of effects.enqueue) {
    try {
      const lookahead = effects.lookahead.includes(id);
      await enqueueMatch(deps.db, deps.queues, id, { lookahead });
      deps.log?.('match queued', { matchId: id, ...(lookahead ? { lookahead } : {}), level: 'debug' });
    } catch (e) {
      deps.log?.(`could not queue match ${id} (the sweep will retry): ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const promote = effects.promote.length
    ? await deps.db.match.findMany({ where: { id: { in: effects.promote }, status: 'queued' }, select: { id: true, createdAt: true, submissionId: true } })
    : [];
  for (const m of promote) {
    try {
      if (await promoteGateMatch(deps.queues, m))
        deps.log?.('gate match needed now: moved up', { matchId: m.id, submissionId: m.submissionId, level: 'debug' });
    } catch (e) {
      // It still runs, later: behind the needed gate work, before every other kind.
      deps.log?.(`could not move gate match ${m.id} up: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const cancel = effects.cancel.length ? await deps.db.match.findMany({ where: { id: { in: effects.cancel } }, select: { id: true, createdAt: true } }) : [];
  for (const { id, createdAt } of cancel) {
    try {
      const jobId = matchJobId(id, createdAt);
      const job = await deps.queues.matches.getJob(jobId);
      const removed = job ? await deps.queues.matches.remove(jobId) : 1;
      // A match already being played is left to finish; it is recorded like any other.
      if (removed === 1) await deps.db.match.deleteMany({ where: { id, status: 'queued' } });
    } catch (e) {
      deps.log?.(`could not cancel match ${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (const event of effects.events) await deps.queues.publish(event).catch(() => {});
}
