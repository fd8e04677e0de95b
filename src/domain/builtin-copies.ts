// A submission that is a near-copy of a shipped player (the game's built-in
// Demo, Dummy and Null, and the C++ kit's AIDemo.cc and AINull.cc) is refused
// at upload, naming the built-in, as the course's rules ask. "Near-copy" is
// read with the similarity report's own fingerprints (similarity/index.ts:
// normalized tokens, so renamed identifiers, reordered functions, comments
// and layout change nothing): the share of the upload's fingerprints that
// the built-in also has. It is measured that way round on purpose: a bot
// grown from the Null template holds all of Null, but its own code is most
// of it, and it passes; a renamed Demo is Demo through and through.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnyGame } from '../sdk/types.ts';
import { languageOf, prepare, scorePair, type PreparedDoc } from './similarity/index.ts';
import { unprocessable } from './errors.ts';
import { languageOfFilename, languages } from '../sandbox/languages/index.ts';

/**
 * The share of the upload's fingerprints found in one shipped player at or past which the upload is a copy of
 * it. Measured (test/domain/builtin-copies.test.ts): renamed and reordered copies of every game's Demo and Dummy
 * score 0.9 to 1 in both languages, honest bots grown from the Null template 0.35 or less.
 */
export const COPY_THRESHOLD = 0.6;
/** An upload with fewer fingerprints than this is too small to tell (a few lines): never refused as a copy. */
const MIN_FINGERPRINTS = 8;

interface Shipped {
  name: string;
  doc: PreparedDoc;
}

const shippedByGame = new Map<string, Shipped[]>();

/** The players a game ships, prepared once: its built-in bots (bots/*.ts) and its C++ kit's players (cpp/*.cc). */
function shippedPlayers(game: AnyGame): Shipped[] {
  const known = shippedByGame.get(game.id);
  if (known) return known;
  const out: Shipped[] = [];
  const add = (name: string, path: string) => {
    const language = languageOf(path);
    if (!language) return;
    out.push({ name, doc: prepare({ key: name, owner: 'shipped', language, source: readFileSync(path, 'utf8') }) });
  };
  for (const [name, path] of Object.entries(game.bots.builtin)) add(name, path);
  const anyBot = Object.values(game.bots.builtin)[0];
  if (anyBot) {
    // The players a language's kit folder ships (C++: cpp/AIDemo.cc), its bot files only. The kit's Null, shared
    // by every game (src/sdk/cpp/AINull.cc), has fewer fingerprints than an upload must have: never the copied one.
    for (const language of languages) {
      if (!language.kitFolder) continue;
      const kitDir = join(dirname(dirname(anyBot)), language.kitFolder);
      let files: string[] = [];
      try {
        files = readdirSync(kitDir).filter((f) => languageOfFilename(f) === language);
      } catch {
        /* a game without a kit in this language */
      }
      for (const f of files.sort()) add(f, join(kitDir, f));
    }
  }
  shippedByGame.set(game.id, out);
  return out;
}

/** The shipped player the file copies (the one it shares most with), or null. */
export function shippedCopyOf(game: AnyGame, filename: string, source: string): { builtin: string; score: number } | null {
  const language = languageOf(filename);
  if (!language) return null;
  const upload = prepare({ key: filename, owner: 'upload', language, source });
  if (upload.fingerprints.size < MIN_FINGERPRINTS) return null;
  let best: { builtin: string; score: number } | null = null;
  for (const s of shippedPlayers(game)) {
    const score = scorePair(upload, s.doc).fractionA;
    if (score >= COPY_THRESHOLD && (!best || score > best.score)) best = { builtin: s.name, score };
  }
  return best;
}

/** Refuses (422, code copies-builtin) a file that is a near-copy of a shipped player. */
export function refuseShippedCopy(game: AnyGame, filename: string, source: string): void {
  const copy = shippedCopyOf(game, filename, source);
  if (!copy) return;
  throw unprocessable(
    `this file is a near-copy of the built-in ${copy.builtin} of ${game.title} (${Math.round(copy.score * 100)}% of its code is that player's, renamed or not): the shipped players are examples to learn from, not entries; write your own player`,
    'copies-builtin',
  );
}
