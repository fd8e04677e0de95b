// Games are discovered, not listed: every folder under src/games/ with an
// index.ts that default-exports a GameDefinition is a game. Adding a game
// touches nothing outside its own folder.

import { readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyGame } from './types.ts';

const gamesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'games');
let loaded: Map<string, AnyGame> | null = null;

export async function loadGames(): Promise<Map<string, AnyGame>> {
  if (loaded) return loaded;
  const found = new Map<string, AnyGame>();
  const folders = readdirSync(gamesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(gamesDir, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
  for (const folder of folders) {
    const mod = (await import(pathToFileURL(join(gamesDir, folder, 'index.ts')).href)) as { default?: AnyGame };
    const game = mod.default;
    if (!game || game.id !== folder) throw new Error(`src/games/${folder}/index.ts must default-export a GameDefinition with id "${folder}"`);
    found.set(game.id, game);
  }
  loaded = found;
  return found;
}

export class UnknownGameError extends Error {
  override name = 'UnknownGameError';
}

export async function getGame(id: string): Promise<AnyGame> {
  const games = await loadGames();
  const game = games.get(id);
  if (!game) throw new UnknownGameError(`unknown game "${id}" (known: ${[...games.keys()].join(', ') || 'none'})`);
  return game;
}
