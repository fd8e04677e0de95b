// The original games the benches measure against, built outside this repository (their code is
// not ours to copy; their behaviour and figures are the reference): ARBITER_ORIGINALS=<folder>
// holds each one as <folder>/<game>/Game, with its .cnf files beside it. One variable for every
// bench (games, cli, eval). ARBITER_BENCH_ORIGINALS, the games bench's older "game=path,..." list,
// is still read there for a while, with a warning.

import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the originals, or undefined when ARBITER_ORIGINALS is unset or empty. */
export function originalsFolder(): string | undefined {
  return process.env['ARBITER_ORIGINALS'] || undefined;
}

/** Where `game`'s original build lies in `folder`. */
export const originalGame = (folder: string, game: string): string => join(folder, game, 'Game');

/** The games of `games` whose original build is in ARBITER_ORIGINALS's folder, each with its path. */
export function originalsOf(games: readonly string[]): Map<string, string> {
  const folder = originalsFolder();
  const found = new Map<string, string>();
  if (!folder) return found;
  for (const game of games) if (existsSync(originalGame(folder, game))) found.set(game, originalGame(folder, game));
  return found;
}

/** The games bench's older list ("moria=/path,walking-dead=/path"), still accepted, with a warning naming the new way. */
export function deprecatedOriginalsList(): string | undefined {
  const list = process.env['ARBITER_BENCH_ORIGINALS'];
  if (list) console.warn('ARBITER_BENCH_ORIGINALS is deprecated: set ARBITER_ORIGINALS=<folder> (<folder>/<game>/Game), or pass --original game=path');
  return list;
}
