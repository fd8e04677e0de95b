// The similarity report's computation, pure (no database): documents are
// tokenized (tokens.ts), fingerprinted (winnow.ts), and every pair of
// documents of different owners that shares fingerprints is scored through
// an inverted index (fingerprint -> documents), so the work grows with the
// fingerprints actually shared rather than with all n² / 2 pairs. Code that
// everybody was given (the base: the game's shipped bots) and fingerprints
// that too many owners share (idioms) are not evidence and are left out.
// matchRegions() maps one pair's matches back to line ranges of both sources.

import { tokenizerOf, type Language, type Token } from './tokens.ts';
import { K, W, kgramHashes, winnow } from './winnow.ts';
import { languageById } from '../../sandbox/languages/index.ts';

export { languageOf, type Language } from './tokens.ts';

/** Languages whose normalized tokens are comparable with each other (TypeScript is JavaScript with types; C++ is compared with C++ only). */
const family = (language: Language): string => languageById(language).similarityFamily;

export interface SimilarityDoc {
  /** Names the document in the results (e.g. "s:123" for a submission, "a:7" for an archived one). */
  key: string;
  /** Who wrote it: pairs of the same owner are never compared. */
  owner: string;
  language: Language;
  source: string;
}

export interface PreparedDoc {
  key: string;
  owner: string;
  family: string;
  tokens: Token[];
  /** Every k-gram hash, in order. */
  hashes: number[];
  /** Winnowed fingerprints, the base removed. */
  fingerprints: Set<number>;
}

/** Every k-gram hash of the base code (what every student was given). */
export function baseHashes(sources: { language: Language; source: string }[]): Set<number> {
  const out = new Set<number>();
  for (const s of sources) for (const h of kgramHashes(tokenizerOf(s.language)(s.source))) out.add(h);
  return out;
}

export function prepare(doc: SimilarityDoc, base: ReadonlySet<number> = new Set()): PreparedDoc {
  const tokens = tokenizerOf(doc.language)(doc.source);
  const hashes = kgramHashes(tokens);
  const fingerprints = new Set<number>();
  for (const f of winnow(hashes)) if (!base.has(f.hash)) fingerprints.add(f.hash);
  return { key: doc.key, owner: doc.owner, family: family(doc.language), tokens, hashes, fingerprints };
}

export interface PairScore {
  a: string;
  b: string;
  /** Fingerprints in common. */
  shared: number;
  /** shared / a's fingerprints, and / b's (0..1). */
  fractionA: number;
  fractionB: number;
  /** The larger of the two: one program contained in the other counts as fully as two copies. */
  score: number;
}

export interface CompareOptions {
  /** A fingerprint that more owners than this share is an idiom, not evidence (default: max(5, 10% of the owners)). */
  maxOwnersPerFingerprint?: number;
  /** Pairs with fewer fingerprints in common are not listed (default 5). */
  minShared?: number;
  /** Keep the best pair of documents per pair of owners only (default true). */
  bestPerOwnerPair?: boolean;
  /** At most this many pairs, best first (default 100). */
  top?: number;
}

/** Every pair of documents of different owners (and the same language family) that shares fingerprints, best first. */
export function comparePairs(docs: readonly PreparedDoc[], opts: CompareOptions = {}): PairScore[] {
  const owners = new Set(docs.map((d) => d.owner)).size;
  const maxOwners = opts.maxOwnersPerFingerprint ?? Math.max(5, Math.ceil(owners * 0.1));
  const minShared = opts.minShared ?? 5;
  const top = opts.top ?? 100;

  // The inverted index, per language family (the hash spaces of two families never meet).
  const index = new Map<string, number[]>();
  docs.forEach((d, i) => {
    for (const h of d.fingerprints) {
      const key = `${d.family}:${h}`;
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      list.push(i);
    }
  });
  const n = docs.length;
  const counts = new Map<number, number>();
  for (const list of index.values()) {
    if (list.length < 2) continue;
    const listOwners = new Set(list.map((i) => docs[i]!.owner));
    if (listOwners.size < 2 || listOwners.size > maxOwners) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x]!;
        const j = list[y]!;
        if (docs[i]!.owner === docs[j]!.owner) continue;
        const key = i * n + j;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  let pairs: PairScore[] = [];
  for (const [key, shared] of counts) {
    if (shared < minShared) continue;
    const a = docs[Math.floor(key / n)]!;
    const b = docs[key % n]!;
    const fractionA = shared / a.fingerprints.size;
    const fractionB = shared / b.fingerprints.size;
    pairs.push({ a: a.key, b: b.key, shared, fractionA, fractionB, score: Math.max(fractionA, fractionB) });
  }
  pairs.sort((p, q) => q.score - p.score || q.shared - p.shared || (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : 1));
  if (opts.bestPerOwnerPair !== false) {
    const ownerOf = new Map(docs.map((d) => [d.key, d.owner]));
    const seen = new Set<string>();
    pairs = pairs.filter((p) => {
      const o = [ownerOf.get(p.a)!, ownerOf.get(p.b)!].sort().join('\u0000');
      if (seen.has(o)) return false;
      seen.add(o);
      return true;
    });
  }
  return pairs.slice(0, top);
}

