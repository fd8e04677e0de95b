// Who a bearer token or a session cookie belongs to, and a user's tokens: the
// reads behind src/http/auth.ts and the account pages (the secrets are made
// and hashed in secrets.ts, sessions and tokens created in accounts.ts).

import type { Db } from '../db/client.ts';
import { sha256 } from './secrets.ts';

/** The account a credential resolves to; `disabled` accounts are refused by the caller, which says why. */
export interface CredentialOwner {
  id: number;
  username: string;
  isAdmin: boolean;
  disabled: boolean;
}

/** A token's lastUsedAt is written at most this often, so a busy script does not write on every request. */
const TOKEN_TOUCH_MS = 60_000;

const owner = (user: { id: number; username: string; isAdmin: boolean; disabledAt: Date | null }): CredentialOwner => ({
  id: user.id,
  username: user.username,
  isAdmin: user.isAdmin,
  disabled: user.disabledAt !== null,
});

/** The owner of a bearer token (its secret as sent), or null for an unknown or revoked one. */
export async function tokenOwner(db: Db, secret: string): Promise<CredentialOwner | null> {
  const row = await db.apiToken.findUnique({ where: { tokenHash: sha256(secret) }, include: { user: true } });
  if (!row || row.revokedAt) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOKEN_TOUCH_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return owner(row.user);
}

/** The owner of a session cookie (its secret as sent), or null for an unknown or expired one. */
export async function sessionOwner(db: Db, secret: string): Promise<CredentialOwner | null> {
  const row = await db.session.findUnique({ where: { id: sha256(secret) }, include: { user: true } });
  if (!row || row.expiresAt.getTime() < Date.now()) return null;
  return owner(row.user);
}

/** A user's API tokens, never their secret (only its hash is stored), oldest or newest first. */
export async function listApiTokens(db: Db, userId: number, order: 'oldest' | 'newest') {
  return db.apiToken.findMany({ where: { userId }, orderBy: { id: order === 'oldest' ? 'asc' : 'desc' } });
}
