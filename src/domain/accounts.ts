// Accounts: sign-up, password checks (under the attempt budgets), sessions
// and API tokens. The API's routes, the website's pages and the CLI's server
// side all go through these, so they follow one set of rules.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { hashPassword, verifyPassword, dummyPasswordHash, sha256, newToken, PASSWORD_MIN } from './secrets.ts';
import type { AttemptBudgets, PasswordClient, PasswordOutcome } from './attempt-budgets.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated, type DomainError } from './errors.ts';
import { findLink, linkGone, spendInvitation } from './account-links.ts';
import { recordAudit } from './audit.ts';

export const USERNAME_RE = /^[A-Za-z0-9_.-]{3,32}$/;
export { PASSWORD_MIN };

export interface Credentials {
  username: string;
  password: string;
}

type BudgetDeps = { db: Db; budgets: AttemptBudgets };
type RegistrationPolicy = Pick<Config, 'registration' | 'registrationInviteCode' | 'registrationEmailDomains'> & Partial<Pick<Config, 'signupRequire'>>;

/** What a disabled account gets at log-in and on every session or token. */
export const ACCOUNT_DISABLED_MESSAGE = 'this account has been disabled by an admin: it can no longer log in or submit (ask the course staff)';

/** Sign-up's extra fields, asked by some registration policies. */
export interface SignupExtras {
  /** REGISTRATION=domain: an address of one of the course's domains. */
  email?: string | undefined;
  /** REGISTRATION=invite: the course's code. */
  inviteCode?: string | undefined;
  /** SIGNUP_REQUIRE=studentId: the course's id of the student (unique). */
  studentId?: string | undefined;
  /** SIGNUP_REQUIRE=fullName. */
  fullName?: string | undefined;
  /** A roster invitation's token (/signup?invite=...): the student id, name and e-mail are the link's, and it stands for the registration policy. */
  invitation?: string | undefined;
}

export const STUDENT_ID_MAX = 64;
export const FULL_NAME_MAX = 200;

/** A student id as kept: trimmed, 1-64 characters, no spaces or control characters; null when empty. */
export function cleanStudentId(raw: string | undefined | null): string | null {
  const v = (raw ?? '').trim();
  if (v === '') return null;
  if (v.length > STUDENT_ID_MAX || /[\s\u0000-\u001f\u007f]/.test(v))
    throw invalid(`"${v.slice(0, 80)}" is not a student id: 1 to ${STUDENT_ID_MAX} characters without spaces`, 'bad-student-id');
  return v;
}

/** A full name as kept: spaces collapsed, at most 200 characters, no control characters; null when empty. */
export function cleanFullName(raw: string | undefined | null): string | null {
  const v = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (v === '') return null;
  if (v.length > FULL_NAME_MAX || /[\u0000-\u001f\u007f]/.test(v)) throw invalid(`a full name is at most ${FULL_NAME_MAX} characters`, 'bad-full-name');
  return v;
}

/** An e-mail as kept: lowercase; null when empty. */
export function cleanEmail(raw: string | undefined | null): string | null {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '') return null;
  if (v.length > 320 || !EMAIL_RE.test(v)) throw invalid(`"${v.slice(0, 80)}" is not an e-mail address`, 'bad-email');
  return v;
}

const REQUIRED_CODE = { email: 'email-required', studentId: 'student-id-required', fullName: 'full-name-required' } as const;
const REQUIRED_TEXT = { email: 'your e-mail address', studentId: 'your student id', fullName: 'your full name' } as const;

/** Whether a unique-constraint error (P2002) is about the student id. */
const studentIdClash = (err: unknown) => {
  const meta = (err as { meta?: { target?: unknown; driverAdapterError?: unknown } }).meta;
  return JSON.stringify(meta ?? {}).includes('studentId');
};

const EMAIL_RE = /^[^\s@]{1,64}@([^\s@]{1,253})$/;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The registration policy: open, invite (the code) or domain (an e-mail of a
 * listed domain). Returns the e-mail to keep (lowercase), or null. Refusals
 * are coded invite-required, bad-invite, email-required, bad-email, email-domain.
 */
