// Who is asking: the browser session in a cookie, or a bearer token for
// scripts (src/domain/secrets.ts makes and hashes both); and the session
// cookie itself.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ACCOUNT_DISABLED_MESSAGE, endSession, startSession } from '../domain/accounts.ts';
import { sessionOwner, tokenOwner } from '../domain/credentials.ts';
import type { Db } from '../db/client.ts';
import { HttpError, unauthorized, forbidden } from './errors.ts';
import { DEVICE_TTL_MS, type AttemptBudgets, type PasswordClient } from '../domain/attempt-budgets.ts';

export const SESSION_COOKIE = 'arbiter_session';
/** A browser that logged in before: lets it past a password guess spread over other addresses (attempt-budgets.ts). */
export const DEVICE_COOKIE = 'arbiter_device';

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
    /** Why the request's valid session or token counts for nothing (a disabled account), for requireUser's answer. */
    authRefusal: string | null;
  }
}

/**
 * Resolves the bearer token or session cookie of a request (null if none or
 * invalid). A disabled account's session or token resolves to no user and
 * sets request.authRefusal, so requireUser says why.
 */
export async function resolveUser(db: Db, request: FastifyRequest): Promise<AuthUser | null> {
  const user = await resolveCredential(db, request);
  if (user?.disabled) {
    request.authRefusal = ACCOUNT_DISABLED_MESSAGE;
    return null;
  }
  return user && { id: user.id, username: user.username, isAdmin: user.isAdmin, via: user.via };
}

async function resolveCredential(db: Db, request: FastifyRequest): Promise<(AuthUser & { disabled: boolean }) | null> {
  const header = request.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) return null;
    const owner = await tokenOwner(db, m[1]!);
    return owner && { ...owner, via: 'token' };
  }
  const cookie = request.cookies?.[SESSION_COOKIE];
  if (cookie) {
    const owner = await sessionOwner(db, cookie);
    return owner && { ...owner, via: 'session' };
  }
  return null;
}

export function requireUser(request: FastifyRequest): AuthUser {
  if (request.authRefusal) throw new HttpError(403, request.authRefusal, 'account-disabled');
  if (request.headers.authorization && !request.user) throw unauthorized('invalid or revoked token');
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The request's user, who must be an admin (403 otherwise). */
export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden('only an admin may do this');
  return user;
}

export function requireOwnerOrAdmin(request: FastifyRequest, ownerId: number, what: string): AuthUser {
  const user = requireUser(request);
  if (user.id !== ownerId && !user.isAdmin) throw forbidden(`only the owner of this ${what} or an admin may read it`);
  return user;
}

/** A new session for the user, its cookie on the reply. */
export async function openSession({ db, config }: { db: Db; config: Config }, reply: FastifyReply, userId: number) {
  const { secret, expiresAt } = await startSession(db, userId, config.sessionTtlHours);
  void reply.setCookie(SESSION_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    // Over HTTPS (directly, or as a trusted proxy's X-Forwarded-Proto says) the cookie never travels in clear.
    secure: config.cookieSecure || reply.request.protocol === 'https',
    expires: expiresAt,
  });
}

/** Who is trying a password: the request's address and its device cookie (one per account it logged in to). */
export function passwordClient(request: FastifyRequest, username: string): PasswordClient {
  return { ip: request.ip, device: readDevices(request)[username.toLowerCase()] ?? null };
}

function readDevices(request: FastifyRequest): Record<string, string> {
  const raw = request.cookies?.[DEVICE_COOKIE];
  const out: Record<string, string> = Object.create(null);
  if (!raw || raw.length > 4096) return out;
  for (const pair of raw.split('|')) {
    const at = pair.indexOf('~');
    if (at > 0) out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** After a right password: the browser is remembered by the account (the newest 8 accounts per browser). */
export async function rememberDevice(
  { budgets, config }: { budgets: AttemptBudgets; config: Config },
  request: FastifyRequest,
  reply: FastifyReply,
  username: string,
) {
  const device = await budgets.rememberDevice(username);
  const devices = readDevices(request);
  delete devices[username.toLowerCase()];
  const kept = Object.entries(devices).slice(-7);
  kept.push([username.toLowerCase(), device]);
  void reply.setCookie(DEVICE_COOKIE, kept.map(([u, d]) => `${u}~${d}`).join('|'), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure || request.protocol === 'https',
    maxAge: Math.floor(DEVICE_TTL_MS / 1000),
  });
}

/** Ends the request's session (if any) and clears its cookie. */
export async function closeSession(db: Db, request: FastifyRequest, reply: FastifyReply) {
  await endSession(db, request.cookies[SESSION_COOKIE]);
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Where to go after logging in: only a path on this site ("/x", not "//host" or "/\host"), else the default. */
export function safeNext(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next.length > 2000) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  return next;
}

/** The logged-in user, or null after answering with a 303 to the login page (coming back here afterwards). */
export function pageUser(request: FastifyRequest, reply: FastifyReply, backTo = request.url): AuthUser | null {
  if (request.user) return request.user;
  void reply.redirect(`/login?next=${encodeURIComponent(safeNext(backTo))}`, 303);
  return null;
}
