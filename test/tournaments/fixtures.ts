// Players for tournament tests: users with qualified Coins bots written
// straight into the database (the gate has its own tests), of chosen strength.

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
  return `/// <reference path="../player.d.ts" />
export const GAME = 'coins';
export const PLAYER_NAME = ${JSON.stringify(name)};
const DI = [0, -1, 1, 0, 0];
const DJ = [0, 0, 0, -1, 1];
export default class extends Player {
  play(): void {
    if ((round() + ${offset}) % ${every} !== 0) return;
    const start = collector(me());
    const R = rows();
    const C = cols();
    const first = new Int8Array(R * C).fill(-1);
    const queue = [start.i * C + start.j];
    first[queue[0]!] = 0;
    for (let k = 0; k < queue.length; k++) {
      const c = queue[k]!;
      const i = Math.floor(c / C);
      const j = c % C;
      if (k > 0 && has_coin(i, j)) {
        move(first[c] as Dir);
        return;
      }
      for (let d = 1; d <= 4; d++) {
        const ni = i + DI[d]!;
        const nj = j + DJ[d]!;
        if (is_wall(ni, nj) || first[ni * C + nj] !== -1) continue;
        first[ni * C + nj] = k === 0 ? d : first[c]!;
        queue.push(ni * C + nj);
      }
    }
  }
}
`;
}

export interface TestPlayer {
  userId: number;
  playerId: number;
  submissionId: number;
  name: string;
}

/** A user (created unless `userId` is given) with a qualified player in the game. */
export async function qualifiedPlayer(db: Db, o: { username?: string; userId?: number; name: string; source: string; game?: string; qualifiedAt?: Date }): Promise<TestPlayer> {
  const game = o.game ?? 'coins';
  const userId =
    o.userId ?? (await db.user.create({ data: { username: o.username!, usernameLower: o.username!.toLowerCase(), passwordHash: 'scrypt$x' } })).id;
  const player = await db.playerName.create({ data: { game, name: o.name, nameLower: o.name.toLowerCase(), ownerId: userId } });
  const at = o.qualifiedAt ?? new Date();
  const sub = await db.submission.create({
    data: { playerId: player.id, userId, game, version: 1, source: o.source, filename: `${o.name}.ts`, sizeBytes: o.source.length, status: 'qualified', finishedAt: at },
  });
  await db.playerName.update({ where: { id: player.id }, data: { locked: true, lockedAt: at, qualifiedSubmissionId: sub.id } });
  return { userId, playerId: player.id, submissionId: sub.id, name: o.name };
}
