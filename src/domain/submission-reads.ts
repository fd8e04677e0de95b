// Reading submissions as the API and the pages show them: one submission with
// its gate matches (the same query for GET /api/submissions/:id and the
// submission page), its status for the live stream, its source, and a user's
// submissions (the API's flat list, the page's grouped by player name).

import type { Db } from '../db/client.ts';
import { matchInclude, submissionSelect } from './serialize.ts';

/** One submission as the API and the submission page show it, or null. */
export async function findSubmission(db: Db, id: number) {
  return db.submission.findUnique({ where: { id }, select: submissionSelect });
}

export type SubmissionRow = NonNullable<Awaited<ReturnType<typeof findSubmission>>>;

/** A submission's gate matches, in the order they were queued. */
export async function gateMatches(db: Db, submissionId: number) {
  return db.match.findMany({ where: { submissionId, kind: 'gate' }, include: matchInclude, orderBy: { id: 'asc' } });
}

/** What the live status stream starts from, or null. */
export async function submissionStatus(db: Db, id: number) {
  return db.submission.findUnique({ where: { id }, select: { id: true, status: true, reason: true, createdAt: true } });
}

/** A submission's file with its owner (who may read it is the caller's rule), or null. */
export async function submissionSource(db: Db, id: number) {
  return db.submission.findUnique({ where: { id }, select: { userId: true, source: true, filename: true } });
}

/** A page of a user's submissions, newest first, and how many there are. */
export async function listUserSubmissions(db: Db, q: { userId: number; game?: string | undefined; limit: number; offset: number }) {
  const where = { userId: q.userId, ...(q.game ? { game: q.game } : {}) };
  const [rows, total] = await Promise.all([
    db.submission.findMany({
      where,
      orderBy: { id: 'desc' },
      take: q.limit,
      skip: q.offset,
      select: {
        id: true,
        game: true,
        version: true,
        filename: true,
        status: true,
        reason: true,
        createdAt: true,
        finishedAt: true,
        player: { select: { name: true, locked: true } },
      },
    }),
    db.submission.count({ where }),
  ]);
  return { rows, total };
}

/**
 * A user's player names, ordered by their newest submission, a page of them
 * (`perPage` names) with their newest `versions` submissions each, and how many pages there are.
 */
export async function userSubmissionsByName(db: Db, q: { userId: number; game?: string | undefined; page: number; perPage: number; versions: number }) {
  const where = { userId: q.userId, ...(q.game ? { game: q.game } : {}) };
  const latest = await db.submission.groupBy({ by: ['playerId'], where, _max: { id: true } });
  latest.sort((a, b) => (b._max.id ?? 0) - (a._max.id ?? 0));
  const pages = Math.max(1, Math.ceil(latest.length / q.perPage));
  const ids = latest.slice((q.page - 1) * q.perPage, q.page * q.perPage).map((r) => r.playerId);
  const players = await db.playerName.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      game: true,
      locked: true,
      qualifiedSubmissionId: true,
      submissions: {
        where,
        orderBy: { version: 'desc' },
        take: q.versions,
        select: { id: true, version: true, filename: true, status: true, reason: true, reasonDetail: true, reasonLine: true, createdAt: true },
      },
      _count: { select: { submissions: { where } } },
    },
  });
  const byId = new Map(players.map((p) => [p.id, p]));
  return { pages, players: ids.map((id) => byId.get(id)).filter((p) => p !== undefined) };
}
