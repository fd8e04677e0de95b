// Shared setup for the API tests: a fresh migrated Postgres database per test
// file and the app on it (app.inject, no network). Helpers to register users
// and insert rows the judge would write.

import { after } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { freshDatabase, type FreshDatabase } from './db.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';
import type { Db } from '../../src/db/client.ts';

export interface TestApi {
  app: FastifyInstance;
  db: Db;
  fresh: FreshDatabase;
  config: Config;
}

export async function startTestApi(env: Record<string, string> = {}, opts: Partial<AppOptions> = {}): Promise<TestApi> {
  const fresh = await freshDatabase();
  const config = loadConfig({ RATE_LIMIT_SUBMIT: '1000', ...env });
  const app = await buildApp({ config, db: fresh.db, queues: null, logger: false, ...opts });
  await app.ready();
  after(async () => {
    await app.close();
    await fresh.drop();
  });
  return { app, db: fresh.db, fresh, config };
}

export interface TestUser {
  id: number;
  username: string;
  token: string;
  cookie: string;
  auth: { authorization: string };
}

let counter = 0;
export async function registerUser(app: FastifyInstance, username = `user${++counter}`, password = 'correct horse'): Promise<TestUser> {
  const res = await app.inject({ method: 'POST', url: '/api/users', payload: { username, password } });
  if (res.statusCode !== 201) throw new Error(`register ${username}: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'arbiter_session')!;
  // The token through the new session, as the account page makes one: a password check is a scrypt (a tenth
  // of a second of CPU) and the suite registers hundreds of users; test/http/auth tests the token by password.
  const tok = await app.inject({ method: 'POST', url: '/api/tokens', cookies: { arbiter_session: cookie.value } });
  if (tok.statusCode !== 201) throw new Error(`token ${username}: ${tok.statusCode} ${tok.body}`);
  const token = tok.json().token as string;
  return { id: res.json().id, username, token, cookie: `arbiter_session=${cookie.value}`, auth: { authorization: `Bearer ${token}` } };
}

export function bot(name: string, game = 'moria', body = '') {
  return `/// <reference path="../player.d.ts" />
export const GAME = '${game}';
export const PLAYER_NAME = '${name}';
export default class extends Player {
  play(): void {${body}}
}
`;
}

/** A multipart/form-data body by hand (what a browser form or curl -F sends). */
export function multipart(fields: Record<string, string>, file?: { name?: string; filename: string; content: string | Buffer }) {
  const boundary = '----arbiter' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.name ?? 'file'}"; filename="${file.filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function submitJson(app: FastifyInstance, user: TestUser, source: string, game = 'moria'): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/submissions', headers: user.auth, payload: { game, source } });
}

/** Inserts a finished match as the recorder would. */
export async function insertMatch(
  db: Db,
  opts: {
    game?: string;
    kind?: 'gate' | 'ranked' | 'tournament' | 'challenge';
    submissionId?: number | null;
    seats: { name: string; playerId?: number | null; submissionId?: number | null; builtinName?: string | null; score: number; rank: number; log?: string }[];
    replay?: Buffer;
  },
) {
  return db.match.create({
    data: {
      game: opts.game ?? 'moria',
      seed: 42,
      kind: opts.kind ?? 'ranked',
      status: 'done',
      submissionId: opts.submissionId ?? null,
      gateStep: opts.kind === 'gate' ? 'dummy' : null,
      finishedAt: new Date(),
      durationMs: 1234,
      winnerSeat: 0,
      participants: {
        create: opts.seats.map((s, seat) => ({
          seat,
          name: s.name,
          playerId: s.playerId ?? null,
          submissionId: s.submissionId ?? null,
          builtinName: s.builtinName ?? null,
          score: s.score,
          rank: s.rank,
          cpuMs: 12.5,
          log: s.log ?? null,
        })),
      },
      ...(opts.replay ? { replay: { create: { data: new Uint8Array(opts.replay), sizeBytes: opts.replay.length } } } : {}),
    },
  });
}
