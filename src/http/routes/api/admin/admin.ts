// The admin's API under /api/admin (admins only: 403 otherwise; this
// folder's autohooks.ts, src/http/access.ts). The rules
// are the domain's (src/domain/admin.ts, private-dummy.ts, exports.ts,
// audit.ts); every action writes its audit line in its own transaction.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typed } from '../../../typed.ts';
import {
  rejudgeSubmission,
  releaseName,
  renameName,
  resetRatings,
  searchUsers,
  setSubmissionDeadline,
  setSubmissionDisabled,
  setUserDisabled,
  submissionDeadline,
} from '../../../../domain/admin.ts';
import { listAudit } from '../../../../domain/audit.ts';
import { leaderboardCsv, qualifiedCsv } from '../../../../domain/exports.ts';
import { installPrivateDummy, privateDummyInfo, removePrivateDummy } from '../../../../domain/private-dummy.ts';
import { queueOverview } from '../../../../domain/queue-overview.ts';
import { wakeRankedPlay } from '../../../../domain/ranked-rest.ts';
import { readFileForm } from '../../../file-form.ts';
import { loadGames } from '../../../../games/registry.ts';
import { requireAdmin } from '../../../auth.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { anyObject, idParams, paging, query, refusals, Type } from '../../../schemas.ts';
import { readHealth } from '../../../../domain/health.ts';

const TAGS = ['admin'];
/** Every route here is an admin's: this folder is an admin scope (its autohooks.ts, src/http/access.ts), whose hook answers 401 without a user and 403 for anyone else, before any validation. */
const ADMIN = { access: 'admin' } as const;
const ok = anyObject;
const gameParams = { type: 'object', required: ['game'], properties: { game: { type: 'string', minLength: 1, maxLength: 64 } } } as const;
const playerName = () => Type.String({ minLength: 1, maxLength: 64 });
const nameBody = Type.Object({ game: playerName(), name: playerName() }, { additionalProperties: false });
const renameBody = Type.Object({ game: playerName(), name: playerName(), newName: playerName() }, { additionalProperties: false });

