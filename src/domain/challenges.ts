// Challenges: a user plays one of their own submissions against up to three
// players they choose (qualified players of the game, or built-ins: Dummy,
// Demo, Null...) on a seed of their choice or a random one. A challenge is a
// `challenge` match: public like any match, never rated (the recorder rates
// ranked matches only). Seats the user leaves empty are Dummies. Each user
// may ask for CHALLENGES_PER_HOUR of them in any hour: the count is read from
// the matches themselves, under a lock on the user's row, so every API
// process shares it and two requests at once cannot both take the last one.

import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { loadGames } from '../games/registry.ts';
import type { JudgeQueues } from '../queue/index.ts';
import { withTimeout } from '../queue/connection.ts';
import { createMatch, DUMMY, enqueueMatch, type SeatRef } from './match-setup.ts';
import { conflict, forbidden, invalid, notFound, TooManyError } from './errors.ts';
import { SubmissionStatus } from '../statuses.ts';

export interface ChallengeRequest {
  userId: number;
  /** One of the user's submissions: it passed self-play (qualifying, qualified, or beaten only by the Dummy). */
  submissionId: number;
  /** Up to nbPlayers - 1 opponents: qualified player names of the game, or built-in names. */
  opponents: string[];
  /** 0 .. 2^31-1; random when absent. */
  seed?: number | undefined;
}

export interface ChallengeDeps {
  db: Db;
  queues: JudgeQueues | null;
  config: Pick<Config, 'challengesPerHour'>;
}

const HOUR_MS = 3600_000;

function waitText(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/** Whether a submission got past self-play: it may play challenges. */
function passedSelfPlay(sub: { status: string; reasonDetail: unknown }): boolean {
  if (sub.status === SubmissionStatus.qualified || sub.status === SubmissionStatus.qualifying) return true;
  const d = sub.reasonDetail as { step?: string; internal?: boolean } | null;
  return sub.status === SubmissionStatus.rejected && d?.step === 'dummy' && !d.internal;
}

/** The user's submissions of a game that may play a challenge, newest first (for the challenge form). */
export async function challengeableSubmissions(db: Db, userId: number, game: string) {
  const rows = await db.submission.findMany({
    where: { userId, game, disabledAt: null, status: { in: [SubmissionStatus.qualified, SubmissionStatus.qualifying, SubmissionStatus.rejected] } },
    orderBy: { id: 'desc' },
    take: 50,
    select: { id: true, version: true, status: true, reasonDetail: true, player: { select: { name: true } } },
  });
  return rows.filter(passedSelfPlay).map((s) => ({ id: s.id, player: s.player.name, version: s.version, status: s.status }));
}

/** Resolves the seats of a challenge: the user's submission in seat 0, the opponents in order, Dummies after. */
async function challengeSeats(db: Db, req: ChallengeRequest) {
  const sub = await db.submission.findUnique({ where: { id: req.submissionId }, include: { player: true } });
  if (!sub) throw notFound(`no submission ${req.submissionId}`);
  if (sub.userId !== req.userId) throw forbidden('you can only challenge with your own submissions', 'not-yours');
  if (sub.disabledAt) throw conflict(`submission ${sub.id} was disabled by an admin`, 'submission-disabled');
  if (!passedSelfPlay(sub))
    throw conflict(
      `submission ${sub.id} has not passed self-play (${sub.status}): challenge with a version that compiled and played itself without freezing`,
      'not-eligible',
    );
  const game = (await loadGames()).get(sub.game)!;
  if (req.opponents.length > game.nbPlayers - 1)
    throw invalid(`${game.title} has ${game.nbPlayers} seats: choose at most ${game.nbPlayers - 1} opponents`, 'too-many-opponents');
  const builtins = Object.keys(game.bots.builtin);
  const seats: SeatRef[] = [{ submissionId: sub.id, playerId: sub.playerId, name: sub.player.name }];
  for (const raw of req.opponents) {
    const name = raw.trim();
    const builtin = builtins.find((b) => b.toLowerCase() === name.toLowerCase());
    if (builtin) {
      seats.push({ builtinName: builtin });
      continue;
    }
    const p = await db.playerName.findUnique({
      where: { game_nameLower: { game: sub.game, nameLower: name.toLowerCase() } },
      select: { id: true, name: true, qualifiedSubmission: { select: { id: true, disabledAt: true } }, owner: { select: { disabledAt: true } } },
    });
    if (!p?.qualifiedSubmission || p.qualifiedSubmission.disabledAt || p.owner.disabledAt) {
      throw invalid(`"${name}" is not a qualified player of ${game.title} nor a built-in (${builtins.join(', ')})`, 'unknown-opponent');
    }
    seats.push({ submissionId: p.qualifiedSubmission.id, playerId: p.id, name: p.name });
  }
  while (seats.length < game.nbPlayers) seats.push({ builtinName: DUMMY });
  return { game: sub.game, seats };
}

/** Creates and queues a challenge; a TooManyError (429 with Retry-After) past the hourly limit. Returns the match id. */
export async function createChallenge(deps: ChallengeDeps, req: ChallengeRequest): Promise<number> {
  const { db, queues, config } = deps;
  if (!Number.isInteger(req.submissionId) || req.submissionId < 1 || req.submissionId > 0x7fffffff)
    throw invalid('choose one of your submissions', 'bad-submission');
  if (req.seed !== undefined && (!Number.isInteger(req.seed) || req.seed < 0 || req.seed > 0x7fffffff))
    throw invalid('seed must be a whole number from 0 to 2147483647', 'bad-seed');
  const { game, seats } = await challengeSeats(db, req);
  const id = await db.$transaction(async (tx) => {
    // One request at a time per user: the count below and the insert are one step.
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${req.userId} FOR UPDATE`;
    const since = new Date(Date.now() - HOUR_MS);
    const recent = await tx.match.findMany({
      where: { kind: 'challenge', requestedById: req.userId, createdAt: { gt: since } },
      orderBy: { createdAt: 'asc' },
      select: { createdAt: true },
    });
    if (recent.length >= config.challengesPerHour) {
      // A place frees up when the oldest of the last hour's challenges is an hour old.
      const frees = recent.length > 0 ? recent[recent.length - config.challengesPerHour]!.createdAt.getTime() + HOUR_MS : Date.now() + HOUR_MS;
      const seconds = Math.max(1, Math.ceil((frees - Date.now()) / 1000));
      throw new TooManyError(
        `at most ${config.challengesPerHour} challenges per hour: try again in ${waitText(seconds)} (at ${new Date(frees).toISOString().slice(11, 19)} UTC)`,
        seconds,
        'too-many-challenges',
      );
    }
    return createMatch(tx, { game, kind: 'challenge', seats, requestedById: req.userId, ...(req.seed !== undefined ? { seed: req.seed } : {}) });
  });
  // Without Redis (or while it does not answer) the match stays queued: the scheduler's sweep queues it.
  if (queues) await withTimeout(enqueueMatch(db, queues, id), 2000, 'queueing the challenge').catch(() => {});
  return id;
}
