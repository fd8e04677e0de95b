// Games, leaderboards and player pages.

import type { FastifyInstance } from 'fastify';
import { loadGames } from '../../games/registry.ts';
import { notFound } from '../errors.ts';
import { readLeaderboard } from '../../ratings/leaderboard.ts';
import { statusOut, matchOut, matchInclude } from '../serialize.ts';

const page = {
  limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
  offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
} as const;

const GAME_ID = { type: 'string', minLength: 1, maxLength: 64 } as const;

export default async function gameRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  async function gameOr404(id: string) {
    const games = await loadGames();
    const game = games.get(id);
    if (!game) throw notFound(`unknown game "${id}" (known: ${[...games.keys()].join(', ')})`);
    return game;
  }

  app.get('/api/games', { schema: { tags: ['games'], summary: 'The games this judge runs' } }, async () => {
    const games = await loadGames();
    const counts = await db.playerName.groupBy({ by: ['game'], where: { locked: true }, _count: { _all: true } });
    const qualified = new Map(counts.map((c) => [c.game, c._count._all]));
    return [...games.values()].map((g) => ({
      id: g.id,
      title: g.title,
      nbPlayers: g.nbPlayers,
      builtinPlayers: Object.keys(g.bots.builtin),
      statements: Object.keys(g.statements),
      limits: g.defaultLimits,
      qualifiedPlayers: qualified.get(g.id) ?? 0,
    }));
  });

  app.get<{ Params: { game: string }; Querystring: { limit: number; offset: number } }>(
    '/api/games/:game/leaderboard',
    {
      schema: {
        tags: ['games'],
        summary: 'Qualified players by rating (OpenSkill ordinal = mu - 3 sigma)',
        params: { type: 'object', required: ['game'], properties: { game: GAME_ID } },
        querystring: { type: 'object', additionalProperties: false, properties: page },
      },
    },
    async (request) => {
      const game = await gameOr404(request.params.game);
      const { limit, offset } = request.query;
      const { total, players } = await readLeaderboard(db, game.id, limit, offset);
      return { game: game.id, total, limit, offset, players };
    },
  );

  app.get<{ Params: { name: string }; Querystring: { game?: string; matches: number } }>(
    '/api/players/:name',
    {
      schema: {
        tags: ['games'],
        summary: 'A player name: per game, its versions, rating history and recent matches',
        params: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 64 } } },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { game: GAME_ID, matches: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        },
      },
    },
    async (request) => {
      const { name } = request.params;
      const players = await db.playerName.findMany({
        where: { nameLower: name.toLowerCase(), ...(request.query.game ? { game: request.query.game } : {}) },
        include: {
          owner: { select: { username: true } },
          ratings: true,
          submissions: {
            orderBy: { version: 'desc' },
            select: { id: true, version: true, status: true, reason: true, createdAt: true, finishedAt: true },
          },
        },
        orderBy: { game: 'asc' },
      });
      if (players.length === 0) throw notFound(`no player named "${name}"`);
      const out = [];
      for (const p of players) {
        const rating = p.ratings.find((r) => r.game === p.game) ?? null;
        const [history, matches, rank] = await Promise.all([
          db.ratingHistory.findMany({ where: { playerId: p.id, game: p.game }, orderBy: { id: 'asc' }, take: 1000 }),
          db.match.findMany({
            where: { participants: { some: { playerId: p.id } } },
            orderBy: { id: 'desc' },
            take: request.query.matches,
            include: matchInclude,
          }),
          rating && p.locked
            ? db.rating.count({ where: { game: p.game, player: { locked: true }, ordinal: { gt: rating.ordinal } } }).then((n) => n + 1)
            : Promise.resolve(null),
        ]);
        out.push({
          game: p.game,
          qualified: p.locked,
          lockedAt: p.lockedAt,
          qualifiedSubmissionId: p.qualifiedSubmissionId,
          rating: rating ? { rank, rating: rating.ordinal, mu: rating.mu, sigma: rating.sigma, matchesPlayed: rating.matchesPlayed } : null,
          versions: p.submissions.map((s) => ({
            submissionId: s.id,
            version: s.version,
            status: statusOut(s.status),
            reason: s.reason,
            createdAt: s.createdAt,
            finishedAt: s.finishedAt,
          })),
          ratingHistory: history.map((h) => ({ matchId: h.matchId, rating: h.ordinal, mu: h.mu, sigma: h.sigma, at: h.createdAt })),
          recentMatches: matches.map(matchOut),
        });
      }
      return { name: players[0]!.name, owner: players[0]!.owner.username, games: out };
    },
  );
}
