// The teacher's view of students (admins only: this folder's
// autohooks.ts, src/http/access.ts): /admin/users/:id (a student's whole
// record: identity, last activity, per game the time to qualify, ratings and
// ranks, tournament results, similarity pairs, every submission with its gate
// steps and their matches) and /admin/submissions (every submission with
// filters, paged, each row linking to its page, with the same list as CSV).
// The data is src/domain/students.ts's.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../typed.ts';
import { GATE_OPPONENT } from '../../../domain/gate.ts';
import { courseTimeZone } from '../../../domain/course-time.ts';
import {
  listSubmissions,
  parseSubmissionFilters,
  studentDetail,
  SUBMISSION_LANGUAGES,
  SUBMISSION_STATUSES_OUT,
  type SubmissionLanguage,
  type TournamentOutcome,
} from '../../../domain/students.ts';
import { loadGames } from '../../../games/registry.ts';
import { languages } from '../../../sandbox/languages/index.ts';
import { idParams, pageNumber } from '../../schemas.ts';
import { field, select } from '../../render/forms.ts';
import { html } from '../../render/html.ts';
import { t, word } from '../../i18n/index.ts';
import { localizeReason } from '../../i18n/reasons.ts';
import { sendPage } from '../../render/layout.ts';
import { pager, when } from '../matches/index.ts';
import { stateBadge } from '../submissions/index.ts';

/** Languages by their own names (not translated). */
export const LANGUAGE_NAMES = Object.fromEntries(languages.map((l) => [l.id, l.displayName])) as Record<SubmissionLanguage, string>;

/** A gate step's name in the page's language. */
function stepName(step: { key: string; label: string }): string {
  if (step.key === 'compile') return t('gate.compile');
  if (step.key === 'selfplay') return t('gate.selfPlay');
  const m = /^dummy-(\d+)$/.exec(step.key);
  const opponent = /against (.+)$/.exec(step.label)?.[1] ?? GATE_OPPONENT;
  return m ? t('gate.matchAgainst', Number(m[1]) + 1, opponent) : step.label;
}

/** Seconds as "2 d 3 h", "3 h 12 min", "5 min". */
export function durationText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return t('stu.duration', Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60);
}

const percent = (x: number) => `${Math.round(x * 100)}%`;
const badge = (status: string) => html`<span class="badge ${status}" data-status="${status}">${word(status)}</span>`;

function outcomeText(o: { outcome: TournamentOutcome; eliminatedRound: number | null; place: number | null; entries: number }): string {
  const result = o.outcome === 'champion' ? t('stu.champion') : o.outcome === 'fell' ? t('stu.fellIn', o.eliminatedRound ?? 0) : t('stu.stillIn');
  return o.place !== null && o.outcome !== 'champion'
    ? `${result}, ${t('stu.place', o.place, o.entries)}`
    : o.place !== null
      ? `${result} (${t('stu.place', o.place, o.entries)})`
      : result;
}

