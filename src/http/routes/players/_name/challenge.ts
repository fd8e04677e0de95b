// The challenge form's post (/players/:name/challenge, from the player page): an unrated
// match of the user's bot against the players named, then the match's page.

import type { FastifyInstance } from 'fastify';
import { fields } from '../../../form-fields.ts';
import { typed } from '../../../typed.ts';
import { createChallenge } from '../../../../domain/challenges.ts';
import { TooManyError } from '../../../../domain/errors.ts';

/** A player's name in the URL. */
export const NAME_PARAMS = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 64 } } } as const;

/** The challenge form's post (the player page): plays it, then shows the match. */
export default async function challengePages(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.post(
    '/challenge',
    {
      config: { access: 'user' },
      schema: { hide: true, params: NAME_PARAMS },
    },
    async (request, reply) => {
      if (!request.user) return reply.redirect(`/login?next=${encodeURIComponent(`/players/${request.params.name}`)}`, 303);
      const b = fields(request.body);
      const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
      const submissionId = Number(text(b.submission));
      const opponents = [b.opponent1, b.opponent2, b.opponent3].map(text).filter((o) => o !== '');
      const seed = text(b.seed) === '' ? undefined : Number(text(b.seed));
      try {
        const id = await createChallenge(app.deps, { userId: request.user.id, submissionId, opponents, seed });
        return reply.redirect(`/matches/${id}`, 303);
      } catch (err) {
        if (err instanceof TooManyError) void reply.header('retry-after', String(err.retryAfterSeconds));
        throw err;
      }
    },
  );
}
