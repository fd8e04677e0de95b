// Secrets: passwords hashed with scrypt (memory-hard, salted), and the
// random 32-byte session ids and API tokens, of which the database keeps
// only the sha256.

import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash, type ScryptOptions } from 'node:crypto';
import { passwordHashCost } from '../config.ts';

/** The shortest password an account may have (sign-up, a reset link, a change). */
export const PASSWORD_MIN = 8;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * N = 2^PASSWORD_HASH_COST (2^15 by default), r = 8: 32 MiB per hash (OWASP's scrypt minimum is N=2^17 with r=8 for
 * 128 MiB; 2^15 keeps logins under ~100 ms). Each hash says its own N, which verifyPassword uses.
 */
const SCRYPT = { r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** passwordHashCost();
  const { r, p, keylen } = SCRYPT;
  const key = await scrypt(password, salt, keylen, { N, r, p, maxmem: 256 * N * r });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r });
  return timingSafeEqual(key, expected);
}

/** A hash to compare against when the user does not exist, so timing does not tell. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword('not a real password'));
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const TOKEN_PREFIX = 'arb_';
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}
