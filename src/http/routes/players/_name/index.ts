// A player's page (/players/:name): per game, rank and rating, the rating history as an SVG
// chart with a table fallback, versions, recent matches and, for a signed-in user with a bot
// in that game, the challenge form (posted to ./challenge.ts).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../../typed.ts';
import { localizeReason } from '../../../i18n/reasons.ts';
import { loadGames } from '../../../../games/registry.ts';
import { notFound } from '../../../errors.ts';
import { GAME_ID } from '../../../game-param.ts';
import { readPlayerProfile } from '../../../../domain/players.ts';
import { challengeableSubmissions } from '../../../../domain/challenges.ts';
import { field, select } from '../../../render/forms.ts';
import { lineChart } from '../../../render/chart.ts';
import { html, type Html } from '../../../render/html.ts';
import { sendPage } from '../../../render/layout.ts';
import { matchesTable, when } from '../../matches/index.ts';
import { t, th, word } from '../../../i18n/index.ts';
import { escapeHtml } from '../../../render/html.ts';
import { NAME_PARAMS } from './challenge.ts';

export default async function playerPage(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: NAME_PARAMS,
        querystring: { type: 'object', additionalProperties: false, properties: { game: GAME_ID } },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const games = await loadGames();
      if (request.query.game && !games.has(request.query.game)) throw notFound(t('lb.noGameShort', request.query.game));
      const profile = await readPlayerProfile(db, name, { game: request.query.game, matches: 20 });
      if (!profile) throw notFound(t('lb.noPlayer', name, request.query.game ?? ''));
      const sections: Html[] = [];
      const me = request.user;
      for (const p of profile.games) {
        const mine = me ? await challengeableSubmissions(db, me.id, p.game) : [];
        const challengeForm =
          me && mine.length > 0
            ? html`<h3>${t('lb.challenge', profile.name)}</h3>
<form method="post" action="/players/${encodeURIComponent(profile.name)}/challenge" class="challenge-form" id="challenge-${p.game}">
<input type="hidden" name="game" value="${p.game}">
${select({ name: 'submission', label: t('lb.yourBot'), options: mine.map((s) => ({ value: String(s.id), label: `${s.player} v${s.version} (${word(s.status)})` })) })}
${[1, 2, 3].map((i) => field({ name: `opponent${i}`, label: t('lb.opponent', i), value: i === 1 && p.qualified ? profile.name : '', hint: i === 1 ? t('lb.opponentHint') : undefined, attrs: html`maxlength="64"` }))}
${field({ name: 'seed', label: t('lb.seed'), type: 'number', attrs: html`min="0" max="2147483647"` })}
<p><button type="submit">${t('lb.play')}</button> <span class="hint">${t('lb.unrated', app.deps.config.challengesPerHour)}</span></p>
</form>`
            : '';
        const game = games.get(p.game);
        const title = game?.title ?? p.game;
        const { rating, ratingHistory: history } = p;
        const chartId = `rating-chart-${p.game}`;
        const points = history.map((h) => ({ y: h.rating, label: t('lb.matchN', h.matchId) }));
        const first = history[0];
        const last = history.at(-1);
        sections.push(html`<section class="player-game" id="game-${p.game}" aria-labelledby="game-${p.game}-h">
<h2 id="game-${p.game}-h">${title}</h2>
<dl class="facts">
  <dt>${t('lb.status')}</dt><dd>${p.qualified ? html`<span class="badge qualified">${t('lb.qualified')}</span> ${t('lb.nameLocked')}${p.lockedAt ? html` ${when(p.lockedAt)}` : ''})` : html`<span class="badge queued">${t('lb.notQualified')}</span>`}</dd>
  ${
    rating
      ? html`<dt>${t('lb.rank')}</dt><dd>${rating.rank ? th('lb.onThe_html', rating.rank, `/games/${escapeHtml(p.game)}/leaderboard`) : t('lb.notRanked')}</dd>
  <dt>${t('lb.rating')}</dt><dd><span class="rating">${rating.rating.toFixed(2)}</span> <span class="muted">(μ ${rating.mu.toFixed(2)}, σ ${rating.sigma.toFixed(2)})</span></dd>
  <dt>${t('lb.matches')}</dt><dd>${t('lb.ranked', rating.matchesPlayed)}</dd>`
      : ''
  }
</dl>
<h3>${t('lb.history')}</h3>
${
  points.length === 0
    ? html`<p class="muted">${t('lb.noRanked')}</p>`
    : html`${lineChart({
        id: chartId,
        title: t('lb.chartTitle', profile.name, title),
        description: t('lb.chartDesc', points.length, first!.rating.toFixed(2), first!.matchId, last!.rating.toFixed(2), last!.matchId),
        points,
        format: (v) => v.toFixed(1),
      })}
<details class="chart-data"><summary>${t('lb.asTable')}</summary>
<div class="table-wrap"><table id="rating-history-${p.game}"><thead><tr><th scope="col">${t('lb.afterMatch')}</th><th scope="col">${t('lb.when')}</th><th scope="col" class="num">${t('lb.rating')}</th><th scope="col" class="num">μ</th><th scope="col" class="num">σ</th></tr></thead>
<tbody>${history.map((h) => html`<tr><td><a href="/matches/${h.matchId}">${h.matchId}</a></td><td>${when(h.at)}</td><td class="num">${h.rating.toFixed(2)}</td><td class="num">${h.mu.toFixed(2)}</td><td class="num">${h.sigma.toFixed(2)}</td></tr>`)}</tbody></table></div>
</details>`
}
<h3>${t('lb.versions')}</h3>
<div class="table-wrap"><table id="versions-${p.game}"><thead><tr><th scope="col" class="num">${t('lb.version')}</th><th scope="col">${t('lb.submitted')}</th><th scope="col">${t('lb.status')}</th><th scope="col">${t('lb.reason')}</th></tr></thead>
<tbody>${p.versions.map(
          (v) =>
            html`<tr><td class="num">${me && (me.isAdmin || me.username === profile.owner) ? html`<a href="/submissions/${v.submissionId}">${v.version}</a>` : v.version}</td><td>${when(v.createdAt)}</td><td><span class="badge ${v.status}">${word(v.status)}</span>${v.submissionId === p.qualifiedSubmissionId ? t('lb.theQualified') : ''}</td><td>${localizeReason(v.reason, v.reasonCode, v.reasonLine) ?? ''}</td></tr>`,
        )}</tbody></table></div>
<h3>${t('lb.recent')}</h3>
${p.recentMatches.length ? matchesTable(p.recentMatches, games, `recent-matches-${p.game}`) : html`<p class="muted">${t('matches.noMatch')}</p>`}
<p><a href="/matches?player=${encodeURIComponent(profile.name)}&amp;game=${encodeURIComponent(p.game)}">${t('lb.allOf', profile.name, title)}</a></p>
${challengeForm}
</section>`);
      }
      return sendPage(reply, {
        title: profile.name,
        user: request.user,
        nav: '/',
        body: html`<h1>${profile.name}</h1>
<p>${th('lb.playerOf_html', escapeHtml(profile.owner))}</p>
${sections}`,
      });
    },
  );
}
