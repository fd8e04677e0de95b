// Official tournaments and representatives (the rules themselves are in
// tournament-rules.ts). No HTTP here: routes, pages, the recorder and the
// scheduler call these functions.
//
// How a tournament moves, and why a crash anywhere loses nothing:
// - Every step runs in one transaction that first locks the tournament's row
//   (SELECT ... FOR UPDATE), so two processes never take the same step.
// - start (scheduled → running) is claimed by the status: the entries freeze
//   once (one per user, unique (tournament, user)), and round 1 is drawn.
// - A round's groups are unique (tournament, round, group) and each group's
//   match is unique (group, attempt): a step that runs twice finds them and
//   creates nothing.
// - The recorder calls tournamentOnMatch in the transaction that records a
//   tournament match: when the round's last match is in, eliminations are
//   written and the next round is drawn in that same transaction. The match
//   ids to queue are returned as effects, queued after the commit; a lost
//   queue write is repaired by the sweep (queued match, no job), and a lost
//   step by the scheduler's tournament loop, which calls advance() on every
//   running tournament (it does whatever the current round still needs).
// - While paused, advance() does nothing, new matches are not queued, and the
//   queued ones are held back (their jobs removed; the sweep leaves them);
//   resume queues them again.
// - A match the judge could not play (status failed) stops its round until an
//   admin reruns it: a new attempt of the same group, same seed. A played
//   match is a result, whatever a bot did in it, and cannot be rerun.

import { randomInt } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';
import { loadGames } from '../games/registry.ts';
import { GameConfigError } from '../sdk/types.ts';
import type { JudgeEvent } from '../queue/index.ts';
import { createMatch, type SeatRef } from './match-setup.ts';
import { recordAudit } from './audit.ts';
import { playCommandLine } from './play-line.ts';
import { conflict, DomainError, invalid, notFound } from './errors.ts';
import { toCsv } from './exports.ts';
import { MAX_ROUNDS, SEATS, TOURNAMENT_DUMMY, drawRound, orderStandings, roundEliminations, type SeatResult } from './tournament-rules.ts';

export type TournamentStatus = 'scheduled' | 'running' | 'paused' | 'finished' | 'cancelled';
/** Statuses in which the seed is published (the entries froze). */
export const STARTED_STATUSES: TournamentStatus[] = ['running', 'paused', 'finished'];
/** From the freeze to the finish: representatives of the game cannot change. */
export const FROZEN_STATUSES: TournamentStatus[] = ['running', 'paused'];

export interface TournamentEffects {
  /** Matches to queue after the commit. */
  enqueue: number[];
  /** Matches whose queued jobs should be held back (pause). */
  holdBack: number[];
  events: JudgeEvent[];
}

export const noEffects = (): TournamentEffects => ({ enqueue: [], holdBack: [], events: [] });

const TX = { timeout: 60_000, maxWait: 60_000 } as const;

const forbidden = (message: string) => new DomainError('forbidden', message, 'forbidden');

// ---------------------------------------------------------------- representatives

interface Eligible {
  playerId: number;
  name: string;
  submissionId: number;
  qualifiedAt: Date | null;
}

/** A user's players in a game that may represent them (qualified, not disabled), latest qualified first. */
async function eligiblePlayers(db: Db | Tx, userId: number, game?: string): Promise<(Eligible & { game: string })[]> {
  const rows = await db.playerName.findMany({
    where: {
      ownerId: userId,
      ...(game ? { game } : {}),
      owner: { disabledAt: null },
      qualifiedSubmission: { is: { disabledAt: null } },
    },
    select: { id: true, game: true, name: true, qualifiedSubmission: { select: { id: true, finishedAt: true } }, lockedAt: true },
  });
  return rows
    .map((r) => ({
      playerId: r.id,
      game: r.game,
      name: r.name,
      submissionId: r.qualifiedSubmission!.id,
      qualifiedAt: r.qualifiedSubmission!.finishedAt ?? r.lockedAt,
    }))
    .sort((a, b) => (b.qualifiedAt?.getTime() ?? 0) - (a.qualifiedAt?.getTime() ?? 0) || b.submissionId - a.submissionId);
}

/** The tournament of a game that froze its entries and has not finished, if any. */
export async function frozenTournament(db: Db | Tx, game: string) {
  return db.tournament.findFirst({
    where: { game, status: { in: FROZEN_STATUSES } },
    select: { id: true, name: true, status: true, freezeAt: true },
    orderBy: { id: 'asc' },
  });
}

export interface RepresentativeView {
  game: string;
  /** The player that would enter now: the chosen one, else the latest qualified. */
  current: { name: string; playerId: number; submissionId: number } | null;
  /** Whether the user picked it (false: the default, their latest qualified player). */
  chosen: boolean;
  players: { name: string; playerId: number; submissionId: number }[];
  /** A tournament of the game is under way: picking is closed until it finishes. */
  frozenBy: { id: number; name: string } | null;
}