export default async function adminRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = app.deps;

  const gameOr404 = async (game: string) => {
    if (!(await loadGames()).has(game)) throw notFound(`no game "${game}"`);
    return game;
  };

  app.get(
    '/users',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Users whose name contains q, with their players and whether they are admins or disabled',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { q: { type: 'string', maxLength: 64 }, limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
        },
        response: { 200: ok, ...refusals(400, 401, 403) },
      },
    },
    async (request) => ({ users: await searchUsers(db, request.query.q?.trim() ?? '', request.query.limit) }),
  );

  for (const [verb, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/users/:id/${verb}`,
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: disabled
            ? 'Disable a user: no log-in, no submission; their players leave ranked play and the leaderboard (matches stay)'
            : 'Enable a disabled user again',
          params: idParams,
          response: { 200: ok, ...refusals(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const u = await setUserDisabled(db, requireAdmin(request).id, request.params.id, disabled);
        return { id: u.id, username: u.username, disabledAt: u.disabledAt };
      },
    );
    app.post(
      `/submissions/:id/${verb}`,
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: disabled ? 'Disable a submission: it leaves the ranked pool and plays no challenge' : 'Enable a disabled submission again',
          params: idParams,
          response: { 200: ok, ...refusals(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const s = await setSubmissionDisabled(db, requireAdmin(request).id, request.params.id, disabled);
        return { id: s.id, disabledAt: s.disabledAt };
      },
    );
  }

  app.post(
    '/submissions/:id/rejudge',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Rejudge a rejected submission: the same source as a new version of its name, through the whole gate again (a qualified one is refused)',
        params: idParams,
        response: { 202: ok, ...refusals(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const id = await rejudgeSubmission(db, requireAdmin(request).id, request.params.id);
      const { queues, startGate } = app.deps;
      if (queues && startGate)
        await startGate({ db, queues }, id).catch((err: unknown) => request.log.warn({ err, submissionId: id }, 'rejudge: gate left queued for the sweep'));
      return reply.status(202).send({ id, links: { self: `/api/submissions/${id}` } });
    },
  );

  app.post(
    '/names/release',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Release a name that never qualified: free for anyone; its submissions stay on record',
        body: nameBody,
        response: { 200: ok, ...refusals(400, 401, 403, 404, 409) },
      },
    },
    async (request) => releaseName(db, requireAdmin(request).id, request.body.game, request.body.name),
  );

  app.post(
    '/names/rename',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Rename a player (checked as a new name); past matches keep the name they were played under',
        body: renameBody,
        response: { 200: ok, ...refusals(400, 401, 403, 404, 409) },
      },
    },
    async (request) => renameName(db, requireAdmin(request).id, request.body.game, request.body.name, request.body.newName, config.offensiveWords),
  );

  app.get(
    '/games/:game',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "A game's admin settings: the submission deadline and the private Dummy (never its source)",
        params: gameParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      return { game, submissionDeadline: await submissionDeadline(db, game), privateDummy: await privateDummyInfo(db, game) };
    },
  );

  app.put(
    '/games/:game/deadline',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          'Set (ISO date-time with its offset) or clear (null) the submission deadline of a game; a deadline in the past needs confirmPast: true (409 deadline-in-past otherwise)',
        params: gameParams,
        body: {
          type: 'object',
          required: ['deadline'],
          additionalProperties: false,
          properties: {
            deadline: { type: ['string', 'null'], format: 'date-time' },
            confirmPast: { type: 'boolean', description: 'set a deadline that has already passed (submissions close at once)' },
          },
        },
        response: { 200: ok, ...refusals(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      const deadline = request.body.deadline === null ? null : new Date(request.body.deadline);
      const row = await setSubmissionDeadline(db, requireAdmin(request).id, game, deadline, { allowPast: request.body.confirmPast === true });
      return { game, submissionDeadline: row.submissionDeadline };
    },
  );

  app.post(
    '/games/:game/ratings/reset',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "Reset a game's ratings: every player back to the start, the rating history cleared (matches stay)",
        params: gameParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => resetRatings(db, requireAdmin(request).id, await gameOr404(request.params.game)),
  );

  app.post(
    '/games/:game/ranked/wake',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "Wake a game's ranked play after it rested (RANKED_SETTLED_MATCHES): it plays until every player has that many matches again",
        params: gameParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => wakeRankedPlay(db, requireAdmin(request).id, await gameOr404(request.params.game)),
  );

  async function readDummyUpload(request: FastifyRequest): Promise<{ source: string; filename?: string | undefined }> {
    if (request.isMultipart()) {
      const { source, filename } = await readFileForm(request, config.submissionMaxBytes);
      if (source === undefined) throw badRequest('no file: send the Dummy as the multipart field "file"');
      return { source, filename };
    }
    const b = request.body as { source?: unknown; filename?: unknown } | null;
    if (!b || typeof b.source !== 'string') throw badRequest('send multipart/form-data (file) or JSON {"source": "..."}');
    return { source: b.source, filename: typeof b.filename === 'string' ? b.filename : undefined };
  }

  app.put(
    '/games/:game/dummy',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          "Install the game's private Dummy (multipart file, or JSON {source}): compile check and self-play first; the gate and every Dummy seat then play it",
        params: gameParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      const me = requireAdmin(request);
      const upload = await readDummyUpload(request);
      return installPrivateDummy(db, me.id, { game, ...upload }, { maxBytes: config.submissionMaxBytes });
    },
  );

  app.delete(
    '/games/:game/dummy',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "Remove the game's private Dummy: the shipped one plays again",
        params: gameParams,
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      await removePrivateDummy(db, requireAdmin(request).id, game);
      return privateDummyInfo(db, game);
    },
  );

  app.get(
    '/queue',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "The queue and the workers' health: the /queue overview and /health in one answer",
        response: { 200: ok, ...refusals(401, 403) },
      },
    },
    async () => {
      const [queue, health] = await Promise.all([queueOverview(app.deps), readHealth(app.deps)]);
      return { health, queue };
    },
  );

  app.get(
    '/audit',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'The audit: every admin action (who, what, to what, when), newest first',
        querystring: query({
          ...paging(500, 50),
          targetType: Type.Optional(Type.String({ maxLength: 32 })),
          targetId: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: ok, ...refusals(400, 401, 403) },
      },
    },
    async (request) => listAudit(db, request.query),
  );

  app.get(
    '/exports/:game/leaderboard.csv',
    { config: ADMIN, schema: { tags: TAGS, summary: "A game's whole leaderboard as CSV", params: gameParams, response: refusals(400, 401, 403, 404) } },
    async (request, reply) => {
      const game = await gameOr404(request.params.game);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${game}-leaderboard.csv"`)
        .header('cache-control', 'private, no-store')
        .send(await leaderboardCsv(db, game));
    },
  );

  app.get(
    '/exports/qualified.csv',
    {
      config: ADMIN,
      schema: { tags: TAGS, summary: 'Every qualified player per user (user, e-mail, game, player, version, when) as CSV', response: refusals(401, 403) },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="qualified-players.csv"')
        .header('cache-control', 'private, no-store')
        .send(await qualifiedCsv(db)),
  );
}
