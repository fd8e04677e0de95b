// A game's leaderboard as a table (the front page's top five, the game page's top ten,
// the whole leaderboard's pages), each player linked to their page.

import type { AnyGame } from '../../sdk/types.ts';
import type { LeaderboardEntry } from '../../domain/ratings/leaderboard.ts';
import { t } from '../i18n/index.ts';
import { html, type Html } from './html.ts';

const playerLink = (name: string, game?: string) =>
  html`<a href="/players/${encodeURIComponent(name)}${game ? `?game=${encodeURIComponent(game)}` : ''}">${name}</a>`;

export function leaderboardTable(rows: LeaderboardEntry[], game: AnyGame, id = 'leaderboard'): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}">${t('lb.none')}</p>`;
  return html`<div class="table-wrap"><table id="${id}">
<caption class="visually-hidden">${t('lb.caption', game.title)}</caption>
<thead><tr><th scope="col" class="num">${t('lb.rank')}</th><th scope="col">${t('lb.player')}</th><th scope="col">${t('lb.owner')}</th><th scope="col" class="num">${t('lb.rating')}</th><th scope="col" class="num">${t('lb.skill')}</th><th scope="col" class="num">${t('lb.matches')}</th></tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr><td class="num">${r.rank}</td><td>${playerLink(r.player, game.id)}</td><td>${r.owner}</td><td class="num">${r.rating.toFixed(2)}${r.provisional ? html` <span class="badge provisional" title="${t('lb.provisionalHint')}">${t('lb.provisional')}</span>` : ''}</td><td class="num">${r.mu.toFixed(2)} ± ${(3 * r.sigma).toFixed(2)}</td><td class="num">${r.matchesPlayed}</td></tr>`,
  )}</tbody>
</table></div>`;
}
