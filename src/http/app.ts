// The HTTP API and the website as a fastify plugin-style app (fastify/demo's
// layout): the app is built from its dependencies, routes are autoloaded from
// src/http/routes (the folder tree is the URL tree) and declare schemas, one
// error handler turns bad input into 4xx messages (pages get an error page,
// src/http/error-page.ts), OpenAPI at /docs.
// `buildApp` does not listen; src/main.ts (npm start / npm run api) does.

import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import autoload from '@fastify/autoload';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { JudgeQueues } from '../queue/index.ts';
import { errorHandler, notFound, badRequest } from './errors.ts';
import { resolveUser } from './auth.ts';
import { checkWriteOrigin } from './origin-check.ts';
import { checkRouteAccess, declareAll, type RouteAccess } from './access.ts';
import { createAttemptBudgets, MemoryCounters, RedisCounters } from '../domain/attempt-budgets.ts';
import { createEventHub } from './events.ts';
import { MemoryLimits, RedisLimits, type SharedLimits } from '../queue/shared-limits.ts';
import { rateLimitStore } from './rate-limits.ts';
import { startGate as gateStart } from '../domain/gate.ts';
import { TooManyError } from '../domain/errors.ts';
import type { StartGate } from '../domain/submissions.ts';
import { sendErrorPage, wantsPage } from './error-page.ts';
import { registerLanguage, t } from './i18n/index.ts';
import { setCourseTimeZone } from '../domain/course-time.ts';
import type { AppDeps } from './deps.ts';
import { builtEntryUrl } from '../sdk/modules.ts';

export interface AppOptions {
  config: Config;
  db: Db;
  /** The judge queues; without them submissions stay `queued` and /health reports no Redis. */
  queues?: JudgeQueues | null;
  /** fastify's logger option (default: at config.logLevel). */
  logger?: FastifyServerOptions['logger'];
}

// AppDeps lives in deps.ts (metrics.ts and the routes need it without importing the app).
export type { AppDeps } from './deps.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every route with who may call it (src/http/access.ts), as registered. */
    routeAccess: readonly RouteAccess[];
  }
}

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (depth > 20 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\0') || hasNul(v, depth + 1));
}

/**
 * The folder the routes are autoloaded from: the sources' src/http/routes (tsx), or the built
 * judge's dist/routes, the same tree compiled (scripts/build.js).
 */
function routesDir(): string {
  const built = builtEntryUrl('routes/');
  if (built) return fileURLToPath(built);
  // autoload refuses .ts files unless it sees a TypeScript loader, and it does not recognise tsx
  // registered by --import (the tests) or by its API (bin/entry.js): this is its documented switch.
  process.env.FASTIFY_AUTOLOAD_TYPESCRIPT = '1';
  return fileURLToPath(new URL('./routes/', import.meta.url));
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  setCourseTimeZone(config.courseTimeZone);
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    // Ids in URLs are integers; anything else is a 400 from the params schema.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: false } },
    bodyLimit: 1024 * 1024,
    // Autoload imports the route modules inside its plugin, which avvio times: from the sources (tsx compiles
    // each on first load) on a busy machine that can outlast the default 10 s; a plugin that hangs still fails.
    pluginTimeout: 120_000,
  });
  const queues = opts.queues ?? null;
  const startGate: StartGate | null = queues ? gateStart : null;
  const events = queues ? createEventHub(queues.redisUrl, queues.eventsChannel, (msg, err) => app.log.warn({ err }, msg)) : null;
  const counters = queues ? new RedisCounters(queues.redis(), (msg, err) => app.log.warn({ err }, msg)) : new MemoryCounters();
  const budgets = createAttemptBudgets(config, counters, queues?.prefix ?? config.queuePrefix);
  // Rate limits, stream caps and play-compile budgets: in Redis, shared by every API replica (in memory without queues).
  const limits: SharedLimits = queues ? new RedisLimits(queues.redis(), queues.prefix, (msg, err) => app.log.warn({ err }, msg)) : new MemoryLimits();
  app.decorate('deps', { config, db, queues, startGate, events, budgets, limits });
  // Every route says who may call it (config.access), or the app does not start; admin routes only inside an admin scope.
  const routeAccess: RouteAccess[] = [];
  app.decorate('routeAccess', routeAccess);
  app.addHook('onRoute', function (route) {
    checkRouteAccess.call(this, route, routeAccess);
  });
  app.addHook('onClose', async () => {
    await events?.close();
    await limits.close();
  });

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => {
    if (wantsPage(request)) return sendErrorPage(request, reply, 404, () => t('error.noPage', request.url.split('?')[0]!));
    throw notFound(`no route ${request.method} ${request.url.split('?')[0]}`);
  });

  // On the raw response, so that streams (SSE hijacks its reply) carry them too; a page's own
  // Content-Security-Policy (src/http/render/layout.ts) replaces this one. Swagger UI at /docs runs its own scripts.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    if (!/^\/docs(\/|$)/.test(request.routeOptions.url ?? '')) reply.raw.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  });
  app.addHook('onRequest', async (request) => checkWriteOrigin(request));
  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof TooManyError) void reply.header('retry-after', String(error.retryAfterSeconds));
  });

  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: config.submissionMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
  });
  await app.register(rateLimit, { global: false, store: rateLimitStore(limits) });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Arbiter judge API', version: '1.0.0', description: 'Submit bots, follow the Dummy gate, read leaderboards, matches and replays.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A token from POST /api/tokens' },
          session: { type: 'apiKey', in: 'cookie', name: 'arbiter_session' },
        },
      },
    },
  });
  await app.register(declareAll('public', swaggerUi), { routePrefix: '/docs' });

  // Postgres text cannot hold NUL: refuse it anywhere in the input instead of failing in the database.
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) throw badRequest('NUL characters are not allowed in the request');
  });

  app.decorateRequest('user', null);
  app.decorateRequest('authRefusal', null);
  registerLanguage(app);
  app.addHook('onRequest', async (request) => {
    request.user = await resolveUser(db, request);
  });

  // The routes: src/http/routes, whose folder tree is the URL tree (@fastify/autoload; docs/architecture.md).
  // The API (routes/api, under /api) apart from the website (the rest, under /), so the website's
  // autohooks (form parser, error pages) stay off the API; each admin folder's autohooks guards it.
  const routes = routesDir();
  // Every file of a folder is loaded: an index.ts is the folder's own routes, not (autoload's default) a reason to skip its siblings.
  // A folder named _param is that URL param (games/_game/ is /games/:game).
  const tree = { autoHooks: true, cascadeHooks: true, indexPattern: /^$/, routeParams: true } as const;
  await app.register(autoload, { ...tree, dir: join(routes, 'api'), options: { prefix: '/api' } });
  await app.register(autoload, { ...tree, dir: routes, ignorePattern: /^api(?:\/|$)/ });
  return app;
}
