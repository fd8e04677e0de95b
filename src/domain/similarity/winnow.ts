// Winnowing (Schleimer, Wilkerson and Aiken, 2003: what MOSS does) over
// normalized token streams. Every k consecutive tokens hash to one number;
// in each window of w consecutive hashes the smallest is kept (the rightmost
// on a tie), so any match of at least k + w - 1 tokens shares a fingerprint,
// and a document's fingerprints are a set: the order of its functions does
// not change it.

import type { Token } from './tokens.ts';

/** Tokens per k-gram: shorter runs in common are noise (idioms everybody writes). */
export const K = 12;
/** Window: every match of K + W - 1 = 19 tokens or more is guaranteed a shared fingerprint. */
export const W = 8;

export interface Fingerprint {
  hash: number;
  /** Index of the k-gram's first token. */
  pos: number;
}

/** FNV-1a of a token's text (32 bits). */
function tokenCode(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The hash of every k-gram, in order (tokens.length - k + 1 of them; none when shorter than k). */
export function kgramHashes(tokens: readonly Token[], k = K): number[] {
  const codes = tokens.map((t) => tokenCode(t.text));
  const out: number[] = [];
  for (let i = 0; i + k <= codes.length; i++) {
    // A polynomial mix of k token codes, then a final avalanche: collisions are rare enough at a class's scale.
    let h = 0x9e3779b9;
    for (let j = 0; j < k; j++) h = (Math.imul(h ^ codes[i + j]!, 0x85ebca6b) + j) >>> 0;
    h ^= h >>> 16;
    h = Math.imul(h, 0xc2b2ae35) >>> 0;
    h ^= h >>> 13;
    out.push(h >>> 0);
  }
  return out;
}

/** The winnowed fingerprints of a hash sequence (window w). A sequence shorter than w keeps its minimum. */
export function winnow(hashes: readonly number[], w = W): Fingerprint[] {
  const out: Fingerprint[] = [];
  if (hashes.length === 0) return out;
  const windows = Math.max(1, hashes.length - w + 1);
  let last = -1;
  for (let start = 0; start < windows; start++) {
    const end = Math.min(hashes.length, start + w);
    let best = start;
    for (let i = start + 1; i < end; i++) if (hashes[i]! <= hashes[best]!) best = i;
    if (best !== last) {
      out.push({ hash: hashes[best]!, pos: best });
      last = best;
    }
  }
  return out;
}
