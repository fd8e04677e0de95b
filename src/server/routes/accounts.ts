// Users, sessions (browser cookie) and bearer tokens (scripts, the CLI).

// The account logic is exported as functions the website's pages
// (src/web/pages/auth.ts, account.ts) call too, so both follow one set of rules.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { hashPassword, verifyPassword, dummyPasswordHash, sha256, newToken, requireUser, SESSION_COOKIE } from '../auth.ts';
import { badRequest, conflict, notFound, unauthorized } from '../errors.ts';
import type { AttemptBudgets, PasswordOutcome } from '../attempt-budgets.ts';

const credentials = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
} as const;

export const USERNAME_RE = /^[A-Za-z0-9_.-]{3,32}$/;
export const PASSWORD_MIN = 8;

export interface Credentials {
  username: string;
  password: string;
}

type AccountDeps = { db: Db; config: Config };
type BudgetDeps = { db: Db; budgets: AttemptBudgets };

/**
 * The user with these credentials, or a 401 (the same time whether the user exists or not).
 * Every password check goes through here: past the failures budget of the account or of the
 * client's address, a 429 before the password is hashed.
 */
export async function checkCredentials({ db, budgets }: BudgetDeps, { username, password }: Credentials, ip: string) {
  await budgets.beforePasswordCheck(username, ip);
  // A check that failed on the server's side (the database) is not the client's failure.
  let outcome: PasswordOutcome = 'unchecked';
  try {
    const user = await db.user.findUnique({ where: { usernameLower: username.toLowerCase() } });
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    outcome = user && ok ? 'right' : 'wrong';
    if (!user || !ok) throw unauthorized('wrong username or password');
    return user;
  } finally {
    await budgets.afterPasswordCheck(username, ip, outcome);
  }
}

/** Creates a user; a 400 (bad-username, weak-password), 409 (username-taken) or 429 (sign-ups from this address) says why not. */
export async function registerAccount({ db, budgets }: BudgetDeps, { username, password }: Credentials, ip: string) {
  if (!USERNAME_RE.test(username)) throw badRequest('username must be 3 to 32 characters from A-Z a-z 0-9 _ . -', 'bad-username');
  if (password.length < PASSWORD_MIN) throw badRequest(`password must be at least ${PASSWORD_MIN} characters`, 'weak-password');
  await budgets.beforeSignup(ip);
  let created = false;
  try {
    const lower = username.toLowerCase();
    if (await db.user.findUnique({ where: { usernameLower: lower } })) throw conflict(`username "${username}" is taken`, 'username-taken');
    const passwordHash = await hashPassword(password);
    try {
      const user = await db.user.create({ data: { username, usernameLower: lower, passwordHash } });
      created = true;
      return user;
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002') throw conflict(`username "${username}" is taken`, 'username-taken');
      throw err;
    }
  } finally {
    await budgets.afterSignup(ip, created);
  }
}

/** A new session row and its cookie on the reply. */
export async function openSession({ db, config }: AccountDeps, reply: FastifyReply, userId: number) {
  const value = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + config.sessionTtlHours * 3600_000);
  await db.session.create({ data: { id: sha256(value), userId, expiresAt } });
  await db.session.deleteMany({ where: { userId, expiresAt: { lt: new Date() } } }); // the user's expired ones
  void reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    // Over HTTPS (directly, or as a trusted proxy's X-Forwarded-Proto says) the cookie never travels in clear.
    secure: config.cookieSecure || reply.request.protocol === 'https',
    expires: expiresAt,
  });
}

/** Ends the request's session (if any) and clears its cookie. */
export async function closeSession(db: Db, request: FastifyRequest, reply: FastifyReply) {
  const value = request.cookies[SESSION_COOKIE];
  if (value) await db.session.deleteMany({ where: { id: sha256(value) } });
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** A new bearer token: the secret is returned here once; the database keeps its sha256. */
export async function createApiToken(db: Db, userId: number, label: string | null) {
  const token = newToken();
  const row = await db.apiToken.create({ data: { userId, tokenHash: sha256(token), prefix: token.slice(0, 10), label } });
  return { row, token };
}

/** Revokes one of the user's tokens (revoking twice is fine); a 404 if it is not theirs. */
export async function revokeApiToken(db: Db, userId: number, tokenId: number) {
  const res = await db.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (res.count === 0) {
    const exists = await db.apiToken.findFirst({ where: { id: tokenId, userId } });
    if (!exists) throw notFound(`no token ${tokenId} of yours`);
  }
}

export default async function accountRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;

  const userOut = (u: { id: number; username: string; isAdmin: boolean; usernameLower: string }) => ({
    id: u.id,
    username: u.username,
    isAdmin: u.isAdmin || config.adminUsers.includes(u.usernameLower),
  });

  app.post<{ Body: Credentials }>(
    '/api/users',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register (also logs in: sets the session cookie)',
        body: credentials,
      },
    },
    async (request, reply) => {
      const user = await registerAccount(app.deps, request.body, request.ip);
      await openSession(app.deps, reply, user.id);
      return reply.status(201).send(userOut(user));
    },
  );

  app.post<{ Body: Credentials }>(
    '/api/sessions',
    { schema: { tags: ['accounts'], summary: 'Log in: sets the session cookie', body: credentials } },
    async (request, reply) => {
      const user = await checkCredentials(app.deps, request.body, request.ip);
      await openSession(app.deps, reply, user.id);
      return userOut(user);
    },
  );

  app.delete('/api/sessions', { schema: { tags: ['accounts'], summary: 'Log out' } }, async (request, reply) => {
    await closeSession(db, request, reply);
    return reply.status(204).send();
  });

  app.get('/api/me', { schema: { tags: ['accounts'], summary: 'Who am I' } }, async (request) => {
    const me = requireUser(request);
    return { id: me.id, username: me.username, isAdmin: me.isAdmin, via: me.via };
  });

  app.post<{ Body: Partial<Credentials> & { label?: string } }>(
    '/api/tokens',
    {
      // Logged in with the cookie, the body may be empty.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags: ['accounts'],
        summary: 'Create a bearer token ({username, password}, or logged in)',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { ...credentials.properties, label: { type: 'string', maxLength: 100 } },
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      let userId: number;
      if (body.username !== undefined || body.password !== undefined) {
        if (body.username === undefined || body.password === undefined) throw badRequest('give both username and password');
        userId = (await checkCredentials(app.deps, { username: body.username, password: body.password }, request.ip)).id;
      } else {
        userId = requireUser(request).id;
      }
      const { row, token } = await createApiToken(db, userId, body.label ?? null);
      return reply.status(201).send({ id: row.id, token, label: row.label, createdAt: row.createdAt });
    },
  );

  app.get('/api/tokens', { schema: { tags: ['accounts'], summary: 'My tokens (never the secret)' } }, async (request) => {
    const me = requireUser(request);
    const rows = await db.apiToken.findMany({ where: { userId: me.id }, orderBy: { id: 'asc' } });
    return rows.map((t) => ({ id: t.id, prefix: t.prefix, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt }));
  });

  app.delete<{ Params: { id: number } }>(
    '/api/tokens/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Revoke one of my tokens',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      await revokeApiToken(db, me.id, request.params.id);
      return reply.status(204).send();
    },
  );
}
