// Challenges: POST /api/challenges plays one of my submissions against
// chosen players or built-ins (src/domain/challenges.ts has the rules).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { createChallenge } from '../../../domain/challenges.ts';
import { requireUser } from '../../auth.ts';
import { refusals } from '../../schemas.ts';

export default async function challengeRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.post(
    '/challenges',
    {
      config: { access: 'user' },
      schema: {
        tags: ['matches'],
        summary: 'Challenge: one of my submissions (past self-play) against up to three qualified players or built-ins, unrated; empty seats are Dummies',
        body: {
          type: 'object',
          required: ['submissionId'],
          additionalProperties: false,
          properties: {
            submissionId: { type: 'integer', minimum: 1, maximum: 2147483647 },
            opponents: {
              type: 'array',
              maxItems: 3,
              items: { type: 'string', minLength: 1, maxLength: 64 },
              description: 'player names of the game, or Dummy, Demo, Null...',
            },
            seed: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'random when absent' },
          },
        },
        response: {
          201: {
            type: 'object',
            properties: { matchId: { type: 'integer' }, links: { type: 'object', properties: { self: { type: 'string' }, page: { type: 'string' } } } },
          },
          ...refusals(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const id = await createChallenge(app.deps, {
        userId: me.id,
        submissionId: request.body.submissionId,
        opponents: request.body.opponents ?? [],
        seed: request.body.seed,
      });
      return reply.status(201).send({ matchId: id, links: { self: `/api/matches/${id}`, page: `/matches/${id}` } });
    },
  );
}
