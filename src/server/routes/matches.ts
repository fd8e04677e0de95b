// Matches: list with filters and pagination, detail, replay download, bot logs.

import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth.ts';
import { forbidden, notFound } from '../errors.ts';
import { matchOut, matchInclude } from '../serialize.ts';
import type { Prisma } from '../../db/generated/client.ts';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;

interface ListQuery {
  game?: string;
  player?: string;
  kind?: 'gate' | 'ranked' | 'tournament' | 'challenge';
  status?: 'queued' | 'running' | 'done' | 'failed';
  submission?: number;
  limit: number;
  offset: number;
  before?: number;
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
    async (request) => {
      const q = request.query;
      const where: Prisma.MatchWhereInput = {};
      if (q.game) where.game = q.game;
      if (q.kind) where.kind = q.kind;
      if (q.status) where.status = q.status;
      if (q.submission) where.submissionId = q.submission;
      if (q.before) where.id = { lt: q.before };
      if (q.player) {
        const lower = q.player.toLowerCase();
        const players = await db.playerName.findMany({ where: { nameLower: lower }, select: { id: true } });
        where.participants = {
          some: {
            OR: [{ playerId: { in: players.map((p) => p.id) } }, { builtinName: { equals: q.player, mode: 'insensitive' } }],
          },
        };
      }
      const [rows, total] = await Promise.all([
        db.match.findMany({ where, orderBy: { id: 'desc' }, take: q.limit, skip: q.offset, include: matchInclude }),
        db.match.count({ where }),
      ]);
      return { total, limit: q.limit, offset: q.offset, matches: rows.map(matchOut) };
    },
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
      return {
        ...out,
        config: m.config,
        participants: out.participants.map((p, i) => {
          const row = [...m.participants].sort((a, b) => a.seat - b.seat)[i]!;
          return { ...p, owner: row.player?.owner.username ?? null };
        }),
      };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/matches/:id/replay',
    { schema: { tags: ['matches'], summary: 'The replay file (gzip JSON), as a download', params: idParams } },
    async (request, reply) => {
      const m = await db.match.findUnique({ where: { id: request.params.id }, select: { id: true, game: true, replay: { select: { data: true } } } });
      if (!m) throw notFound(`no match ${request.params.id}`);
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
