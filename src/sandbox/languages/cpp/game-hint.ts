// Which game a C++ player was written for, read from the names of each game's
// C++ API it uses (./headers.ts's gameApiHeaders), before it is compiled: a Moria
// player sent for The Walking Dead gets one clear refusal ("it uses dwarves,
// wizards...") in place of dozens of clang errors about undeclared names.

import { readdirSync } from 'node:fs';
import { gameApiHeaders } from './headers.ts';

/** The names only one game's C++ API declares, per game; read once. */
let uniqueNames: Map<string, Set<string>> | null = null;

/** C++'s own words and the library's, which one game's headers may happen to use and another's not. */
const COMMON = new Set(
  'alignas alignof and asm auto bool break case catch char class const constexpr continue default delete do double else enum explicit extern false float for friend goto if inline int long mutable namespace new noexcept not nullptr operator or private protected public register return short signed sizeof static struct switch template this throw true try typedef typename union unsigned using virtual void volatile while include define ifndef endif pragma once std vector map set pair string size_t min max abs swap sort queue stack deque list cerr cout endl assert'.split(
    ' ',
  ),
);

/** A file's identifiers, without its comments, strings and character literals. */
export function cppIdentifiers(source: string): Set<string> {
  const code = source.replace(/\/\*[^]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, ' ');
  return new Set(code.match(/\b[A-Za-z_]\w*\b/g) ?? []);
}

function gameApiNames(): Map<string, Set<string>> {
  if (uniqueNames) return uniqueNames;
  const gamesDir = new URL('../../../games/', import.meta.url);
  const names = new Map<string, Set<string>>();
  for (const game of readdirSync(gamesDir)) {
    const texts = gameApiHeaders(game);
    if (!texts) continue; // no C++ API (or not a game's folder)
    const ids = new Set<string>();
    for (const text of texts) for (const id of cppIdentifiers(text)) if (!COMMON.has(id)) ids.add(id);
    names.set(game, ids);
  }
  uniqueNames = new Map(
    [...names].map(([game, ids]) => [game, new Set([...ids].filter((id) => ![...names].some(([g, other]) => g !== game && other.has(id))))]),
  );
  return uniqueNames;
}

/** At least this many of another game's own API names, and more than twice as many as of the game it was sent for, make a file that game's player. */
const ENOUGH = 3;

/**
 * The game a C++ player sent for `game` seems written for instead, with the
 * names of that game's API it uses (up to five), or null when it reads as a
 * player of `game` (or of no game in particular).
 */
export function otherGameOfCpp(source: string, game: string): { game: string; uses: string[] } | null {
  const api = gameApiNames();
  const own = api.get(game);
  if (!own) return null;
  const ids = cppIdentifiers(source);
  const ownUses = [...own].filter((id) => ids.has(id)).length;
  let best: { game: string; uses: string[] } | null = null;
  for (const [other, names] of api) {
    if (other === game) continue;
    const uses = [...names].filter((id) => ids.has(id));
    if (uses.length >= ENOUGH && uses.length > 2 * ownUses && uses.length > (best?.uses.length ?? 0)) best = { game: other, uses };
  }
  // The most telling first: functions (lower case) before types and constants, longer names before shorter.
  const telling = (id: string) => (/^[a-z]/.test(id) ? 100 : 0) + id.length;
  return best && { game: best.game, uses: best.uses.sort((a, b) => telling(b) - telling(a) || a.localeCompare(b)).slice(0, 5) };
}
