// One-time links an admin hands out: an invitation (a sign-up
// whose student id, name and e-mail come from the roster, not from what the
// student types) and a password link (sets the password of an existing user:
// a roster import's new account, or an admin's reset). The token is shown
// once; the database keeps its sha256 (src/domain/secrets.ts). A link works
// once and until it expires; a newer link for the same user or student
// replaces the older one. Setting a password through a link, or through
// PUT /api/me/password, ends the user's sessions and revokes every API token
// of theirs (a leaked token must not outlive the reset). Every step is audited.

import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../db/client.ts';
import { recordAudit } from './audit.ts';
import { hashPassword, PASSWORD_MIN, sha256 } from './secrets.ts';
import { conflict, forbidden, invalid, notFound } from './errors.ts';

export const PASSWORD_MAX = 256;
/** An admin's reset link lives this long. */
export const RESET_LINK_TTL_MS = 24 * 3600_000;
/** Where a password link and an invitation lead (the site's paths; the admin's page and API put the origin in front). */
export const passwordLinkPath = (token: string) => `/reset/${token}`;
export const invitationPath = (token: string) => `/signup?invite=${token}`;
/** What a link's token looks like: what the routes accept before a lookup. */
export const LINK_TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;

const newLinkToken = () => randomBytes(32).toString('base64url');

/** The password rules of sign-up, for a new password. */
export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw invalid(`password must be at least ${PASSWORD_MIN} characters`, 'weak-password');
  if (password.length > PASSWORD_MAX) throw invalid(`password must be at most ${PASSWORD_MAX} characters`, 'weak-password');
}

/** A password link for the user (its older unused ones stop working). Inside the caller's transaction; not audited here. */
export async function issuePasswordLink(tx: Tx, actorId: number | null, userId: number, expiresAt: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = newLinkToken();
  await tx.accountLink.updateMany({ where: { kind: 'password', userId, usedAt: null }, data: { usedAt: new Date() } });
  await tx.accountLink.create({ data: { kind: 'password', tokenHash: sha256(token), userId, expiresAt, createdById: actorId } });
  return { token, expiresAt };
}

/** An invitation for a student (an unused older one for the same student id stops working). Inside the caller's transaction. */
export async function issueInvitation(
  tx: Tx,
  actorId: number | null,
  student: { studentId: string; fullName: string | null; email: string | null },
  expiresAt: Date,
): Promise<{ token: string; expiresAt: Date; replaced: boolean }> {
  const token = newLinkToken();
  const old = await tx.accountLink.updateMany({
    where: { kind: 'invite', studentId: student.studentId, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  await tx.accountLink.create({
    data: {
      kind: 'invite',
      tokenHash: sha256(token),
      studentId: student.studentId,
      fullName: student.fullName,
      email: student.email,
      expiresAt,
      createdById: actorId,
    },
  });
  return { token, expiresAt, replaced: old.count > 0 };
}

/** An admin's reset link for a user: valid 24 hours, once; audited (user.reset-link). */
export async function createResetLink(
  db: Db,
  actorId: number | null,
  userId: number,
  now = new Date(),
): Promise<{ token: string; path: string; expiresAt: Date; username: string }> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, username: true } });
    if (!user) throw notFound(`no user ${userId}`);
    const { token, expiresAt } = await issuePasswordLink(tx, actorId, userId, new Date(now.getTime() + RESET_LINK_TTL_MS));
    await recordAudit(tx, {
      actorId,
      action: 'user.reset-link',
      targetType: 'user',
      targetId: userId,
      detail: { username: user.username, expiresAt: expiresAt.toISOString() },
    });
    return { token, path: passwordLinkPath(token), expiresAt, username: user.username };
  });
}

export type LinkView =
  | { kind: 'password'; id: number; userId: number; username: string; expiresAt: Date }
  | { kind: 'invite'; id: number; studentId: string; fullName: string | null; email: string | null; expiresAt: Date };

/** The live link with this token (unused, not expired, of the kind asked), or null: a wrong, used and expired link look alike. */
export async function findLink(db: Db | Tx, token: string, kind: 'password' | 'invite', now = new Date()): Promise<LinkView | null> {
  if (!LINK_TOKEN_RE.test(token)) return null;
  const row = await db.accountLink.findUnique({ where: { tokenHash: sha256(token) }, include: { user: { select: { username: true, disabledAt: true } } } });
  if (!row || row.kind !== kind || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  if (row.kind === 'password') {
    if (!row.user || row.userId === null) return null;
    return { kind: 'password', id: row.id, userId: row.userId, username: row.user.username, expiresAt: row.expiresAt };
  }
  if (row.studentId === null) return null;
  return { kind: 'invite', id: row.id, studentId: row.studentId, fullName: row.fullName, email: row.email, expiresAt: row.expiresAt };
}

export const linkGone = () =>
  notFound('this link is not valid: it was used already, it expired, or a newer one replaced it (ask the course staff for a new one)');

/**
 * Spends an invitation inside the sign-up's transaction (the row is claimed by
 * its usedAt, so two sign-ups with one link cannot both succeed).
 */
export async function spendInvitation(tx: Tx, token: string, now = new Date()): Promise<LinkView & { kind: 'invite' }> {
  const link = await findLink(tx, token, 'invite', now);
  if (link?.kind !== 'invite') throw linkGone();
  const claimed = await tx.accountLink.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: now } });
  if (claimed.count !== 1) throw linkGone();
  return link;
}

/** Every credential of the user but a password: its sessions end and its live API tokens are revoked. */
export async function endCredentials(tx: Tx, userId: number, now = new Date()): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
  const ended = await tx.session.deleteMany({ where: { userId } });
  const revoked = await tx.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
  return { sessionsEnded: ended.count, tokensRevoked: revoked.count };
}

/** A password link used: the new password is set, the link spent, every session and API token of the user ended (the caller may open a new session). */
export async function usePasswordLink(db: Db, token: string, password: string, now = new Date()) {
  checkNewPassword(password);
  // Hashed before the transaction: scrypt takes a while and the row lock need not wait for it.
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const link = await findLink(tx, token, 'password', now);
    if (link?.kind !== 'password') throw linkGone();
    const claimed = await tx.accountLink.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: now } });
    if (claimed.count !== 1) throw linkGone();
    const user = await tx.user.findUniqueOrThrow({ where: { id: link.userId } });
    if (user.disabledAt)
      throw forbidden('this account has been disabled by an admin: it can no longer log in or submit (ask the course staff)', 'account-disabled');
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const ended = await endCredentials(tx, user.id, now);
    await recordAudit(tx, {
      actorId: user.id,
      action: 'user.password-reset',
      targetType: 'user',
      targetId: user.id,
      detail: { via: 'link', linkId: link.id, ...ended },
    });
    return user;
  });
}

/**
 * PUT /api/me/password: the user's new password (the caller gave the current one); every session
 * ends and every API token is revoked, the caller's own included (a cookie caller gets a new session).
 */
export async function changeOwnPassword(db: Db, userId: number, password: string, via: 'token' | 'session') {
  checkNewPassword(password);
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const exists = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!exists) throw conflict('no such user', 'no-user');
    const user = await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    const ended = await endCredentials(tx, userId);
    await recordAudit(tx, { actorId: userId, action: 'user.password-change', targetType: 'user', targetId: userId, detail: { via, ...ended } });
    return { user, ...ended };
  });
}
