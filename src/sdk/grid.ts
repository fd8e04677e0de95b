// Board helpers engines share.

import type { Rng } from './rng.ts';

/** Number of 4-connected components of the open cells of a rows × cols board (blocked[i*cols+j] is 0 where open). */
export function openComponents(blocked: ArrayLike<number>, rows: number, cols: number): number {
  const seen = new Uint8Array(rows * cols);
  const stack = new Int32Array(rows * cols);
  let comps = 0;
  for (let start = 0; start < rows * cols; start++) {
    if (blocked[start] || seen[start]) continue;
    comps++;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const k = stack[--top]!;
      const i = (k / cols) | 0;
      const j = k % cols;
      if (i > 0 && !blocked[k - cols] && !seen[k - cols]) (seen[k - cols] = 1), (stack[top++] = k - cols);
      if (i < rows - 1 && !blocked[k + cols] && !seen[k + cols]) (seen[k + cols] = 1), (stack[top++] = k + cols);
      if (j > 0 && !blocked[k - 1] && !seen[k - 1]) (seen[k - 1] = 1), (stack[top++] = k - 1);
      if (j < cols - 1 && !blocked[k + 1] && !seen[k + 1]) (seen[k + 1] = 1), (stack[top++] = k + 1);
    }
  }
  return comps;
}

/** What every board game's state starts with: its config, the board's size, the round and the random stream. */
export interface BoardState<C> {
  cfg: C;
  rows: number;
  cols: number;
  /** Rounds played so far (the round the bots are about to play). */
  round: number;
  rng: Rng;
}

/** A copy of those fields for the next state: the config is shared, the random stream copied. */
export function copyBoardState<C>(s: BoardState<C>): BoardState<C> {
  return { cfg: s.cfg, rows: s.rows, cols: s.cols, round: s.round, rng: s.rng.clone() };
}

/**
 * One flat string of these character codes. A frame's grid built with `+=`,
 * one character at a time, is a rope of one node per cell that lives as long
 * as the replay: for a Bola de Drac match, 2 million nodes the collector
 * copies again and again.
 */
export function charCodesToString(codes: Uint8Array | Uint16Array): string {
  // Bytes decode in one native call, 15x faster than fromCharCode's chunks: 'latin1' is windows-1252 in a
  // TextDecoder, which agrees with the char codes everywhere but 0x80-0x9f (looked for first; no frame uses them).
  if (latin1 && codes instanceof Uint8Array && !hasC1(codes)) return latin1.decode(codes);
  let out = '';
  for (let p = 0; p < codes.length; p += 4096) out += String.fromCharCode.apply(null, codes.subarray(p, p + 4096) as unknown as number[]);
  return out;
}

/** A TextDecoder where the runtime has one (Node, browsers; not an isolate's bare V8). */
const latin1 = typeof TextDecoder === 'function' ? new TextDecoder('latin1') : null;

/** Whether any byte is 0x80-0x9f, where windows-1252 and the char codes differ. */
function hasC1(codes: Uint8Array): boolean {
  for (let p = 0; p < codes.length; p++) if ((codes[p]! & 0xe0) === 0x80) return true;
  return false;
}
