// The website's hooks (autoloaded for every folder of src/http/routes but api/, which
// src/http/app.ts loads apart): pages are server-rendered HTML whose forms post urlencoded
// (or multipart for files) and redirect or re-render with their errors, so everything works
// without JavaScript; scripts enhance (live gate, the viewer, drag and drop). Form posts from
// other sites are refused by the app's origin check (src/http/origin-check.ts), as API writes are.

import type { FastifyError, FastifyInstance } from 'fastify';
import { classifyError } from '../errors.ts';
import { sendErrorPage, servesPages } from '../error-page.ts';
import { localizeRefusal } from '../i18n/refusals.ts';

export default async function websiteHooks(app: FastifyInstance) {
  // HTML forms: application/x-www-form-urlencoded, parsed into an object without a prototype (last value wins),
  // so a field named "__proto__" or "constructor" is a field like any other.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of new URLSearchParams(body as string)) out[k] = v;
    done(null, out);
  });

  // Pages answer errors with a page; the assets, /health and /metrics keep the API's JSON errors.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = classifyError(error, request);
    if (!servesPages(request.routeOptions.url ?? '')) return reply.status(body.statusCode).send(body);
    // A refusal with a code speaks the page's language where the catalog words it (src/http/i18n/refusals.ts).
    const retry = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return sendErrorPage(
      request,
      reply,
      body.statusCode,
      body.code
        ? () => localizeRefusal({ code: body.code!, message: body.message, ...(typeof retry === 'number' ? { retryAfterSeconds: retry } : {}) })
        : body.message,
    );
  });
}
