// /assets/play: the play page's scripts (src/http/play-bundles.ts bundles them): worker.js, the
// bots' worker, and <game>.js, a game's page script.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { gameOr404 } from '../../game-param.ts';
import { gameBundle, sendScript, WORKER_POLICY, workerBundle } from '../../play-bundles.ts';

export default async function playAssetRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  // /assets/play/worker.js: the bots' worker; /assets/play/<game>.js: a game's page script.
  app.get(
    '/play/:file',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*\\.js$', maxLength: 64 } } },
      },
    },
    async (request, reply) => {
      const name = request.params.file.replace(/\.js$/, '');
      if (name === 'worker') return sendScript(request, reply, await workerBundle(), WORKER_POLICY);
      return sendScript(request, reply, await gameBundle(await gameOr404(name)));
    },
  );
}
