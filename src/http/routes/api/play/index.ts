// /api/play: the play page's API (src/http/routes/games/_game/play.ts serves the page): a game's prelude,
// its built-in players compiled for the page, and the judge's compile. Beside the other API
// routes, so refusals are JSON, not error pages.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { typed } from '../../../typed.ts';
import { compileSeat } from '../../../../sandbox/languages/compile-seat.ts';
import { buildPrelude } from '../../../../sandbox/hosts/prelude.ts';
import { notFound, tooLarge } from '../../../errors.ts';
import { GAME_PARAMS, gameOr404 } from '../../../game-param.ts';

/** A bot file's name, as the compile route takes it. */
const FILENAME = '^[^/\\\\\\u0000-\\u001f]{1,128}$';

export default async function playApiRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { config } = app.deps;

  app.get('/:game/prelude.js', { config: { access: 'public' }, schema: { hide: true, params: GAME_PARAMS } }, async (request, reply) => {
    const game = await gameOr404(request.params.game);
    const prelude = await buildPrelude(game);
    // Text the page hands to its workers, never run as the page's own script.
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(prelude);
  });

  app.get(
    '/:game/builtins/:name',
    {
      config: { access: 'public' },
      schema: {
        tags: ['play'],
        summary: 'A built-in player, compiled for the play page',
        params: {
          type: 'object',
          required: ['game', 'name'],
          properties: { game: { type: 'string', maxLength: 64 }, name: { type: 'string', maxLength: 64 } },
        },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      // Own names only: "constructor" or "__proto__" are no built-in (Object.prototype's are not the game's).
      const path = Object.hasOwn(game.bots.builtin, request.params.name) ? game.bots.builtin[request.params.name] : undefined;
      if (!path) throw notFound(`${game.title} has no built-in player "${request.params.name}" (built-ins: ${Object.keys(game.bots.builtin).join(', ')})`);
      const source = await readFile(path, 'utf8');
      const filename = basename(path);
      return { filename, source, compiled: await compileSeat(source, filename, 0) };
    },
  );

  app.post(
    '/compile',
    {
      config: {
        access: 'public',
        rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => (req.user ? `play:user:${req.user.id}` : `play:ip:${req.ip}`) },
      },
      schema: {
        tags: ['play'],
        summary:
          'Compile a bot file as the judge does (types stripped; C++ to a wasm module, for signed-in users), for a match in the browser or the starter kit; nothing is stored',
        body: {
          type: 'object',
          required: ['filename', 'source'],
          additionalProperties: false,
          // game: the headers a C++ file compiles against (else its // GAME: line); a TypeScript or JavaScript file needs none.
          properties: { filename: { type: 'string', pattern: FILENAME }, source: { type: 'string' }, game: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request) => {
      const { filename, source, game } = request.body;
      if (game !== undefined) await gameOr404(game);
      if (Buffer.byteLength(source) > config.submissionMaxBytes)
        throw tooLarge(`${filename} is larger than ${config.submissionMaxBytes} bytes, the limit for a bot file`);
      // In the play lane, bounded per client (src/http/play-compile.ts): judging never waits for the play page. The bot's
      // own compile error comes back as { error }; C++ for signed-in users only (401); over the client's or the address's bounds, 429.
      const { playCompileBounds, playCompile } = await import('../../../play-compile.ts');
      const client = {
        key: request.user ? `user:${request.user.id}` : `ip:${request.ip}`,
        signedIn: Boolean(request.user),
        ip: request.ip,
        limits: app.deps.limits,
        bounds: playCompileBounds(config),
      };
      return playCompile(source, filename, client, game);
    },
  );
}
