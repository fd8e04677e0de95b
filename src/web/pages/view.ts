// /view: the viewer alone, for a replay URL (?replay=) or a file from disk
// (picked or dropped on the page; read in the browser, never uploaded).
import type { FastifyInstance } from 'fastify';
import { html } from '../html.ts';
import { sendPage } from '../layout.ts';

export default async function viewPages(app: FastifyInstance) {
  app.get('/view', { schema: { hide: true } }, async (request, reply) =>
    sendPage(reply, {
      title: 'Replay viewer',
      user: request.user,
      nav: '/view',
      scripts: ['viewer'],
      head: html`<link rel="stylesheet" href="/assets/viewer.css">`,
      body: html`<h1>Replay viewer</h1>
<div class="viewer-open">
  <label for="replay-file">Open a replay file</label>
  <input type="file" id="replay-file" accept=".json,.gz,application/json,application/gzip" data-viewer-file aria-describedby="replay-file-hint">
  <p class="hint" id="replay-file-hint">A <code>.json</code> or <code>.json.gz</code> replay (from <code>arbiter play -o</code> or a match page's download), or drop one anywhere on this page. It stays on your computer.</p>
</div>
<div class="viewer" data-viewer></div>
<noscript><p class="notice bad">The viewer needs JavaScript.</p></noscript>`,
    }),
  );
}
