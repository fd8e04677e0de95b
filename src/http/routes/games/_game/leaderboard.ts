// A game's whole leaderboard (/games/:game/leaderboard): rank, rating and matches, by pages.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../../typed.ts';
import { pageNumber, query } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { GAME_PARAMS, gameOr404 } from '../../../game-param.ts';
import { readLeaderboard } from '../../../../domain/ratings/leaderboard.ts';
import { html } from '../../../render/html.ts';
import { leaderboardTable } from '../../../render/leaderboard.ts';
import { sendPage } from '../../../render/layout.ts';
import { pager } from '../../matches/index.ts';
import { t } from '../../../i18n/index.ts';

const LEADERBOARD_PAGE = 50;

export default async function leaderboardPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '/leaderboard',
    {
      config: { access: 'public' },
      schema: { hide: true, params: GAME_PARAMS, querystring: query({ page: pageNumber }) },
    },
    async (request, reply) => {
      const game = await gameOr404(request.params.game);
      const { page } = request.query;
      const { total, players: rows } = await readLeaderboard(db, game.id, LEADERBOARD_PAGE, (page - 1) * LEADERBOARD_PAGE);
      const pages = Math.max(1, Math.ceil(total / LEADERBOARD_PAGE));
      if (page > pages) throw notFound(t('lb.noPage', pages, page));
      return sendPage(reply, {
        title: t('lb.caption', game.title),
        user: request.user,
        nav: '/',
        body: html`<p class="breadcrumbs"><a href="/">${t('nav.games')}</a> › <a href="/games/${game.id}">${game.title}</a></p>
<h1>${t('lb.caption', game.title)}</h1>
<p>${t('lb.intro', total)}</p>
${leaderboardTable(rows, game)}
${pager({ page, pages, href: (p) => `/games/${game.id}/leaderboard${p > 1 ? `?page=${p}` : ''}`, label: t('lb.pages') })}`,
      });
    },
  );
}
