// Official tournaments on the site: the list and a tournament's page (the
// bracket round by round, every group with its match and the line that
// replays it, the standings, the downloads; a planned tournament's page
// previews who would enter). A running tournament's page refreshes itself (a
// meta refresh: no script needed). The helpers here serve the admin's page
// too (src/http/routes/admin/tournaments.ts).

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import type { AuthUser } from '../../auth.ts';
import { idParams } from '../../schemas.ts';
import { listTournaments, previewEntries, tournamentDetail, type TournamentDetail, type TournamentEffects } from '../../../domain/tournaments.ts';
import { applyTournamentEffects } from '../../../jobs/scheduler/tournaments.ts';
import { html, type Html } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import type { FieldErrors } from '../../render/forms.ts';
import { formatTime } from '../submissions/index.ts';
import { parseCourseInput } from '../../../domain/course-time.ts';
import { t as tr, th, word } from '../../i18n/index.ts';

/** Seconds between reloads of a tournament's page while it runs. */
export const REFRESH_SECONDS = 5;

export type Form = Record<string, string | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export function statusBadge(status: string): Html {
  const cls = status === 'finished' ? 'done' : status === 'running' ? 'running' : status === 'paused' || status === 'cancelled' ? 'failed' : 'queued';
  return html`<span class="badge ${cls}">${word(status)}</span>`;
}

function seatCell(s: TournamentDetail['rounds'][number]['groups'][number]['seats'][number]): Html {
  const result = s.rank !== null ? html` <span class="muted">#${s.rank} · ${s.score ?? 0}</span>` : '';
  const name = s.builtin ? html`<span class="muted">${s.name}</span>` : s.fell ? html`<s>${s.name}</s>` : html`<strong>${s.name}</strong>`;
  return html`<li class="group-seat" value="${String(s.seat)}" data-entry="${s.entry === null ? '' : String(s.entry)}" data-fell="${s.fell ? 'true' : 'false'}">${name}${result}${s.frozen ? html` <span class="badge failed">${tr('tour.froze')}</span>` : ''}</li>`;
}

export function adminControls(d: { id: number; status: string }): Html {
  const post = (action: string, label: string, cls = '') =>
    html`<form method="post" action="/admin/tournaments/${d.id}/${action}" class="inline"><button type="submit"${cls ? html` class="${cls}"` : ''}>${label}</button></form>`;
  return html`<p id="admin-controls">${
    d.status === 'scheduled'
      ? html`${post('start', tr('tour.start'))} <a class="button secondary" href="/admin/tournaments/${d.id}/edit">${tr('tour.edit')}</a> ${post('cancel', tr('tour.cancel'), 'secondary')}`
      : ''
  }${d.status === 'running' ? post('pause', tr('tour.pause'), 'secondary') : ''}${d.status === 'paused' ? post('resume', tr('tour.resume')) : ''}${d.status === 'cancelled' ? post('delete', tr('tour.delete'), 'secondary') : ''}</p>`;
}

/** While planned: who would enter if the entries froze now (everyone sees how many; an admin sees the list). */
function previewSection(p: Preview, user: AuthUser | null): Html {
  return html`<section id="entries-preview" aria-labelledby="entries-preview-h">
<h2 id="entries-preview-h">${tr('tour.previewTitle')}</h2>
<p class="hint">${tr('tour.previewNote')}</p>
${
  user?.isAdmin && p.entries.length
    ? html`<div class="table-wrap"><table id="preview">
<thead><tr><th scope="col">#</th><th scope="col">${tr('tour.player')}</th><th scope="col">${tr('tour.owner')}</th></tr></thead>
<tbody>${p.entries.map((e) => html`<tr><td>${e.entry + 1}</td><td>${e.name}</td><td>${e.owner}</td></tr>`)}</tbody>
</table></div>`
    : ''
}
</section>`;
}

type Preview = Awaited<ReturnType<typeof previewEntries>>;

