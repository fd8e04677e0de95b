// Official tournaments and representatives: the HTTP doors of
// src/domain/tournaments.ts. Reading is public; creating, editing, previewing,
// cancelling, deleting, starting, pausing, resuming and rerunning are an
// admin's; picking a representative is the user's own.

import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { requireAdmin, requireUser } from '../../auth.ts';
import { adminOnlyApi } from '../../access.ts';
import { badRequest } from '../../errors.ts';
import { withdrawTournament } from '../../../domain/tournament-admin.ts';
import {
  cancelTournament,
  createTournament,
  editTournament,
  listRepresentatives,
  listTournaments,
  manifest,
  pauseTournament,
  previewEntries,
  replayFileName,
  rerunMatch,
  resumeTournament,
  setRepresentative,
  standingsCsv,
  startNow,
  tournamentDetail,
  tournamentReplays,
  type TournamentEffects,
} from '../../../domain/tournaments.ts';
import { applyTournamentEffects } from '../../../jobs/scheduler/tournaments.ts';
import { zipStream, type ZipStreamEntry } from '../../starter-kit/zip.ts';
import {
  idParams,
  noContent,
  refusals,
  representativeSchema,
  representativesSchema,
  tournamentCreateBody,
  tournamentListSchema,
  tournamentSchema,
  type TournamentCreateBody,
} from '../../schemas.ts';

/** Parses the create body's fields (the API's JSON and the admin page's form share it). */
export function parseCreate(body: TournamentCreateBody) {
  const freezeAt = new Date(body.freezeAt);
  if (Number.isNaN(freezeAt.getTime())) throw badRequest(`freezeAt: not a date: ${body.freezeAt}`);
  return { game: body.game, name: body.name, freezeAt, config: body.config ?? null, ...(body.seed !== undefined ? { seed: body.seed } : {}) };
}

export interface TournamentEditBody {
  name?: string;
  freezeAt?: string;
  config?: Record<string, unknown> | null;
  seed?: number;
}

const tournamentEditBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: tournamentCreateBody.properties.name,
    freezeAt: tournamentCreateBody.properties.freezeAt,
    config: { type: ['object', 'null'], additionalProperties: true, description: "overrides of the game's settings for every match; null or {}: the defaults" },
    seed: tournamentCreateBody.properties.seed,
  },
} as const;

const previewSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    status: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          entry: { type: 'integer' },
          name: { type: 'string' },
          owner: { type: 'string' },
          playerId: { type: 'integer' },
          submissionId: { type: 'integer' },
        },
      },
    },
  },
} as const;

/** Parses the edit body's fields (the API's JSON; the page's form builds the same). */
export function parseEdit(body: TournamentEditBody) {
  const freezeAt = body.freezeAt !== undefined ? new Date(body.freezeAt) : undefined;
  if (freezeAt && Number.isNaN(freezeAt.getTime())) throw badRequest(`freezeAt: not a date: ${body.freezeAt}`);
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(freezeAt ? { freezeAt } : {}),
    ...(body.config !== undefined ? { config: body.config } : {}),
    ...(body.seed !== undefined ? { seed: body.seed } : {}),
  };
}

/** The archive of a tournament's replays: manifest.json, standings.csv, then every played match's replay as it is read. */
export async function replayArchive(app: FastifyInstance, id: number): Promise<{ name: string; stream: Readable }> {
  const { db } = app.deps;
  const detail = await tournamentDetail(db, id);
  const m = manifest(detail);
  async function* entries(): AsyncGenerator<ZipStreamEntry> {
    yield { name: 'manifest.json', data: JSON.stringify(m, null, 2) + '\n' };
    yield { name: 'standings.csv', data: standingsCsv(detail) };
    const listed = new Set(m.matches.map((x) => x.id));
    for await (const r of tournamentReplays(db, id)) {
      if (!listed.has(r.matchId)) continue;
      yield { name: replayFileName(detail.game, r.round, r.group, r.matchId), data: r.data, store: true };
    }
  }
  const slug =
    detail.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'tournament';
  return { name: `tournament-${id}-${slug}.zip`, stream: Readable.from(zipStream(entries())) };
}

