// /view: the viewer alone, for a replay URL (?replay=) or a file from disk.
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
      body: html`<h1>Replay viewer</h1>
<div class="viewer" data-viewer></div>`,
    }),
  );
}
