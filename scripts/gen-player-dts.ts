// Writes each game's player.d.ts from its API table (src/games/<id>/bot-api.ts):
//   node --import tsx scripts/gen-player-dts.ts
// test/games/api-table.test.ts fails while a file differs from its table.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { playerDts, type ApiTable } from '../src/game-kit/api-table.ts';

export const GAMES_WITH_TABLES = ['moria', 'harry-potter', 'walking-dead', 'bola-de-drac'];

export async function tableOf(game: string): Promise<ApiTable> {
  return ((await import(`../src/games/${game}/bot-api.ts`)) as { API: ApiTable }).API;
}

export const dtsPath = (game: string): string => join(import.meta.dirname, '..', 'src', 'games', game, 'player.d.ts');

if (process.argv[1] === import.meta.filename) {
  for (const game of process.argv.slice(2).length ? process.argv.slice(2) : GAMES_WITH_TABLES) {
    writeFileSync(dtsPath(game), playerDts(await tableOf(game)));
    console.log(`wrote src/games/${game}/player.d.ts`);
  }
}
