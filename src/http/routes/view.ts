// /view: the viewer alone, for a replay URL (?replay=) or a file from disk
// (picked or dropped on the page; read in the browser, never uploaded).
import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { t, th } from '../i18n/index.ts';

export default async function viewPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get('/view', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
    sendPage(reply, {
      title: t('view.title'),
      user: request.user,
      nav: '/view',
      scripts: ['viewer'],
      head: html`<link rel="stylesheet" href="/assets/viewer.css">`,
      body: html`<h1>${t('view.title')}</h1>
<div class="viewer-open">
  <label for="replay-file">${t('view.open')}</label>
  <input type="file" id="replay-file" accept=".json,.gz,application/json,application/gzip" data-viewer-file aria-describedby="replay-file-hint">
  <p class="hint" id="replay-file-hint">${th('view.openHint_html')}</p>
</div>
<div class="viewer" data-viewer></div>
<noscript><p class="notice bad">${t('view.needsJs')}</p></noscript>`,
    }),
  );
}
