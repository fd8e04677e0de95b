// An error as a page, for the website's routes (src/http/routes/autohooks.ts) and for a
// request no route matched that wants a page (the app's not-found handler).

import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from './render/html.ts';
import { sendPage } from './render/layout.ts';
import { LANG_COOKIE, resolveLanguage, t, th, withLang } from './i18n/index.ts';

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

/** Whether a path is the website's (a page) rather than the API's, the assets', the docs' or the operators' (JSON). */
export const servesPages = (path: string) => !/^\/(api|assets|docs|health|metrics)(\/|$)/.test(path);

/** Whether a request not matched by any route wants a page rather than JSON. */
export function wantsPage(request: FastifyRequest): boolean {
  return servesPages(request.url.split('?')[0]!) && (request.headers.accept ?? '').includes('text/html');
}