function tournamentBody(d: TournamentDetail, user: AuthUser | null, preview: Preview | null): Html {
  const rounds = [...d.rounds].reverse().map(
    (r) => html`<section class="round" id="round-${r.round}" aria-labelledby="round-${r.round}-title">
<h3 id="round-${r.round}-title">${tr('tour.round', r.round)}${r.final ? tr('tour.finalPhase') : ''}</h3>
<div class="table-wrap"><table class="groups">
<thead><tr><th scope="col">${tr('tour.group')}</th><th scope="col">${tr('tour.seats')}</th><th scope="col">${tr('tour.match')}</th><th scope="col">${tr('tour.replayIt')}</th></tr></thead>
<tbody>${r.groups.map(
      (g) => html`<tr id="group-${r.round}-${g.group + 1}">
<td>${g.group + 1}</td>
<td><ol class="seats" start="0">${g.seats.map(seatCell)}</ol></td>
<td>${
        g.match
          ? html`<a href="/matches/${g.match.id}">#${g.match.id}</a> <span class="badge ${g.match.status}">${word(g.match.status)}</span>${g.match.attempt > 0 ? html` <span class="muted">${tr('tour.rerunN', g.match.attempt)}</span>` : ''}${
              g.match.status === 'failed'
                ? html`<br><span class="muted">${g.match.error ?? tr('tour.couldNotPlay')}${tr('tour.waitingRerun')}</span>${
                    user?.isAdmin
                      ? html`<form method="post" action="/admin/tournaments/${d.id}/matches/${g.match.id}/rerun" class="inline"><button type="submit" class="small">${tr('tour.rerun')}</button></form>`
                      : ''
                  }`
                : ''
            }${g.match.replay ? html`<br><a href="${g.match.replay.url}" download>${tr('tour.replay')}</a>` : ''}`
          : html`<span class="muted">${tr('tour.none')}</span>`
      }</td>
<td><code class="play">${g.play}</code></td>
</tr>`,
    )}</tbody>
</table></div>
</section>`,
  );
  const standings = d.standings.length
    ? html`<div class="table-wrap"><table id="standings">
<thead><tr><th scope="col">${d.status === 'finished' ? tr('tour.place') : tr('tour.position')}</th><th scope="col">${tr('tour.player')}</th><th scope="col">${tr('tour.owner')}</th><th scope="col">${tr('tour.fellIn')}</th><th scope="col">${tr('tour.lastRank')}</th><th scope="col">${tr('tour.lastScore')}</th></tr></thead>
<tbody>${d.standings.map(
        (s) =>
          html`<tr><td>${s.place ?? s.position}</td><td>${s.name}</td><td>${s.owner ?? ''}</td><td>${s.eliminatedRound !== null ? tr('tour.roundN', s.eliminatedRound) : d.status === 'finished' ? html`<strong>${tr('tour.champion')}</strong>` : tr('tour.stillIn')}</td><td>${s.lastRank ?? ''}</td><td>${s.lastScore ?? ''}</td></tr>`,
      )}</tbody>
</table></div>`
    : html`<p class="muted">${tr('tour.freezeAt')}${formatTime(new Date(d.freezeAt))}.</p>`;
  return html`<p class="breadcrumbs"><a href="/tournaments">${tr('tour.title')}</a> › ${d.game}</p>
<h1>${d.name}</h1>
<dl class="facts">
<dt>${tr('tour.game')}</dt><dd>${d.game}</dd>
<dt>${tr('tour.status')}</dt><dd id="tournament-status">${statusBadge(d.status)}${d.status === 'running' ? tr('tour.inRound', d.round) : ''}</dd>
<dt>${tr('tour.entriesFreeze')}</dt><dd id="tournament-freeze">${formatTime(new Date(d.freezeAt))}</dd>
${d.startedAt ? html`<dt>${tr('tour.started')}</dt><dd id="tournament-started">${formatTime(new Date(d.startedAt))}</dd>` : ''}
${d.cancelledAt ? html`<dt>${tr('tour.cancelledAt')}</dt><dd id="tournament-cancelled">${formatTime(new Date(d.cancelledAt))}</dd>` : ''}
<dt>${tr('tour.seed')}</dt><dd id="tournament-seed">${d.seed !== null ? html`<code>${d.seed}</code>${tr('tour.seedNote')}` : html`<span class="muted">${tr('tour.seedSecret')}</span>`}</dd>
${d.config ? html`<dt>${tr('tour.settings')}</dt><dd><code>${JSON.stringify(d.config)}</code></dd>` : ''}
<dt>${tr('tour.entries')}</dt><dd id="tournament-entries">${preview ? tr('tour.wouldEnter', preview.entries.length) : d.entries.length}</dd>
</dl>
${user?.isAdmin ? adminControls(d) : ''}
${d.status === 'cancelled' ? html`<p class="notice" role="status">${tr('tour.cancelledNote')}</p>` : ''}
${preview ? previewSection(preview, user) : ''}
${d.status === 'running' ? html`<p class="muted" role="status">${tr('tour.reloads', REFRESH_SECONDS)}</p>` : ''}
<p class="downloads"><a class="button" id="download-replays" href="/api/tournaments/${d.id}/replays.zip" download>${tr('tour.allReplays')}</a>
<a class="button secondary" id="download-standings" href="/api/tournaments/${d.id}/standings.csv" download>${tr('tour.standingsCsv')}</a></p>
<h2>${tr('tour.standings')}</h2>
${standings}
<h2>${tr('tour.rounds')}</h2>
<p class="hint">${tr('tour.rules')}</p>
${rounds.length ? rounds : html`<p class="muted">${tr('tour.noRound')}</p>`}`;
}

