// TypeScript and JavaScript: a module that exports PLAYER_NAME, GAME and a
// Player class, compiled by esbuild (src/sandbox/languages/javascript/compile.ts) into a script. Two
// records because users see two languages (the API's and the CSV's
// `language`, the metrics' groups); they share everything but their endings.

import type { BotArtifact } from '../artifact.ts';
import { jsTokens } from '../script-tokens.ts';
import { scriptSourceMaps } from './bot-source.ts';
import type { BotHeader, Language, LanguageId } from '../types.ts';
import { importModule } from '../../../sdk/modules.ts';

type CompileModule = typeof import('./compile.ts');
// Loaded when a file is compiled, through a specifier the bundler does not
// follow: the play page's bundle reads headers through this registry and must
// not take in the Node-only compiler (keep it the path of the import above;
// the built judge serves its compiled copy, src/sdk/modules.ts).
const COMPILER: string = './compile.ts';

/** The compiler's module once loaded: a dynamic import per compile walks the loader's resolve hooks each time, a worker's every seat of every match. */
let compiler: Promise<CompileModule> | undefined;

function readConst(source: string, key: string): string | null {
  const re = new RegExp(`export\\s+const\\s+${key}\\s*(?::\\s*string\\s*)?=\\s*(['"\`])([^'"\`\\n]*)\\1`);
  return re.exec(source)?.[2] ?? null;
}

export function readScriptHeader(source: string): BotHeader {
  return { name: readConst(source, 'PLAYER_NAME'), game: readConst(source, 'GAME') };
}

function scriptLanguage(id: LanguageId, displayName: string, extensions: string[], mime: string): Language {
  return {
    id,
    displayName,
    extensions,
    uploadExtensions: extensions,
    companionExtensions: [],
    shownExtensions: [`.${extensions[0]}`],
    accept: [...extensions.map((e) => `.${e}`), mime],
    // A text without a file name is TypeScript unless another language claims it.
    claimsSource: () => false,
    readHeader: readScriptHeader,
    defaultFilename: (name) => `${name}.${extensions[0]}`,
    nameLine: (name) => `export const PLAYER_NAME = "${name}";`,
    gameLine: (game) => `export const GAME = "${game}";`,
    gameRequiredInFile: true,
    slowCompile: false,
    tokenize: jsTokens,
    similarityFamily: 'js',
    sourceMaps: scriptSourceMaps,
    async compile(source, filename): Promise<BotArtifact> {
      // TypeScript or JavaScript by the file's own ending (a name with neither is JavaScript).
      if (!compiler) {
        compiler = importModule(new URL(COMPILER, import.meta.url).href) as Promise<CompileModule>;
        compiler.catch(() => (compiler = undefined));
      }
      const { compileScript } = await compiler;
      return compileScript(source, filename);
    },
  };
}

export const typescript = scriptLanguage('typescript', 'TypeScript', ['ts', 'mts', 'cts'], 'text/typescript');
export const javascript = scriptLanguage('javascript', 'JavaScript', ['js', 'mjs', 'cjs'], 'text/javascript');
