// Users, sessions (browser cookie) and bearer tokens (scripts, the CLI).

// The account logic is exported as functions the website's pages
// (src/web/pages/auth.ts, account.ts) call too, so both follow one set of rules.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { hashPassword, verifyPassword, dummyPasswordHash, sha256, newToken, requireUser, SESSION_COOKIE } from '../auth.ts';
import { badRequest, conflict, notFound, unauthorized } from '../errors.ts';

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

/** The rate limit of everything that checks a password (the API and the pages share it). */
export const loginRateLimit = (config: Config) => ({ rateLimit: { max: config.rateLimitLogin, timeWindow: '1 minute' } });

/** The user with these credentials, or a 401 (the same time whether the user exists or not). */
export async function checkCredentials(db: Db, { username, password }: Credentials) {
  const user = await db.user.findUnique({ where: { usernameLower: username.toLowerCase() } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw unauthorized('wrong username or password');
  return user;
}

/** Creates a user; a 400 (bad-username, weak-password) or 409 (username-taken) says why not. */
export async function registerAccount(db: Db, { username, password }: Credentials) {
  if (!USERNAME_RE.test(username)) throw badRequest('username must be 3 to 32 characters from A-Z a-z 0-9 _ . -', 'bad-username');
  if (password.length < PASSWORD_MIN) throw badRequest(`password must be at least ${PASSWORD_MIN} characters`, 'weak-password');
  const lower = username.toLowerCase();
  if (await db.user.findUnique({ where: { usernameLower: lower } })) throw conflict(`username "${username}" is taken`, 'username-taken');
  const passwordHash = await hashPassword(password);
  try {
    return await db.user.create({ data: { username, usernameLower: lower, passwordHash } });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw conflict(`username "${username}" is taken`, 'username-taken');
    throw err;
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
    secure: config.cookieSecure,
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
  const loginLimit = loginRateLimit(config);

  const userOut = (u: { id: number; username: string; isAdmin: boolean; usernameLower: string }) => ({
    id: u.id,
    username: u.username,
    isAdmin: u.isAdmin || config.adminUsers.includes(u.usernameLower),
  });

  app.post<{ Body: Credentials }>(
    '/api/users',
    {
      config: loginLimit,
      schema: {
        tags: ['accounts'],
        summary: 'Register (also logs in: sets the session cookie)',
        body: credentials,
      },
    },
    async (request, reply) => {
      const user = await registerAccount(db, request.body);
      await openSession(app.deps, reply, user.id);
      return reply.status(201).send(userOut(user));
    },
  );

  app.post<{ Body: Credentials }>(
    '/api/sessions',
    { config: loginLimit, schema: { tags: ['accounts'], summary: 'Log in: sets the session cookie', body: credentials } },
    async (request, reply) => {
      const user = await checkCredentials(db, request.body);
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
      config: loginLimit,
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
        userId = (await checkCredentials(db, { username: body.username, password: body.password })).id;
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
