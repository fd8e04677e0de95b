// The gate's seeds: the same file gets the same gate, changed code a new one.
// They are HMAC-SHA256(secret, game, normalized source), cut into five 31-bit
// seeds: the self-play match's, then the four matches against the Dummies'.
// Normalized means comments and layout do not count: JavaScript and
// TypeScript go through esbuild (types stripped, whitespace minified, every
// comment dropped); C++ loses its comments and all whitespace that separates
// nothing. This is a seed, not a security boundary: a student who changes a
// constant gets new seeds, as they would by resubmitting under the old rules.
//
// The secret is GATE_SEED_SECRET when configured, else one the judge makes
// once and keeps in the database (DeploymentSecret "gate-seed"), so every
// process and every restart derive the same seeds.

import { createHmac, randomBytes } from 'node:crypto';
import { transform, transformSync, type TransformOptions } from 'esbuild';
import { gateSeedSecret } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';

/** Seeds per submission: self-play, then the matches against the gate's opponent. */
export const GATE_SEED_COUNT = 5;

/** C++ (or any file esbuild cannot read): comments out, whitespace kept only between two word characters. */
export function normalizeCpp(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  let space = false;
  const word = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
      space = true;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      space = true;
    } else if (c === '"' || c === "'") {
      // A string or character literal as it is (a // inside is not a comment).
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      if (space && word(out[out.length - 1]) && word(c)) out += ' ';
      out += source.slice(i, j + 1);
      space = false;
      i = j + 1;
    } else if (/\s/.test(c)) {
      space = true;
      i++;
    } else {
      if (space && word(out[out.length - 1]) && word(c)) out += ' ';
      // A preprocessor line ends at its newline: keep that boundary.
      if (c === '#' && out.length > 0) out += '\n';
      out += c;
      space = false;
      i++;
    }
  }
  return out;
}

/** esbuild's options for a JavaScript or TypeScript file's normal form, or null for any other file. */
function normalFormOptions(filename: string): TransformOptions | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  const loader = ['ts', 'mts', 'cts'].includes(ext) ? 'ts' : ['js', 'mjs', 'cjs'].includes(ext) ? 'js' : null;
  return loader && { loader, format: 'esm', minifyWhitespace: true, legalComments: 'none', target: 'esnext', logLevel: 'silent' };
}

/** The file as the seeds see it: what runs, without its comments and layout. */
export function normalizeSource(source: string, filename: string): string {
  const options = normalFormOptions(filename);
  if (options) {
    try {
      return transformSync(source, options).code;
    } catch {
      // Does not parse (the gate will say so): the plain normalizer still gives it stable seeds.
    }
  }
  return normalizeCpp(source);
}

/**
 * normalizeSource without holding the event loop: esbuild's asynchronous
 * service in place of transformSync, which waits on the calling thread (5 ms
 * an upload in the API's profile). The same esbuild and options, so the same
 * text; a failure that is not the file's errors (the service could not
 * answer) takes normalizeSource's own way, so the seeds never depend on it.
 */
export async function normalizeSourceAsync(source: string, filename: string): Promise<string> {
  const options = normalFormOptions(filename);
  if (!options) return normalizeCpp(source);
  try {
    return (await transform(source, options)).code;
  } catch (err) {
    if (Array.isArray((err as { errors?: unknown }).errors) && (err as { errors: unknown[] }).errors.length > 0) return normalizeCpp(source);
    return normalizeSource(source, filename);
  }
}

const seedsOf = (secret: string, game: string, normal: string): number[] => {
  const mac = createHmac('sha256', secret).update(`arbiter gate seeds v1\0${game}\0`).update(normal).digest();
  return Array.from({ length: GATE_SEED_COUNT }, (_, i) => mac.readUInt32BE(i * 4) & 0x7fffffff);
};

/** The five seeds (0 .. 2^31-1, as pickSeed draws) of a file in a game under a secret. */
export function deriveGateSeeds(secret: string, game: string, source: string, filename: string): number[] {
  return seedsOf(secret, game, normalizeSource(source, filename));
}

/** deriveGateSeeds off the event loop (normalizeSourceAsync): the same seeds. */
export async function deriveGateSeedsAsync(secret: string, game: string, source: string, filename: string): Promise<number[]> {
  return seedsOf(secret, game, await normalizeSourceAsync(source, filename));
}

const SECRET_NAME = 'gate-seed';
const made = new WeakMap<object, Promise<string>>();

/** The deployment's seed secret: GATE_SEED_SECRET, else the database's (made at first use; every process reads the same row). */
export async function gateSecret(db: Db | Tx, configured: string | null = gateSeedSecret()): Promise<string> {
  if (configured) return configured;
  let p = made.get(db);
  if (!p) {
    p = (async () => {
      await db.$executeRaw`INSERT INTO "DeploymentSecret" ("name", "value") VALUES (${SECRET_NAME}, ${randomBytes(32).toString('base64url')}) ON CONFLICT ("name") DO NOTHING`;
      const row = await db.deploymentSecret.findUniqueOrThrow({ where: { name: SECRET_NAME } });
      return row.value;
    })();
    made.set(db, p);
    p.catch(() => made.delete(db));
  }
  return p;
}

/** A stored gateSeeds value, or null (older rows, or not yet derived). */
export function storedGateSeeds(value: unknown): number[] | null {
  return Array.isArray(value) && value.length === GATE_SEED_COUNT && value.every((x) => Number.isInteger(x) && x >= 0 && x <= 0x7fffffff)
    ? (value as number[])
    : null;
}
