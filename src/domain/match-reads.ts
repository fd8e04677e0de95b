// Reading one match as the API and the match page show it: the match with its
// seats' owners, its replay file, and its bots' console logs (who may read a
// log is the caller's rule: the seat's owner or an admin). The lists of
// matches are in matches.ts.

import type { Db } from '../db/client.ts';
import { matchInclude } from './serialize.ts';

/** One match with each seat's owner (the username of the player name's owner) and the seat's submission's owner and file; never the logs. */
export async function matchWithOwners(db: Db, id: number) {
  return db.match.findUnique({
    where: { id },
    include: {
      ...matchInclude,
      participants: {
        select: {
          ...matchInclude.participants.select,
          log: false,
          submission: { select: { userId: true, filename: true } },
          player: { select: { name: true, owner: { select: { username: true } } } },
        },
      },
    },
  });
}

/** A match's replay file (gzip JSON) with what says why it may be missing, or null. */
export async function matchReplay(db: Db, id: number) {
  return db.match.findUnique({ where: { id }, select: { id: true, game: true, kind: true, status: true, replay: { select: { data: true } } } });
}

/** A match's bots' console logs, by seat (one seat's when `seat` is given), with each seat's submission's owner; null for no match. */
export async function matchLogs(db: Db, id: number, seat?: number) {
  return db.match.findUnique({
    where: { id },
    select: {
      id: true,
      game: true,
      participants: {
        ...(seat === undefined ? {} : { where: { seat } }),
        select: { seat: true, name: true, log: true, submission: { select: { userId: true } } },
        orderBy: { seat: 'asc' },
      },
    },
  });
}

/** Whether anyone holds this player name (in any game, whatever its case). */
export async function playerNameExists(db: Db, name: string): Promise<boolean> {
  return (await db.playerName.findFirst({ where: { nameLower: name.toLowerCase() }, select: { id: true } })) !== null;
}
