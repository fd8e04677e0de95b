// Games, leaderboards and player pages.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { loadGames } from '../../../games/registry.ts';
import { notFound } from '../../errors.ts';
import { gamesSchema, leaderboardSchema, playerProfileSchema, paging, query, refusals, Type } from '../../schemas.ts';
import { qualifiedPlayerCounts } from '../../../domain/game-overview.ts';
import { readLeaderboard } from '../../../domain/ratings/leaderboard.ts';
import { readPlayerProfile } from '../../../domain/players.ts';

const page = paging(500, 100);

const GAME_ID = { type: 'string', minLength: 1, maxLength: 64 } as const;

export default async function gameRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  async function gameOr404(id: string) {
    const games = await loadGames();
    const game = games.get(id);
    if (!game) throw notFound(`unknown game "${id}" (known: ${[...games.keys()].join(', ')})`);
    return game;
  }

  app.get(
    '/games',
    { config: { access: 'public' }, schema: { tags: ['games'], summary: 'The games this judge runs', response: { 200: gamesSchema } } },
    async () => {
      const games = await loadGames();
      const qualified = await qualifiedPlayerCounts(db);
      return [...games.values()].map((g) => ({
        id: g.id,
        title: g.title,
        nbPlayers: g.nbPlayers,
        builtinPlayers: Object.keys(g.bots.builtin),
        statements: Object.keys(g.statements),
        limits: g.defaultLimits,
        qualifiedPlayers: qualified.get(g.id) ?? 0,
      }));
    },
  );

  app.get(
    '/games/:game/leaderboard',
    {
      config: { access: 'public' },
      schema: {
        tags: ['games'],
        summary: 'Qualified players by rating (OpenSkill ordinal = mu - 3 sigma)',
        params: { type: 'object', required: ['game'], properties: { game: GAME_ID } },
        querystring: query(page),
        response: { 200: leaderboardSchema, ...refusals(400, 404) },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      const { limit, offset } = request.query;
      const { total, players } = await readLeaderboard(db, game.id, limit, offset);
      return { game: game.id, total, limit, offset, players };
    },
  );

  app.get(
    '/players/:name',
    {
      config: { access: 'public' },
      schema: {
        tags: ['games'],
        summary: 'A player name: per game, its versions, rating history and recent matches',
        params: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 64 } } },
        querystring: query({ game: Type.Optional(Type.Unsafe<string>(GAME_ID)), matches: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
        response: { 200: playerProfileSchema, ...refusals(400, 404) },
      },
    },
    async (request) => {
      const profile = await readPlayerProfile(db, request.params.name, { game: request.query.game, matches: request.query.matches });
      if (!profile) throw notFound(`no player named "${request.params.name}"`);
      return profile;
    },
  );
}
