// The similarity report over the API (admins only: 401 without a user, 403
// for anyone else): a game's stored report, computing a new one, and one
// pair's side-by-side detail. The rules are src/domain/similarity/report.ts.

import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../../../db/client.ts';
import { typed } from '../../../../typed.ts';
import { recordAudit } from '../../../../../domain/audit.ts';
import { computeReport, pairDetail, readReport } from '../../../../../domain/similarity/report.ts';
import { requireAdmin } from '../../../../auth.ts';
import { notFound } from '../../../../errors.ts';
import { anyObject, refusals } from '../../../../schemas.ts';

const TAGS = ['admin'];
/** Every route here is an admin's: the admin scope of /api/admin reaches this folder (its autohooks cascade, src/http/access.ts), checked before any validation. */
const ADMIN = { access: 'admin' } as const;
const ok = anyObject;
const gameParams = { type: 'object', required: ['game'], properties: { game: { type: 'string', minLength: 1, maxLength: 64 } } } as const;
const docKey = { type: 'string', pattern: '^[sa]:[1-9][0-9]{0,9}$' } as const;

/** Computes and stores a game's report with its audit line (this API's POST and the admin page's form). */
export async function computeAudited(db: Db, actorId: number, game: string) {
  const report = await computeReport(db, game);
  await recordAudit(db, {
    actorId,
    action: 'similarity.compute',
    targetType: 'game',
    targetId: report.game,
    detail: { documents: report.documents, pairs: report.pairs.length },
  });
  return report;
}

export default async function similarityRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '/:game',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: "A game's stored similarity report: the top pairs of documents of different owners, best first (404 before the first is computed)",
        params: gameParams,
        response: { 200: ok, ...refusals(401, 403, 404) },
      },
    },
    async (request) => {
      const report = await readReport(db, request.params.game);
      if (!report) throw notFound(`no similarity report for ${request.params.game} yet: POST to compute one`);
      return report;
    },
  );

  app.post(
    '/:game',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          "Compute and store a game's similarity report (the latest submission of every player name and the imported previous terms, winnowed token fingerprints)",
        params: gameParams,
        response: { 200: ok, ...refusals(401, 403, 404) },
      },
    },
    async (request) => {
      return computeAudited(db, requireAdmin(request).id, request.params.game);
    },
  );

  app.get(
    '/:game/pair',
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Two documents side by side: their sources, their score, the matching regions as line ranges of both',
        params: gameParams,
        querystring: { type: 'object', required: ['a', 'b'], additionalProperties: false, properties: { a: docKey, b: docKey } },
        response: { 200: ok, ...refusals(400, 401, 403, 404) },
      },
    },
    async (request) => pairDetail(db, request.params.game, request.query.a, request.query.b),
  );
}
