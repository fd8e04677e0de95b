// A game's page (/games/:game): the statement in the visitor's language (or the one asked),
// the starter kit and play links, limits, built-in players, the leaderboard's top and the
// latest matches.

import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { typed } from '../../../typed.ts';
import { loadGames } from '../../../../games/registry.ts';
import { notFound } from '../../../errors.ts';
import { GAME_PARAMS, gameOr404 } from '../../../game-param.ts';
import { qualifiedPlayerCounts } from '../../../../domain/game-overview.ts';
import { latestMatches } from '../../../../domain/matches.ts';
import { readLeaderboard } from '../../../../domain/ratings/leaderboard.ts';
import { html, type Html } from '../../../render/html.ts';
import { leaderboardTable } from '../../../render/leaderboard.ts';
import { sendPage } from '../../../render/layout.ts';
import { renderStatement } from '../../../render/statement.ts';
import { matchesTable } from '../../matches/index.ts';
import { LANGUAGE_NAMES, t } from '../../../i18n/index.ts';

const LANGUAGES: Record<string, string> = LANGUAGE_NAMES;
const seconds = (ms: number) => `${ms / 1000} s`;

/** Statements are files shipped with the game: each is read and rendered once. */
const statements = new Map<string, Promise<Html>>();
function statementHtml(path: string): Promise<Html> {
  let p = statements.get(path);
  if (!p) {
    p = readFile(path, 'utf8').then(renderStatement);
    statements.set(path, p);
    p.catch(() => statements.delete(path));
  }
  return p;
}

export default async function gamePage(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: GAME_PARAMS,
        querystring: { type: 'object', additionalProperties: false, properties: { statement: { type: 'string', maxLength: 8 } } },
      },
    },
    async (request, reply) => {
      const game = await gameOr404(request.params.game);
      const langs = Object.keys(game.statements);
      // ?statement= picks the statement alone; else the site's language where the statement exists, else English, else the first.
      const asked = request.query.statement;
      if (asked && !langs.includes(asked)) {
        throw notFound(t('game.notAvailable', game.title, asked, langs.join(', ')));
      }
      const lang = asked || (langs.includes(request.lang) ? request.lang : langs.includes('en') ? 'en' : langs[0]);
      const [statement, top, latest, qualified] = await Promise.all([
        lang ? statementHtml(game.statements[lang]!) : Promise.resolve(null),
        readLeaderboard(db, game.id, 10, 0),
        latestMatches(db, { game: game.id, limit: 10, offset: 0 }),
        qualifiedPlayerCounts(db).then((c) => c.get(game.id) ?? 0),
      ]);
      const games = await loadGames();
      return sendPage(reply, {
        title: game.title,
        user: request.user,
        nav: '/',
        description: t('game.description', game.title),
        body: html`<p class="breadcrumbs"><a href="/">${t('nav.games')}</a></p>
<h1>${game.title}</h1>
<div class="game-layout">
<aside class="game-side" aria-label="${t('game.atAGlance', game.title)}">
<p><a class="button" id="starter-kit" href="/games/${game.id}/starter-kit.zip" download>${t('game.downloadKit')}</a></p>
<p class="hint">${t('game.kitHint')}</p>
<p><a class="button secondary" id="play-link" href="/games/${game.id}/play">${t('game.playInBrowser')}</a></p>
<h2>${t('game.limits')}</h2>
<dl class="facts" id="limits">
  <dt>${t('game.cpuTime')}</dt><dd>${t('game.cpuTimeValue', seconds(game.defaultLimits.cpuBudgetMs))}</dd>
  <dt>${t('game.memory')}</dt><dd>${game.defaultLimits.memoryMb} MiB</dd>
  <dt>${t('game.players')}</dt><dd>${t('game.playersValue', game.nbPlayers)}</dd>
  <dt>${t('game.qualified')}</dt><dd>${t('game.qualifiedValue', qualified)}</dd>
</dl>
<h2>${t('game.builtins')}</h2>
<ul id="builtin-players">${Object.keys(game.bots.builtin).map((n) => html`<li>${n}${n === 'Dummy' ? t('game.dummyNote') : n === 'Null' ? t('game.nullNote') : n === 'Demo' ? t('game.demoNote') : ''}</li>`)}</ul>
<h2>${t('home.leaderboard')}</h2>
${leaderboardTable(top.players, game)}
<p><a href="/games/${game.id}/leaderboard">${t('game.wholeLeaderboard')}</a></p>
</aside>
<section class="statement" id="statement" aria-labelledby="statement-h"${lang ? html` lang="${lang}"` : ''}>
<h2 id="statement-h" class="visually-hidden">${t('game.statement')}</h2>
${lang && lang !== request.lang && !asked ? html`<p class="notice" id="statement-fallback">${t('game.statementFallback', request.lang, lang)}</p>` : ''}
${langs.length > 1 ? html`<nav class="lang-switch" aria-label="${t('game.statementLanguage')}"><ul>${langs.map((l) => html`<li>${l === lang ? html`<span aria-current="true"><strong>${LANGUAGES[l] ?? l}</strong></span>` : html`<a href="/games/${game.id}?statement=${l}" hreflang="${l}" lang="${l}">${LANGUAGES[l] ?? l}</a>`}</li>`)}</ul></nav>` : ''}
${statement ?? html`<p class="muted">${t('game.noStatement')}</p>`}
</section>
</div>
<section id="latest-matches" aria-labelledby="latest-matches-h">
<h2 id="latest-matches-h">${t('home.latestMatches')}</h2>
${latest.length ? html`${matchesTable(latest, games, 'latest-matches-table')}<p><a href="/matches?game=${game.id}">${t('game.allMatches', game.title)}</a></p>` : html`<p class="muted">${t('home.noMatch')}</p>`}
</section>`,
      });
    },
  );
}