/** Per game where the user has a player that may represent them. */
export async function listRepresentatives(db: Db, userId: number): Promise<RepresentativeView[]> {
  const eligible = await eligiblePlayers(db, userId);
  const chosen = await db.representative.findMany({ where: { userId } });
  const games = [...new Set(eligible.map((e) => e.game))].sort();
  const out: RepresentativeView[] = [];
  for (const game of games) {
    const players = eligible.filter((e) => e.game === game);
    const pick = chosen.find((c) => c.game === game);
    const picked = pick ? players.find((p) => p.playerId === pick.playerId) : undefined;
    const current = picked ?? players[0] ?? null;
    const frozen = await frozenTournament(db, game);
    out.push({
      game,
      current: current ? { name: current.name, playerId: current.playerId, submissionId: current.submissionId } : null,
      chosen: !!picked,
      players: players.map((p) => ({ name: p.name, playerId: p.playerId, submissionId: p.submissionId })),
      frozenBy: frozen ? { id: frozen.id, name: frozen.name } : null,
    });
  }
  return out;
}

/** The user picks the player representing them in the game (by name). */
export async function setRepresentative(db: Db, userId: number, game: string, playerName: string): Promise<RepresentativeView> {
  await db.$transaction(async (tx) => {
    // Waits for a freeze in progress (it holds its tournament's row), so a pick is either in its snapshot or refused.
    await tx.$queryRaw`SELECT id FROM "Tournament" WHERE game = ${game} AND status::text IN ('scheduled', 'running', 'paused') FOR SHARE`;
    const frozen = await frozenTournament(tx, game);
    if (frozen) {
      throw conflict(
        `representatives of ${game} are frozen: tournament "${frozen.name}" (#${frozen.id}) froze its entries and has not finished; pick again once it is over`,
        'representatives-frozen',
      );
    }
    const player = await tx.playerName.findUnique({
      where: { game_nameLower: { game, nameLower: playerName.toLowerCase() } },
      select: { id: true, ownerId: true, name: true },
    });
    if (!player) throw notFound(`no player ${playerName} in ${game}`);
    if (player.ownerId !== userId) throw forbidden(`${player.name} is not your player`);
    const eligible = await eligiblePlayers(tx, userId, game);
    if (!eligible.some((e) => e.playerId === player.id)) {
      throw conflict(
        `${player.name} cannot represent you: only a qualified player whose submission is not disabled may (and your account must not be disabled)`,
        'not-eligible',
      );
    }
    await tx.representative.upsert({
      where: { userId_game: { userId, game } },
      create: { userId, game, playerId: player.id },
      update: { playerId: player.id },
    });
  }, TX);
  const views = await listRepresentatives(db, userId);
  return views.find((v) => v.game === game)!;
}

// ---------------------------------------------------------------- creating

export interface NewTournament {
  game: string;
  name: string;
  freezeAt: Date;
  config?: Record<string, unknown> | null;
  /** 0..2^31-1; drawn when not given. */
  seed?: number;
}

export const NAME_MAX = 100;

const checkName = (raw: string) => {
  const name = raw.trim();
  if (!name) throw invalid('the tournament needs a name', 'name');
  if (name.length > NAME_MAX) throw invalid(`name too long: ${name.length} characters, at most ${NAME_MAX}`, 'name');
  return name;
};
const checkFreezeAt = (d: Date) => {
  if (Number.isNaN(d.getTime())) throw invalid('freezeAt is not a date', 'freezeAt');
  return d;
};
const checkSeed = (seed: number) => {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff) throw invalid('seed: an integer 0..2147483647', 'seed');
  return seed;
};
/** The config overrides as kept (null: the game's defaults), checked by the game. */
function checkConfig(
  game: { parseConfig(c: Record<string, unknown>): unknown },
  raw: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  const config = raw && Object.keys(raw).length > 0 ? raw : null;
  if (config) {
    try {
      game.parseConfig(config);
    } catch (e) {
      if (e instanceof GameConfigError) throw invalid(`bad config: ${e.message}`, 'config');
      throw e;
    }
  }
  return config;
}

export async function createTournament(db: Db, actorId: number | null, input: NewTournament) {
  const name = checkName(input.name);
  const games = await loadGames();
  const game = games.get(input.game);
  if (!game) throw invalid(`unknown game ${input.game}: one of ${[...games.keys()].join(', ')}`, 'game');
  checkFreezeAt(input.freezeAt);
  const config = checkConfig(game, input.config);
  const seed = input.seed !== undefined ? checkSeed(input.seed) : randomInt(0, 0x7fffffff);
  return db.$transaction(async (tx) => {
    const t = await tx.tournament.create({
      data: { game: game.id, name, freezeAt: input.freezeAt, seed, createdById: actorId, ...(config ? { config: config as Prisma.InputJsonValue } : {}) },
    });
    await recordAudit(tx, {
      actorId,
      action: 'tournament.create',
      targetType: 'tournament',
      targetId: t.id,
      detail: { game: t.game, name, freezeAt: t.freezeAt.toISOString(), config, seedGiven: input.seed !== undefined },
    });
    return t;
  }, TX);
}

// ---------------------------------------------------------------- running

type LockedTournament = Awaited<ReturnType<typeof lockTournament>>;

async function lockTournament(tx: Tx, id: number) {
  await tx.$queryRaw`SELECT id FROM "Tournament" WHERE id = ${id} FOR UPDATE`;
  return tx.tournament.findUnique({ where: { id } });
}

