// Cross-site request forgery: SameSite=Lax does not stop every write another
// site makes a browser send with the session cookie (a sibling subdomain is
// the same site, a sandboxed form posts with Origin: null), so every
// state-changing request without an Authorization header must come from this
// site's own pages. Browsers say where a request comes from (Origin,
// Sec-Fetch-Site); curl or a script sends neither and is let through. A
// request with an Authorization header never uses the cookie.

import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** scheme://host[:port] of the request itself (fastify's protocol and host honour trustProxy). */
export function ownOrigin(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}

function refuse(message: string): never {
  throw new HttpError(
    403,
    `${message}: writes with the session cookie must come from this site's own pages (scripts: use an Authorization: Bearer token)`,
    'cross-origin',
  );
}

/** Throws a 403 for a cookie-carrying write that a browser says comes from another origin. */
export function checkWriteOrigin(request: FastifyRequest): void {
  if (!WRITES.has(request.method) || request.headers.authorization !== undefined) return;
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return;
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (site === undefined) return; // not a browser (curl, a script)
    refuse(`refused a request from another site (Sec-Fetch-Site: ${String(site).slice(0, 20)})`);
  }
  if (origin === 'null') refuse('refused a request from an opaque origin (Origin: null)');
  let from: string;
  try {
    from = new URL(origin).origin;
  } catch {
    refuse('refused a request with a malformed Origin header');
  }
  if (from !== ownOrigin(request)) refuse(`refused a request from another site (${from.slice(0, 200)})`);
}
