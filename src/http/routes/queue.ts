// /queue: matches waiting and running by kind, the workers seen, recent
// throughput, gate latency and the expected wait for a new submission (the
// same figures as GET /api/queue). Without Redis it says so and shows what
// the database knows.

import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { QUEUE_SNAPSHOT_MS, queueOverview } from '../../domain/queue-overview.ts';
import { html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { t, th, word } from '../i18n/index.ts';
import { waitExplanation } from '../i18n/reasons.ts';

const secs = (s: number | null) => (s === null ? '—' : s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

export default async function queuePages(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get('/queue', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const q = await queueOverview(app.deps, Date.now(), { maxAgeMs: QUEUE_SNAPSHOT_MS });
    const max = Math.max(1, ...q.throughput.perMinute);
    return sendPage(reply, {
      title: t('queue.title'),
      user: request.user,
      nav: '/queue',
      body: html`<h1>${t('queue.title')}</h1>
${q.redis.ok ? '' : html`<p class="notice bad" id="queue-unavailable" role="status">${t('queue.unavailable', q.redis.error ?? 'no Redis')}</p>`}
<section aria-labelledby="expected-h" class="card" id="expected-wait">
<h2 id="expected-h">${t('queue.expected')}</h2>
<p class="big" id="expected-wait-value">${q.expectedWait.seconds === null ? t('queue.noEstimate') : t('queue.about', secs(q.expectedWait.seconds))}</p>
<p>${waitExplanation(q.expectedWait)}</p>
</section>
<section aria-labelledby="matches-h">
<h2 id="matches-h">${t('queue.matches')}</h2>
<p>${th('queue.waitingRunning_html', q.waiting, q.running)}</p>
<div class="table-wrap"><table id="queue-kinds">
<thead><tr><th scope="col">${t('queue.kind')}</th><th scope="col" class="num">${t('queue.waiting')}</th><th scope="col" class="num">${t('queue.running')}</th></tr></thead>
<tbody>${q.matches.map((m) => html`<tr data-kind="${m.kind}"><th scope="row">${word(m.kind)}</th><td class="num">${m.waiting}</td><td class="num">${m.running}</td></tr>`)}</tbody>
</table></div>
${q.jobs ? html`<p class="hint">${t('queue.jobs', q.jobs.waiting + q.jobs.prioritized, q.jobs.active, q.jobs.delayed, q.jobs.failed)}</p>` : ''}
</section>
<section aria-labelledby="workers-h">
<h2 id="workers-h">${t('queue.workers')}</h2>
${
  q.workers.length === 0
    ? html`<p id="queue-workers" class="muted">${q.redis.ok ? t('queue.noWorker') : t('queue.unknown')}</p>`
    : html`<p>${t('queue.pools', q.workers.length, q.workerSlots)}</p>
<div class="table-wrap"><table id="queue-workers"><thead><tr><th scope="col">${t('queue.worker')}</th><th scope="col">${t('queue.host')}</th><th scope="col" class="num">${t('queue.runners')}</th></tr></thead>
<tbody>${q.workers.map((w) => html`<tr><td>${w.name}</td><td>${w.host}</td><td class="num">${w.concurrency}</td></tr>`)}</tbody></table></div>`
}
</section>
<section aria-labelledby="throughput-h">
<h2 id="throughput-h">${t('queue.throughput')}</h2>
<p id="queue-throughput">${t('queue.perMinute', q.throughput.average, q.throughput.minutes)}${q.matchSeconds !== null ? t('queue.matchTakes', secs(q.matchSeconds)) : ''}.</p>
<svg class="bars" id="queue-throughput-chart" viewBox="0 0 ${q.throughput.minutes * 24} 64" width="100%" role="img" aria-labelledby="throughput-title">
<title id="throughput-title">${t('queue.chartTitle', q.throughput.minutes, q.throughput.perMinute.join(', '))}</title>
${q.throughput.perMinute.map((n, i) => {
  const h = Math.round((48 * n) / max);
  return html`<rect x="${i * 24 + 3}" y="${50 - h}" width="18" height="${h}"></rect><text x="${i * 24 + 12}" y="62" text-anchor="middle">${n}</text>`;
})}
</svg>
</section>
<section aria-labelledby="gate-h">
<h2 id="gate-h">${t('queue.gate')}</h2>
${
  q.gate.samples === 0
    ? html`<p id="queue-gate" class="muted">${t('queue.noVerdict')}</p>`
    : html`<dl class="facts" id="queue-gate">
  <dt>${t('queue.toVerdict')}</dt><dd>${t('queue.toVerdictValue', secs(q.gate.latencyP50), secs(q.gate.latencyP90), q.gate.samples)}</dd>
  <dt>${t('queue.gateWork')}</dt><dd>${t('queue.gateWorkValue', secs(q.gate.workSeconds))}</dd>
  <dt>${t('queue.gateQueued')}</dt><dd>${q.gate.ahead}</dd>
</dl>`
}
<p class="hint">${th('queue.json_html')}</p>
</section>`,
    });
  });
}