export interface PickedEntry {
  userId: number;
  submissionId: number;
  playerId: number;
  name: string;
}

/** The entries a game's tournament would freeze now: one per user (by id), their representative (or latest qualified player), skipping disabled users and submissions. */
async function pickEntries(tx: Tx | Db, game: string): Promise<PickedEntry[]> {
  const players = await tx.playerName.findMany({
    where: { game, owner: { disabledAt: null }, qualifiedSubmission: { is: { disabledAt: null } } },
    select: { id: true, name: true, ownerId: true, lockedAt: true, qualifiedSubmission: { select: { id: true, finishedAt: true } } },
  });
  const chosen = new Map((await tx.representative.findMany({ where: { game } })).map((r) => [r.userId, r.playerId]));
  const byUser = new Map<number, typeof players>();
  for (const p of players) byUser.set(p.ownerId, [...(byUser.get(p.ownerId) ?? []), p]);
  const users = [...byUser.keys()].sort((a, b) => a - b);
  const at = (p: (typeof players)[number]) => (p.qualifiedSubmission!.finishedAt ?? p.lockedAt)?.getTime() ?? 0;
  return users.map((userId) => {
    const mine = byUser.get(userId)!.sort((a, b) => at(b) - at(a) || b.qualifiedSubmission!.id - a.qualifiedSubmission!.id);
    const pick = mine.find((p) => p.id === chosen.get(userId)) ?? mine[0]!;
    return { userId, submissionId: pick.qualifiedSubmission!.id, playerId: pick.id, name: pick.name };
  });
}

/** Freezes the entries (pickEntries, in order). */
async function freezeEntries(tx: Tx, t: NonNullable<LockedTournament>): Promise<number> {
  const picked = await pickEntries(tx, t.game);
  for (const [entryIndex, p] of picked.entries()) await tx.tournamentEntry.create({ data: { tournamentId: t.id, entryIndex, ...p } });
  return picked.length;
}

/** Freezes the entries and draws round 1 (the scheduler at freezeAt, or an admin's "start now"). Idempotent. */
export async function startTournament(tx: Tx, id: number, actorId?: number | null): Promise<TournamentEffects> {
  const effects = noEffects();
  const t = await lockTournament(tx, id);
  if (!t) throw notFound(`no tournament ${id}`);
  if (t.status !== 'scheduled') {
    if (actorId !== undefined) throw conflict(`tournament ${id} already started (${t.status})`, 'already-started');
    return effects;
  }
  const entries = await freezeEntries(tx, t);
  await tx.tournament.update({ where: { id }, data: { status: 'running', startedAt: new Date() } });
  if (actorId !== undefined) await recordAudit(tx, { actorId, action: 'tournament.start', targetType: 'tournament', targetId: id, detail: { entries } });
  return advanceLocked(tx, id, effects);
}

/** Starts every scheduled tournament whose freeze time has come. */
export async function startDueTournaments(db: Db, now = new Date()): Promise<TournamentEffects> {
  const due = await db.tournament.findMany({ where: { status: 'scheduled', freezeAt: { lte: now } }, select: { id: true }, orderBy: { id: 'asc' } });
  const all = noEffects();
  for (const { id } of due) merge(all, await db.$transaction((tx) => startTournament(tx, id), TX));
  return all;
}

function merge(into: TournamentEffects, e: TournamentEffects) {
  into.enqueue.push(...e.enqueue);
  into.holdBack.push(...e.holdBack);
  into.events.push(...e.events);
}

/** Whatever the current round still needs (the scheduler's repair; idempotent). */
export async function advanceTournament(db: Db, id: number): Promise<TournamentEffects> {
  return db.$transaction((tx) => advance(tx, id), TX);
}

export async function advance(tx: Tx, id: number): Promise<TournamentEffects> {
  const t = await lockTournament(tx, id);
  if (!t) return noEffects();
  return advanceLocked(tx, id, noEffects());
}

/** The recorder: a tournament match was recorded (done or failed), in the recording transaction. */
export async function tournamentOnMatch(tx: Tx, matchId: number): Promise<TournamentEffects> {
  const m = await tx.match.findUnique({ where: { id: matchId }, select: { tournamentId: true } });
  if (!m?.tournamentId) return noEffects();
  return advance(tx, m.tournamentId);
}

interface GroupRow {
  id: number;
  round: number;
  groupIndex: number;
  final: boolean;
  entries: Prisma.JsonValue;
  seed: number;
  settledAt: Date | null;
  matches: { id: number; status: string; tournamentAttempt: number | null; participants: { seat: number; rank: number | null; score: number | null }[] }[];
}

export const groupSeats = (g: { entries: Prisma.JsonValue }): (number | null)[] =>
  Array.isArray(g.entries) ? g.entries.map((e) => (typeof e === 'number' ? e : null)) : [];

/** The group's current match: its latest attempt. */
export const currentMatch = <M extends { tournamentAttempt: number | null }>(g: { matches: M[] }): M | undefined =>
  [...g.matches].sort((a, b) => (b.tournamentAttempt ?? 0) - (a.tournamentAttempt ?? 0))[0];

