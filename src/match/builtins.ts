import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { getGame } from '../games/registry.ts';
import type { MatchSeat } from './types.ts';

export class UnknownPlayerError extends Error {
  override name = 'UnknownPlayerError';
}

/** A built-in player as an ordinary seat: its source file, run like any submission. */
export async function builtinSeat(gameId: string, name: string): Promise<MatchSeat> {
  const game = await getGame(gameId);
  const path = Object.hasOwn(game.bots.builtin, name) ? game.bots.builtin[name] : undefined;
  if (!path) throw new UnknownPlayerError(`${game.id} has no built-in player "${name}" (built-ins: ${Object.keys(game.bots.builtin).join(', ')})`);
  return { source: await readFile(path, 'utf8'), filename: basename(path) };
}
