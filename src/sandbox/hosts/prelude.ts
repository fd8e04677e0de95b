// Bundles the bot runtime with one game's bot API into the script every bot of
// that game runs first. Its completion value is the host's handle (see
// BotHandle in bot-runtime.ts); nothing of it is left on the global object.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyGame } from '../../sdk/types.ts';
import { builtEntryUrl } from '../../sdk/modules.ts';

const runtimePath = fileURLToPath(new URL('./bot-runtime.ts', import.meta.url));
const preludes = new Map<string, Promise<string>>();

export function buildPrelude(game: AnyGame): Promise<string> {
  let prelude = preludes.get(game.id);
  if (!prelude) {
    const built = builtPrelude(game);
    prelude = built !== null ? Promise.resolve(built) : bundlePrelude(game.bots.api).then((p) => p.code);
    preludes.set(game.id, prelude);
    prelude.catch(() => preludes.delete(game.id));
  }
  return prelude;
}

/**
 * The prelude of a game of src/games as the built judge has it (dist/prelude-<id>.js, made by
 * scripts/build.js with bundlePrelude from the same sources, rebuilt when they change), or null: from
 * the sources, or a game of ARBITER_GAMES_PATH, it is bundled here (esbuild: a tenth of a second of
 * CPU in each new match process).
 */
function builtPrelude(game: AnyGame): string | null {
  const url = builtEntryUrl(`prelude-${game.id}.js`);
  if (!url || game.bots.api !== fileURLToPath(new URL(`../../games/${game.id}/bot-api.ts`, import.meta.url))) return null;
  try {
    return readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return null;
  }
}

/** The prelude of the game whose bot API is `apiPath`, and the files it was made from. */
export async function bundlePrelude(apiPath: string): Promise<{ code: string; inputs: string[] }> {
  const entry = [
    `import { boot } from ${JSON.stringify(runtimePath)};`,
    `import * as api from ${JSON.stringify(apiPath)};`,
    `export const handle = boot(api);`,
  ].join('\n');
  // esbuild's API is loaded only here: the built judge's match processes read their preludes.
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: entry, loader: 'ts', resolveDir: fileURLToPath(new URL('.', import.meta.url)), sourcefile: 'prelude.ts' },
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    // Each bot's isolate parses the prelude: no whitespace or comments to read (names and code as written).
    minifyWhitespace: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  return {
    code: `(function(){var module={exports:{}},exports=module.exports;\n${code}\nreturn module.exports.handle;})()`,
    inputs: Object.keys(out.metafile.inputs).filter((f) => f !== '<stdin>'),
  };
}
