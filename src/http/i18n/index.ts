// The language of a request: ?lang= (which also sets the `lang` cookie, so a
// choice made with the switch persists), else the `lang` cookie, else the
// best of Accept-Language (q-values honoured), else English. It is kept in
// the request (request.lang) and in an AsyncLocalStorage for the request's
// duration, so that t() anywhere in a page's rendering speaks it without
// every helper taking a language argument.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CATALOGS, DEFAULT_LANG, LANGS, isLang, translate, type Lang, type MessageArgs, type MessageKey } from './catalog.ts';
import { raw, type Html } from '../render/html.ts';

export * from './catalog.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language the site speaks to this request. */
    lang: Lang;
  }
}

export const LANG_COOKIE = 'lang';
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/** The supported language Accept-Language prefers most (ties: the header's order), or null. */
export function negotiate(header: string | undefined): Lang | null {
  if (!header) return null;
  let best: { lang: Lang; q: number } | null = null;
  for (const part of header.slice(0, 1000).split(',')) {
    const [tag, ...params] = part.trim().split(';');
    const primary = tag!.trim().toLowerCase().split('-')[0]!;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(.*?)\s*$/i.exec(p);
      if (m) q = /^[01](\.\d{0,3})?$/.test(m[1]!) ? Number(m[1]) : NaN;
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (isLang(primary) && (!best || q > best.q)) best = { lang: primary, q };
  }
  return best?.lang ?? null;
}

export interface LanguageSources {
  query?: unknown;
  cookie?: unknown;
  acceptLanguage?: string | undefined;
}

/** ?lang= > cookie > Accept-Language > English; unsupported values are passed over. */
export function resolveLanguage(s: LanguageSources): Lang {
  if (isLang(s.query)) return s.query;
  if (isLang(s.cookie)) return s.cookie;
  return negotiate(s.acceptLanguage) ?? DEFAULT_LANG;
}

const current = new AsyncLocalStorage<Lang>();

/** The current request's language (English outside a request). */
export const currentLang = (): Lang => current.getStore() ?? DEFAULT_LANG;

/** A message in the current request's language. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  return translate(currentLang(), key, ...args);
}

/** A message that holds trusted markup (a key ending in _html), printed as is: the caller escapes what it passes in. */
export function th<K extends MessageKey>(key: K, ...args: MessageArgs<K>): Html {
  return raw(translate(currentLang(), key, ...args));
}

/** A status or kind (queued, qualified, ranked...) as a badge shows it: translated where the catalog has it. */
export function word(value: string): string {
  const key = `word.${value}`;
  return Object.hasOwn(CATALOGS.en, key) ? t(key as MessageKey) : value;
}

/** Runs fn with lang as the current language (for rendering outside a request's hooks). */
export const withLang = <T>(lang: Lang, fn: () => T): T => current.run(lang, fn);

/**
 * Resolves every request's language (the API's too: its messages may follow
 * it, its codes never do). `lang` is taken out of the query, so that routes
 * whose query schemas allow no other property accept ?lang= on any page.
 */
export function registerLanguage(app: FastifyInstance) {
  app.decorateRequest('lang', DEFAULT_LANG);
  app.addHook('onRequest', (request, reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    const asked = query?.[LANG_COOKIE];
    if (query && LANG_COOKIE in query) delete query[LANG_COOKIE];
    const cookie = request.cookies?.[LANG_COOKIE];
    request.lang = resolveLanguage({ query: asked, cookie, acceptLanguage: request.headers['accept-language'] });
    // (The cookie plugin is absent from `arbiter view`'s small server: there ?lang= lasts one page.)
    if (isLang(asked) && asked !== cookie && typeof reply.setCookie === 'function') {
      void reply.setCookie(LANG_COOKIE, asked, { path: '/', maxAge: COOKIE_MAX_AGE, sameSite: 'lax', httpOnly: false });
    }
    current.run(request.lang, done);
  });
  // Body parsing can run outside the context onRequest entered: enter it again right before the handler.
  app.addHook('preHandler', (request, _reply, done) => current.run(request.lang, done));
}

/** The current URL with ?lang= set to lang (for the language switch). */
export function urlWithLang(request: FastifyRequest, lang: Lang): string {
  // Leading slashes collapsed: "//" alone is no URL, and "//host/x" is this site's path, not another host.
  const u = new URL(request.url.replace(/^\/+/, '/'), 'http://x');
  u.searchParams.set(LANG_COOKIE, lang);
  return u.pathname + u.search;
}

/** Pages differ by language: caches must key on what decides it. */
export const varyOnLanguage = (reply: FastifyReply) => reply.header('vary', 'Accept-Language, Cookie');

export { LANGS };
