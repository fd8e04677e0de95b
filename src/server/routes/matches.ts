// Matches: list with filters and pagination, detail, replay download, bot logs.

import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth.ts';
import { loadGames } from '../../game-kit/registry.ts';
import { forbidden, HttpError, notFound } from '../errors.ts';
import { PRUNED_REPLAY_MESSAGE, replayWasPruned } from '../../scheduler/retention.ts';
import { matchOut, matchInclude } from '../serialize.ts';
import { Prisma } from '../../db/generated/client.ts';
import type { MatchRow, ParticipantRow } from '../serialize.ts';
import type { Db } from '../../db/client.ts';
import { idParams } from '../schemas.ts';

export interface ListQuery {
  game?: string;
  player?: string;
  kind?: 'gate' | 'ranked' | 'tournament' | 'challenge';
  status?: 'queued' | 'running' | 'done' | 'failed';
  submission?: number;
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
  const found = await db.$queryRaw<(Omit<MatchRow, 'participants' | 'replay'> & { participants: ParticipantRow[] | null; replaySize: number | null; total: number })[]>`
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
  const total =
    !countTotal
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

export default async function matchRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  app.get<{ Querystring: ListQuery }>(
    '/api/matches',
    {
      schema: {
        tags: ['matches'],
        summary: 'Matches, newest first; filter by game, player, kind, status, submission',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            game: { type: 'string', minLength: 1, maxLength: 64 },
            player: { type: 'string', minLength: 1, maxLength: 64 },
            kind: { type: 'string', enum: ['gate', 'ranked', 'tournament', 'challenge'] },
            status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
            submission: { type: 'integer', minimum: 1, maximum: 2147483647 },
            limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
            before: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'only matches with a smaller id (keyset paging)' },
          },
        },
      },
    },
    async (request) => listMatches(db, request.query),
  );

  app.get<{ Params: { id: number } }>(
    '/api/matches/:id',
    { schema: { tags: ['matches'], summary: 'One match: players, scores, ranks, CPU, freezes, replay link', params: idParams } },
    async (request) => {
      const m = await db.match.findUnique({
        where: { id: request.params.id },
        include: {
          ...matchInclude,
          participants: { select: { ...matchInclude.participants.select, log: false, player: { select: { name: true, owner: { select: { username: true } } } } } },
        },
      });
      if (!m) throw notFound(`no match ${request.params.id}`);
      const out = matchOut(m);
      const owners = new Map(m.participants.map((p) => [p.seat, p.player?.owner.username ?? null]));
      return { ...out, config: m.config, participants: out.participants.map((p) => ({ ...p, owner: owners.get(p.seat) ?? null })) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/matches/:id/replay',
    { schema: { tags: ['matches'], summary: 'The replay file (gzip JSON), as a download', params: idParams } },
    async (request, reply) => {
      const m = await db.match.findUnique({ where: { id: request.params.id }, select: { id: true, game: true, kind: true, status: true, replay: { select: { data: true } } } });
      if (!m) throw notFound(`no match ${request.params.id}`);
      if (replayWasPruned(m)) throw new HttpError(410, `match ${m.id} was played, but ${PRUNED_REPLAY_MESSAGE}`, 'replay-pruned');
      if (!m.replay) throw notFound(`match ${m.id} has no replay (not played yet, or it failed)`);
      const data = Buffer.from(m.replay.data);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${m.game}-${m.id}.replay.json.gz"`)
        .header('content-length', data.length)
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(data);
    },
  );

  app.get<{ Params: { id: number }; Querystring: { seat?: number } }>(
    '/api/matches/:id/log',
    {
      schema: {
        tags: ['matches'],
        summary: "Bots' console output: only the seats you own (an admin: all)",
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: { seat: { type: 'integer', minimum: 0, maximum: 3 } } },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const m = await db.match.findUnique({
        where: { id: request.params.id },
        select: { id: true, participants: { select: { seat: true, name: true, log: true, submission: { select: { userId: true } } }, orderBy: { seat: 'asc' } } },
      });
      if (!m) throw notFound(`no match ${request.params.id}`);
      const seat = request.query.seat;
      let seats = m.participants;
      if (seat !== undefined) {
        seats = seats.filter((p) => p.seat === seat);
        if (seats.length === 0) throw notFound(`match ${m.id} has no seat ${seat}`);
      }
      const mine = seats.filter((p) => me.isAdmin || p.submission?.userId === me.id);
      if (mine.length === 0) throw forbidden('only the owner of a bot (or an admin) may read its log');
      return { matchId: m.id, logs: mine.map((p) => ({ seat: p.seat, name: p.name, log: p.log ?? '' })) };
    },
  );
}
