// A game's player.d.ts as students get it: one self-contained file. In the
// repository it is generated from the game's API table (api-table.ts) and
// references the declarations the games share (player-api.d.ts,
// player-dir8.d.ts here); the starter kit inlines them, without the note
// that says where the file comes from.

import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { GENERATED_NOTE } from '../sdk/api-table.ts';

const REFERENCE = /^\/\/\/\s*<reference\s+path="([^"]+)"\s*\/>[ \t]*\r?\n/gm;

/**
 * The text of the declaration file at `path` with every `/// <reference
 * path>` it makes, directly or through the files it references, replaced by
 * the referenced file's text, each file once: the game's own declarations
 * first, then the shared ones.
 */
export async function selfContainedTypes(path: string): Promise<string> {
  const seen = new Set<string>([resolve(path)]);
  const parts: string[] = [];
  async function add(file: string): Promise<void> {
    const text = await readFile(file, 'utf8');
    const refs = [...text.matchAll(REFERENCE)].map((m) => resolve(dirname(file), m[1]!));
    parts.push(
      text
        .replace(REFERENCE, '')
        .replace(GENERATED_NOTE + '\n', '')
        .replace(/^\s*\n/, ''),
    );
    for (const ref of refs) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      await add(ref);
    }
  }
  await add(resolve(path));
  return parts.join('\n');
}

/**
 * The compiler options of the starter kit's tsconfig.json: what a student's
 * editor and `tsc` check a bot with (the suite checks every built-in with them).
 */
export const KIT_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2022'],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  isolatedModules: true,
} as const;

/** A bot of bots/ refers to ../player.d.ts; in the kit (and a student's folder) they sit side by side. */
export const besideTypes = (source: string): string => source.replace(/(\/\/\/\s*<reference\s+path=")[^"]*player\.d\.ts("\s*\/>)/, '$1player.d.ts$2');
