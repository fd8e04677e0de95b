// /play: the games to play in the browser, each linking to its play page (/games/:game/play,
// games/_game/play.ts).

import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { loadGames } from '../../games/registry.ts';
import { html } from '../render/html.ts';
import { t } from '../i18n/index.ts';
import { sendPage } from '../render/layout.ts';

export default async function playPicker(fastify: FastifyInstance) {
  const app = typed(fastify);

  app.get('/play', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const games = [...(await loadGames()).values()];
    return sendPage(reply, {
      title: t('play.pickerTitle'),
      user: request.user,
      nav: '/play',
      body: html`<h1>${t('play.pickerTitle')}</h1>
<p class="lead">${t('play.pickerLead')}</p>
<p class="notice"><strong>${t('play.judgeNote')}</strong></p>
<h2>${t('play.pickGame')}</h2>
<ul id="play-games">${games.map((g) => html`<li><a href="/games/${g.id}/play">${g.title}</a></li>`)}</ul>`,
    });
  });
}