function seatResults(g: GroupRow): SeatResult[] {
  const m = currentMatch(g)!;
  return groupSeats(g).map((entry, seat) => {
    const p = m.participants.find((x) => x.seat === seat);
    return { entry, rank: p?.rank ?? null, score: p?.score ?? null };
  });
}

async function advanceLocked(tx: Tx, id: number, effects: TournamentEffects): Promise<TournamentEffects> {
  const t = (await tx.tournament.findUnique({ where: { id } }))!;
  if (t.status !== 'running') return effects;
  const entries = await tx.tournamentEntry.findMany({ where: { tournamentId: id }, orderBy: { entryIndex: 'asc' } });
  if (t.round === 0) {
    if (entries.length <= 1) return finish(tx, t.id, effects);
    return draw(
      tx,
      t,
      1,
      entries.map((e) => e.entryIndex),
      entries,
      effects,
    );
  }
  const groups: GroupRow[] = await tx.tournamentGroup.findMany({
    where: { tournamentId: id, round: t.round },
    orderBy: { groupIndex: 'asc' },
    include: { matches: { select: { id: true, status: true, tournamentAttempt: true, participants: { select: { seat: true, rank: true, score: true } } } } },
  });
  // A group without its match (cannot happen within one transaction; kept as a repair).
  for (const g of groups.filter((x) => x.matches.length === 0)) effects.enqueue.push(await createGroupMatch(tx, t, g, entries, 0));
  if (groups.length === 0 || groups.some((g) => currentMatch(g)?.status !== 'done')) return effects;

  const fallen = roundEliminations(groups[0]!.final, groups.map(seatResults));
  const now = new Date();
  if (fallen.length > 0)
    await tx.tournamentEntry.updateMany({ where: { tournamentId: id, entryIndex: { in: fallen }, eliminatedRound: null }, data: { eliminatedRound: t.round } });
  await tx.tournamentGroup.updateMany({ where: { tournamentId: id, round: t.round, settledAt: null }, data: { settledAt: now } });
  // A player whose user or submission an admin disabled since the freeze is withdrawn: it falls in the round it last played.
  const left = entries.filter((e) => e.eliminatedRound === null && !fallen.includes(e.entryIndex));
  const disabled = await tx.submission.findMany({
    where: { id: { in: left.map((e) => e.submissionId) }, OR: [{ disabledAt: { not: null } }, { user: { disabledAt: { not: null } } }] },
    select: { id: true },
  });
  const withdrawn = left.filter((e) => disabled.some((d) => d.id === e.submissionId)).map((e) => e.entryIndex);
  if (withdrawn.length > 0)
    await tx.tournamentEntry.updateMany({
      where: { tournamentId: id, entryIndex: { in: withdrawn }, eliminatedRound: null },
      data: { eliminatedRound: t.round },
    });
  const active = left.filter((e) => !withdrawn.includes(e.entryIndex)).map((e) => e.entryIndex);
  if (active.length <= 1 || t.round >= MAX_ROUNDS) return finish(tx, t.id, effects);
  return draw(tx, t, t.round + 1, active, entries, effects);
}

type EntryRow = { entryIndex: number; submissionId: number; playerId: number; name: string };

async function draw(
  tx: Tx,
  t: { id: number; seed: number; game: string; config: Prisma.JsonValue },
  round: number,
  active: number[],
  entries: EntryRow[],
  effects: TournamentEffects,
) {
  const drawn = drawRound(t.seed, round, active, SEATS);
  for (const [groupIndex, g] of drawn.groups.entries()) {
    const group = await tx.tournamentGroup.create({
      data: { tournamentId: t.id, round, groupIndex, final: drawn.final, entries: g.seats, seed: g.seed },
    });
    effects.enqueue.push(await createGroupMatch(tx, t, group, entries, 0));
  }
  await tx.tournament.update({ where: { id: t.id }, data: { round } });
  return effects;
}

async function createGroupMatch(
  tx: Tx,
  t: { id: number; game: string; config: Prisma.JsonValue },
  g: { id: number; seed: number; entries: Prisma.JsonValue },
  entries: EntryRow[],
  attempt: number,
): Promise<number> {
  const byIndex = new Map(entries.map((e) => [e.entryIndex, e]));
  const seats: SeatRef[] = groupSeats(g).map((i) => {
    const e = i === null ? undefined : byIndex.get(i);
    return e ? { submissionId: e.submissionId, playerId: e.playerId, name: e.name } : { builtinName: TOURNAMENT_DUMMY };
  });
  const config = t.config && typeof t.config === 'object' && !Array.isArray(t.config) ? (t.config as Record<string, unknown>) : null;
  const matchId = await createMatch(tx, { game: t.game, kind: 'tournament', seed: g.seed, config, seats });
  await tx.match.update({ where: { id: matchId }, data: { tournamentId: t.id, tournamentGroupId: g.id, tournamentAttempt: attempt } });
  return matchId;
}

async function finish(tx: Tx, id: number, effects: TournamentEffects): Promise<TournamentEffects> {
  const standings = await computeStandings(tx, id);
  for (const [i, s] of standings.entries()) await tx.tournamentEntry.update({ where: { id: s.id }, data: { place: i + 1 } });
  await tx.tournament.update({ where: { id }, data: { status: 'finished', finishedAt: new Date() } });
  return effects;
}

