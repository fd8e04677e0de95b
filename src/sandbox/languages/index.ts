// The registry of the languages a bot may be written in. Everything outside a
// language's own folder asks these functions (which language is this file,
// what does it declare, how is it compiled, what may be uploaded), so adding
// a language is its record plus one line in `languages` below.
//
// Node-free (each compiler is loaded when a file is compiled): the play
// page's bundle reads a bot's header through here.

import { cpp } from './cpp/language.ts';
import type { CompileBotOptions } from './compile-errors.ts';
import { serializeArtifact, type BotArtifact } from './artifact.ts';
import { javascript, typescript } from './javascript/language.ts';
import type { BotHeader, Language, LanguageId } from './types.ts';

export type { BotArtifact } from './artifact.ts';
export type { BotHeader, Language, LanguageId, Token, Tokenizer } from './types.ts';

/** Every language, in the order users see them listed. The first is the default of a text that came without a file name. */
export const languages: readonly Language[] = [typescript, javascript, cpp];

const DEFAULT = languages[0]!;

const byId = new Map<string, Language>(languages.map((l) => [l.id, l]));

export function languageById(id: LanguageId): Language;
export function languageById(id: string): Language | undefined;
export function languageById(id: string): Language | undefined {
  return byId.get(id);
}

/** The file's ending, lower case, without the dot ('c++' included). */
function extensionOf(filename: string): string | null {
  return /\.([a-z0-9+]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? null;
}

/** The language a stored bot file was compiled as: by its ending, JavaScript for an ending no language has (what the compile makes of it). */
export function languageOfFile(filename: string): Language {
  return languageOfFilename(filename) ?? javascript;
}

/** The language of a bot file by its name, or null for an ending no language has. */
export function languageOfFilename(filename: string): Language | null {
  const ext = extensionOf(filename);
  return ext === null ? null : (languages.find((l) => l.extensions.includes(ext)) ?? null);
}

/** The language of any file of a language, a C++ header included (the similarity report's and the metrics' view), or null. */
export function languageOfSourceFile(filename: string): Language | null {
  const ext = extensionOf(filename);
  return ext === null ? null : (languages.find((l) => l.extensions.includes(ext) || l.companionExtensions.includes(ext)) ?? null);
}

/**
 * The language of an upload: by its file name when it has one (an ending no
 * language has is JavaScript's, and an upload is refused later for its name),
 * else by its text (TypeScript unless another language claims it).
 */
export function languageOf(source: string, filename?: string | null): Language {
  if (filename) return languageOfFile(filename);
  return languages.find((l) => l.claimsSource(source)) ?? DEFAULT;
}

/** Reads the name and game a bot declares, without running anything (by its text: a header the default language reads first, else the language that claims the text). */
export function readBotHeader(source: string): BotHeader {
  const header = DEFAULT.readHeader(source);
  if (header.name !== null) return header;
  const other = languages.find((l) => l !== DEFAULT && l.claimsSource(source));
  return other ? other.readHeader(source) : header;
}

/** Whether a file name may be uploaded as a bot. */
export function isUploadFilename(filename: string): boolean {
  const ext = extensionOf(filename);
  return ext !== null && languages.some((l) => l.uploadExtensions.includes(ext));
}

/** The bot files' endings as messages name them: '.ts, .js or .cc'. */
export const BOT_FILE_KINDS: string = (() => {
  const shown = languages.flatMap((l) => l.shownExtensions);
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : (shown[0] ?? '');
})();

/** For an <input type=file accept=...>: the endings messages name (.ts, .js, .cc), the other endings, then the MIME types. */
export const BOT_FILE_ACCEPT: string = (() => {
  const all = languages.flatMap((l) => l.accept);
  const shown = languages.flatMap((l) => l.shownExtensions);
  return [...shown, ...all.filter((a) => a.startsWith('.') && !shown.includes(a)), ...all.filter((a) => !a.startsWith('.'))].join(',');
})();

/** Compiles a bot into its artifact, by the language of its file name. */
export function compileArtifact(source: string, filename: string, game?: string, options: CompileBotOptions = {}): Promise<BotArtifact> {
  return languageOf(source, filename).compile(source, filename, game, options);
}

/**
 * Compiles a bot into the string its host loads (artifact.ts's form). Throws
 * BotCompileError (the file's fault, with the line of the first error when
 * there is one), CompileInfraError or PlayCompileRefusal. A C++ file compiles
 * against `game`'s headers (or its // GAME: line).
 */
export async function compileBot(source: string, filename: string, game?: string, options: CompileBotOptions = {}): Promise<string> {
  return serializeArtifact(await compileArtifact(source, filename, game, options));
}

/** The source map of compiled code (when its language's compile made one here), to hand to the process that runs it. */
export function botSourceMap(code: string, filename: string): number[][][] | undefined {
  return languageOfFile(filename).sourceMaps?.of(code);
}

/** Lets this process map the positions of a bot compiled in another one. */
export function rememberSourceMap(code: string, filename: string, lines: number[][][]): void {
  languageOfFile(filename).sourceMaps?.remember(code, lines);
}

/** Rewrites `file:line:col` positions of a compiled bot in an error message back to its author's lines (unchanged where its language keeps no map). */
export function mapBotPositions(code: string, filename: string, message: string): string {
  return languageOfFile(filename).sourceMaps?.mapCode(code, filename, message) ?? message;
}

/** The same with the bot's map given (a compiled seat's, in the play page and the starter kit). */
export function mapSeatPositions(lines: number[][][] | undefined, filename: string, message: string): string {
  return languageOfFile(filename).sourceMaps?.map(lines, filename, message) ?? message;
}