export function checkRegistrationPolicy(policy: RegistrationPolicy, extras: SignupExtras): string | null {
  const email = extras.email?.trim().toLowerCase() || null;
  if (email !== null && !EMAIL_RE.test(email)) throw invalid(`"${extras.email}" is not an e-mail address`, 'bad-email');
  if (policy.registration === 'invite') {
    const code = extras.inviteCode?.trim() ?? '';
    if (code === '') throw forbidden("sign-up needs the course's invite code: ask the course staff for it", 'invite-required');
    if (!sameSecret(code, policy.registrationInviteCode ?? '')) throw forbidden('wrong invite code: check it with the course staff', 'bad-invite');
  }
  if (policy.registration === 'domain') {
    const domains = policy.registrationEmailDomains;
    if (email === null) throw invalid(`sign-up needs your e-mail address at ${domains.join(' or ')}`, 'email-required');
    const domain = EMAIL_RE.exec(email)![1]!;
    if (!domains.includes(domain)) throw forbidden(`sign-up is open to e-mail addresses at ${domains.join(' or ')} only, not ${domain}`, 'email-domain');
  }
  return email;
}

/**
 * The user with these credentials, or an unauthenticated error (the same time whether the user
 * exists or not, below the budgets). Every password check goes through here: past a budget that
 * may refuse this client (attempt-budgets.ts), the refusal comes before the password is hashed.
 */
export async function checkCredentials({ db, budgets }: BudgetDeps, { username, password }: Credentials, client: PasswordClient) {
  // Looked up first: a made-up username is held by the address's budget, a real one is not (usernames are public anyway).
  const user = await db.user.findUnique({ where: { usernameLower: username.toLowerCase() } });
  await budgets.beforePasswordCheck(username, client, user !== null);
  // A check that failed on the server's side is not the client's failure.
  let outcome: PasswordOutcome = 'unchecked';
  try {
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    outcome = user && ok ? 'right' : 'wrong';
    if (!user || !ok) throw unauthenticated('wrong username or password');
    if (user.disabledAt) throw forbidden(ACCOUNT_DISABLED_MESSAGE, 'account-disabled');
    return user;
  } finally {
    await budgets.afterPasswordCheck(username, client, outcome);
  }
}

/** Usernames are public (leaderboards, matches): a student id, which only the teacher sees, is not one. */
function refusePrivateUsername(username: string, studentId: string | null) {
  if (studentId !== null && username.toLowerCase() === studentId.toLowerCase())
    throw invalid('your username is shown on public pages: choose one that is not your student id', 'username-is-student-id');
}

/**
 * Creates a user; an error coded bad-username, username-is-student-id, weak-password, username-taken,
 * or one of the registration policy's (checkRegistrationPolicy), or the
 * sign-up budget's refusal, says why not. Nobody becomes an admin here
 * (`arbiter admin grant` does that).
 */
export async function registerAccount(
  { db, budgets, config }: BudgetDeps & { config: RegistrationPolicy },
  { username, password, email: givenEmail, inviteCode, studentId: givenStudentId, fullName: givenFullName, invitation }: Credentials & SignupExtras,
  ip: string,
) {
  if (!USERNAME_RE.test(username)) throw invalid('username must be 3 to 32 characters from A-Z a-z 0-9 _ . -', 'bad-username');
  if (password.length < PASSWORD_MIN) throw invalid(`password must be at least ${PASSWORD_MIN} characters`, 'weak-password');
  // A roster invitation: its student id, name and e-mail are the link's (what it lacks is typed); it stands for the registration policy.
  if (invitation) {
    const link = await findLink(db, invitation, 'invite');
    if (link?.kind !== 'invite') throw linkGone();
    const extras = { email: link.email ?? cleanEmail(givenEmail), studentId: link.studentId, fullName: link.fullName ?? cleanFullName(givenFullName) };
    for (const f of config.signupRequire ?? []) if (!extras[f]) throw invalid(`sign-up needs ${REQUIRED_TEXT[f]}`, REQUIRED_CODE[f]);
    refusePrivateUsername(username, extras.studentId);
    return createAccount({ db, budgets }, username, password, extras, ip, invitation);
  }
  const studentId = cleanStudentId(givenStudentId);
  const fullName = cleanFullName(givenFullName);
  refusePrivateUsername(username, studentId);
  for (const f of config.signupRequire ?? []) {
    const given = f === 'email' ? (givenEmail ?? '').trim() : f === 'studentId' ? studentId : fullName;
    if (!given) throw invalid(`sign-up needs ${REQUIRED_TEXT[f]}`, REQUIRED_CODE[f]);
  }
  // A typed invite code spends the address's password-failure budget when wrong, so it cannot be guessed at speed.
  const guessed = config.registration === 'invite' && (inviteCode?.trim() ?? '') !== '';
  const codeKey = `#invite-code@${ip}`;
  if (guessed) await budgets.beforePasswordCheck(codeKey, { ip }, false);
  let email: string | null;
  try {
    email = checkRegistrationPolicy(config, { email: givenEmail, inviteCode });
  } catch (err) {
    if (guessed) await budgets.afterPasswordCheck(codeKey, { ip }, (err as DomainError).code === 'bad-invite' ? 'wrong' : 'unchecked');
    throw err;
  }
  if (guessed) await budgets.afterPasswordCheck(codeKey, { ip }, 'right');
  return createAccount({ db, budgets }, username, password, { email, studentId, fullName }, ip, null);
}

