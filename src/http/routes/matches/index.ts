// The matches list (/matches: filters by game, player and kind, pages) and a
// match's page (/matches/:id: the viewer, the final result table, downloads;
// /matches/:id/log/:seat: a bot's console output for its owner).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { loadGames } from '../../../games/registry.ts';
import type { AnyGame } from '../../../sdk/types.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import { listMatches } from '../../../domain/matches.ts';
import { PRUNED_REPLAY_MESSAGE, replayWasPruned } from '../../../jobs/scheduler/retention.ts';
import { matchLimits } from '../../../domain/match-setup.ts';
import { GATE_DUMMY_MATCHES } from '../../../domain/gate.ts';
import { formatBudget } from '../../../sdk/limits.ts';
import { roundShown } from '../../../sdk/replay-format.ts';
import { matchOut } from '../../../domain/serialize.ts';
import { matchLogs, matchWithOwners, playerNameExists } from '../../../domain/match-reads.ts';
import { select, field } from '../../render/forms.ts';
import { html, type Html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { idParams, pageNumber, query, Type } from '../../schemas.ts';
import { GateStep, MATCH_KINDS } from '../../../statuses.ts';
import { t, th, word } from '../../i18n/index.ts';
import { escapeHtml } from '../../render/html.ts';
import { formatForPeople } from '../../../domain/course-time.ts';

export type MatchView = ReturnType<typeof matchOut>;

export const MATCHES_PAGE = 25;

/** A date as a <time> element, to the minute: in the course's time zone with UTC beside it (src/domain/course-time.ts). */
export function when(d: Date | string | null): Html | string {
  if (!d) return '';
  const date = new Date(d);
  return html`<time datetime="${date.toISOString()}">${formatForPeople(date)}</time>`;
}

/** Previous / next links and "page N of M"; `href` builds a page's URL (keeping the filters). */
export function pager(o: { page: number; pages: number; href: (page: number) => string; label: string }): Html | string {
  if (o.pages <= 1) return '';
  return html`<nav class="pager" aria-label="${o.label}">
${o.page > 1 ? html`<a rel="prev" href="${o.href(o.page - 1)}">${t('matches.newer')}</a>` : html`<span class="muted">${t('matches.newer')}</span>`}
<span>${t('matches.pageOf', o.page, o.pages)}</span>
${o.page < o.pages ? html`<a rel="next" href="${o.href(o.page + 1)}">${t('matches.older')}</a>` : html`<span class="muted">${t('matches.older')}</span>`}
</nav>`;
}

const seatSwatch = (seat: number) => html`<span class="seat seat-${seat}" aria-hidden="true"></span>`;

function playerCell(p: MatchView['participants'][number], game: string): Html {
  if (p.builtin) return html`${p.name} <span class="muted">${t('matches.builtin')}</span>`;
  return html`<a href="/players/${encodeURIComponent(p.name)}?game=${encodeURIComponent(game)}">${p.name}</a>`;
}

/** Matches as a table: id, game, kind, when, players with seat colours and scores, winner, status. On a phone each row stacks, its cells named by data-label (site.css's table.stacks). */
export function matchesTable(matches: MatchView[], games: Map<string, AnyGame>, id = 'matches'): Html {
  return html`<div class="table-wrap"><table id="${id}" class="matches stacks">
<thead><tr><th scope="col">${t('matches.match')}</th><th scope="col">${t('matches.game')}</th><th scope="col">${t('matches.kind')}</th><th scope="col">${t('matches.when')}</th><th scope="col">${t('matches.playersScores')}</th><th scope="col">${t('matches.winner')}</th><th scope="col">${t('matches.status')}</th></tr></thead>
<tbody>${matches.map((m) => {
    const winner = m.winnerSeat !== null ? m.participants.find((p) => p.seat === m.winnerSeat) : undefined;
    return html`<tr data-match="${m.id}">
<td data-label="${t('matches.match')}"><a href="/matches/${m.id}">#${m.id}</a></td>
<td data-label="${t('matches.game')}">${games.get(m.game)?.title ?? m.game}</td>
<td data-label="${t('matches.kind')}">${word(m.kind)}</td>
<td data-label="${t('matches.when')}">${when(m.finishedAt ?? m.createdAt)}</td>
<td data-label="${t('matches.playersScores')}"><ul class="seats">${m.participants.map((p) => html`<li>${seatSwatch(p.seat)}<span class="visually-hidden">${t('matches.seat', p.seat)}</span>${playerCell(p, m.game)}${p.score !== null ? html` <span class="score">${p.score}</span>` : ''}${p.frozen ? html` <span class="badge failed" title="${word(p.frozen.reason)}">${word('out')}</span>` : ''}</li>`)}</ul></td>
<td data-label="${t('matches.winner')}">${winner ? html`${seatSwatch(winner.seat)}${winner.name}` : ''}</td>
<td data-label="${t('matches.status')}"><span class="badge ${m.status}">${word(m.status)}</span></td>
</tr>`;
  })}</tbody>
</table></div>`;
}

export default async function matchPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        querystring: query({
          // Empty values are what the filter form sends for "any".
          game: Type.Optional(Type.String({ maxLength: 64 })),
          player: Type.Optional(Type.String({ maxLength: 64 })),
          kind: Type.Optional(Type.String({ maxLength: 32 })),
          mine: Type.Optional(Type.String({ maxLength: 8 })),
          page: pageNumber,
        }),
      },
    },
    async (request, reply) => {
      const games = await loadGames();
      const game = request.query.game?.trim() || undefined;
      const player = request.query.player?.trim() || undefined;
      const kind = request.query.kind?.trim() || undefined;
      // mine=1: my matches (every match my submissions played, and the challenges I asked for; logged in).
      const mine = request.query.mine === '1' || request.query.mine === 'true';
      if (mine && !request.user) throw unauthorized(kind === 'challenge' ? t('matches.loginForChallenges') : t('matches.loginForMine'));
      const { page } = request.query;
      if (game && !games.has(game)) throw badRequest(t('matches.unknownGame', game, [...games.keys()].join(', ')));
      if (kind && !(MATCH_KINDS as readonly string[]).includes(kind)) throw badRequest(t('matches.unknownKind', kind, MATCH_KINDS.join(', ')));
      if (player) {
        const builtin = [...games.values()].some((g) => Object.keys(g.bots.builtin).some((n) => n.toLowerCase() === player.toLowerCase()));
        if (!builtin && !(await playerNameExists(db, player))) {
          throw badRequest(t('matches.noPlayer', player));
        }
      }
      const result = await listMatches(db, {
        game,
        player,
        kind: kind as ListQueryKind,
        ...(mine && request.user ? { mineOf: request.user.id } : {}),
        limit: MATCHES_PAGE,
        offset: (page - 1) * MATCHES_PAGE,
      });
      const pages = Math.max(1, Math.ceil(result.total / MATCHES_PAGE));
      const href = (p: number) => {
        const qs = new URLSearchParams();
        if (game) qs.set('game', game);
        if (player) qs.set('player', player);
        if (kind) qs.set('kind', kind);
        if (mine) qs.set('mine', '1');
        if (p > 1) qs.set('page', String(p));
        const s = qs.toString();
        return `/matches${s ? `?${s}` : ''}`;
      };
      const filtered = game || player || kind || mine;
      const title = !mine ? t('matches.title') : kind === 'challenge' ? t('matches.myChallenges') : t('matches.myMatches');
      return sendPage(reply, {
        title,
        user: request.user,
        nav: mine ? '/matches?mine=1' : '/matches',
        body: html`<h1>${title}</h1>
<form method="get" action="/matches" id="matches-filter" class="filters" role="search" aria-label="${t('matches.filter')}">
${select({ name: 'game', label: t('matches.game'), value: game ?? '', options: [{ value: '', label: t('matches.anyGame') }, ...[...games.values()].map((g) => ({ value: g.id, label: g.title }))] })}
${field({ name: 'player', label: t('matches.player'), type: 'search', value: player ?? '', attrs: html`maxlength="64" autocomplete="off"` })}
${select({ name: 'kind', label: t('matches.kind'), value: kind ?? '', options: [{ value: '', label: t('matches.anyKind') }, ...MATCH_KINDS.map((k) => ({ value: k, label: word(k) }))] })}
${mine ? html`<input type="hidden" name="mine" value="1">` : ''}
<div><button type="submit">${t('matches.filterButton')}</button>${filtered ? html` <a href="/matches" id="matches-filter-clear">${t('matches.clear')}</a>` : ''}</div>
</form>
<p id="matches-count" role="status">${t('matches.count', result.total, Boolean(filtered), Math.min(page, pages), pages)}</p>
${result.matches.length ? matchesTable(result.matches, games) : html`<p class="muted" id="matches-empty">${page > pages ? t('matches.noSuchPage') : t('matches.noMatch')}</p>`}
${pager({ page, pages, href, label: t('matches.pages') })}`,
      });
    },
  );

  app.get('/:id', { config: { access: 'public' }, schema: { hide: true, params: idParams } }, async (request, reply) => {
    const m = await matchWithOwners(db, request.params.id);
    if (!m) throw notFound(t('matches.noMatchId', request.params.id));
    const games = await loadGames();
    const game = games.get(m.game);
    const title = t('matches.pageTitle', game?.title ?? m.game, word(m.kind), m.id);
    const out = matchOut(m);
    const me = request.user;
    const extra = new Map(m.participants.map((p) => [p.seat, { owner: p.player?.owner.username ?? null, userId: p.submission?.userId ?? null }]));
    const limits = matchLimits(m.limits) ?? game?.defaultLimits ?? null;
    const budget = limits?.cpuBudgetMs ?? null;
    const mine = out.participants.filter((p) => me && (me.isAdmin || extra.get(p.seat)?.userId === me.id));
    const done = m.status === 'done';
    const resultTable = html`<div class="table-wrap"><table id="match-result" class="stacks">
<caption>${t('matches.finalResult')}${done ? '' : t('matches.notPlayed')}</caption>
<thead><tr><th scope="col">${t('matches.seatCol')}</th><th scope="col">${t('matches.player')}</th><th scope="col">${t('matches.owner')}</th><th scope="col" class="num">${t('matches.score')}</th><th scope="col" class="num">${t('matches.rank')}</th><th scope="col" class="num">${t('matches.cpuMs')}</th><th scope="col" class="num">${t('matches.budget')}</th><th scope="col">${t('matches.out')}</th></tr></thead>
<tbody>${out.participants.map(
      (p) => html`<tr data-seat="${p.seat}">
<td data-label="${t('matches.seatCol')}">${seatSwatch(p.seat)}${p.seat}</td>
<td data-label="${t('matches.player')}">${playerCell(p, m.game)}</td>
<td data-label="${t('matches.owner')}">${extra.get(p.seat)?.owner ?? ''}</td>
<td data-label="${t('matches.score')}" class="num">${p.score ?? ''}</td>
<td data-label="${t('matches.rank')}" class="num">${p.rank ?? ''}</td>
<td data-label="${t('matches.cpuMs')}" class="num">${p.cpuMs !== null ? Math.round(p.cpuMs) : ''}</td>
<td data-label="${t('matches.budget')}" class="num">${p.cpuMs !== null && budget ? `${((100 * p.cpuMs) / budget).toFixed(1)}%` : ''}</td>
<td data-label="${t('matches.out')}">${p.frozen ? html`<span class="badge failed">${word('out')}</span> ${word(p.frozen.reason)}${p.frozen.round !== null ? t('matches.inRound', roundShown(p.frozen.round)) : ''}${p.frozen.message ? html`: <code>${p.frozen.message}</code>` : ''}` : ''}</td>
</tr>`,
    )}</tbody>
</table></div>`;
    let main: Html;
    if (m.status === 'queued' || m.status === 'running') {
      main = html`<p class="notice" id="match-status" role="status"><span class="badge ${m.status}">${word(m.status)}</span> ${m.status === 'queued' ? t('matches.waiting') : t('matches.playing')} <a href="/queue">${t('matches.queueLink')}</a>.</p>`;
    } else if (m.status === 'failed') {
      main = html`<p class="notice bad" id="match-status" role="alert"><span class="badge failed">${word('failed')}</span> ${t('matches.couldNotPlay')}${m.error ? html`: <code>${m.error}</code>` : '.'}</p>`;
    } else if (out.replay) {
      main = html`<div class="viewer" data-viewer data-replay="/api/matches/${m.id}/replay"></div>`;
    } else if (replayWasPruned(m)) {
      main = html`<p class="notice" id="match-status">${t('matches.pruned', PRUNED_REPLAY_MESSAGE)}</p>`;
    } else {
      main = html`<p class="notice" id="match-status">${t('matches.noReplay')}</p>`;
    }
    return sendPage(reply, {
      title,
      user: me,
      nav: '/matches',
      head: out.replay && done ? html`<link rel="stylesheet" href="/assets/viewer.css">` : undefined,
      scripts: out.replay && done ? ['viewer'] : undefined,
      body: html`<p class="breadcrumbs"><a href="/matches">${t('matches.title')}</a> › <a href="/matches?game=${encodeURIComponent(m.game)}">${game?.title ?? m.game}</a></p>
<h1>${title}</h1>
<dl class="facts">
  <dt>${t('matches.status')}</dt><dd><span class="badge ${m.status}">${word(m.status)}</span></dd>
  <dt>${t('matches.seed')}</dt><dd>${m.seed}</dd>
  <dt>${t('matches.playLine')}</dt><dd><code class="play" id="match-play">${out.play}</code><br><span class="hint">${t('matches.playLineHint')}</span></dd>
  ${limits ? html`<dt>${t('matches.limits')}</dt><dd id="match-limits">${t('matches.limitsValue', formatBudget(limits.cpuBudgetMs), limits.memoryMb)}</dd>` : ''}
  ${m.finishedAt ? html`<dt>${t('matches.finished')}</dt><dd>${when(m.finishedAt)}${m.durationMs !== null ? t('matches.inSeconds', (m.durationMs / 1000).toFixed(1)) : ''}</dd>` : html`<dt>${t('matches.created')}</dt><dd>${when(m.createdAt)}</dd>`}
  ${m.kind === 'gate' && m.submissionId !== null ? html`<dt>${t('matches.gate')}</dt><dd>${m.gateStep === GateStep.selfplay ? t('matches.selfPlay') : t('matches.dummyMatch', (m.gateIndex ?? 0) + 1, GATE_DUMMY_MATCHES)}${t('matches.ofSubmission')}<a id="gate-submission" href="/submissions/${m.submissionId}">${t('matches.submission', m.submissionId)}</a></dd>` : ''}
  ${m.tournamentId !== null ? html`<dt>${t('matches.tournament')}</dt><dd><a id="match-tournament" href="/tournaments/${m.tournamentId}">${t('matches.tournamentN', m.tournamentId)}</a></dd>` : ''}
</dl>
${main}
${resultTable}
<div class="downloads" id="match-downloads">
${out.replay ? html`<a class="button" id="download-replay" href="/api/matches/${m.id}/replay" download>${t('matches.downloadReplay', Math.max(1, Math.round(out.replay.sizeBytes / 1024)))}</a>` : ''}
${mine.map((p) => html`<a class="button secondary" id="download-log-${p.seat}" href="/matches/${m.id}/log/${p.seat}" download>${t('matches.logOf', p.name, p.seat)}</a>`)}
</div>
${out.replay ? html`<p class="hint">${th('matches.offline_html', escapeHtml(`${m.game}-${m.id}.replay.json.gz`))}</p>` : ''}`,
    });
  });

  app.get(
    '/:id/log/:seat',
    {
      config: { access: 'owner' },
      schema: {
        hide: true,
        params: { type: 'object', required: ['id', 'seat'], properties: { ...idParams.properties, seat: { type: 'integer', minimum: 0, maximum: 3 } } },
      },
    },
    async (request, reply) => {
      const me = request.user;
      if (!me) throw unauthorized(t('matches.loginForLog'));
      const m = await matchLogs(db, request.params.id, request.params.seat);
      if (!m) throw notFound(t('matches.noMatchId', request.params.id));
      const p = m.participants[0];
      if (!p) throw notFound(t('matches.noSeat', m.id, request.params.seat));
      if (!me.isAdmin && p.submission?.userId !== me.id) throw forbidden(t('matches.logOwnerOnly'));
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${m.game}-${m.id}-seat${p.seat}.log.txt"`)
        .header('cache-control', 'private, no-store')
        .send(p.log ?? '');
    },
  );
}

type ListQueryKind = 'gate' | 'ranked' | 'tournament' | 'challenge' | undefined;
