// The page shell every page shares: head, navigation (with who is logged in),
// main content, footer. Pages are server-rendered HTML that works without
// JavaScript; scripts only enhance (live gate, viewer, drag and drop).

import type { FastifyReply } from 'fastify';
import { html, type Html, type HtmlValue } from './html.ts';
import type { AuthUser } from '../server/auth.ts';

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

const NAV: { href: string; label: string; auth?: boolean; admin?: boolean }[] = [
  { href: '/', label: 'Games' },
  { href: '/matches', label: 'Matches' },
  { href: '/queue', label: 'Queue' },
  { href: '/tournaments', label: 'Tournaments' },
  { href: '/view', label: 'Viewer' },
  { href: '/play', label: 'Play' },
  { href: '/submit', label: 'Submit', auth: true },
  { href: '/submissions', label: 'My submissions', auth: true },
  { href: '/matches?kind=challenge&mine=1', label: 'My challenges', auth: true },
  { href: '/admin', label: 'Admin', auth: true, admin: true },
];

export function page(o: PageOptions): Html {
  const navLinks = NAV.filter((n) => (!n.auth || o.user) && (!n.admin || o.user?.isAdmin)).map(
    (n) => html`<li><a href="${n.href}"${n.href === o.nav ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
  );
  const account = o.user
    ? html`<li><a href="/account"${o.nav === '/account' ? html` aria-current="page"` : ''}>${o.user.username}</a></li>
        <li><form method="post" action="/logout" class="inline"><button type="submit" class="link">Log out</button></form></li>`
    : html`<li><a href="/login"${o.nav === '/login' ? html` aria-current="page"` : ''}>Log in</a></li>
        <li><a href="/signup"${o.nav === '/signup' ? html` aria-current="page"` : ''}>Sign up</a></li>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Arbiter</title>
<meta name="description" content="${o.description ?? 'Arbiter: submit a bot, pass the Dummy gate, climb the leaderboard, watch the replays.'}">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${o.head ?? ''}
${(o.scripts ?? []).map((s) => html`<script type="module" src="/assets/js/${s}.js"></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
  <a class="brand" href="/">Arbiter</a>
  <nav aria-label="Main"><ul>${navLinks}</ul><ul class="account">${account}</ul></nav>
</header>
<main id="main">
${o.body}
</main>
<footer class="site"><p>Arbiter · <a href="/docs">API</a> · <a href="/health">status</a></p></footer>
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

/** Sends a page (with status) as text/html. */
export function sendPage(reply: FastifyReply, o: PageOptions, status = 200) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').headers(PAGE_SECURITY_HEADERS).send(page(o).value);
}

