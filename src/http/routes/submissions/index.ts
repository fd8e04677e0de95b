// My submissions (grouped by player name), one submission's page with the
// Dummy gate's timeline, and its source. Only the owner (or an admin) sees
// them. The timeline is one server-side renderer: the page embeds it and
// GET /submissions/:id/timeline returns it alone, which the page's script
// (src/http/client/gate-live.ts) fetches again on every judge event.

import type { FastifyInstance } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { sendSource } from '../../source-reply.ts';
import type { Db } from '../../../db/client.ts';
import { loadGames } from '../../../games/registry.ts';
import { roundShown } from '../../../sdk/replay-format.ts';
import { GATE_DUMMY_MATCHES, GATE_OPPONENT } from '../../../domain/gate.ts';
import type { AuthUser } from '../../auth.ts';
import { forbidden, notFound } from '../../errors.ts';
import { FINAL_STATUSES, matchOut, statusOut } from '../../../domain/serialize.ts';
import { findSubmission, gateMatches, submissionSource, userSubmissionsByName, type SubmissionRow } from '../../../domain/submission-reads.ts';
import { gateProgress, showsWait, waitsForRunner, type GateStepState } from '../../../domain/gate-progress.ts';
import { liveStatus } from '../../../domain/gate.ts';
import { submissionWait } from '../../../domain/queue-overview.ts';
import type { JudgeQueues } from '../../../queue/index.ts';
import { GateStep } from '../../../statuses.ts';
import { html, type Html, type HtmlValue } from '../../render/html.ts';
import { sendPage } from '../../render/layout.ts';
import { select } from '../../render/forms.ts';
import { pageUser } from '../../auth.ts';
import { when } from '../matches/index.ts';
import { idParams } from '../../schemas.ts';
import { t, th, word, type MessageKey } from '../../i18n/index.ts';
import { escapeHtml } from '../../render/html.ts';
import { localizeReason } from '../../i18n/reasons.ts';
import { compileErrorLines, storedReason } from '../../../domain/reasons.ts';
import { formatForPeople } from '../../../domain/course-time.ts';

/** A reason cut for the list of versions (the submission's page has it whole): its first line (a compiler's diagnostics have several), 160 characters at most. */
const shorten = (text: string) => {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl).trimEnd() + ' …';
  return first.length > 160 ? first.slice(0, 159) + '…' : first;
};

/** A compile error as the compiler printed it when it is several lines (clang's error, source line, caret), else null (esbuild's one line, and every other reason, read as a sentence). */
function compilerText(reason: string | null, detail: unknown): string | null {
  const stored = storedReason(detail);
  const message = stored ? (stored.code === 'compile-error' ? stored.params.message : null) : reason?.startsWith('compile error: ') ? reason : null;
  if (message === null) return null;
  const { text, multiline } = compileErrorLines(message);
  return multiline ? text : null;
}

