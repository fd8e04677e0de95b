// The languages a bot file may be written in, as the submission paths (API,
// web form, CLI) see them: JavaScript and TypeScript (a module with
// PLAYER_NAME, GAME and a Player class) and C++ (a course's AIName.cc,
// unchanged: `#define PLAYER_NAME Gimli`, the game from the upload or a
// `// GAME: moria` line). The compile itself is sandbox/compile.ts's.

import { isCppFilename, looksLikeCpp } from '../../sandbox/cpp/source.ts';

export type BotLanguage = 'javascript' | 'cpp';

/** Bot files by name: JavaScript, TypeScript, C++. */
export const BOT_FILE_RE = /\.(ts|js|mts|mjs|cts|cjs|cc|cpp|cxx)$/i;
export const BOT_FILE_KINDS = '.ts, .js or .cc';
/** For an <input type=file accept=...>. */
export const BOT_FILE_ACCEPT = '.ts,.js,.mts,.mjs,.cc,.cpp';

/** The language of an upload: by its file name, else by its text. */
export function botLanguage(source: string, filename?: string | null): BotLanguage {
  if (filename) return isCppFilename(filename) ? 'cpp' : 'javascript';
  return looksLikeCpp(source) ? 'cpp' : 'javascript';
}

/** The file name of an upload that came without one. */
export function defaultBotFilename(name: string, language: BotLanguage): string {
  return language === 'cpp' ? `AI${name}.cc` : `${name}.ts`;
}

/** What to add to a file that names no player. */
export function nameHint(language: BotLanguage): string {
  return language === 'cpp' ? '#define PLAYER_NAME YourName' : 'export const PLAYER_NAME = "YourName";';
}

/**
 * Whether a file must name its game itself: a JavaScript bot exports GAME; a
 * C++ file takes the game of the upload (its `// GAME:` line is optional).
 */
export function gameRequiredInFile(language: BotLanguage): boolean {
  return language !== 'cpp';
}
