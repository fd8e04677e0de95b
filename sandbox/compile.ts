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
/** Compiled code → its decoded source map (per generated line: [genCol, origLine, origCol][]). */
const maps = new Map<string, number[][][]>();

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes a source map's "mappings" (base64 VLQ) into absolute positions. */
function decodeMappings(mappings: string): number[][][] {
  const lines: number[][][] = [];
  let origLine = 0;
  let origCol = 0;
  for (const line of mappings.split(';')) {
    const segments: number[][] = [];
    let genCol = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0] ?? 0;
      if (values.length >= 4) {
        origLine += values[2]!;
        origCol += values[3]!;
        segments.push([genCol, origLine, origCol]);
      }
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * Rewrites `file:line:col` positions in an error message from the compiled
 * code back to the author's source, so a stack trace points at their lines.
 */
export function mapBotPositions(code: string, filename: string, message: string): string {
  const lines = maps.get(code);
  if (!lines) return message;
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`${escaped}:(\\d+):(\\d+)`, 'g'), (whole, l: string, c: string) => {
    const segments = lines[Number(l) - 2]; // one wrapper line precedes the code
    if (!segments || segments.length === 0) return whole;
    const col = Number(c) - 1;
    let best = segments[0]!;
    for (const s of segments) if (s[0]! <= col) best = s;
    return `${filename}:${best[1]! + 1}:${best[2]! + 1}`;
  });
}

/** Compiles a bot for its isolate. Throws BotCompileError with the line of the first error. */
export async function compileBot(source: string, filename: string): Promise<string> {
  const isTs = /\.(ts|mts|cts)$/i.test(filename);
  const key = createHash('sha256').update(isTs ? 'ts\0' : 'js\0').update(source).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let code: string;
  let map: string;
  try {
    const out = await transform(source, {
      loader: isTs ? 'ts' : 'js',
      format: 'cjs',
      target: 'es2022',
      sourcefile: filename,
      sourcemap: 'external',
      logLevel: 'silent',
    });
    code = out.code;
    map = out.map;
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
  if (cache.size > 200) {
    cache.clear();
    maps.clear();
  }
  cache.set(key, wrapped);
  maps.set(wrapped, decodeMappings((JSON.parse(map) as { mappings: string }).mappings));
  return wrapped;
}
