// The admin's tournament reads and the one decision the API's DELETE makes:
// what the edit form shows (the seed, which the public views leave out), and
// withdrawing a tournament (a planned one is cancelled, a cancelled one deleted).

import type { Db } from '../db/client.ts';
import { cancelTournament, deleteTournament } from './tournaments.ts';
import { notFound } from './errors.ts';

/** A tournament's seed (the admin's edit form), or a not-found refusal. */
export async function tournamentSeed(db: Db, id: number): Promise<number> {
  const row = await db.tournament.findUnique({ where: { id }, select: { seed: true } });
  if (!row) throw notFound(`no tournament ${id}`);
  return row.seed;
}

/**
 * DELETE of a tournament: a planned one is cancelled ('cancelled'), any other is deleted
 * ('deleted'), which deleteTournament refuses unless it was cancelled and has no match. Audited.
 */
export async function withdrawTournament(db: Db, actorId: number, id: number): Promise<'cancelled' | 'deleted'> {
  const row = await db.tournament.findUnique({ where: { id }, select: { status: true } });
  if (row?.status === 'scheduled') {
    await cancelTournament(db, actorId, id);
    return 'cancelled';
  }
  await deleteTournament(db, actorId, id);
  return 'deleted';
}