export interface Standing {
  id: number;
  entry: number;
  name: string;
  playerId: number;
  submissionId: number;
  userId: number;
  eliminatedRound: number | null;
  lastRank: number | null;
  lastScore: number | null;
}

/** The standings as they stand (final once the tournament finished). */
export async function computeStandings(db: Db | Tx, id: number): Promise<Standing[]> {
  const entries = await db.tournamentEntry.findMany({ where: { tournamentId: id }, orderBy: { entryIndex: 'asc' } });
  const groups = await db.tournamentGroup.findMany({
    where: { tournamentId: id },
    orderBy: [{ round: 'asc' }, { groupIndex: 'asc' }],
    include: { matches: { select: { status: true, tournamentAttempt: true, participants: { select: { seat: true, rank: true, score: true } } } } },
  });
  const last = new Map<number, { rank: number | null; score: number | null }>();
  for (const g of groups) {
    const m = currentMatch(g);
    if (m?.status !== 'done') continue;
    for (const [seat, entry] of groupSeats(g).entries()) {
      if (entry === null) continue;
      const p = m.participants.find((x) => x.seat === seat);
      last.set(entry, { rank: p?.rank ?? null, score: p?.score ?? null });
    }
  }
  return orderStandings(
    entries.map((e) => ({
      id: e.id,
      entry: e.entryIndex,
      name: e.name,
      playerId: e.playerId,
      submissionId: e.submissionId,
      userId: e.userId,
      eliminatedRound: e.eliminatedRound,
      lastRank: last.get(e.entryIndex)?.rank ?? null,
      lastScore: last.get(e.entryIndex)?.score ?? null,
    })),
  );
}

// ---------------------------------------------------------------- admin actions

/** "Start now": freeze the entries and draw round 1 before the freeze time. */
export async function startNow(db: Db, actorId: number, id: number): Promise<TournamentEffects> {
  return db.$transaction((tx) => startTournament(tx, id, actorId), TX);
}

/** Moves a tournament from one status to the other (audited) and returns its queued matches. */
async function switchStatus(tx: Tx, actorId: number, id: number, from: 'running' | 'paused', to: 'running' | 'paused'): Promise<number[]> {
  const t = await lockTournament(tx, id);
  if (!t) throw notFound(`no tournament ${id}`);
  if (t.status !== from) {
    const verb = to === 'paused' ? 'paused' : 'resumed';
    throw conflict(`tournament ${id} is ${t.status}: only a ${from} tournament can be ${verb}`, `not-${from}`);
  }
  await tx.tournament.update({ where: { id }, data: { status: to } });
  await recordAudit(tx, { actorId, action: to === 'paused' ? 'tournament.pause' : 'tournament.resume', targetType: 'tournament', targetId: id });
  const queued = await tx.match.findMany({ where: { tournamentId: id, status: 'queued' }, select: { id: true } });
  return queued.map((m) => m.id);
}

/** No new match is queued; the queued ones are held back (their jobs removed after the commit). */
export async function pauseTournament(db: Db, actorId: number, id: number): Promise<TournamentEffects> {
  return db.$transaction(async (tx) => ({ ...noEffects(), holdBack: await switchStatus(tx, actorId, id, 'running', 'paused') }), TX);
}

/** Back to running: the held-back matches are queued again and the current round moves on. */
export async function resumeTournament(db: Db, actorId: number, id: number): Promise<TournamentEffects> {
  return db.$transaction(async (tx) => {
    const effects = noEffects();
    effects.enqueue.push(...(await switchStatus(tx, actorId, id, 'paused', 'running')));
    return advanceLocked(tx, id, effects);
  }, TX);
}

/** Plays again a match the judge could not play (status failed): a new attempt of its group, same seed. */
export async function rerunMatch(db: Db, actorId: number, id: number, matchId: number): Promise<{ matchId: number; effects: TournamentEffects }> {
  return db.$transaction(async (tx) => {
    const t = await lockTournament(tx, id);
    if (!t) throw notFound(`no tournament ${id}`);
    const m = await tx.match.findUnique({
      where: { id: matchId },
      select: { id: true, status: true, tournamentId: true, tournamentGroupId: true, tournamentAttempt: true },
    });
    if (!m || m.tournamentId !== id || m.tournamentGroupId === null) throw notFound(`tournament ${id} has no match ${matchId}`);
    if (m.status === 'done') {
      throw conflict(
        `match ${matchId} was played: its result stands (a bot that froze, crashed or lost is a result, not a fault of the judge); only a failed match can be rerun`,
        'match-played',
      );
    }
    if (m.status !== 'failed') throw conflict(`match ${matchId} is ${m.status}: it has not failed`, 'match-open');
    const group = (await tx.tournamentGroup.findUnique({
      where: { id: m.tournamentGroupId },
      include: { matches: { select: { id: true, tournamentAttempt: true } } },
    }))!;
    const latest = currentMatch(group)!;
    if (latest.id !== m.id) throw conflict(`match ${matchId} was already rerun as match ${latest.id}`, 'already-rerun');
    const entries = await tx.tournamentEntry.findMany({ where: { tournamentId: id } });
    const newId = await createGroupMatch(tx, t, group, entries, (m.tournamentAttempt ?? 0) + 1);
    await recordAudit(tx, {
      actorId,
      action: 'tournament.rerun',
      targetType: 'tournament',
      targetId: id,
      detail: { failedMatchId: matchId, newMatchId: newId },
    });
    const effects = noEffects();
    if (t.status === 'running') effects.enqueue.push(newId);
    return { matchId: newId, effects };
  }, TX);
}

