// What the judge knows about a language a bot may be written in: one record
// per language (src/sandbox/languages/index.ts lists them), so that the upload
// paths, the compile, the hosts and the reports ask the record instead of
// sniffing a file name or a code string themselves.

import type { CompileBotOptions } from './compile-errors.ts';
import type { BotArtifact } from './artifact.ts';
import type { AnyGame } from '../../sdk/types.ts';

/** The languages as users see them (the API's and the CSV's `language`, the metrics' groups). */
export type LanguageId = 'typescript' | 'javascript' | 'cpp';

/** A token of the similarity report's normalized stream. */
export interface Token {
  /** The normalized token ('id', 'num', 'str', 're', a keyword or a punctuator). */
  text: string;
  /** 1-based source line of the token's first character. */
  line: number;
}

export type Tokenizer = (source: string) => Token[];

export interface BotHeader {
  /** The player's name (`export const PLAYER_NAME = "..."`, C++'s `#define PLAYER_NAME`). */
  name: string | null;
  /** The game the file names (`export const GAME = "..."`, C++'s `// GAME: moria`). */
  game: string | null;
}

export interface Language {
  id: LanguageId;
  /** As pages show it: 'TypeScript', 'C++'. */
  displayName: string;
  /** File endings of a bot in this language, lower case, without the dot (the first is the usual one). */
  extensions: readonly string[];
  /** The endings an upload may have (a subset of extensions). */
  uploadExtensions: readonly string[];
  /** Other files of the language a student may write beside the bot (C++ headers): read by the similarity report and counted by the metrics. */
  companionExtensions: readonly string[];
  /** The endings named to users in messages ('.ts'); none when another language's name covers it. */
  shownExtensions: readonly string[];
  /** Entries for an <input type=file accept=...>: endings with their dot, and MIME types. */
  accept: readonly string[];
  /** Whether a text that came without a file name is in this language. */
  claimsSource(source: string): boolean;
  /** The name and game the file declares, read without compiling it. */
  readHeader(source: string): BotHeader;
  /** The file name an upload is stored under when it came without one, or a Dummy is stored under. */
  defaultFilename(playerName: string): string;
  /** The line that names the player, as the file must say it. */
  nameLine(playerName: string): string;
  /** The line that names the game. */
  gameLine(gameId: string): string;
  /** The game a file sent for `game` seems written for instead, with the names of that game's API it uses (C++: before a compile that would only list undeclared names); null when it reads as a player of `game`. */
  otherGame?(source: string, game: string): Promise<{ game: string; uses: string[] } | null>;
  /** Whether the file must name its game (a JavaScript bot exports GAME; a C++ file takes the upload's). */
  gameRequiredInFile: boolean;
  /** Its compile takes seconds, not milliseconds: the CLI waits longer, an upload checks the name first, the play page compiles it for signed-in users only. */
  slowCompile: boolean;
  /** The folder of a game (src/games/<id>/<folder>) with the players its starter kit ships in this language beside the built-in bots, if any; the kit's folder for this language too. */
  kitFolder?: string;
  /** This language's files in a game's starter kit (under its kitFolder): its API, its players, how to build and submit; the similarity report leaves its code out as given. */
  kitFiles?(game: AnyGame): Promise<KitFile[]>;
  /** The similarity report's tokenizer: names, numbers and strings normalized, layout and comments gone. */
  tokenize: Tokenizer;
  /** Languages whose normalized tokens the similarity report compares with each other share a family. */
  similarityFamily: string;
  /** Readies the compiler for the games in the background of a start (a compile server, precompiled headers), if it needs that. */
  prewarm?(games: readonly string[]): Promise<void>;
  /** The source maps of this language's compiled code, when its compile makes them (TypeScript, JavaScript): how an error's position in the compiled code becomes the author's line. */
  sourceMaps?: SourceMaps;
  /** Compiles for the sandbox. Throws BotCompileError (the file's fault), CompileInfraError or PlayCompileRefusal. */
  compile(source: string, filename: string, game: string | undefined, options: CompileBotOptions): Promise<BotArtifact>;
}

/**
 * A language's source maps, decoded: per line of the compiled code, its [column, source line, source column]
 * segments. A process knows the maps of the code it compiled, and of code handed to it with its map.
 */
export interface SourceMaps {
  /** The map of compiled code, to hand to the process that runs it. */
  of(code: string): number[][][] | undefined;
  /** Keeps the map of code compiled in another process, so this one maps its positions. */
  remember(code: string, lines: number[][][]): void;
  /** Forgets every map kept. */
  forget(): void;
  /** Rewrites `file:line:col` positions of compiled code in a message to the author's, by the map kept for the code. */
  mapCode(code: string, filename: string, message: string): string;
  /** The same with the map given (the play page, the starter kit: Node-free). */
  map(lines: number[][][] | undefined, filename: string, message: string): string;
}

/** A file of a starter kit, by its path inside the language's kit folder. */
export interface KitFile {
  path: string;
  data: string;
}
