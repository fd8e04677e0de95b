// C++: a course's AIName.cc as it is (`#define PLAYER_NAME Gimli`, the game
// from the upload or a `// GAME: moria` line), compiled by clang into a
// wasm32-wasip1 module (compile-cpp.ts).

import type { BotArtifact } from '../artifact.ts';
import type { Language } from '../types.ts';
import { looksLikeCpp, readCppHeader } from './source.ts';
import { cppTokens } from './tokens.ts';
import { importModule } from '../../../sdk/modules.ts';

type CompileModule = typeof import('./compile-cpp.ts');
// Loaded when a file is compiled, through a specifier the bundler does not
// follow: the JavaScript path never pays for the toolchain's modules, and the
// play page's bundle, which reads headers through the registry, never takes
// them in (keep it the path of the import above; the built judge serves
// its compiled copy, src/sdk/modules.ts).
const COMPILER: string = './compile-cpp.ts';
type KitModule = typeof import('./kit.ts');
const KIT: string = './kit.ts';
type GameHintModule = typeof import('./game-hint.ts');
const GAME_HINT: string = './game-hint.ts';
type ToolchainModule = typeof import('./toolchain.ts');
const TOOLCHAIN: string = './toolchain.ts';

export const cpp: Language = {
  id: 'cpp',
  displayName: 'C++',
  extensions: ['cc', 'cpp', 'cxx', 'c++'],
  uploadExtensions: ['cc', 'cpp', 'cxx'],
  companionExtensions: ['hh', 'hpp', 'h'],
  shownExtensions: ['.cc'],
  accept: ['.cc', '.cpp', '.cxx', 'text/x-c++src'],
  claimsSource: looksLikeCpp,
  readHeader: readCppHeader,
  defaultFilename: (name) => `AI${name}.cc`,
  nameLine: (name) => `#define PLAYER_NAME ${name}`,
  gameLine: (game) => `// GAME: ${game}`,
  async otherGame(source, game) {
    const { otherGameOfCpp } = (await importModule(new URL(GAME_HINT, import.meta.url).href)) as GameHintModule;
    return otherGameOfCpp(source, game);
  },
  gameRequiredInFile: false,
  slowCompile: true,
  kitFolder: 'cpp',
  async kitFiles(game) {
    const { cppKitFiles } = (await importModule(new URL(KIT, import.meta.url).href)) as KitModule;
    return cppKitFiles(game);
  },
  async prewarm(games) {
    const { prewarmCpp } = (await importModule(new URL(TOOLCHAIN, import.meta.url).href)) as ToolchainModule;
    await prewarmCpp(games);
  },
  tokenize: cppTokens,
  similarityFamily: 'cpp',
  async compile(source, filename, game, options): Promise<BotArtifact> {
    const { compileCppBot } = (await importModule(new URL(COMPILER, import.meta.url).href)) as CompileModule;
    return compileCppBot(source, filename, game, options);
  },
};
