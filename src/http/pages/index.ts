// The website, served by the same process as the API (registered by
// src/http/app.ts). Pages are server-rendered HTML under /, browser code
// and styles under /assets. Forms post urlencoded (or multipart for files)
// and redirect or re-render with their errors, so everything works without
// JavaScript; scripts enhance (live gate, the viewer, drag and drop). Form
// posts from other sites are refused by the app's origin check
// (src/http/origin-check.ts), as API writes are.

import { localizeRefusal } from '../i18n/refusals.ts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from '../typed.ts';
import assetRoutes from '../assets.ts';
import homePages from './home.ts';
import authPages from './auth.ts';
import accountPages from './account.ts';
import submitPages from './submit.ts';
import submissionPages from './submissions.ts';
import leaderboardPages, { challengePages } from './leaderboard.ts';
import matchPages from './matches.ts';
import queuePages from './queue.ts';
import viewPages from './view.ts';
import playPages from './play.ts';
import tournamentPages from './tournaments.ts';
import adminPages from './admin.ts';
import similarityPages from './similarity.ts';
import { passwordLinkPages, rosterPages } from './roster.ts';
import studentPages from './students.ts';
import { classifyError } from '../errors.ts';
import { adminOnlyPages } from '../access.ts';
import { html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { LANG_COOKIE, resolveLanguage, t, th, withLang } from '../i18n/index.ts';

export default async function webRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  // HTML forms: application/x-www-form-urlencoded, parsed into an object without a prototype (last value wins),
  // so a field named "__proto__" or "constructor" is a field like any other.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of new URLSearchParams(body as string)) out[k] = v;
    done(null, out);
  });

  // Pages answer errors with a page; assets keep the API's JSON errors.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = classifyError(error, request);
    if (request.routeOptions.url?.startsWith('/assets/')) return reply.status(body.statusCode).send(body);
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

  await app.register(assetRoutes);
  await app.register(homePages);
  await app.register(authPages);
  await app.register(accountPages);
  await app.register(submitPages);
  await app.register(submissionPages);
  await app.register(leaderboardPages);
  await app.register(challengePages);
  await app.register(matchPages);
  await app.register(queuePages);
  await app.register(viewPages);
  await app.register(playPages);
  await app.register(tournamentPages);
  // The admin's pages: encapsulated scopes whose hook sends anonymous visitors to log in and answers anyone but an admin with the 403 page, whatever the URL's spelling.
  await app.register(adminOnlyPages(adminPages));
  await app.register(adminOnlyPages(similarityPages));
  await app.register(adminOnlyPages(rosterPages));
  await app.register(passwordLinkPages);
  await app.register(adminOnlyPages(studentPages));
}

/** An error as a page (the API's error handler answers JSON). */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: number, message: string | (() => string)) {
  // A refusal from a hook that ran before the language was resolved (the origin check) still speaks the visitor's language.
  request.lang = resolveLanguage({
    query: new URL(request.url.replace(/^\/+/, '/'), 'http://x').searchParams.get(LANG_COOKIE),
    cookie: request.cookies?.[LANG_COOKIE],
    acceptLanguage: request.headers['accept-language'],
  });
  return withLang(request.lang, () => {
    const title =
      status === 404
        ? t('error.notFound')
        : status === 401
          ? t('error.logInFirst')
          : status === 403
            ? t('error.notAllowed')
            : status >= 500
              ? t('error.server')
              : t('error.refused');
    const text = typeof message === 'function' ? message() : message === 'internal error' ? t('error.internal') : message;
    const body = html`<h1>${title}</h1>
<p class="notice bad" role="alert">${text}</p>
${status === 401 ? html`<p>${th('error.logInOrSignUp_html', `/login?next=${encodeURIComponent(request.url)}`)}</p>` : ''}
<p><a href="/">${t('error.backToGames')}</a></p>`;
    return sendPage(reply, { title, user: request.user, body }, status);
  });
}

/** Whether a request not matched by any route wants a page rather than JSON. */
export function wantsPage(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]!;
  if (/^\/(api|assets|docs|health|metrics)(\/|$)/.test(path)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}