/** One pair's score, whoever owns the two (the side-by-side page). */
export function scorePair(a: PreparedDoc, b: PreparedDoc): PairScore {
  let shared = 0;
  if (a.family === b.family) for (const h of a.fingerprints) if (b.fingerprints.has(h)) shared++;
  const fractionA = a.fingerprints.size ? shared / a.fingerprints.size : 0;
  const fractionB = b.fingerprints.size ? shared / b.fingerprints.size : 0;
  return { a: a.key, b: b.key, shared, fractionA, fractionB, score: Math.max(fractionA, fractionB) };
}

export interface Region {
  /** Line ranges (1-based, inclusive) in a and in b. */
  a: [number, number];
  b: [number, number];
  /** Tokens in the region. */
  tokens: number;
}

export interface PairMatch {
  regions: Region[];
  /** Tokens of a (and of b) inside a matching region. */
  tokensA: number;
  tokensB: number;
  matchedA: number;
  matchedB: number;
}

/**
 * Where two documents match: runs of equal k-grams (outside the base), the
 * longest first, none overlapping another on either side (greedy string
 * tiling), as line ranges of both sources in a's order.
 */
export function matchRegions(a: PreparedDoc, b: PreparedDoc, base: ReadonlySet<number> = new Set()): PairMatch {
  const inB = new Map<number, number[]>();
  b.hashes.forEach((h, j) => {
    if (base.has(h)) return;
    let list = inB.get(h);
    if (!list) inB.set(h, (list = []));
    // A k-gram repeated many times in b (a table of constants) would make the pairs quadratic: its first 64 places do.
    if (list.length < 64) list.push(j);
  });
  // run[i][j] = length of the diagonal of equal k-grams ending at (i, j).
  let previous = new Map<number, number>();
  const runs: { i: number; j: number; len: number }[] = [];
  for (let i = 0; i < a.hashes.length; i++) {
    const current = new Map<number, number>();
    const h = a.hashes[i]!;
    const js = base.has(h) ? undefined : inB.get(h);
    if (js) for (const j of js) current.set(j, (previous.get(j - 1) ?? 0) + 1);
    // Runs that do not go on at (i, j + 1) end here.
    for (const [j, len] of previous) if (!current.has(j + 1)) runs.push({ i: i - len, j: j - len + 1, len });
    previous = current;
  }
  for (const [j, len] of previous) runs.push({ i: a.hashes.length - len, j: j - len + 1, len });

  runs.sort((p, q) => q.len - p.len || p.i - q.i || p.j - q.j);
  const usedA = new Uint8Array(a.tokens.length);
  const usedB = new Uint8Array(b.tokens.length);
  const regions: (Region & { from: number })[] = [];
  let matchedA = 0;
  let matchedB = 0;
  for (const r of runs) {
    const count = r.len + K - 1;
    let free = true;
    for (let t = 0; t < count && free; t++) if (usedA[r.i + t] || usedB[r.j + t]) free = false;
    if (!free) continue;
    usedA.fill(1, r.i, r.i + count);
    usedB.fill(1, r.j, r.j + count);
    matchedA += count;
    matchedB += count;
    regions.push({
      from: r.i,
      a: [a.tokens[r.i]!.line, a.tokens[r.i + count - 1]!.line],
      b: [b.tokens[r.j]!.line, b.tokens[r.j + count - 1]!.line],
      tokens: count,
    });
  }
  regions.sort((p, q) => p.from - q.from);
  return { regions: regions.map(({ from: _from, ...r }) => r), tokensA: a.tokens.length, tokensB: b.tokens.length, matchedA, matchedB };
}

export const WINNOWING = { k: K, w: W };
