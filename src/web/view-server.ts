// A small server for one replay file, without database or queues: the
// viewer's page and assets plus the file at /replay. `arbiter view` and the
// screenshot script use it.

import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import assetRoutes from './assets.ts';
import viewPages from './pages/view.ts';
import { errorHandler } from '../server/errors.ts';

export interface ViewServer {
  app: FastifyInstance;
  /** The viewer's page for the file. */
  url: string;
  close(): Promise<void>;
}

export async function startViewServer(opts: { file: string; port?: number; host?: string }): Promise<ViewServer> {
  const data = readFileSync(opts.file);
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.decorateRequest('user', null);
  await app.register(assetRoutes);
  await app.register(viewPages);
  app.get('/replay', async (_request, reply) => reply.type('application/octet-stream').header('cache-control', 'no-store').send(data));
  const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  return { app, url: `${address}/view?replay=/replay`, close: () => app.close() };
}
