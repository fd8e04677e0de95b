// Player-name rules:
// - 1 to 12 characters from A-Z a-z 0-9 _;
// - unique across all users, compared case-insensitively;
// - the built-in players' names of every game (Dummy, Demo, Null, ...) are reserved;
// - a configurable list of offensive words is refused;
// - the first submission with a name claims it for its owner; the owner may
//   resubmit under it until a submission under it qualifies, then it is locked.

import { loadGames } from '../game-kit/registry.ts';
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

export type NameProblem =
  | 'empty'
  | 'too-long'
  | 'bad-characters'
  | 'reserved'
  | 'offensive'
  | 'taken'
  | 'locked';

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

export interface NameClaim {
  /** The existing PlayerName row this user owns in this game, or null for a new claim. */
  playerId: number | null;
}

/**
 * Whether `userId` may submit a bot for `game` under `name` now. Throws a
 * NameError saying why not: rules above, another user owns the name (in any
 * game, compared case-insensitively), or the name is locked.
 */
export async function checkNameForSubmission(
  db: Db,
  args: { name: string; game: string; userId: number; offensiveWords?: readonly string[] },
): Promise<NameClaim> {
  const problem = await nameRuleError(args.name, args.offensiveWords);
  if (problem) throw problem;
  const lower = args.name.toLowerCase();
  const rows = await db.playerName.findMany({ where: { nameLower: lower }, select: { id: true, game: true, name: true, ownerId: true, locked: true } });
  const foreign = rows.find((r) => r.ownerId !== args.userId);
  if (foreign) {
    const same = foreign.name === args.name ? '' : ` (as "${foreign.name}"; names are compared ignoring case)`;
    throw new NameError('taken', `player name "${args.name}" is taken by another user${same}: choose another name`);
  }
  const mine = rows.find((r) => r.game === args.game);
  if (mine?.locked) {
    throw new NameError('locked', `name locked: "${mine.name}" already qualified; choose a new name for a new bot`);
  }
  return { playerId: mine?.id ?? null };
}
