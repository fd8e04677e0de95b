// A game's starter kit, /games/:game/starter-kit.zip (built by src/http/starter-kit/kit.ts).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../../typed.ts';
import { GAME_PARAMS, gameOr404 } from '../../../game-param.ts';
import { starterKit } from '../../../starter-kit/kit.ts';

/** One kit per game and address, built once. */
const kits = new Map<string, Promise<Buffer>>();

export default async function starterKitRoute(fastify: FastifyInstance) {
  const app = typed(fastify);

  app.get('/starter-kit.zip', { config: { access: 'public' }, schema: { hide: true, params: GAME_PARAMS } }, async (request, reply) => {
    const game = await gameOr404(request.params.game);
    // The kit names the site it came from (play.mjs compiles there): one kit per game and address.
    const url = `${request.protocol}://${request.host}`;
    const key = `${game.id} ${url}`;
    let kit = kits.get(key);
    if (!kit) {
      // Bounded: a client picks the Host header it sends.
      if (kits.size >= 32) kits.clear();
      kit = starterKit(game, url);
      kits.set(key, kit);
      kit.catch(() => kits.delete(key));
    }
    const data = await kit;
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${game.id}-starter-kit.zip"`)
      .header('cache-control', 'public, max-age=3600')
      .send(data);
  });
}
