// Accounts: passwords hashed with scrypt (memory-hard, salted), browser
// sessions in a cookie, bearer tokens for scripts. Session ids and tokens are
// random 32-byte values; the database keeps only their sha256.

import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash, type ScryptOptions } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { unauthorized, forbidden } from './errors.ts';

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** N = 2^15, r = 8: 32 MiB per hash (OWASP's scrypt minimum is N=2^17 with r=8 for 128 MiB; 2^15 keeps logins under ~100 ms). */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
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

export const SESSION_COOKIE = 'arbiter_session';

export interface AuthUser {
  id: number;
  username: string;
  isAdmin: boolean;
  /** 'session' (cookie) or 'token' (bearer). */
  via: 'session' | 'token';
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/** Resolves the bearer token or session cookie of a request (null if none or invalid). */
export async function resolveUser(db: Db, request: FastifyRequest, adminUsers: readonly string[]): Promise<AuthUser | null> {
  const header = request.headers.authorization;
  const admin = (u: { isAdmin: boolean; usernameLower: string }) => u.isAdmin || adminUsers.includes(u.usernameLower);
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) return null;
    const row = await db.apiToken.findUnique({ where: { tokenHash: sha256(m[1]!) }, include: { user: true } });
    if (!row || row.revokedAt) return null;
    // lastUsedAt: at most once a minute, so a busy script does not write on every request.
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
      await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
    }
    return { id: row.user.id, username: row.user.username, isAdmin: admin(row.user), via: 'token' };
  }
  const cookie = request.cookies?.[SESSION_COOKIE];
  if (cookie) {
    const row = await db.session.findUnique({ where: { id: sha256(cookie) }, include: { user: true } });
    if (!row || row.expiresAt.getTime() < Date.now()) return null;
    return { id: row.user.id, username: row.user.username, isAdmin: admin(row.user), via: 'session' };
  }
  return null;
}

export function requireUser(request: FastifyRequest): AuthUser {
  if (request.headers.authorization && !request.user) throw unauthorized('invalid or revoked token');
  if (!request.user) throw unauthorized();
  return request.user;
}

export function requireOwnerOrAdmin(request: FastifyRequest, ownerId: number, what: string): AuthUser {
  const user = requireUser(request);
  if (user.id !== ownerId && !user.isAdmin) throw forbidden(`only the owner of this ${what} or an admin may read it`);
  return user;
}