/**
 * The account itself, under the address's sign-up budget unless a roster invitation brings it (one
 * invitation, one student: it cannot be multiplied); an invitation is spent in the same transaction.
 */
async function createAccount(
  { db, budgets }: BudgetDeps,
  username: string,
  password: string,
  extras: { email: string | null; studentId: string | null; fullName: string | null },
  ip: string,
  invitation: string | null,
) {
  const budgeted = invitation === null;
  if (budgeted) await budgets.beforeSignup(ip);
  let created = false;
  try {
    const lower = username.toLowerCase();
    if (await db.user.findUnique({ where: { usernameLower: lower } })) throw conflict(`username "${username}" is taken`, 'username-taken');
    const studentTaken = () =>
      conflict(`student id "${extras.studentId}" already has an account: log in to it (or ask the course staff for a reset link)`, 'student-id-taken');
    if (extras.studentId !== null && (await db.user.findUnique({ where: { studentId: extras.studentId } }))) throw studentTaken();
    const passwordHash = await hashPassword(password);
    try {
      const user = await db.$transaction(async (tx) => {
        const link = invitation ? await spendInvitation(tx, invitation) : null;
        const u = await tx.user.create({ data: { username, usernameLower: lower, passwordHash, ...extras } });
        if (link)
          await recordAudit(tx, {
            actorId: u.id,
            action: 'user.signup-invited',
            targetType: 'user',
            targetId: u.id,
            detail: { studentId: link.studentId, linkId: link.id },
          });
        return u;
      });
      created = true;
      return user;
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002')
        throw studentIdClash(err) ? studentTaken() : conflict(`username "${username}" is taken`, 'username-taken');
      throw err;
    }
  } finally {
    if (budgeted) await budgets.afterSignup(ip, created);
  }
}

/** A new session: its secret (for the cookie) and when it ends; the database keeps its sha256. */
export async function startSession(db: Db, userId: number, ttlHours: number): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db.session.create({ data: { id: sha256(secret), userId, expiresAt } });
  await db.session.deleteMany({ where: { userId, expiresAt: { lt: new Date() } } }); // the user's expired ones
  return { secret, expiresAt };
}

/** Ends the session with this secret, if there is one. */
export async function endSession(db: Db, secret: string | undefined): Promise<void> {
  if (secret) await db.session.deleteMany({ where: { id: sha256(secret) } });
}

/** A new bearer token: the secret is returned here once; the database keeps its sha256. */
export async function createApiToken(db: Db, userId: number, label: string | null) {
  const token = newToken();
  const row = await db.apiToken.create({ data: { userId, tokenHash: sha256(token), prefix: token.slice(0, 10), label } });
  return { row, token };
}

/** Revokes one of the user's tokens (revoking twice is fine); not-found if it is not theirs. */
export async function revokeApiToken(db: Db, userId: number, tokenId: number) {
  const res = await db.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (res.count === 0) {
    const exists = await db.apiToken.findFirst({ where: { id: tokenId, userId } });
    if (!exists) throw notFound(`no token ${tokenId} of yours`);
  }
}