// ---------------------------------------------------------------- managing a planned tournament

/** A planned tournament, locked: not-found, or a 409 (code `code`) when it is not `want`. */
async function lockedIn(tx: Tx, id: number, want: TournamentStatus, refusal: (status: string) => DomainError) {
  const t = await lockTournament(tx, id);
  if (!t) throw notFound(`no tournament ${id}`);
  if (t.status !== want) throw refusal(t.status);
  return t;
}

const notPlanned = (id: number, what: string) => (status: string) =>
  conflict(`tournament ${id} is ${status}: only a planned tournament (its entries not frozen yet) can be ${what}`, 'not-scheduled');

/** Cancel before the start: it never freezes nor plays (status cancelled). Audited. */
export async function cancelTournament(db: Db, actorId: number | null, id: number) {
  return db.$transaction(async (tx) => {
    const t = await lockedIn(tx, id, 'scheduled', notPlanned(id, 'cancelled'));
    const done = await tx.tournament.update({ where: { id }, data: { status: 'cancelled', cancelledAt: new Date() } });
    await recordAudit(tx, {
      actorId,
      action: 'tournament.cancel',
      targetType: 'tournament',
      targetId: id,
      detail: { name: t.name, game: t.game, freezeAt: t.freezeAt.toISOString() },
    });
    return done;
  }, TX);
}

/** Deletes a cancelled tournament (it has no entry, group nor match). Audited. */
export async function deleteTournament(db: Db, actorId: number | null, id: number): Promise<void> {
  await db.$transaction(async (tx) => {
    const t = await lockedIn(tx, id, 'cancelled', (status) =>
      conflict(`tournament ${id} is ${status}: only a cancelled tournament can be deleted (cancel it first, before it starts)`, 'not-cancelled'),
    );
    if ((await tx.match.count({ where: { tournamentId: id } })) > 0) throw conflict(`tournament ${id} has matches: it stays on record`, 'has-matches');
    await tx.tournament.delete({ where: { id } });
    await recordAudit(tx, {
      actorId,
      action: 'tournament.delete',
      targetType: 'tournament',
      targetId: id,
      detail: { name: t.name, game: t.game, cancelledAt: ISO(t.cancelledAt) },
    });
  }, TX);
}

export interface TournamentEdit {
  name?: string;
  freezeAt?: Date;
  /** null or {}: the game's defaults. */
  config?: Record<string, unknown> | null;
  seed?: number;
}

/** Edits a planned tournament (name, freeze time, config, seed) before its entries freeze. Audited with what changed (never the seed's value: it stays secret until the start). */
export async function editTournament(db: Db, actorId: number | null, id: number, edit: TournamentEdit) {
  const games = await loadGames();
  return db.$transaction(async (tx) => {
    const t = await lockedIn(tx, id, 'scheduled', notPlanned(id, 'edited'));
    const game = games.get(t.game);
    if (!game) throw conflict(`the game ${t.game} is no longer installed`, 'game');
    const data: Prisma.TournamentUpdateInput = {};
    const changed: Record<string, unknown> = {};
    if (edit.name !== undefined) {
      const name = checkName(edit.name);
      if (name !== t.name) {
        data.name = name;
        changed.name = { from: t.name, to: name };
      }
    }
    if (edit.freezeAt !== undefined && checkFreezeAt(edit.freezeAt).getTime() !== t.freezeAt.getTime()) {
      data.freezeAt = edit.freezeAt;
      changed.freezeAt = { from: t.freezeAt.toISOString(), to: edit.freezeAt.toISOString() };
    }
    if (edit.config !== undefined) {
      const config = checkConfig(game, edit.config);
      if (JSON.stringify(config) !== JSON.stringify(t.config ?? null)) {
        data.config = config === null ? Prisma.DbNull : (config as Prisma.InputJsonValue);
        changed.config = { from: t.config ?? null, to: config };
      }
    }
    if (edit.seed !== undefined && checkSeed(edit.seed) !== t.seed) {
      data.seed = edit.seed;
      changed.seed = 'changed';
    }
    if (Object.keys(changed).length === 0) return t;
    const done = await tx.tournament.update({ where: { id }, data });
    await recordAudit(tx, { actorId, action: 'tournament.edit', targetType: 'tournament', targetId: id, detail: changed });
    return done;
  }, TX);
}

export interface EntryPreview {
  /** The order the entries would freeze in (entry 0, 1, ...). */
  entry: number;
  name: string;
  owner: string;
  playerId: number;
  submissionId: number;
}

