// The page shell every page shares: head, navigation (with who is logged in),
// main content, footer. Pages are server-rendered HTML that works without
// JavaScript; scripts only enhance (live gate, viewer, drag and drop).

import type { FastifyReply } from 'fastify';
import { html, type Html, type HtmlValue } from './html.ts';
import type { AuthUser } from '../auth.ts';
import { LANGS, LANGUAGE_NAMES, currentLang, t, urlWithLang, varyOnLanguage, withLang, type Lang, type MessageKey } from '../i18n/index.ts';

export interface PageOptions {
  title: string;
  user: AuthUser | null;
  /** The nav entry to mark as current (its href). */
  nav?: string;
  body: HtmlValue;
  /** Module scripts under /assets/js/ (names without .js). */
  scripts?: string[];
  /** Extra <head> content (preloads, meta). */
  head?: HtmlValue;
  /** A short description for link previews and search. */
  description?: string;
}

const NAV: { href: string; label: MessageKey; auth?: boolean; admin?: boolean }[] = [
  { href: '/', label: 'nav.games' },
  { href: '/matches', label: 'nav.matches' },
  { href: '/queue', label: 'nav.queue' },
  { href: '/tournaments', label: 'nav.tournaments' },
  { href: '/view', label: 'nav.viewer' },
  { href: '/play', label: 'nav.play' },
  { href: '/submit', label: 'nav.submit', auth: true },
  { href: '/submissions', label: 'nav.mySubmissions', auth: true },
  { href: '/matches?mine=1', label: 'nav.myMatches', auth: true },
  { href: '/admin', label: 'nav.admin', auth: true, admin: true },
];

/** The language switch: each language links to this page under ?lang=, which also remembers the choice (a cookie). */
function languageSwitch(lang: Lang, hrefOf: (l: Lang) => string): Html {
  return html`<nav class="site-lang" aria-label="${t('nav.language')}"><ul>${LANGS.map((l) =>
    l === lang
      ? html`<li><span aria-current="true" lang="${l}">${LANGUAGE_NAMES[l]}</span></li>`
      : html`<li><a href="${hrefOf(l)}" hreflang="${l}" lang="${l}" data-lang="${l}">${LANGUAGE_NAMES[l]}</a></li>`,
  )}</ul></nav>`;
}

/** The page in the current request's language; langHref gives the switch's link for each language. */
export function page(o: PageOptions, langHref: (l: Lang) => string = (l) => `/?lang=${l}`): Html {
  const lang = currentLang();
  const navLinks = NAV.filter((n) => (!n.auth || o.user) && (!n.admin || o.user?.isAdmin)).map(
    (n) => html`<li><a href="${n.href}"${n.href === o.nav ? html` aria-current="page"` : ''}>${t(n.label)}</a></li>`,
  );
  const account = o.user
    ? html`<li><a href="/account"${o.nav === '/account' ? html` aria-current="page"` : ''}>${o.user.username}</a></li>
        <li><form method="post" action="/logout" class="inline"><button type="submit" class="link">${t('nav.logOut')}</button></form></li>`
    : html`<li><a href="/login"${o.nav === '/login' ? html` aria-current="page"` : ''}>${t('nav.logIn')}</a></li>
        <li><a href="/signup"${o.nav === '/signup' ? html` aria-current="page"` : ''}>${t('nav.signUp')}</a></li>`;
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Arbiter</title>
<meta name="description" content="${o.description ?? t('site.description')}">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${o.head ?? ''}
${(o.scripts ?? []).map((s) => html`<script type="module" src="/assets/js/${s}.js"></script>`)}
</head>
<body>
<a class="skip" href="#main">${t('nav.skip')}</a>
<header class="site">
  <a class="brand" href="/">Arbiter</a>
  <nav aria-label="${t('nav.main')}"><ul>${navLinks}</ul><ul class="account">${account}</ul></nav>
  ${languageSwitch(lang, langHref)}
</header>
<main id="main">
${o.body}
</main>
<footer class="site"><p>Arbiter · <a href="/docs">${t('footer.api')}</a> · <a href="/health">${t('footer.status')}</a></p></footer>
</body>
</html>`;
}

/**
 * Pages load only their own scripts and styles: player names and statements
 * are escaped, and this policy is the second line if escaping ever slips.
 * (The viewer sets styles through the CSSOM, which the policy allows.)
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Sends a page (with status) as text/html, in the request's language. */
export function sendPage(reply: FastifyReply, o: PageOptions, status = 200) {
  const request = reply.request;
  const body = withLang(request.lang, () => page(o, (l) => urlWithLang(request, l)));
  varyOnLanguage(reply);
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').headers(PAGE_SECURITY_HEADERS).send(body.value);
}
