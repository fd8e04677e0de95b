// Bundles the bot runtime with one game's bot API into the script every bot of
// that game runs first. Its completion value is the host's handle (see
// BotHandle in bot-runtime.ts); nothing of it is left on the global object.

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { AnyGame } from '../sdk/types.ts';

const runtimePath = fileURLToPath(new URL('./bot-runtime.ts', import.meta.url));
const preludes = new Map<string, Promise<string>>();

export function buildPrelude(game: AnyGame): Promise<string> {
  let prelude = preludes.get(game.id);
  if (!prelude) {
    prelude = bundle(game.bots.api);
    preludes.set(game.id, prelude);
    prelude.catch(() => preludes.delete(game.id));
  }
  return prelude;
}

async function bundle(apiPath: string): Promise<string> {
  const entry = [
    `import { boot } from ${JSON.stringify(runtimePath)};`,
    `import * as api from ${JSON.stringify(apiPath)};`,
    `export const handle = boot(api);`,
  ].join('\n');
  const out = await build({
    stdin: { contents: entry, loader: 'ts', resolveDir: fileURLToPath(new URL('.', import.meta.url)), sourcefile: 'prelude.ts' },
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    // Each bot's isolate parses the prelude: no whitespace or comments to read (names and code as written).
    minifyWhitespace: true,
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  return `(function(){var module={exports:{}},exports=module.exports;\n${code}\nreturn module.exports.handle;})()`;
}
