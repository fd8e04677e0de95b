// Writes each game's player.d.ts from its API table (the API that
// src/games/<id>/bot-api.ts exports):
//   node --import tsx scripts/gen-player-dts.ts [game...]
// test/games/api-table.test.ts fails while a file differs from its table.

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { playerDts, type ApiTable } from '../src/sdk/api-table.ts';

const GAMES_DIR = join(import.meta.dirname, '..', 'src', 'games');

/** The games under src/games whose bot-api.ts exports an API table, with their tables. */
export async function gameTables(): Promise<Map<string, ApiTable>> {
  const out = new Map<string, ApiTable>();
  for (const game of readdirSync(GAMES_DIR).sort()) {
    const api = join(GAMES_DIR, game, 'bot-api.ts');
    if (!existsSync(api)) continue;
    const table = ((await import(api)) as { API?: ApiTable }).API;
    if (table) out.set(game, table);
  }
  return out;
}

export const dtsPath = (game: string): string => join(GAMES_DIR, game, 'player.d.ts');

if (process.argv[1] === import.meta.filename) {
  const tables = await gameTables();
  const wanted = process.argv.slice(2);
  for (const game of wanted) if (!tables.has(game)) throw new Error(`no API table for ${game} (src/games/${game}/bot-api.ts exports none)`);
  for (const [game, table] of tables) {
    if (wanted.length && !wanted.includes(game)) continue;
    writeFileSync(dtsPath(game), playerDts(table));
    console.log(`wrote src/games/${game}/player.d.ts`);
  }
}
