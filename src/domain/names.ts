// Player-name rules:
// - 1 to 12 characters from A-Z a-z 0-9 _;
// - unique across all users, compared case-insensitively;
// - the built-in players' names of every game (Dummy, Demo, Null, ...) are reserved;
// - a configurable list of offensive words is refused;
// - the first submission with a name claims it for its owner: for good once a
//   submission under it compiled and passed self-play; before that only for
//   NAME_HOLD_HOURS after the owner's latest submission under it, then anyone
//   may claim it (the old row is tombstoned, as an admin's release does);
// - a file that does not compile claims nothing: a name whose submissions all
//   failed to compile (a C++ file is compiled by the gate, after its upload)
//   is free for anyone at once;
// - the owner may resubmit under it until a submission under it qualifies,
//   then it is locked.

import { loadGames } from '../games/registry.ts';
import type { Db } from '../db/client.ts';

export const NAME_MAX = 12;
export const NAME_RE = /^[A-Za-z0-9_]+$/;

/** Always refused inside a name (case-insensitive substring); OFFENSIVE_WORDS adds more. */
export const DEFAULT_OFFENSIVE_WORDS: readonly string[] = [
  'fuck',
  'shit',
  'cunt',
  'bitch',
  'nigger',
  'nigga',
  'faggot',
  'whore',
  'rape',
  'nazi',
  'hitler',
  'puta',
  'puto',
  'polla',
  'merda',
  'mierda',
  'cabron',
  'maricon',
  'gilipolla',
  'fill_de_puta',
];

export type NameProblem = 'empty' | 'too-long' | 'bad-characters' | 'reserved' | 'offensive' | 'taken' | 'locked';

export class NameError extends Error {
  override name = 'NameError';
  constructor(
    readonly problem: NameProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Lowercased built-in player names of every game. */
export async function reservedNames(): Promise<Set<string>> {
  const games = await loadGames();
  const names = new Set<string>(['dummy', 'demo', 'null']);
  for (const game of games.values()) for (const n of Object.keys(game.bots.builtin)) names.add(n.toLowerCase());
  return names;
}

/** Syntax only: the message when the name is not 1-12 of [A-Za-z0-9_], else null. */
export function nameSyntaxError(name: string): NameError | null {
  if (name.length === 0) return new NameError('empty', 'player name is empty: 1 to 12 characters from A-Z a-z 0-9 _');
  if (name.length > NAME_MAX) {
    return new NameError('too-long', `player name "${name}" is too long: ${name.length} characters, at most ${NAME_MAX}`);
  }
  if (!NAME_RE.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_]/.test(c)))].map((c) => JSON.stringify(c)).join(', ');
    return new NameError('bad-characters', `player name "${name}" has characters other than A-Z a-z 0-9 _: ${bad}`);
  }
  return null;
}

/** Syntax, reserved built-ins and offensive words: the checks that need no database. */
export async function nameRuleError(name: string, offensiveWords: readonly string[] = []): Promise<NameError | null> {
  const syntax = nameSyntaxError(name);
  if (syntax) return syntax;
  const lower = name.toLowerCase();
  if ((await reservedNames()).has(lower)) {
    return new NameError('reserved', `player name "${name}" is reserved (a built-in player): choose another name`);
  }
  for (const w of [...DEFAULT_OFFENSIVE_WORDS, ...offensiveWords]) {
    const word = w.toLowerCase();
    if (word && lower.includes(word)) return new NameError('offensive', `player name "${name}" is not allowed: choose another name`);
  }
  return null;
}

/** Hours a name stays its owner's after their latest submission under it, when none passed self-play (NAME_HOLD_HOURS). */
export const DEFAULT_NAME_HOLD_HOURS = 24;

export interface NameClaim {
  /** The existing PlayerName row this user owns in this game, or null for a new claim. */
  playerId: number | null;
  /** Other users' rows of this name whose hold expired: released (tombstoned) before the new claim. */
  release: number[];
}

/** The client the checks read through: the database or a transaction on it. */
type NameDb = Pick<Db, 'playerName' | 'submission'>;

const JUDGING_STATUSES = ['queued', 'compiling', 'self_play', 'qualifying'] as const;

/**
 * Until when another user's name row keeps the name from others: null when
 * it is held for good (a submission under it passed self-play, qualified, or
 * is still being judged), else the end of its hold (NAME_HOLD_HOURS after the
 * owner's latest submission under it, or after the claim when there is none).
 */
async function holdEnds(db: NameDb, row: { id: number; locked: boolean; heldAt: Date | null; createdAt: Date }, holdHours: number): Promise<Date | null> {
  if (row.locked || row.heldAt) return null;
  const [judging, last, uncompiled] = await Promise.all([
    db.submission.count({ where: { playerId: row.id, status: { in: [...JUDGING_STATUSES] } } }),
    db.submission.aggregate({ where: { playerId: row.id }, _max: { createdAt: true }, _count: { _all: true } }),
    db.submission.count({ where: { playerId: row.id, status: 'rejected', reasonDetail: { path: ['code'], equals: 'compile-error' } } }),
  ]);
  if (judging > 0) return null;
  // Only files that never compiled: the claim ended with their rejection.
  if (last._count._all > 0 && uncompiled === last._count._all) return new Date(0);
  const from = last._max.createdAt ?? row.createdAt;
  return new Date(from.getTime() + holdHours * 3600_000);
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Whether `userId` may submit a bot for `game` under `name` now. Throws a
 * NameError saying why not: rules above, another user holds the name (in any
 * game, compared case-insensitively), or the name is locked. Another user's
 * claim no longer holds the name once its hold ended (see holdEnds); those
 * rows come back in `release`. Race-free only inside the transaction that
 * inserts the claim, under lockNameForClaim.
 */
export async function checkNameForSubmission(
  db: NameDb,
  args: { name: string; game: string; userId: number; offensiveWords?: readonly string[]; holdHours?: number; now?: Date },
): Promise<NameClaim> {
  const problem = await nameRuleError(args.name, args.offensiveWords);
  if (problem) throw problem;
  const lower = args.name.toLowerCase();
  const now = args.now ?? new Date();
  const holdHours = args.holdHours ?? DEFAULT_NAME_HOLD_HOURS;
  const rows = await db.playerName.findMany({
    where: { nameLower: lower },
    select: { id: true, game: true, name: true, ownerId: true, locked: true, heldAt: true, createdAt: true },
  });
  const release: number[] = [];
  for (const foreign of rows.filter((r) => r.ownerId !== args.userId)) {
    const ends = await holdEnds(db, foreign, holdHours);
    if (ends !== null && ends.getTime() <= now.getTime()) {
      release.push(foreign.id);
      continue;
    }
    const same = foreign.name === args.name ? '' : ` (as "${foreign.name}"; names are compared ignoring case)`;
    const until = ends ? `, held until ${utc(ends)} unless a bot under it passes self-play before` : '';
    throw new NameError('taken', `player name "${args.name}" is taken by another user${same}${until}: choose another name`);
  }
  const mine = rows.find((r) => r.game === args.game && r.ownerId === args.userId);
  if (mine?.locked) {
    throw new NameError('locked', `name locked: "${mine.name}" already qualified; choose a new name for a new bot`);
  }
  return { playerId: mine?.id ?? null, release };
}

/**
 * Serialises claims of one name (any case, any game) until the transaction
 * ends: the unique (game, name) index alone lets two users take one name in
 * two games at once, and two users take one expired name at once.
 */
export async function lockNameForClaim(tx: { $executeRaw: Db['$executeRaw'] }, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'player-name:' + name.toLowerCase()}))`;
}
