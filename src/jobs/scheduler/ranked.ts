// Ranked play: qualified players of each game play
// four-player matches continuously. The queue is kept shallow (a few matches
// per match runner seen), and players with few matches (played + already
// queued) are picked first, so a new player's rating settles quickly. With
// two or three qualified players, Dummies fill the empty seats (unrated).

import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { JudgeQueues } from '../../queue/index.ts';
import { GATE_OPPONENT } from '../../domain/gate.ts';
import { getGame } from '../../games/registry.ts';
import { createMatch, enqueueMatch, type SeatRef } from '../../domain/match-setup.ts';
import { OPEN_MATCH } from '../../statuses.ts';

export interface RankedOptions {
  /** Ranked matches kept queued or running per game; 0 = twice the match runners seen (at least 2). */
  target?: number;
  /** Only these games (default: every game with qualified players). */
  games?: string[];
  /** Game config overrides (tests shorten matches; production plays the game's defaults). */
  config?: Record<string, unknown>;
}

interface Candidate {
  playerId: number;
  submissionId: number;
  name: string;
  load: number;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Who plays ranked: a qualified name whose qualified submission and owner an admin has not disabled. */
export const RANKED_POOL = {
  qualifiedSubmissionId: { not: null },
  qualifiedSubmission: { disabledAt: null },
  owner: { disabledAt: null },
} as const;

/** The fewest-played player, then the other seats drawn with a strong preference for few matches. */
export function pickPlayers(candidates: Candidate[], seats: number): Candidate[] {
  const pool = shuffle([...candidates]).sort((a, b) => a.load - b.load);
  if (pool.length <= seats) return pool;
  const picked = [pool.shift()!];
  while (picked.length < seats) {
    const min = pool[0]!.load;
    const weights = pool.map((c) => 1 / (1 + c.load - min) ** 2);
    let x = (randomInt(0, 1_000_000) / 1_000_000) * weights.reduce((s, w) => s + w, 0);
    let i = 0;
    while (i < pool.length - 1 && x >= weights[i]!) x -= weights[i++]!;
    picked.push(pool.splice(i, 1)[0]!);
  }
  return picked;
}

/** Queues the ranked matches needed to bring each game up to its target. Returns the match ids created. */
export async function scheduleRanked(deps: { db: Db; queues: JudgeQueues }, options: RankedOptions = {}): Promise<number[]> {
  const { db, queues } = deps;
  let target = options.target ?? 0;
  if (target <= 0) {
    const stats = await queues.stats();
    target = Math.max(2, 2 * stats.workerSlots);
  }
  const games =
    options.games ??
    (await db.playerName.findMany({ where: { qualifiedSubmissionId: { not: null } }, distinct: ['game'], select: { game: true } })).map((g) => g.game);
  const created: number[] = [];
  for (const game of games) {
    const { nbPlayers } = await getGame(game);
    const inFlight = await db.match.findMany({
      where: { game, kind: 'ranked', status: { in: OPEN_MATCH } },
      select: { participants: { select: { playerId: true } } },
    });
    let need = target - inFlight.length;
    if (need <= 0) continue;
    const players = await db.playerName.findMany({
      where: { game, ...RANKED_POOL },
      select: { id: true, name: true, qualifiedSubmissionId: true, ratings: { where: { game }, select: { matchesPlayed: true } } },
    });
    if (players.length < 2) continue;
    const pending = new Map<number, number>();
    for (const m of inFlight) for (const p of m.participants) if (p.playerId !== null) pending.set(p.playerId, (pending.get(p.playerId) ?? 0) + 1);
    const candidates: Candidate[] = players.map((p) => ({
      playerId: p.id,
      submissionId: p.qualifiedSubmissionId!,
      name: p.name,
      load: (p.ratings[0]?.matchesPlayed ?? 0) + (pending.get(p.id) ?? 0),
    }));
    for (; need > 0; need--) {
      const chosen = pickPlayers(candidates, nbPlayers);
      const seats: SeatRef[] = chosen.map((c) => ({ submissionId: c.submissionId, playerId: c.playerId, name: c.name }));
      while (seats.length < nbPlayers) seats.push({ builtinName: GATE_OPPONENT });
      const id = await createMatch(db, { game, kind: 'ranked', seats: shuffle(seats), config: options.config ?? null });
      for (const c of chosen) c.load++;
      await enqueueMatch(db, queues, id);
      created.push(id);
    }
  }
  return created;
}
