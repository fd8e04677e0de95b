// The front page: every game with its leaderboard top and latest matches, how it works.
// A game's own pages are under games/_game/ (/games/:game/...).

import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { loadGames } from '../../games/registry.ts';
import { qualifiedPlayerCounts } from '../../domain/game-overview.ts';
import { latestMatches } from '../../domain/matches.ts';
import { html, type Html } from '../render/html.ts';
import { leaderboardTable } from '../render/leaderboard.ts';
import { sendPage } from '../render/layout.ts';
import { readLeaderboard } from '../../domain/ratings/leaderboard.ts';
import { t, th, word } from '../i18n/index.ts';

const seconds = (ms: number) => `${ms / 1000} s`;

const howItWorks = () => html`<section id="how-it-works" aria-labelledby="how-it-works-h">
<h2 id="how-it-works-h">${t('home.how')}</h2>
<ol class="steps">
  <li>${th('home.step1_html')}</li>
  <li>${th('home.step2_html')}</li>
  <li>${th('home.step3_html')}</li>
  <li>${th('home.step4_html')}</li>
  <li>${th('home.step5_html')}</li>
</ol>
</section>`;

export default async function homePage(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const games = await loadGames();
    const qualified = await qualifiedPlayerCounts(db);
    // Every game's boxes at once; the latest matches need no total count.
    const boxes = await Promise.all(
      [...games.values()].map((game) => Promise.all([readLeaderboard(db, game.id, 5, 0), latestMatches(db, { game: game.id, limit: 5, offset: 0 })])),
    );
    const cards: Html[] = [];
    for (const [g, game] of [...games.values()].entries()) {
      const [top, latest] = boxes[g]!;
      const n = qualified.get(game.id) ?? 0;
      cards.push(html`<article class="card game-card" id="game-${game.id}" aria-labelledby="game-${game.id}-h">
<h2 id="game-${game.id}-h"><a href="/games/${game.id}">${game.title}</a></h2>
<p>${t('home.qualified', n)} · ${t('home.cpuPerMatch', seconds(game.defaultLimits.cpuBudgetMs))} · <a href="/games/${game.id}/starter-kit.zip">${t('home.starterKit')}</a></p>
<h3>${t('home.leaderboard')}</h3>
${leaderboardTable(top.players, game, `leaderboard-${game.id}`)}
${top.total > 5 ? html`<p><a href="/games/${game.id}/leaderboard">${t('home.allPlayers', top.total)}</a></p>` : ''}
<h3>${t('home.latestMatches')}</h3>
${
  latest.length
    ? html`<ul class="latest" id="latest-${game.id}">${latest.map(
        (m) =>
          html`<li><a href="/matches/${m.id}">#${m.id}</a> ${word(m.kind)}: ${m.participants.map((p, i) => html`${i ? ', ' : ''}<span class="seat seat-${p.seat}" aria-hidden="true"></span>${p.name}${p.score !== null ? ` ${p.score}` : ''}`)}${m.status !== 'done' ? html` <span class="badge ${m.status}">${word(m.status)}</span>` : ''}</li>`,
      )}</ul>
<p><a href="/matches?game=${game.id}">${t('home.moreMatches')}</a></p>`
    : html`<p class="muted">${t('home.noMatch')}</p>`
}
</article>`);
    }
    return sendPage(reply, {
      title: t('home.title'),
      user: request.user,
      nav: '/',
      body: html`<h1>${t('home.h1')}</h1>
<p class="lead">${t('home.lead')}</p>
<div class="cards" id="games">${cards}</div>
${howItWorks()}`,
    });
  });
}
