// The `:game` of the pages and scripts under /games/:game, /assets and /api/play: its schema
// (an id of 1 to 64 characters; anything else is a 400) and the game it names, or a 404 that
// lists the games this judge runs.

import { loadGames } from '../games/registry.ts';
import type { AnyGame } from '../sdk/types.ts';
import { notFound } from './errors.ts';
import { t } from './i18n/index.ts';

export const GAME_ID = { type: 'string', minLength: 1, maxLength: 64 } as const;
export const GAME_PARAMS = { type: 'object', required: ['game'], properties: { game: GAME_ID } } as const;

export async function gameOr404(id: string): Promise<AnyGame> {
  const games = await loadGames();
  const game = games.get(id);
  if (!game) throw notFound(t('lb.noGame', id, [...games.keys()].join(', ')));
  return game;
}
