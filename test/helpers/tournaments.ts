// Players for tournament tests: users with qualified Coins bots written
// straight into the database (the gate has its own tests), of chosen strength.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/db/client.ts';

/** The folder holding the fifth game, Coins (set ARBITER_GAMES_PATH to it before any game is loaded). */
export const TEST_GAMES = fileURLToPath(new URL('../fixtures/games', import.meta.url));

/**
 * A Coins bot that walks to the nearest coin (as the built-in Demo) on one
 * round in `every` and stands still otherwise: every = 1 is the strongest,
 * larger is weaker. `offset` shifts the rounds it moves on.
 */
export function coinsBot(name: string, every: number, offset = 0): string {
  const demo = readFileSync(new URL('../fixtures/games/coins/bots/Demo.ts', import.meta.url), 'utf8');
  const bot = demo
    .replace("export const PLAYER_NAME = 'Demo';", `export const PLAYER_NAME = ${JSON.stringify(name)};`)
    .replace('  play(): void {\n', `  play(): void {\n    if ((round() + ${offset}) % ${every} !== 0) return;\n`);
  if (!bot.includes(`% ${every} !== 0`) || !bot.includes(JSON.stringify(name))) throw new Error('coinsBot: the Coins Demo no longer has the lines it changes');
  return bot;
}

export interface TestPlayer {
  userId: number;
  playerId: number;
  submissionId: number;
  name: string;
}

/** A user (created unless `userId` is given) with a qualified player in the game. */
export async function qualifiedPlayer(
  db: Db,
  o: { username?: string; userId?: number; name: string; source: string; game?: string; qualifiedAt?: Date },
): Promise<TestPlayer> {
  const game = o.game ?? 'coins';
  const userId = o.userId ?? (await db.user.create({ data: { username: o.username!, usernameLower: o.username!.toLowerCase(), passwordHash: 'scrypt$x' } })).id;
  const player = await db.playerName.create({ data: { game, name: o.name, nameLower: o.name.toLowerCase(), ownerId: userId } });
  const at = o.qualifiedAt ?? new Date();
  const sub = await db.submission.create({
    data: {
      playerId: player.id,
      userId,
      game,
      version: 1,
      source: o.source,
      filename: `${o.name}.ts`,
      sizeBytes: o.source.length,
      status: 'qualified',
      finishedAt: at,
    },
  });
  await db.playerName.update({ where: { id: player.id }, data: { locked: true, lockedAt: at, qualifiedSubmissionId: sub.id } });
  return { userId, playerId: player.id, submissionId: sub.id, name: o.name };
}
