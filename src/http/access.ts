// Who may call a route, decided by the route the router matched, never by the
// text of the URL (a hook that tested request.url by prefix would let
// /api/%61dmin/... through, since the router matches the decoded path).
//
// Every route declares what it needs, `config: { access }`:
//   public: anyone;
//   user:   a logged-in user (the handler takes it with requireUser / pageUser);
//   owner:  a logged-in user, and the handler checks the thing is theirs (or an admin's);
//   admin:  admins only. Admin routes live in an admin scope: a folder whose
//           autohooks.ts calls guardAdminApi() or guardAdminPages()
//           (src/http/routes/api/admin/, src/http/routes/admin/), or, beside
//           other routes, a plugin made by adminOnlyApi() or adminOnlyPages().
//           Its onRequest hook refuses anyone else before anything else runs
//           (fastify/demo's autohooks model).
// The app's onRoute hook (checkRouteAccess) refuses to start when a route
// declares nothing, when an admin route sits outside an admin scope, or when
// a scope's route says it is anything but admin. Routes a plugin registers on
// its own (swagger UI's) are declared by wrapping the plugin in declareAll().

import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { requireAdmin } from './auth.ts';
import { pageUser } from './auth.ts';

export const ACCESS = ['public', 'user', 'owner', 'admin'] as const;
export type Access = (typeof ACCESS)[number];

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (src/http/access.ts); every route must say. */
    access?: Access;
  }
  interface FastifyInstance {
    /** Set on an admin scope (and seen by everything registered inside it): its routes are guarded. */
    accessGuard?: 'admin';
    /** Set by declareAll(): the access of routes registered inside that declare none. */
    accessDefault?: Access;
  }
}

const isAccess = (v: unknown): v is Access => typeof v === 'string' && (ACCESS as readonly string[]).includes(v);

/**
 * The onRoute check (`this` is the instance the route is registered on):
 * throws at startup for a route without a valid access, an admin route outside
 * an admin scope, or a route in an admin scope that is not an admin route.
 * Records each route's access in `table`.
 */
export function checkRouteAccess(this: FastifyInstance, route: RouteOptions, table: RouteAccess[]): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const name = `${methods.join(',')} ${route.url}`;
  const declared: unknown = route.config?.access ?? this.accessDefault;
  if (!isAccess(declared))
    throw new Error(`route ${name} declares no access: add config: { access: 'public' | 'user' | 'owner' | 'admin' } (src/http/access.ts)`);
  if (declared === 'admin' && this.accessGuard !== 'admin')
    throw new Error(
      `route ${name} is an admin route outside an admin scope: put it under an admin folder (src/http/routes/admin/, src/http/routes/api/admin/) or register it through adminOnlyApi() or adminOnlyPages() (src/http/access.ts)`,
    );
  if (this.accessGuard === 'admin' && declared !== 'admin') throw new Error(`route ${name} sits in an admin scope but declares access '${declared}'`);
  route.config = { ...route.config, access: declared };
  for (const method of methods) table.push({ method, url: route.url, access: declared });
}

/** Makes `scope` an admin scope: its routes must be admin routes, and `refuse` runs first on each request. */
function guardAdmin(scope: FastifyInstance, refuse: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
  scope.decorate('accessGuard', 'admin' as const);
  scope.addHook('onRequest', refuse);
}

/** The admin's API: 401 without a user, 403 for anyone else (JSON), before the body is read or validated. */
export const guardAdminApi = (scope: FastifyInstance) =>
  guardAdmin(scope, async (request) => {
    requireAdmin(request);
  });

/** The admin's pages: the log-in page (303, back here afterwards) without a user, the 403 error page for anyone else. */
export const guardAdminPages = (scope: FastifyInstance) =>
  guardAdmin(scope, async (request, reply) => {
    if (!pageUser(request, reply)) return reply;
    requireAdmin(request);
    return undefined;
  });

/** An encapsulated admin scope (not fastify-plugin: its hook stays on its own routes) around `plugin`, for admin routes beside others under one URL. */
const adminScope =
  (guard: (scope: FastifyInstance) => void, plugin: FastifyPluginAsync): FastifyPluginAsync =>
  async (scope) => {
    guard(scope);
    await scope.register(plugin);
  };

/** The admin's API routes of a folder that also has others (/api/tournaments): guardAdminApi's scope around them. */
export const adminOnlyApi = (plugin: FastifyPluginAsync) => adminScope(guardAdminApi, plugin);

/** The admin's pages of a folder that also has others: guardAdminPages's scope around them. */
export const adminOnlyPages = (plugin: FastifyPluginAsync) => adminScope(guardAdminPages, plugin);

/** A plugin whose routes cannot carry their own declaration (swagger UI): every route it registers gets `access`. */
export function declareAll<O extends FastifyPluginOptions>(
  access: Exclude<Access, 'admin'>,
  plugin: FastifyPluginCallback<O> | FastifyPluginAsync<O>,
): FastifyPluginAsync<O> {
  return async function declared(scope, opts) {
    scope.decorate('accessDefault', access);
    await scope.register(plugin as FastifyPluginAsync<O>, opts);
  };
}
