// Starts the API alone (`npm run api`) or as part of `npm start`: config,
// database (migrated at start), judge queues, fastify listening.

import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../config.ts';
import { createDb, migrate, closeDb, type Db } from '../db/client.ts';
import { openJudgeQueues, resolveRedis, type JudgeQueues } from '../queue/index.ts';
import { buildApp } from './app.ts';

export interface RunningApi {
  app: FastifyInstance;
  /** The address it listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  close(): Promise<void>;
}

export async function startApi(config: Config = loadConfig(), given: { db?: Db; queues?: JudgeQueues | null } = {}): Promise<RunningApi> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = given.db ?? (await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  if (!given.db) {
    cleanups.push(() => closeDb(db));
    await migrate(db, { log: (m) => console.log(m) });
  }
  let queues = given.queues;
  if (queues === undefined) {
    const redis = await resolveRedis({ redisUrl: config.redisUrl ?? undefined, dataDir: config.dataDir, log: (m) => console.log(m) });
    queues = openJudgeQueues({ redisUrl: redis.url, prefix: config.queuePrefix });
    const q = queues;
    cleanups.push(async () => {
      await q.close();
      await redis.stop();
    });
  }
  const app = await buildApp({ config, db, queues });
  const url = await app.listen({ port: config.port, host: config.host });
  return {
    app,
    url,
    async close() {
      await app.close();
      for (const c of cleanups.reverse()) await c();
    },
  };
}
