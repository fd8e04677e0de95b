// /queue: matches waiting and running by kind, the workers seen, recent
// throughput, gate latency and the expected wait for a new submission (the
// same figures as GET /api/queue). Without Redis it says so and shows what
// the database knows.

import type { FastifyInstance } from 'fastify';
import { queueOverview } from '../../domain/queue-overview.ts';
import { html } from '../html.ts';
import { sendPage } from '../layout.ts';

const secs = (s: number | null) => (s === null ? '—' : s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

export default async function queuePages(app: FastifyInstance) {
  app.get('/queue', { schema: { hide: true } }, async (request, reply) => {
    const q = await queueOverview(app.deps);
    const max = Math.max(1, ...q.throughput.perMinute);
    return sendPage(reply, {
      title: 'Queue',
      user: request.user,
      nav: '/queue',
      body: html`<h1>Queue</h1>
${q.redis.ok ? '' : html`<p class="notice bad" id="queue-unavailable" role="status">The match queue cannot be reached from this server (${q.redis.error ?? 'no Redis'}), so workers and queued jobs are unknown; the figures below come from the database.</p>`}
<section aria-labelledby="expected-h" class="card" id="expected-wait">
<h2 id="expected-h">Expected wait for a new submission</h2>
<p class="big" id="expected-wait-value">${q.expectedWait.seconds === null ? 'No estimate' : html`about ${secs(q.expectedWait.seconds)}`}</p>
<p>${q.expectedWait.explanation}</p>
</section>
<section aria-labelledby="matches-h">
<h2 id="matches-h">Matches</h2>
<p><strong id="queue-waiting">${q.waiting}</strong> waiting and <strong id="queue-running">${q.running}</strong> being played.</p>
<div class="table-wrap"><table id="queue-kinds">
<thead><tr><th scope="col">Kind</th><th scope="col" class="num">Waiting</th><th scope="col" class="num">Running</th></tr></thead>
<tbody>${q.matches.map((m) => html`<tr data-kind="${m.kind}"><th scope="row">${m.kind}</th><td class="num">${m.waiting}</td><td class="num">${m.running}</td></tr>`)}</tbody>
</table></div>
${q.jobs ? html`<p class="hint">In the queue itself: ${q.jobs.waiting + q.jobs.prioritized} job${q.jobs.waiting + q.jobs.prioritized === 1 ? '' : 's'} waiting (compile checks included), ${q.jobs.active} active, ${q.jobs.delayed} waiting to retry, ${q.jobs.failed} failed.</p>` : ''}
</section>
<section aria-labelledby="workers-h">
<h2 id="workers-h">Workers</h2>
${q.workers.length === 0
  ? html`<p id="queue-workers" class="muted">${q.redis.ok ? 'No worker is up right now: matches wait until one starts.' : 'Unknown (no queue).'}</p>`
  : html`<p>${q.workers.length} worker pool${q.workers.length === 1 ? '' : 's'} seen, ${q.workerSlots} match runner${q.workerSlots === 1 ? '' : 's'} in all.</p>
<div class="table-wrap"><table id="queue-workers"><thead><tr><th scope="col">Worker</th><th scope="col">Host</th><th scope="col" class="num">Runners</th></tr></thead>
<tbody>${q.workers.map((w) => html`<tr><td>${w.name}</td><td>${w.host}</td><td class="num">${w.concurrency}</td></tr>`)}</tbody></table></div>`}
</section>
<section aria-labelledby="throughput-h">
<h2 id="throughput-h">Throughput</h2>
<p id="queue-throughput">${q.throughput.average} match${q.throughput.average === 1 ? '' : 'es'} finished per minute over the last ${q.throughput.minutes} minutes${q.matchSeconds !== null ? html`; a match takes about ${secs(q.matchSeconds)} (median of the last 100)` : ''}.</p>
<svg class="bars" id="queue-throughput-chart" viewBox="0 0 ${q.throughput.minutes * 24} 64" width="100%" role="img" aria-labelledby="throughput-title">
<title id="throughput-title">Matches finished per minute over the last ${q.throughput.minutes} minutes, oldest first: ${q.throughput.perMinute.join(', ')}</title>
${q.throughput.perMinute.map((n, i) => {
        const h = Math.round((48 * n) / max);
        return html`<rect x="${i * 24 + 3}" y="${50 - h}" width="18" height="${h}"></rect><text x="${i * 24 + 12}" y="62" text-anchor="middle">${n}</text>`;
      })}
</svg>
</section>
<section aria-labelledby="gate-h">
<h2 id="gate-h">Gate latency</h2>
${q.gate.samples === 0
  ? html`<p id="queue-gate" class="muted">No submission has had its verdict yet.</p>`
  : html`<dl class="facts" id="queue-gate">
  <dt>Submission to verdict</dt><dd>median ${secs(q.gate.latencyP50)}, 90% within ${secs(q.gate.latencyP90)} (last ${q.gate.samples} verdicts)</dd>
  <dt>The gate's own work</dt><dd>median ${secs(q.gate.workSeconds)} from its first job to the verdict</dd>
  <dt>Gate matches queued</dt><dd>${q.gate.ahead}</dd>
</dl>`}
<p class="hint">The same figures as JSON: <a href="/api/queue">/api/queue</a>.</p>
</section>`,
    });
  });
}