/** The entries a planned tournament would freeze if its freeze came now (nothing is written). */
export async function previewEntries(db: Db, id: number): Promise<{ id: number; status: TournamentStatus; at: string; entries: EntryPreview[] }> {
  const t = await db.tournament.findUnique({ where: { id }, select: { id: true, game: true, status: true } });
  if (!t) throw notFound(`no tournament ${id}`);
  if (t.status !== 'scheduled') throw notPlanned(id, 'previewed (its entries are the frozen ones)')(t.status);
  const picked = await pickEntries(db, t.game);
  const owners = new Map(
    (await db.user.findMany({ where: { id: { in: picked.map((p) => p.userId) } }, select: { id: true, username: true } })).map((u) => [u.id, u.username]),
  );
  return {
    id,
    status: t.status,
    at: new Date().toISOString(),
    entries: picked.map((p, entry) => ({ entry, name: p.name, owner: owners.get(p.userId) ?? '?', playerId: p.playerId, submissionId: p.submissionId })),
  };
}

// ---------------------------------------------------------------- reading

const ISO = (d: Date | null) => (d ? d.toISOString() : null);

/** What every view of a tournament shows of it. */
function summary(t: {
  id: number;
  game: string;
  name: string;
  status: string;
  freezeAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  cancelledAt: Date | null;
  round: number;
}) {
  return {
    id: t.id,
    game: t.game,
    name: t.name,
    status: t.status as TournamentStatus,
    freezeAt: t.freezeAt.toISOString(),
    startedAt: ISO(t.startedAt),
    finishedAt: ISO(t.finishedAt),
    cancelledAt: ISO(t.cancelledAt),
    round: t.round,
  };
}

export async function listTournaments(db: Db) {
  const rows = await db.tournament.findMany({
    orderBy: { id: 'desc' },
    include: { _count: { select: { entries: true } }, entries: { where: { place: 1 }, select: { name: true } } },
  });
  return rows.map((t) => ({
    ...summary(t),
    entries: t._count.entries,
    champion: t.entries[0]?.name ?? null,
  }));
}

/** The shell line that replays a match with `arbiter play` (src/domain/play-line.ts; the players' files named after them). */
export { playCommandLine };

export interface TournamentSeatView {
  seat: number;
  entry: number | null;
  name: string;
  builtin: boolean;
  rank: number | null;
  score: number | null;
  frozen: boolean;
  /** Whether the player fell in this round (knockout) or in this match (final phase). */
  fell: boolean;
}

/** Everything the tournament page and GET /api/tournaments/:id show. The seed is null until the tournament starts. */
export async function tournamentDetail(db: Db, id: number) {
  const t = await db.tournament.findUnique({ where: { id } });
  if (!t) throw notFound(`no tournament ${id}`);
  const started = STARTED_STATUSES.includes(t.status as TournamentStatus);
  const entries = await db.tournamentEntry.findMany({
    where: { tournamentId: id },
    orderBy: { entryIndex: 'asc' },
    include: { user: { select: { username: true } } },
  });
  const byIndex = new Map(entries.map((e) => [e.entryIndex, e]));
  const groups = await db.tournamentGroup.findMany({
    where: { tournamentId: id },
    orderBy: [{ round: 'asc' }, { groupIndex: 'asc' }],
    include: {
      matches: {
        orderBy: { tournamentAttempt: 'asc' },
        select: {
          id: true,
          seed: true,
          status: true,
          error: true,
          tournamentAttempt: true,
          replay: { select: { sizeBytes: true } },
          participants: { select: { seat: true, name: true, builtinName: true, rank: true, score: true, frozenReason: true } },
        },
      },
    },
  });
  const config = t.config && typeof t.config === 'object' && !Array.isArray(t.config) ? (t.config as Record<string, unknown>) : null;
  const rounds = new Map<number, { round: number; final: boolean; groups: unknown[] }>();
  for (const g of groups) {
    const seats = groupSeats(g);
    const m = currentMatch(g);
    const fellHere = (entry: number | null) => entry !== null && byIndex.get(entry)?.eliminatedRound === g.round;
    const seatViews: TournamentSeatView[] = seats.map((entry, seat) => {
      const p = m?.participants.find((x) => x.seat === seat);
      return {
        seat,
        entry,
        name: entry === null ? TOURNAMENT_DUMMY : (byIndex.get(entry)?.name ?? '?'),
        builtin: entry === null,
        rank: m?.status === 'done' ? (p?.rank ?? null) : null,
        score: m?.status === 'done' ? (p?.score ?? null) : null,
        frozen: !!p?.frozenReason,
        fell: fellHere(entry),
      };
    });
    const r = rounds.get(g.round) ?? { round: g.round, final: g.final, groups: [] };
    r.groups.push({
      group: g.groupIndex,
      seed: g.seed,
      settled: g.settledAt !== null,
      seats: seatViews,
      match: m
        ? {
            id: m.id,
            status: m.status,
            attempt: m.tournamentAttempt ?? 0,
            error: m.error,
            replay: m.replay ? { url: `/api/matches/${m.id}/replay`, sizeBytes: m.replay.sizeBytes } : null,
          }
        : null,
      failedAttempts: g.matches.filter((x) => x !== m).map((x) => ({ id: x.id, status: x.status, error: x.error })),
      play: playCommandLine(
        t.game,
        g.seed,
        seatViews.map((s) => ({ name: s.name, builtin: s.builtin })),
        config,
      ),
    });
    rounds.set(g.round, r);
  }
  const standings = started ? await computeStandings(db, id) : [];
  const owner = new Map(entries.map((e) => [e.entryIndex, e.user.username]));
  return {
    ...summary(t),
    seed: started ? t.seed : null,
    config,
    entries: entries.map((e) => ({
      entry: e.entryIndex,
      name: e.name,
      owner: e.user.username,
      submissionId: e.submissionId,
      eliminatedRound: e.eliminatedRound,
      place: e.place,
    })),
    rounds: [...rounds.values()] as { round: number; final: boolean; groups: TournamentGroupView[] }[],
    standings: standings.map((s, i) => ({
      place: t.status === 'finished' ? i + 1 : null,
      position: i + 1,
      entry: s.entry,
      name: s.name,
      owner: owner.get(s.entry) ?? null,
      eliminatedRound: s.eliminatedRound,
      lastRank: s.lastRank,
      lastScore: s.lastScore,
    })),
  };
}

