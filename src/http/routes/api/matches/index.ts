// Matches: list with filters and pagination, detail, replay download, bot logs.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../../typed.ts';
import { requireUser } from '../../../auth.ts';
import { forbidden, HttpError, notFound } from '../../../errors.ts';
import { PRUNED_REPLAY_MESSAGE, replayWasPruned } from '../../../../jobs/scheduler/retention.ts';
import { matchOut } from '../../../../domain/serialize.ts';
import { matchLogs, matchReplay, matchWithOwners } from '../../../../domain/match-reads.ts';
import { listMatches } from '../../../../domain/matches.ts';
import { dbId, idParams, matchListSchema, matchSchema, paging, query, refusals, stringEnum, Type } from '../../../schemas.ts';
import { MATCH_KINDS, MATCH_STATUSES } from '../../../../statuses.ts';

export default async function matchRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '',
    {
      config: { access: 'public' },
      schema: {
        tags: ['matches'],
        summary:
          'Matches, newest first; filter by game, player, kind, status, submission; mine=1: my matches (every match a submission of mine played: gate, ranked, tournament, challenge; and the challenges I asked for)',
        querystring: query({
          game: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          player: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          kind: Type.Optional(stringEnum(MATCH_KINDS)),
          status: Type.Optional(stringEnum(MATCH_STATUSES)),
          submission: Type.Optional(dbId()),
          ...paging(200, 50),
          before: Type.Optional(dbId({ description: 'only matches with a smaller id (keyset paging)' })),
          mine: Type.Optional(
            Type.Unsafe<0 | 1>({
              type: 'integer',
              enum: [0, 1],
              description: '1: only my matches: those my submissions played and the challenges I asked for (logged in)',
            }),
          ),
        }),
        response: { 200: matchListSchema, ...refusals(400, 401) },
      },
    },
    async (request) => {
      const { mine, ...q } = request.query;
      return listMatches(db, { ...q, ...(mine === 1 ? { mineOf: requireUser(request).id } : {}) });
    },
  );

  app.get(
    '/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['matches'],
        summary: 'One match: players, scores, ranks, CPU, freezes, replay link',
        params: idParams,
        response: { 200: matchSchema, ...refusals(400, 404) },
      },
    },
    async (request) => {
      const m = await matchWithOwners(db, request.params.id);
      if (!m) throw notFound(`no match ${request.params.id}`);
      const out = matchOut(m);
      const owners = new Map(m.participants.map((p) => [p.seat, p.player?.owner.username ?? null]));
      return { ...out, config: m.config, participants: out.participants.map((p) => ({ ...p, owner: owners.get(p.seat) ?? null })) };
    },
  );

  app.get(
    '/:id/replay',
    {
      config: { access: 'public' },
      schema: { tags: ['matches'], summary: 'The replay file (gzip JSON), as a download', params: idParams, response: refusals(400, 404, 410) },
    },
    async (request, reply) => {
      const m = await matchReplay(db, request.params.id);
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

  app.get(
    '/:id/log',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['matches'],
        summary: "Bots' console output: only the seats you own (an admin: all)",
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: { seat: { type: 'integer', minimum: 0, maximum: 3 } } },
        response: refusals(400, 401, 403, 404),
      },
    },
    async (request) => {
      const me = requireUser(request);
      const m = await matchLogs(db, request.params.id);
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
