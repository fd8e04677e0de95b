// Turns a bot file (JavaScript or TypeScript) into the script its isolate
// runs: esbuild strips the types and rewrites `export` into a CommonJS shape,
// and a wrapper makes the script's completion value the bot's exports, so no
// global is needed to hand them over.

import { transform } from 'esbuild';
import { createHash } from 'node:crypto';

export class BotCompileError extends Error {
  override name = 'BotCompileError';
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

export interface BotHeader {
  /** `export const PLAYER_NAME = "..."` (the C++ `#define PLAYER_NAME`). */
  name: string | null;
  /** `export const GAME = "..."`. */
  game: string | null;
}

function readConst(source: string, key: string): string | null {
  const re = new RegExp(`export\\s+const\\s+${key}\\s*(?::\\s*string\\s*)?=\\s*(['"\`])([^'"\`\\n]*)\\1`);
  return re.exec(source)?.[2] ?? null;
}

/** Reads the name and game a bot declares, without running anything. */
export function readBotHeader(source: string): BotHeader {
  return { name: readConst(source, 'PLAYER_NAME'), game: readConst(source, 'GAME') };
}

const cache = new Map<string, string>();

/** Compiles a bot for its isolate. Throws BotCompileError with the line of the first error. */
export async function compileBot(source: string, filename: string): Promise<string> {
  const isTs = /\.(ts|mts|cts)$/i.test(filename);
  const key = createHash('sha256').update(isTs ? 'ts\0' : 'js\0').update(source).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let code: string;
  try {
    const out = await transform(source, {
      loader: isTs ? 'ts' : 'js',
      format: 'cjs',
      target: 'es2022',
      sourcefile: filename,
      logLevel: 'silent',
    });
    code = out.code;
  } catch (err) {
    const first = (err as { errors?: { text: string; location?: { line: number; column: number } | null }[] }).errors?.[0];
    if (first) {
      const where = first.location ? `${filename}:${first.location.line}:${first.location.column + 1}: ` : '';
      throw new BotCompileError(`${where}${first.text}`, first.location?.line, first.location ? first.location.column + 1 : undefined);
    }
    throw new BotCompileError(String(err));
  }
  // One line of wrapper before the code keeps esbuild's line numbers close to the author's.
  const wrapped = `(function(){var module={exports:{}},exports=module.exports;\n${code}\nreturn module.exports;})()`;
  if (cache.size > 200) cache.clear();
  cache.set(key, wrapped);
  return wrapped;
}
