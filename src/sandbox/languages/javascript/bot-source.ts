// The mapping of error positions from a compiled script back to the author's
// lines (what a bot declares is read by languages/index.ts's readBotHeader):
// the script languages' SourceMaps (languages/types.ts), which everything
// outside this folder reaches through the Language record (languages/index.ts).
// Pure (no Node APIs): the play page's match driver runs it in the browser too.

import type { SourceMaps } from '../types.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes a source map's "mappings" (base64 VLQ) into absolute positions: per generated line, [genCol, origLine, origCol][]. */
export function decodeMappings(mappings: string): number[][][] {
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
 * code (decoded map `lines`) back to the author's source, so a stack trace
 * points at their lines.
 */
export function mapPositions(lines: number[][][] | undefined, filename: string, message: string): string {
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

/** Compiled code → its decoded source map, for code this process compiled or was handed with its map. */
const maps = new Map<string, number[][][]>();
/** Maps kept at most (a worker's compiles come and go; the cache of compiled code is as small). */
const MAX_MAPS = 200;

/** The source maps of the script languages (TypeScript and JavaScript share them). */
export const scriptSourceMaps: SourceMaps = {
  of: (code) => maps.get(code),
  remember(code, lines) {
    if (maps.size >= MAX_MAPS && !maps.has(code)) maps.clear();
    maps.set(code, lines);
  },
  forget: () => maps.clear(),
  mapCode: (code, filename, message) => mapPositions(maps.get(code), filename, message),
  map: mapPositions,
};