export default async function studentPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get('/users/:id', { config: { access: 'admin' }, schema: { hide: true, params: idParams } }, async (request, reply) => {
    const d = await studentDetail(db, request.params.id);
    const games = await loadGames();
    const title = (g: string) => games.get(g)?.title ?? g;
    const u = d.user;
    const here = `/admin/users/${u.id}`;
    const body = html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a> › <a href="/admin/users">${t('admin.users')}</a></p>
<h1>${t('stu.title', u.username)}</h1>
<section aria-labelledby="identity-h" id="student-identity">
<h2 id="identity-h">${t('stu.identity')}</h2>
<dl class="facts">
  <dt>${t('stu.username')}</dt><dd id="student-username">${u.username}${u.isAdmin ? html` <span class="muted">${t('stu.isAdmin')}</span>` : ''}</dd>
  <dt>${t('admin.email')}</dt><dd id="student-email">${u.email ?? html`<span class="muted">${t('aw.none')}</span>`}</dd>
  ${'studentId' in u ? html`<dt>${t('stu.studentId')}</dt><dd id="student-id">${u.studentId ?? ''}</dd>` : ''}
  ${'fullName' in u ? html`<dt>${t('stu.fullName')}</dt><dd id="student-name">${u.fullName ?? ''}</dd>` : ''}
  <dt>${t('stu.registered')}</dt><dd>${when(u.createdAt)}</dd>
  <dt>${t('admin.state')}</dt><dd>${u.disabledAt ? html`<span class="badge failed">${t('admin.disabled')}</span> ${when(u.disabledAt)}` : t('admin.active')}
  <form method="post" action="/admin/actions/user" class="inline"><input type="hidden" name="id" value="${String(u.id)}"><input type="hidden" name="action" value="${u.disabledAt ? 'enable' : 'disable'}"><input type="hidden" name="back" value="${here}"><button type="submit" class="secondary">${u.disabledAt ? t('admin.enable') : t('admin.disable')}</button></form></dd>
</dl>
</section>
<section aria-labelledby="activity-h" id="student-activity">
<h2 id="activity-h">${t('stu.lastActivity')}</h2>
<dl class="facts">
  <dt>${t('stu.lastSubmission')}</dt><dd>${d.lastActivity.submission ? when(d.lastActivity.submission) : t('stu.never')}</dd>
  <dt>${t('stu.lastSession')}</dt><dd>${d.lastActivity.session ? when(d.lastActivity.session) : t('stu.never')}</dd>
  <dt>${t('stu.lastToken')}</dt><dd>${d.lastActivity.token ? when(d.lastActivity.token) : t('stu.never')}</dd>
</dl>
<p><a href="/admin/submissions?user=${encodeURIComponent(u.username)}">${t('stu.theirSubmissions')}</a></p>
</section>
<section aria-labelledby="games-h" id="student-games">
<h2 id="games-h">${t('stu.games')}</h2>
${
  d.games.length === 0
    ? html`<p class="muted">${t('stu.noGames')}</p>`
    : html`<div class="table-wrap"><table id="student-games-table">
<thead><tr><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.submissionsCount')}</th><th scope="col">${t('stu.firstSubmitted')}</th><th scope="col">${t('stu.firstQualified')}</th><th scope="col">${t('stu.timeToQualify')}</th><th scope="col">${t('stu.qualifiedPlayers')}</th></tr></thead>
<tbody>${d.games.map(
        (
          g,
        ) => html`<tr data-game="${g.game}"><td>${title(g.game)}</td><td>${g.submissions}</td><td>${when(g.firstSubmittedAt)}</td><td>${g.firstQualifiedAt ? when(g.firstQualifiedAt) : html`<span class="muted">${t('stu.notQualified')}</span>`}</td>
<td class="time-to-qualify">${g.secondsToQualify !== null ? durationText(g.secondsToQualify) : ''}</td>
<td>${g.qualifiedPlayers.map((p, i) => html`${i ? ', ' : ''}<a href="/players/${encodeURIComponent(p)}?game=${encodeURIComponent(g.game)}">${p}</a>`)}${g.representative ? html` <span class="muted">(${t('stu.representative', g.representative)})</span>` : ''}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="ratings-h" id="student-ratings">
<h2 id="ratings-h">${t('stu.ratings')}</h2>
${
  d.ratings.length === 0
    ? html`<p class="muted">${t('stu.noRatings')}</p>`
    : html`<div class="table-wrap"><table id="student-ratings-table">
<thead><tr><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.player')}</th><th scope="col">${t('stu.rank')}</th><th scope="col">${t('stu.rating')}</th><th scope="col">${t('lb.skill')}</th><th scope="col">${t('stu.matches')}</th></tr></thead>
<tbody>${d.ratings.map(
        (r) =>
          html`<tr data-player="${r.player}"><td>${title(r.game)}</td><td>${r.player}</td><td class="rank">${r.rank !== null ? html`<a href="/games/${r.game}/leaderboard">${r.rank}</a>` : html`<span class="muted">${t('stu.noRank')}</span>`}</td><td>${r.rating.toFixed(2)}${r.provisional ? html` <span class="muted">${t('lb.provisional')}</span>` : ''}</td><td>${r.mu.toFixed(2)} ± ${(3 * r.sigma).toFixed(2)}</td><td>${r.matchesPlayed}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="tournaments-h" id="student-tournaments">
<h2 id="tournaments-h">${t('stu.tournaments')}</h2>
${
  d.tournaments.length === 0
    ? html`<p class="muted">${t('stu.noTournaments')}</p>`
    : html`<div class="table-wrap"><table id="student-tournaments-table">
<thead><tr><th scope="col">${t('stu.tournament')}</th><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.player')}</th><th scope="col">${t('stu.result')}</th></tr></thead>
<tbody>${d.tournaments.map(
        (e) =>
          html`<tr data-tournament="${String(e.tournamentId)}" data-outcome="${e.outcome}"><td><a href="/tournaments/${e.tournamentId}">${e.name}</a> ${badge(e.status)}</td><td>${title(e.game)}</td><td>${e.player}</td><td>${outcomeText(e)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="similarity-h" id="student-similarity">
<h2 id="similarity-h">${t('stu.similarity')}</h2>
<p class="hint">${t('stu.similarityIntro')}</p>
${
  d.similarity.length === 0
    ? html`<p class="muted">${t('stu.noSimilarity')}</p>`
    : html`<div class="table-wrap"><table id="student-similarity-table">
<thead><tr><th scope="col">${t('stu.score')}</th><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.theirs')}</th><th scope="col">${t('stu.otherSide')}</th><th scope="col">${t('stu.computed')}</th><th scope="col"></th></tr></thead>
<tbody>${d.similarity.map(
        (p) =>
          html`<tr data-pair="${p.mine.key} ${p.other.key}"><td><strong>${percent(p.score)}</strong></td><td>${title(p.game)}</td><td>${p.mine.title}</td><td><strong>${p.other.author}</strong> <span class="muted">${p.other.title}${p.other.kind === 'archive' ? ` (${t('stu.previousTerm')})` : ''}</span></td><td>${when(p.computedAt)}</td><td><a href="${p.href}">${t('sim.sideBySide')}</a></td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="subs-h" id="student-submissions">
<h2 id="subs-h">${t('stu.submissions')}</h2>
${
  d.submissions.length === 0
    ? html`<p class="muted">${t('stu.noSubmissions')}</p>`
    : html`<div class="table-wrap"><table id="student-submissions-table">
<thead><tr><th scope="col">${t('stu.submission')}</th><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.player')}</th><th scope="col">${t('stu.language')}</th><th scope="col">${t('stu.size')}</th><th scope="col">${t('gate.submitted')}</th><th scope="col">${t('gate.compile')}</th><th scope="col">${t('stu.gate')}</th><th scope="col">${t('stu.verdict')}</th></tr></thead>
<tbody>${[...d.submissions].reverse().map(
        (
          s,
        ) => html`<tr id="submission-${s.id}" data-status="${s.status}"><td><a href="/submissions/${s.id}">#${s.id}</a></td><td>${title(s.game)}</td><td>${s.player} v${s.version}</td><td>${LANGUAGE_NAMES[s.language]} <span class="muted mono">${s.filename}</span></td><td>${t('stu.bytes', s.sizeBytes)}</td><td>${when(s.createdAt)}</td>
<td>${stateBadge(s.compile)}</td>
<td><ul class="gate-steps">${s.steps.map((st) => html`<li data-step="${st.key}" data-state="${st.state}">${stepName(st)}: ${stateBadge(st.state)}${st.matchId !== null ? html` <a href="/matches/${st.matchId}">#${st.matchId}</a>` : ''}</li>`)}</ul></td>
<td>${s.verdict ? badge(s.verdict) : html`<span class="muted">${t('stu.judging')}</span>`}${s.disabledAt ? html` <span class="badge failed">${t('stu.disabled')}</span>` : ''}${s.reason ? html`<br><span class="reason">${clip(localizeReason(s.reason, s.reasonDetail, s.reasonLine) ?? s.reason, 300)}</span>` : ''}${s.finishedAt ? html`<br><span class="muted">${when(s.finishedAt)}</span>` : ''}</td></tr>`,
      )}</tbody></table></div>`
}
</section>`;
    return sendPage(reply, { title: t('stu.title', u.username), user: request.user, nav: '/admin', body });
  });

  app.get(
    '/submissions',
    {
      config: { access: 'admin' },
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: {
            game: { type: 'string', maxLength: 64 },
            status: { type: 'string', maxLength: 32 },
            language: { type: 'string', maxLength: 32 },
            user: { type: 'string', maxLength: 64 },
            from: { type: 'string', maxLength: 40 },
            to: { type: 'string', maxLength: 40 },
            page: pageNumber,
          },
        },
      },
    },
    async (request, reply) => {
      const { page = 1, ...raw } = request.query;
      const filters = parseSubmissionFilters(raw);
      const per = 50;
      const { total, rows } = await listSubmissions(db, filters, { limit: per, offset: (page - 1) * per });
      const pages = Math.max(1, Math.ceil(total / per));
      const games = await loadGames();
      const kept: Record<string, string> = {};
      for (const k of ['game', 'status', 'language', 'user', 'from', 'to'] as const) {
        const v = raw[k]?.trim();
        if (v) kept[k] = v;
      }
      const qs = (extra: Record<string, string> = {}) => {
        const s = new URLSearchParams({ ...kept, ...extra }).toString();
        return s ? `?${s}` : '';
      };
      const zone = courseTimeZone();
      const body = html`<p class="breadcrumbs"><a href="/admin">${t('admin.title')}</a></p>
<h1>${t('subl.title')}</h1>
<form method="get" action="/admin/submissions" class="filters" id="submissions-filter">
${select({ name: 'game', label: t('stu.game'), options: [{ value: '', label: t('subl.anyGame') }, ...[...games.values()].map((g) => ({ value: g.id, label: g.title }))], value: kept.game ?? '' })}
${select({ name: 'status', label: t('subl.status'), options: [{ value: '', label: t('subl.anyStatus') }, ...SUBMISSION_STATUSES_OUT.map((s) => ({ value: s, label: word(s) }))], value: kept.status ?? '' })}
${select({ name: 'language', label: t('subl.language'), options: [{ value: '', label: t('subl.anyLanguage') }, ...SUBMISSION_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))], value: kept.language ?? '' })}
${field({ name: 'user', label: t('subl.user'), type: 'search', value: kept.user ?? '', attrs: html`maxlength="64"` })}
${field({ name: 'from', label: t('subl.from', zone), value: kept.from ?? '', attrs: html`placeholder="2026-12-01" maxlength="40"` })}
${field({ name: 'to', label: t('subl.to', zone), value: kept.to ?? '', attrs: html`placeholder="2026-12-20" maxlength="40"` })}
<div><button type="submit">${t('subl.filter')}</button></div>
</form>
<p><span id="submissions-count">${t('subl.count', total)}</span> <a href="/api/admin/exports/submissions.csv${qs()}" id="submissions-csv">${t('subl.csv')}</a></p>
${
  rows.length === 0
    ? html`<p class="muted" id="no-submissions">${t('subl.none')}</p>`
    : html`<div class="table-wrap"><table id="all-submissions">
<thead><tr><th scope="col">${t('stu.submission')}</th><th scope="col">${t('subl.user2')}</th><th scope="col">${t('stu.game')}</th><th scope="col">${t('stu.player')}</th><th scope="col">${t('stu.language')}</th><th scope="col">${t('stu.size')}</th><th scope="col">${t('gate.submitted')}</th><th scope="col">${t('subl.status')}</th><th scope="col">${t('subs.reason')}</th></tr></thead>
<tbody>${rows.map(
        (r) =>
          html`<tr data-submission="${String(r.id)}" data-status="${r.status}"><td><a href="/submissions/${r.id}">#${r.id}</a></td><td><a href="/admin/users/${r.user.id}">${r.user.username}</a></td><td>${games.get(r.game)?.title ?? r.game}</td><td>${r.player} v${r.version}</td><td>${LANGUAGE_NAMES[r.language]}</td><td>${t('stu.bytes', r.sizeBytes)}</td><td>${when(r.createdAt)}</td><td>${badge(r.status)}${r.disabledAt ? html` <span class="badge failed">${t('stu.disabled')}</span>` : ''}</td><td class="reason">${r.reason ? clip(localizeReason(r.reason, r.reasonDetail) ?? r.reason, 160) : ''}</td></tr>`,
      )}</tbody></table></div>`
}
${pager({ page, pages, href: (p) => `/admin/submissions${qs(p > 1 ? { page: String(p) } : {})}`, label: t('subl.pages') })}`;
      return sendPage(reply, { title: t('subl.title'), user: request.user, nav: '/admin', body });
    },
  );
}

/** A verdict's reason cut to `max` characters for a table (the submission's page has it whole). */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
