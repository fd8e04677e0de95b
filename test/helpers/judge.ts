// The judge as the tests run it: a fresh Postgres database, a fresh Redis
// prefix, the API (in process, through inject), the recorder (in process),
// and real worker processes.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import type { JudgeQueues } from '../../src/queue/index.ts';
import { startRecorder, type Recorder } from '../../src/jobs/recorder/index.ts';
import type { GateOptions } from '../../src/domain/gate.ts';
import { buildApp } from '../../src/http/app.ts';
import { freshDatabase } from './db.ts';
import { freshQueues, spawnWorker, waitFor, type SpawnWorkerOptions, type WorkerProcess } from './queue.ts';

export const MORIA_BOTS = fileURLToPath(new URL('../../src/games/moria/bots/', import.meta.url));

/** A built-in's source under another player name. */
/** Test players that are no copy of a shipped one (test/fixtures/bots/moria/): Walker surely beats three Nulls. */
export const MORIA_TEST_BOTS = fileURLToPath(new URL('../fixtures/bots/moria/', import.meta.url));

/**
 * A Moria bot's source under another PLAYER_NAME: a built-in (Null, Demo, Dummy) or a test player (Walker). Upload
 * a test player where the bot must play well: a copy of a shipped one is refused at upload (copies-builtin).
 */
export function botAs(builtin: string, name: string, edit: (source: string) => string = (s) => s): string {
  const source = readFileSync((existsSync(MORIA_TEST_BOTS + builtin + '.ts') ? MORIA_TEST_BOTS : MORIA_BOTS) + builtin + '.ts', 'utf8');
  return edit(source.replace(/export const PLAYER_NAME = ['"][^'"]*['"]/, `export const PLAYER_NAME = '${name}'`));
}

/** Short gate matches keep the tests quick; the rules are the same. */
export const TEST_GATE_CONFIG = { nb_rounds: 40 };

export interface TestJudge {
  db: Db;
  queues: JudgeQueues;
  prefix: string;
  redisUrl: string;
  app: FastifyInstance;
  workers: WorkerProcess[];
  recorder: Recorder | null;
  addWorker(options?: Partial<SpawnWorkerOptions>): Promise<WorkerProcess>;
  startRecorder(gate?: GateOptions): Promise<void>;
  stopRecorder(): Promise<void>;
  /** Registers a user and returns a bearer token. */
  user(username: string): Promise<string>;
  submit(token: string, source: string, game?: string): Promise<{ statusCode: number; body: Record<string, any> }>;
  /** Polls the API until the submission has a verdict. */
  verdict(id: number, timeoutMs?: number): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export async function startTestJudge(options: { gate?: GateOptions; workers?: number; concurrency?: number; recorder?: boolean } = {}): Promise<TestJudge> {
  const database = await freshDatabase();
  const fresh = await freshQueues();
  const config = loadConfig({ QUEUE_PREFIX: fresh.prefix, REDIS_URL: fresh.redisUrl, LOG_LEVEL: 'silent', RATE_LIMIT_SUBMIT: '1000' });
  const app = await buildApp({ config, db: database.db, queues: fresh.queues, logger: false });
  await app.ready();
  const judge: TestJudge = {
    db: database.db,
    queues: fresh.queues,
    prefix: fresh.prefix,
    redisUrl: fresh.redisUrl,
    app,
    workers: [],
    recorder: null,
    async addWorker(o = {}) {
      const w = await spawnWorker({ redisUrl: fresh.redisUrl, prefix: fresh.prefix, concurrency: options.concurrency ?? 4, ...o });
      judge.workers.push(w);
      return w;
    },
    async startRecorder(gate = options.gate) {
      await judge.stopRecorder();
      judge.recorder = await startRecorder({ db: database.db, queues: fresh.queues, ...(gate ? { gate } : {}) });
    },
    async stopRecorder() {
      await judge.recorder?.close();
      judge.recorder = null;
    },
    async user(username) {
      const password = 'password ' + username;
      const reg = await app.inject({ method: 'POST', url: '/api/users', payload: { username, password } });
      if (reg.statusCode !== 201) throw new Error(`register ${username}: ${reg.statusCode} ${reg.body}`);
      // Through the new session, not the password again: a scrypt less per user (test/helpers/app.ts says why).
      const session = reg.cookies.find((c) => c.name === 'arbiter_session')!;
      const tok = await app.inject({ method: 'POST', url: '/api/tokens', cookies: { arbiter_session: session.value } });
      if (tok.statusCode >= 300) throw new Error(`token ${username}: ${tok.statusCode} ${tok.body}`);
      return tok.json().token as string;
    },
    async submit(token, source, game = 'moria') {
      const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { authorization: `Bearer ${token}` }, payload: { game, source } });
      return { statusCode: res.statusCode, body: res.json() };
    },
    async verdict(id, timeoutMs = 120_000) {
      return waitFor(
        `a verdict for submission ${id}`,
        async () => {
          const s = (await app.inject({ url: `/api/submissions/${id}` })).json();
          return s.status === 'qualified' || s.status === 'rejected' ? s : null;
        },
        timeoutMs,
        200,
      );
    },
    async close() {
      await judge.stopRecorder();
      await Promise.all(judge.workers.map((w) => w.stop()));
      await app.close();
      await fresh.cleanup();
      await database.drop();
    },
  };
  for (let i = 0; i < (options.workers ?? 1); i++) await judge.addWorker();
  if (options.recorder !== false) await judge.startRecorder();
  return judge;
}