/**
 * A tournament form's config (a JSON object, or none), freeze time (the course's wall-clock time without an
 * offset: course-time.ts) and seed, with the fields' errors. Creating, an empty freeze time is now and an
 * empty seed the judge's draw; editing (`required`), both must be given.
 */
export function tournamentFields(
  v: Form,
  required: boolean,
): { errors: FieldErrors; config: Record<string, unknown> | null; freezeAt: Date; seed: number | undefined } {
  const errors: FieldErrors = {};
  let config: Record<string, unknown> | null = null;
  if (str(v.config)) {
    try {
      const parsed: unknown = JSON.parse(str(v.config));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      config = parsed as Record<string, unknown>;
    } catch {
      errors.config = tr('tourAdmin.notObject');
    }
  }
  const freezeAt = str(v.freezeAt) || required ? (parseCourseInput(str(v.freezeAt)) ?? new Date(NaN)) : new Date();
  if (Number.isNaN(freezeAt.getTime())) errors.freezeAt = tr('tourAdmin.notDate');
  const seed = str(v.seed) ? Number(str(v.seed)) : undefined;
  if ((seed === undefined && required) || (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff)))
    errors.seed = tr('tourAdmin.badSeed');
  return { errors, config, freezeAt, seed };
}

export default async function tournamentPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;
  const _apply = (effects: TournamentEffects) => applyTournamentEffects({ db, queues: app.deps.queues, log: (msg) => app.log.warn(msg) }, effects);

  app.get('', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const list = await listTournaments(db);
    const body = html`<h1>${tr('tour.title')}</h1>
<p>${th('tour.intro_html')}</p>
${request.user?.isAdmin ? html`<p><a href="/admin/tournaments">${tr('tour.manage')}</a></p>` : ''}
${
  list.length
    ? html`<div class="table-wrap"><table id="tournaments">
<thead><tr><th scope="col">${tr('tour.tournament')}</th><th scope="col">${tr('tour.game')}</th><th scope="col">${tr('tour.status')}</th><th scope="col">${tr('tour.entriesFreeze')}</th><th scope="col">${tr('tour.entries')}</th><th scope="col">${tr('tour.championCol')}</th></tr></thead>
<tbody>${list.map(
        (t) =>
          html`<tr><td><a href="/tournaments/${t.id}">${t.name}</a></td><td>${t.game}</td><td>${statusBadge(t.status)}</td><td>${formatTime(new Date(t.freezeAt))}</td><td>${t.entries}</td><td>${t.champion ?? ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">${tr('tour.noneYet')}</p>`
}`;
    return sendPage(reply, { title: tr('tour.title'), user: request.user, nav: '/tournaments', body });
  });

  app.get('/:id', { config: { access: 'public' }, schema: { hide: true, params: idParams } }, async (request, reply) => {
    const d = await tournamentDetail(db, request.params.id);
    const preview = d.status === 'scheduled' ? await previewEntries(db, d.id) : null;
    return sendPage(reply, {
      title: d.name,
      user: request.user,
      nav: '/tournaments',
      head: d.status === 'running' ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : undefined,
      body: tournamentBody(d, request.user, preview),
    });
  });
}
