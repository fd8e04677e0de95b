// Match queries: the public lists with their filters and pages (the API's
// GET /api/matches, the /matches page, the home page's latest matches).

import type { Db } from '../db/client.ts';
import { Prisma, type MatchKind, type MatchStatus } from '../db/generated/client.ts';
import { loadGames } from '../games/registry.ts';
import { matchOut, type MatchRow, type ParticipantRow } from './serialize.ts';

export interface ListQuery {
  game?: string;
  player?: string;
  kind?: MatchKind;
  status?: MatchStatus;
  submission?: number;
  /** Challenges this user asked for. */
  requestedBy?: number;
  /** "My matches": every match a submission of this user's played (gate, ranked, tournament, challenge) or that they asked for. */
  mineOf?: number;
  limit: number;
  offset: number;
  before?: number;
}

/**
 * Matches, newest first, with the API's filters (shared by GET /api/matches
 * and the /matches page). An unknown player or game simply matches nothing.
 */
async function queryMatches(db: Db, q: ListQuery, countTotal: boolean) {
  // One query per page (the hot public list): filters, the page, its participants and the total.
  const conds: Prisma.Sql[] = [];
  if (q.game) conds.push(Prisma.sql`m."game" = ${q.game}`);
  if (q.kind) conds.push(Prisma.sql`m."kind"::text = ${q.kind}`);
  if (q.status) conds.push(Prisma.sql`m."status"::text = ${q.status}`);
  if (q.submission) conds.push(Prisma.sql`m."submissionId" = ${q.submission}`);
  if (q.requestedBy) conds.push(Prisma.sql`m."requestedById" = ${q.requestedBy}`);
  if (q.mineOf) {
    conds.push(
      Prisma.sql`(m."requestedById" = ${q.mineOf} OR m."id" IN (SELECT x."matchId" FROM "Participant" x JOIN "Submission" s ON s."id" = x."submissionId" WHERE s."userId" = ${q.mineOf}))`,
    );
  }
  if (q.before) conds.push(Prisma.sql`m."id" < ${q.before}`);
  if (q.player) {
    // Resolve the name first (indexed lookups), then filter participants by id or built-in name.
    const lower = q.player.toLowerCase();
    const ids = (await db.playerName.findMany({ where: { nameLower: lower }, select: { id: true } })).map((p) => p.id);
    const builtins = [...new Set([...(await loadGames()).values()].flatMap((g) => Object.keys(g.bots.builtin)))].filter((n) => n.toLowerCase() === lower);
    const who: Prisma.Sql[] = [];
    if (ids.length) who.push(Prisma.sql`x."playerId" = ANY(${ids}::int[])`);
    if (builtins.length) who.push(Prisma.sql`x."builtinName" = ANY(${builtins}::text[])`);
    conds.push(who.length ? Prisma.sql`m."id" IN (SELECT x."matchId" FROM "Participant" x WHERE ${Prisma.join(who, ' OR ')})` : Prisma.sql`FALSE`);
  }
  const where = conds.length ? Prisma.sql`WHERE ${Prisma.join(conds, ' AND ')}` : Prisma.empty;
  const found = await db.$queryRaw<
    (Omit<MatchRow, 'participants' | 'replay'> & { participants: ParticipantRow[] | null; replaySize: number | null; total: number })[]
  >`
    SELECT m."id", m."game", m."seed", m."kind"::text AS kind, m."status"::text AS status, m."submissionId",
           m."gateStep"::text AS "gateStep", m."gateIndex", m."winnerSeat", m."error", m."createdAt", m."startedAt",
           m."finishedAt", m."durationMs",
           (SELECT json_agg(json_build_object('seat', p."seat", 'name', p."name", 'builtinName', p."builtinName",
                     'submissionId', p."submissionId", 'playerId', p."playerId", 'score', p."score", 'rank', p."rank",
                     'cpuMs', p."cpuMs", 'frozenRound', p."frozenRound", 'frozenReason', p."frozenReason",
                     'frozenMessage', p."frozenMessage") ORDER BY p."seat")
              FROM "Participant" p WHERE p."matchId" = m."id") AS participants,
           (SELECT r."sizeBytes" FROM "Replay" r WHERE r."matchId" = m."id") AS "replaySize",
           page.total
    FROM (SELECT m."id", ${!countTotal ? Prisma.sql`NULL::int` : Prisma.sql`(count(*) OVER ())::int`} AS total FROM "Match" m ${where}
          ORDER BY m."id" DESC LIMIT ${q.limit} OFFSET ${q.offset}) page
    JOIN "Match" m ON m."id" = page."id"
    ORDER BY m."id" DESC`;
  const rows = found.map((r) => ({ ...r, participants: r.participants ?? [], replay: r.replaySize === null ? null : { sizeBytes: r.replaySize } }));
  const total = !countTotal
    ? null
    : rows.length > 0
      ? found[0]!.total
      : await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "Match" m ${where}`.then((x) => x[0]!.n);
  return { total, limit: q.limit, offset: q.offset, matches: rows.map(matchOut) };
}

export async function listMatches(db: Db, q: ListQuery) {
  const page = await queryMatches(db, q, true);
  return { ...page, total: page.total! };
}

/** The newest matches for a "latest N" box: no total count (it would scan every match the filters select). */
export async function latestMatches(db: Db, q: ListQuery) {
  return (await queryMatches(db, q, false)).matches;
}
