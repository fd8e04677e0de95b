// Games are discovered, not listed: every folder under src/games/ with an
// index.ts that default-exports a game (defineGame) is a game. Adding a game
// touches nothing outside its own folder. ARBITER_GAMES_PATH names more
// folders to search the same way (colon-separated), so a deployment or a test
// can add a game without touching the project's tree.

import { readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyGame } from '../sdk/types.ts';
import { importModule } from '../sdk/modules.ts';
import { readSettings, type Env } from '../config.ts';

// The registry lives among the games it finds.
const builtinGamesDir = dirname(fileURLToPath(import.meta.url));
let loaded: Map<string, AnyGame> | null = null;
const folders = new Map<string, string>();

export class GamesPathError extends Error {
  override name = 'GamesPathError';
}

/** The folders searched for games: src/games, then each of ARBITER_GAMES_PATH. */
export function gameRoots(env?: Env): string[] {
  const extra = readSettings(['gamesPath'], env).gamesPath;
  for (const dir of extra) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new GamesPathError(`ARBITER_GAMES_PATH: ${dir} is not a folder`);
  }
  return [builtinGamesDir, ...extra];
}

/** statement.<lang>.md files of a game folder, by language. */
function statementsIn(gameDir: string): Record<string, string> {
  if (!existsSync(gameDir)) return {};
  const found: Record<string, string> = {};
  // English first (the site's default), then the others by name. By code unit, not localeCompare: the names
  // kept are lower-case ASCII, ordered alike either way, and a first localeCompare starts ICU's collator
  // (about 10 ms of CPU, in every command that loads the games, `arbiter play` included).
  const names = readdirSync(gameDir).sort((a, b) => Number(b === 'statement.en.md') - Number(a === 'statement.en.md') || (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const m = /^statement\.([a-z]{2})\.md$/.exec(name);
    if (m) found[m[1]!] = join(gameDir, name);
  }
  return found;
}

/** The game with the statements of its folder, unless it names its own. */
function withStatements(game: AnyGame, dir: string): AnyGame {
  if (Object.keys(game.statements).length > 0) return game;
  return Object.freeze({ ...game, statements: statementsIn(dir) });
}

/** Loads every game of a folder of game folders, by folder name. */
export async function loadGamesFrom(root: string): Promise<Map<string, { game: AnyGame; dir: string }>> {
  const found = new Map<string, { game: AnyGame; dir: string }>();
  const names = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
  for (const name of names) {
    const dir = join(root, name);
    const mod = (await importModule(pathToFileURL(join(dir, 'index.ts')).href)) as { default?: AnyGame };
    const game = mod.default;
    if (!game || game.id !== name) throw new Error(`${join(dir, 'index.ts')} must default-export a game with id "${name}"`);
    found.set(name, { game: withStatements(game, dir), dir });
  }
  return found;
}

export async function loadGames(): Promise<Map<string, AnyGame>> {
  if (loaded) return loaded;
  const games = new Map<string, AnyGame>();
  for (const root of gameRoots()) {
    for (const [id, { game, dir }] of await loadGamesFrom(root)) {
      if (games.has(id)) throw new GamesPathError(`two games named "${id}": ${folders.get(id)} and ${dir}`);
      games.set(id, game);
      folders.set(id, dir);
    }
  }
  loaded = games;
  return games;
}

/** The folder of a loaded game (its viewer, statements and bots live there). */
export async function gameDir(id: string): Promise<string | undefined> {
  await loadGames();
  return folders.get(id);
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
