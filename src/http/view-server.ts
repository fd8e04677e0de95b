// A small server for one replay file, without database or queues: the
// viewer's page and assets plus the file at /replay, and at / a start page
// naming the replay it serves with a link to watch it. `arbiter view` and the
// screenshot script use it.

import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { basename } from 'node:path';
import assetRoutes from './assets.ts';
import viewPages from './routes/view.ts';
import { errorHandler } from './errors.ts';
import { registerLanguage, t } from './i18n/index.ts';
import { decodeReplay } from '../match/replay-io.ts';
import { html } from './render/html.ts';
import { sendPage } from './render/layout.ts';

export interface ViewServer {
  app: FastifyInstance;
  /** The viewer's page for the file. */
  url: string;
  close(): Promise<void>;
}

export interface ViewServerOptions {
  file: string;
  /** The file's bytes when the caller already read them. */
  data?: Buffer;
  /** 0 (the default) = any free port. */
  port?: number;
  host?: string;
}

export async function startViewServer(opts: ViewServerOptions): Promise<ViewServer> {
  const data = opts.data ?? readFileSync(opts.file);
  const host = opts.host ?? '127.0.0.1';
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.decorateRequest('user', null);
  registerLanguage(app);
  await app.register(assetRoutes, { prefix: '/assets' });
  await app.register(viewPages);
  const replay = decodeReplay(data);
  const name = basename(opts.file);
  const watch = '/view?replay=/replay';
  app.get('/', async (request, reply) =>
    sendPage(reply, {
      title: t('viewServer.title'),
      user: request.user,
      nav: '/view',
      body: html`<h1>${t('viewServer.title')}</h1>
<p>${t('viewServer.intro')}</p>
<ul id="replays">
  <li><a href="${watch}">${name}</a>: ${t('viewServer.summary', replay.title, replay.seed, replay.rounds.length - 1, replay.players.map((p) => p.name).join(', '))}</li>
</ul>`,
    }),
  );
  app.get('/replay', async (_request, reply) => reply.type('application/octet-stream').header('cache-control', 'no-store').send(data));
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  // A wildcard address is not one a browser can open: point it at this machine.
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  return { app, url: `http://${shown}:${port}${watch}`, close: () => app.close() };
}