/** A time as people read it (the course's time zone, UTC beside it), with the machine-readable value. */
export function formatTime(d: Date): Html {
  return html`<time datetime="${d.toISOString()}">${formatForPeople(d)}</time>`;
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KiB`;
}

export function statusBadge(status: string, id?: string): Html {
  const s = statusOut(status);
  return html`<span class="badge ${s}"${id ? html` id="${id}"` : ''} data-status="${s}">${word(s)}</span>`;
}

const PAGE_NAMES = 20;
const VERSIONS_SHOWN = 30;

/** A submission its owner or an admin may read: 404 if there is none, 403 for anyone else (as the API's source route). */
async function ownSubmission(db: Db, me: AuthUser, id: number): Promise<SubmissionRow> {
  const s = await findSubmission(db, id);
  if (!s) throw notFound(t('subs.none', id));
  if (s.userId !== me.id && !me.isAdmin) throw forbidden(t('subs.ownerOnly'));
  return s;
}

const STATE_TEXT: Record<GateStepState, MessageKey> = {
  pending: 'gate.waiting',
  running: 'gate.running',
  passed: 'gate.passed',
  failed: 'gate.failed',
  skipped: 'gate.skipped',
  won: 'gate.won',
  lost: 'gate.lost',
  error: 'gate.error',
};

/** A gate step's name in the page's language (data-label keeps the domain's own). */
function stepLabel(step: { key: string; label: string }): string {
  if (step.key === 'compile') return t('gate.compile');
  if (step.key === GateStep.selfplay) return t('gate.selfPlay');
  const m = /^Match (\d+) against (.+)$/.exec(step.label);
  return m ? t('gate.matchAgainst', Number(m[1]), m[2]!) : step.label;
}
const STATE_BADGE: Record<GateStepState, string> = {
  pending: 'queued',
  running: 'running',
  passed: 'done',
  failed: 'rejected',
  skipped: '',
  won: 'won',
  lost: 'lost',
  error: 'failed',
};

/** A gate step's state as a badge in the page's language (the submission page, the teacher's student page). */
export function stateBadge(state: GateStepState): Html {
  return html`<span class="badge ${STATE_BADGE[state]}">${t(STATE_TEXT[state] as 'gate.waiting')}</span>`;
}

/** A wait in seconds as the queue page says it. */
const waitText = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

/** The gate as it stands: summary, steps, verdict. Everything the live script swaps in. */
async function renderTimeline(deps: { db: Db; queues: JudgeQueues | null }, s: SubmissionRow): Promise<Html> {
  const { db } = deps;
  const matches = await gateMatches(db, s.id);
  // Compiling only while a worker runs its check; queued (waiting) until then.
  const live = statusOut((await liveStatus(deps.queues, s)) as typeof s.status);
  const gate = gateProgress({ id: s.id, status: live, reasonDetail: s.reasonDetail }, matches.map(matchOut));
  const { status, final } = gate;
  const byId = new Map(matches.map((m) => [m.id, m]));
  const playLine = new Map(matches.map((m) => [m.id, matchOut(m).play]));

  const watch = (id: number, label: string) =>
    html`<a href="/matches/${id}" id="watch-${id}" aria-label="${t('gate.watchLabel', label, id)}">${t('gate.watch')}</a>`;

  const seats = (m: (typeof matches)[number]) => {
    const ps = [...m.participants].sort((a, b) => a.seat - b.seat);
    return html`<ol class="gate-seats">${ps.map(
      (p) =>
        html`<li${p.submissionId === s.id ? html` class="mine"` : ''}><span class="seat seat-${p.seat}" aria-hidden="true"></span><span class="visually-hidden">${t('gate.seat', p.seat)}</span>${
          p.submissionId === s.id ? html`<strong>${p.name}</strong> <span class="muted">${t('gate.thisBot')}</span>` : p.name
        }${p.score !== null ? html` <span class="score">${p.score}</span>` : ''}${p.frozenReason ? html` <span class="badge rejected" title="${p.frozenMessage ?? ''}">${t('gate.frozen', roundShown(p.frozenRound ?? 0), word(p.frozenReason))}</span>` : ''}</li>`,
    )}</ol>`;
  };

  const HINTS: Record<string, string> = {
    compile: t('gate.compileHint'),
    selfplay: t('gate.selfPlayHint'),
  };
  const steps: HtmlValue[] = gate.steps.map((step) => {
    const m = step.matchId !== null ? byId.get(step.matchId) : undefined;
    const played = m !== undefined && m.status === 'done';
    const showSeats = step.key === GateStep.selfplay ? m?.participants.some((p) => p.score !== null) : played;
    return html`<li class="gate-step" data-step="${step.key}" data-state="${step.state}" data-label="${step.label}"${m && step.key !== GateStep.selfplay ? html` data-match-id="${m.id}"` : ''}>
  <span class="gate-step-title">${stepLabel(step)}</span> ${stateBadge(step.state)}${played ? html` ${watch(m.id, step.key === GateStep.selfplay ? t('gate.selfPlayMatch') : stepLabel(step).toLowerCase())}` : ''}${m && step.key !== GateStep.selfplay ? html` <span class="muted">${t('gate.seed', m.seed)}</span>` : ''}
  ${HINTS[step.key] ? html`<p class="hint">${HINTS[step.key]}</p>` : ''}
  ${showSeats && m ? seats(m) : ''}
  ${m ? html`<p class="gate-play"><span class="muted">${t('matches.playLine')}:</span> <code class="play" id="play-${m.id}">${playLine.get(m.id) ?? ''}</code></p>` : ''}
</li>`;
  });

  let verdict: Html;
  if (status === 'qualified') {
    verdict = html`<p>${th('gate.qualified_html', GATE_OPPONENT, GATE_DUMMY_MATCHES, escapeHtml(s.player.name))}</p>`;
  } else if (status === 'rejected') {
    const compiler = compilerText(s.reason, s.reasonDetail);
    // clang's diagnostics keep their lines and carets in a <pre>; every other reason is a sentence in the page's language.
    const why =
      compiler !== null
        ? html`<p><strong>${t('gate.rejected')}</strong> <span id="verdict-reason">${t('gate.compileError', s.reasonLine)}</span></p>
<pre class="compiler-output" id="verdict-compiler"><code>${compiler}</code></pre>`
        : html`<p><strong>${t('gate.rejected')}</strong> <span id="verdict-reason">${localizeReason(s.reason, s.reasonDetail, s.reasonLine) ?? t('gate.noReason')}</span></p>`;
    verdict = html`${why}
${s.reasonLine !== null ? await sourceExcerpt(db, s.id, s.reasonLine) : ''}`;
  } else {
    let waiting: Html | string = '';
    if (showsWait(gate)) {
      // Its place, as the API's `wait`: the earlier gates ahead of it (first come, first served) and the estimate counting only them.
      const w = await submissionWait(deps, s.id);
      waiting = html` <span id="gate-wait" data-ahead="${w.ahead}">${t('gate.ahead', w.ahead)}${w.seconds !== null ? t('gate.aheadWait', waitText(w.seconds)) : ''}.</span>`;
    }
    verdict = html`<p>${t('gate.judging')}<strong>${word(status)}</strong>. ${waitsForRunner(gate) ? t('gate.waitingWorker') : t('gate.follows')}${waiting}</p>`;
  }

  return html`<div id="gate-state" data-status="${status}" data-final="${final ? 'true' : 'false'}">
<dl class="submission-facts">
  <div><dt>${t('gate.player')}</dt><dd id="submission-player">${s.player.name}${s.player.locked ? html` <span class="badge locked" title="${t('gate.nameLocked')}">${t('gate.locked')}</span>` : ''}</dd></div>
  <div><dt>${t('gate.game')}</dt><dd>${s.game}</dd></div>
  <div><dt>${t('gate.version')}</dt><dd>${s.version}</dd></div>
  <div><dt>${t('gate.file')}</dt><dd class="mono">${s.filename} <span class="muted">(${formatBytes(s.sizeBytes)})</span></dd></div>
  <div><dt>${t('gate.submitted')}</dt><dd>${formatTime(s.createdAt)}</dd></div>
  <div><dt>${t('gate.status')}</dt><dd>${statusBadge(s.status, 'submission-status')}</dd></div>
</dl>
<h2 id="gate-title">${t('gate.title', GATE_OPPONENT)}</h2>
<ol id="gate-timeline" class="gate-timeline" aria-labelledby="gate-title">
${steps}
</ol>
<section id="verdict" class="verdict ${status}" data-status="${final ? status : 'pending'}" aria-labelledby="verdict-title">
<h2 id="verdict-title">${t('gate.verdict')}</h2>
${verdict}
</section>
</div>`;
}

/** The lines around a compile error, the error's line marked. */
async function sourceExcerpt(db: Db, id: number, line: number): Promise<HtmlValue> {
  const row = await submissionSource(db, id);
  const lines = row?.source.split('\n') ?? [];
  if (line < 1 || line > lines.length) return '';
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const out: Html[] = [];
  for (let n = from; n <= to; n++) {
    const text = lines[n - 1]!.slice(0, 200);
    out.push(n === line ? html`<mark><span class="ln">${n}</span>${text}</mark>\n` : html`<span class="ln">${n}</span>${text}\n`);
  }
  return html`<figure class="source-excerpt"><figcaption>${t('gate.line', line)}</figcaption><pre id="verdict-source"><code>${out}</code></pre></figure>`;
}

export default async function submissionPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get('/:id', { config: { access: 'owner' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    const s = await ownSubmission(db, me, request.params.id);
    const status = statusOut(s.status);
    const final = FINAL_STATUSES.has(status);
    const body = html`<h1>${s.player.name} <span class="muted">v${s.version}</span></h1>
${s.disabledAt ? html`<p class="notice bad" id="submission-disabled">${t('subs.disabled')}${when(s.disabledAt)}${t('subs.disabledTail')}</p>` : ''}
<div id="gate-live" data-submission-id="${s.id}" data-final="${final ? 'true' : 'false'}">
${await renderTimeline(app.deps, s)}
</div>
<div id="gate-announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
<p id="gate-refresh"${final ? html` hidden` : ''}><a href="/submissions/${s.id}" id="gate-refresh-link">${t('subs.refresh')}</a> <span class="muted">${t('subs.refreshHint')}</span></p>
${
  me.isAdmin
    ? html`<form method="post" action="/admin/actions/submission" class="admin-box" id="admin-submission"><input type="hidden" name="id" value="${s.id}"><input type="hidden" name="back" value="/submissions/${s.id}">
<p><strong>${t('subs.admin')}</strong> ${t('subs.owner', s.user.username)}: <button type="submit" name="action" value="disable" class="secondary">${t('subs.disable')}</button> <button type="submit" name="action" value="enable" class="secondary">${t('subs.enable')}</button> <button type="submit" name="action" value="rejudge" class="secondary">${t('subs.rejudge')}</button></p></form>`
    : ''
}
<p class="submission-links"><a href="/submissions/${s.id}/source" id="source-link">${t('subs.source')}</a> · <a href="/submissions/${s.id}/source?download=1" download="${s.filename}" id="source-download">${t('subs.download')}</a> · <a href="/submissions">${t('nav.mySubmissions')}</a> · <a href="/submit?game=${s.game}">${t('subs.newVersion')}</a></p>`;
    return sendPage(reply, {
      title: `${s.player.name} v${s.version}`,
      user: request.user,
      nav: '/submissions',
      body,
      scripts: final ? [] : ['gate-live'],
      // Without JavaScript the page reloads itself until the verdict; with it, gate-live follows the events.
      head: final ? '' : html`<noscript><meta http-equiv="refresh" content="5"></noscript>`,
    });
  });

  app.get('/:id/timeline', { config: { access: 'owner' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply, `/submissions/${request.params.id}`);
    if (!me) return reply;
    const s = await ownSubmission(db, me, request.params.id);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send((await renderTimeline(app.deps, s)).value);
  });

  app.get('/:id/source', { config: { access: 'owner' }, schema: { params: idParams } }, async (request, reply) => {
    const me = pageUser(request, reply);
    if (!me) return reply;
    const s = await ownSubmission(db, me, request.params.id);
    const row = await submissionSource(db, s.id);
    if (!row) throw notFound(t('subs.none', s.id));
    return sendSource(reply, s.filename, row.source, fields(request.query).download ? 'attachment' : 'inline');
  });

  app.get(
    '',
    {
      config: { access: 'user' },
      schema: {
        querystring: {
          type: 'object',
          properties: { game: { type: 'string', maxLength: 64 }, page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 } },
        },
      },
    },
    async (request, reply) => {
      const me = pageUser(request, reply);
      if (!me) return reply;
      const games = await loadGames();
      const game = request.query.game && games.has(request.query.game) ? request.query.game : '';
      const pageNo = request.query.page ?? 1;
      // Names ordered by their newest submission, then a page of names with their versions.
      const { pages, players: ordered } = await userSubmissionsByName(db, { userId: me.id, game, page: pageNo, perPage: PAGE_NAMES, versions: VERSIONS_SHOWN });

      const query = (p: number) => `/submissions?${new URLSearchParams({ ...(game ? { game } : {}), ...(p > 1 ? { page: String(p) } : {}) }).toString()}`;
      const groups = ordered.map(
        (
          p,
        ) => html`<section class="player-group" id="player-${p.id}" data-player="${p.name}" data-locked="${p.locked ? 'true' : 'false'}" aria-labelledby="player-${p.id}-title">
  <h2 id="player-${p.id}-title">${p.name} ${p.locked ? html`<span class="badge locked">${t('gate.locked')}</span>` : ''} <span class="muted game-id">${games.get(p.game)?.title ?? p.game}</span></h2>
  ${p.locked ? html`<p class="hint">${t('subs.lockedHint')}</p>` : ''}
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">${t('gate.version')}</th><th scope="col">${t('gate.status')}</th><th scope="col">${t('gate.submitted')}</th><th scope="col">${t('gate.file')}</th><th scope="col">${t('subs.reason')}</th></tr></thead>
    <tbody>${p.submissions.map(
      (v) => html`<tr id="submission-${v.id}">
      <td><a href="/submissions/${v.id}">v${v.version}</a>${p.qualifiedSubmissionId === v.id ? html` <span class="muted">${t('subs.qualifiedNote')}</span>` : ''}</td>
      <td>${statusBadge(v.status)}</td>
      <td>${formatTime(v.createdAt)}</td>
      <td><a href="/submissions/${v.id}/source" class="mono">${v.filename}</a></td>
      <td class="reason">${shorten(localizeReason(v.reason, v.reasonDetail, v.reasonLine) ?? '')}</td>
    </tr>`,
    )}</tbody>
  </table></div>
  ${p._count.submissions > VERSIONS_SHOWN ? html`<p class="muted">${t('subs.newest', VERSIONS_SHOWN, p._count.submissions)}</p>` : ''}
</section>`,
      );
      const gameOptions = [{ value: '', label: t('subs.allGames') }, ...[...games.values()].map((g) => ({ value: g.id, label: g.title }))];
      const body = html`<h1>${t('nav.mySubmissions')}</h1>
<form method="get" action="/submissions" class="filters" id="submissions-filter">
  ${select({ name: 'game', label: t('gate.game'), options: gameOptions, value: game })}
  <div><button type="submit">${t('subs.show')}</button></div>
</form>
${
  ordered.length === 0
    ? html`<p id="no-submissions">${t('subs.noneYet', game ? (games.get(game)?.title ?? game) : '')} <a href="/submit${game ? `?game=${game}` : ''}">${t('subs.submitBot')}</a>.</p>`
    : html`<div id="submissions-list">${groups}</div>`
}
${
  pages > 1
    ? html`<nav class="pager" aria-label="${t('subs.pages')}">
  ${pageNo > 1 ? html`<a href="${query(pageNo - 1)}" rel="prev">${t('subs.newer')}</a>` : ''}
  <span>${t('matches.pageOf', pageNo, pages)}</span>
  ${pageNo < pages ? html`<a href="${query(pageNo + 1)}" rel="next">${t('subs.older')}</a>` : ''}
</nav>`
    : ''
}`;
      return sendPage(reply, { title: t('nav.mySubmissions'), user: request.user, nav: '/submissions', body });
    },
  );
}