export default async function tournamentRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const apply = (effects: TournamentEffects) => applyTournamentEffects({ db, queues: app.deps.queues, log: (msg) => app.log.warn(msg) }, effects);

  app.get(
    '/tournaments',
    { config: { access: 'public' }, schema: { tags: ['tournaments'], summary: 'Official tournaments, newest first', response: { 200: tournamentListSchema } } },
    async () => {
      return { tournaments: await listTournaments(db) };
    },
  );

  app.get(
    '/tournaments/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tournaments'],
        summary: 'A tournament: its rounds, groups and matches, the standings; the seed once it started',
        params: idParams,
        response: { 200: tournamentSchema, ...refusals(400, 404) },
      },
    },
    async (request) => tournamentDetail(db, request.params.id),
  );

  app.get(
    '/tournaments/:id/standings.csv',
    { config: { access: 'public' }, schema: { tags: ['tournaments'], summary: 'The standings as CSV', params: idParams, response: refusals(400, 404) } },
    async (request, reply) => {
      const d = await tournamentDetail(db, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="tournament-${d.id}-standings.csv"`)
        .send(standingsCsv(d));
    },
  );

  app.get(
    '/tournaments/:id/replays.zip',
    {
      config: { access: 'public' },
      schema: {
        tags: ['tournaments'],
        summary: "Every played match's replay, a manifest.json and the standings, as one zip (streamed)",
        params: idParams,
        response: refusals(400, 404),
      },
    },
    async (request, reply) => {
      const { name, stream } = await replayArchive(app, request.params.id);
      return reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${name}"`).send(stream);
    },
  );

  // The admin's routes: an admin scope whose hook answers 401 without a user and 403 for anyone else, before any validation (src/http/access.ts).
  await app.register(
    adminOnlyApi(async (scope) => {
      const app = typed(scope);
      /** An admin's route on one tournament: its summary and answers, and the refusals every such route may give. */
      const onTournament = (summary: string, answers: Record<number, unknown>) => ({
        config: { access: 'admin' as const },
        schema: { tags: ['tournaments'], summary, params: idParams, response: { ...answers, ...refusals(400, 401, 403, 404, 409) } },
      });
      app.post(
        '/tournaments',
        {
          config: { access: 'admin' },
          schema: {
            tags: ['tournaments'],
            summary: 'Create a tournament (admin): game, name, entry freeze time, optional config overrides and seed',
            body: tournamentCreateBody,
            response: { 201: tournamentSchema, ...refusals(400, 401, 403) },
          },
        },
        async (request, reply) => {
          const admin = requireAdmin(request);
          const t = await createTournament(db, admin.id, parseCreate(request.body));
          return reply.status(201).send(await tournamentDetail(db, t.id));
        },
      );

      app.patch(
        '/tournaments/:id',
        {
          config: { access: 'admin' },
          schema: {
            tags: ['tournaments'],
            summary: 'Edit a planned tournament (admin): name, freeze time, config, seed, before its entries freeze (409 after). Audited',
            params: idParams,
            body: tournamentEditBody,
            response: { 200: tournamentSchema, ...refusals(400, 401, 403, 404, 409) },
          },
        },
        async (request) => {
          const admin = requireAdmin(request);
          await editTournament(db, admin.id, request.params.id, parseEdit(request.body));
          return tournamentDetail(db, request.params.id);
        },
      );

      app.get(
        '/tournaments/:id/preview',
        onTournament(
          'The entries a planned tournament would freeze now (admin): one per user, their representative or latest qualified player; 409 once it started',
          { 200: previewSchema },
        ),
        async (request) => previewEntries(db, request.params.id),
      );

      app.post(
        '/tournaments/:id/cancel',
        onTournament('Cancel a planned tournament (admin): status cancelled, it never starts; 409 once it started. Audited', { 200: tournamentSchema }),
        async (request) => {
          await cancelTournament(db, requireAdmin(request).id, request.params.id);
          return tournamentDetail(db, request.params.id);
        },
      );

      app.delete(
        '/tournaments/:id',
        onTournament(
          'A planned tournament is cancelled (200, status cancelled); a cancelled one is deleted (204); one that started stays (409: pause it instead). Admin; audited',
          { 200: tournamentSchema, 204: noContent },
        ),
        async (request, reply) => {
          const admin = requireAdmin(request);
          const id = request.params.id;
          if ((await withdrawTournament(db, admin.id, id)) === 'cancelled') return tournamentDetail(db, id);
          return reply.status(204).send();
        },
      );

      for (const action of ['start', 'pause', 'resume'] as const) {
        app.post(
          `/tournaments/:id/${action}`,
          onTournament(
            action === 'start'
              ? 'Freeze the entries and draw round 1 now (admin)'
              : action === 'pause'
                ? 'Pause (admin): no new match is queued, queued ones are held back'
                : 'Resume a paused tournament (admin)',
            { 200: tournamentSchema },
          ),
          async (request) => {
            const admin = requireAdmin(request);
            const id = request.params.id;
            const effects =
              action === 'start'
                ? await startNow(db, admin.id, id)
                : action === 'pause'
                  ? await pauseTournament(db, admin.id, id)
                  : await resumeTournament(db, admin.id, id);
            await apply(effects);
            return tournamentDetail(db, id);
          },
        );
      }

      app.post(
        '/tournaments/:id/matches/:matchId/rerun',
        {
          config: { access: 'admin' },
          schema: {
            tags: ['tournaments'],
            summary: 'Play again a match the judge could not play (status failed; admin). A played match is a result: 409',
            params: {
              type: 'object',
              required: ['id', 'matchId'],
              properties: { id: idParams.properties.id, matchId: idParams.properties.id },
            },
            response: { 201: { type: 'object', properties: { matchId: { type: 'integer' } }, required: ['matchId'] }, ...refusals(400, 401, 403, 404, 409) },
          },
        },
        async (request, reply) => {
          const admin = requireAdmin(request);
          const { matchId, effects } = await rerunMatch(db, admin.id, request.params.id, request.params.matchId);
          await apply(effects);
          return reply.status(201).send({ matchId });
        },
      );
    }),
  );

  app.get(
    '/representatives',
    {
      config: { access: 'user' },
      schema: {
        tags: ['tournaments'],
        summary: 'My representative per game, and the players I may pick',
        response: { 200: representativesSchema, ...refusals(401) },
      },
    },
    async (request) => {
      const me = requireUser(request);
      return { representatives: await listRepresentatives(db, me.id) };
    },
  );

  app.put(
    '/representatives/:game',
    {
      config: { access: 'user' },
      schema: {
        tags: ['tournaments'],
        summary: 'Pick the qualified player that represents me in a game (closed from a tournament’s freeze to its finish: 409)',
        params: { type: 'object', required: ['game'], properties: { game: { type: 'string', minLength: 1, maxLength: 64 } } },
        body: { type: 'object', required: ['player'], additionalProperties: false, properties: { player: { type: 'string', minLength: 1, maxLength: 64 } } },
        response: { 200: representativeSchema, ...refusals(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const me = requireUser(request);
      return setRepresentative(db, me.id, request.params.game, request.body.player);
    },
  );
}
