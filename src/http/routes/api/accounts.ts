// Users, sessions (browser cookie) and bearer tokens (scripts, the CLI).

// The rules are the domain's (src/domain/accounts.ts); these are its HTTP doors.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { listApiTokens } from '../../../domain/credentials.ts';
import { checkCredentials, createApiToken, registerAccount, revokeApiToken } from '../../../domain/accounts.ts';
import { changeOwnPassword } from '../../../domain/account-links.ts';
import { closeSession, openSession, passwordClient, rememberDevice, requireUser } from '../../auth.ts';
import { badRequest } from '../../errors.ts';
import { idParams, meSchema, noContent, refusals, tokenCreatedSchema, tokenListSchema, userSchema } from '../../schemas.ts';

const credentials = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
} as const;

export default async function accountRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  const userOut = (u: { id: number; username: string; isAdmin: boolean }) => ({ id: u.id, username: u.username, isAdmin: u.isAdmin });

  app.post(
    '/users',
    {
      config: { access: 'public' },
      schema: {
        tags: ['accounts'],
        summary:
          'Register (also logs in: sets the session cookie). REGISTRATION=invite asks for inviteCode, REGISTRATION=domain for email; SIGNUP_REQUIRE for email, studentId and/or fullName. invitation: a roster invitation’s token (its student id, name and e-mail win over the typed ones, and it stands for the invite code or domain)',
        body: {
          ...credentials,
          properties: {
            ...credentials.properties,
            email: { type: 'string', maxLength: 320 },
            inviteCode: { type: 'string', maxLength: 200 },
            studentId: { type: 'string', maxLength: 64 },
            fullName: { type: 'string', maxLength: 200 },
            invitation: { type: 'string', maxLength: 100 },
          },
        },
        response: { 201: userSchema, ...refusals(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const user = await registerAccount(app.deps, request.body, request.ip);
      await openSession(app.deps, reply, user.id);
      return reply.status(201).send(userOut(user));
    },
  );

  app.post(
    '/sessions',
    {
      config: { access: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Log in: sets the session cookie',
        body: credentials,
        response: { 200: userSchema, ...refusals(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const user = await checkCredentials(app.deps, request.body, passwordClient(request, request.body.username));
      await rememberDevice(app.deps, request, reply, user.username);
      await openSession(app.deps, reply, user.id);
      return userOut(user);
    },
  );

  app.delete(
    '/sessions',
    { config: { access: 'public' }, schema: { tags: ['accounts'], summary: 'Log out', response: { 204: noContent } } },
    async (request, reply) => {
      await closeSession(db, request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me',
    { config: { access: 'user' }, schema: { tags: ['accounts'], summary: 'Who am I', response: { 200: meSchema, ...refusals(401) } } },
    async (request) => {
      const me = requireUser(request);
      return { id: me.id, username: me.username, isAdmin: me.isAdmin, via: me.via };
    },
  );

  app.put(
    '/me/password',
    {
      config: { access: 'user' },
      schema: {
        tags: ['accounts'],
        summary:
          'Set my password: currentPassword is asked whatever the credential (an API token or the session cookie), and checked under the password-failure budgets. Every session of mine ends and every API token of mine is revoked, the one calling included (a cookie caller gets a new session). Audited',
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', minLength: 1, maxLength: 256 }, currentPassword: { type: 'string', minLength: 1, maxLength: 256 } },
        },
        response: { 204: noContent, ...refusals(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      // Asked of a token too: a leaked token alone must not be able to take the account.
      const current = request.body.currentPassword;
      if (current === undefined) throw badRequest('give currentPassword, your password now', 'current-password-required');
      await checkCredentials(app.deps, { username: me.username, password: current }, passwordClient(request, me.username));
      await changeOwnPassword(db, me.id, request.body.password, me.via);
      if (me.via === 'session') await openSession(app.deps, reply, me.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/tokens',
    {
      config: { access: 'public' },
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
        response: { 201: tokenCreatedSchema, ...refusals(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      let userId: number;
      if (body.username !== undefined || body.password !== undefined) {
        if (body.username === undefined || body.password === undefined) throw badRequest('give both username and password');
        userId = (await checkCredentials(app.deps, { username: body.username, password: body.password }, passwordClient(request, body.username))).id;
      } else {
        userId = requireUser(request).id;
      }
      const { row, token } = await createApiToken(db, userId, body.label ?? null);
      return reply.status(201).send({ id: row.id, token, label: row.label, createdAt: row.createdAt });
    },
  );

  app.get(
    '/tokens',
    {
      config: { access: 'user' },
      schema: { tags: ['accounts'], summary: 'My tokens (never the secret)', response: { 200: tokenListSchema, ...refusals(401) } },
    },
    async (request) => {
      const me = requireUser(request);
      const rows = await listApiTokens(db, me.id, 'oldest');
      return rows.map((t) => ({ id: t.id, prefix: t.prefix, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt }));
    },
  );

  app.delete(
    '/tokens/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['accounts'],
        summary: 'Revoke one of my tokens',
        params: idParams,
        response: { 204: noContent, ...refusals(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      await revokeApiToken(db, me.id, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