export interface TournamentGroupView {
  group: number;
  seed: number;
  settled: boolean;
  seats: TournamentSeatView[];
  match: { id: number; status: string; attempt: number; error: string | null; replay: { url: string; sizeBytes: number } | null } | null;
  failedAttempts: { id: number; status: string; error: string | null }[];
  play: string;
}

export type TournamentDetail = Awaited<ReturnType<typeof tournamentDetail>>;

/** The standings as CSV (one header line, one line per entry), written as every export is (exports.ts's toCsv). */
export function standingsCsv(d: TournamentDetail): string {
  return toCsv(
    ['place', 'player', 'owner', 'eliminated_round', 'last_rank', 'last_score', 'entry'],
    d.standings.map((s) => [
      s.place ?? s.position,
      s.name,
      s.owner,
      s.eliminatedRound ?? (d.status === 'finished' ? 'champion' : ''),
      s.lastRank,
      s.lastScore,
      s.entry,
    ]),
  );
}

/** The played matches of a tournament, in order, for the replay archive. */
export async function* tournamentReplays(db: Db, id: number) {
  const matches = await db.match.findMany({
    where: { tournamentId: id, status: 'done' },
    orderBy: { id: 'asc' },
    select: { id: true, tournamentGroup: { select: { round: true, groupIndex: true } }, tournamentAttempt: true },
  });
  for (const m of matches) {
    const r = await db.replay.findUnique({ where: { matchId: m.id }, select: { data: true } });
    if (!r) continue;
    yield { matchId: m.id, round: m.tournamentGroup?.round ?? 0, group: m.tournamentGroup?.groupIndex ?? 0, data: Buffer.from(r.data) };
  }
}

export const replayFileName = (game: string, round: number, group: number, matchId: number) =>
  `replays/round-${String(round).padStart(2, '0')}-group-${String(group + 1).padStart(2, '0')}-match-${matchId}.${game}.replay.json.gz`;

/**
 * The archive's manifest: the tournament's seed, config and rules, every entry
 * (with the round it fell in, and whether it was withdrawn rather than beaten),
 * every match with its round, group, seed, seats, ranks, scores and file name,
 * and the standings. `arbiter verify <replays.zip>` redoes the draws, the
 * matches and the standings from it and the replays alone.
 */
export function manifest(d: TournamentDetail) {
  const matches = d.rounds.flatMap((r) =>
    r.groups.flatMap((g) =>
      g.match && g.match.status === 'done'
        ? [
            {
              id: g.match.id,
              round: r.round,
              final: r.final,
              group: g.group + 1,
              attempt: g.match.attempt,
              seed: g.seed,
              seats: g.seats.map((s) => ({ seat: s.seat, name: s.name, builtin: s.builtin, entry: s.entry })),
              ranks: g.seats.map((s) => s.rank),
              scores: g.seats.map((s) => s.score),
              file: replayFileName(d.game, r.round, g.group, g.match.id),
              play: g.play,
            },
          ]
        : [],
    ),
  );
  // Who fell by the rules in each fully played round: an entry out in a round it did not lose was withdrawn (disabled by an admin).
  const beaten = new Map<number, number>();
  for (const r of d.rounds) {
    if (!r.groups.every((g) => g.match?.status === 'done')) continue;
    for (const e of roundEliminations(
      r.final,
      r.groups.map((g) => g.seats.map((s) => ({ entry: s.entry, rank: s.rank, score: s.score }))),
    ))
      beaten.set(e, r.round);
  }
  return {
    format: 'arbiter-tournament',
    version: 1,
    tournament: {
      id: d.id,
      name: d.name,
      game: d.game,
      seed: d.seed,
      config: d.config,
      rules: { seats: SEATS, dummy: TOURNAMENT_DUMMY, maxRounds: MAX_ROUNDS },
      status: d.status,
      startedAt: d.startedAt,
      finishedAt: d.finishedAt,
    },
    entries: d.entries.map((e) => ({
      entry: e.entry,
      name: e.name,
      owner: e.owner,
      eliminatedRound: e.eliminatedRound,
      withdrawn: e.eliminatedRound !== null && beaten.get(e.entry) !== e.eliminatedRound,
      place: e.place,
    })),
    matches,
    standings: d.standings,
  };
}
