// A client that disconnects in the middle of an upload (a proxy's timeout, a
// closed laptop, Ctrl-C in `arbiter submit`) leaves either nothing or exactly
// the submission it asked for, once: a body cut short stores nothing and
// claims no name; a body sent whole is stored once and its gate started once,
// whether or not the client stays for the answer; the client's retry with its
// Idempotency-Key, even while the first request is still being handled, is
// that same submission, not a second version.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { checkJobId } from '../../src/queue/index.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, waitFor } from '../helpers/queue.ts';
import { botAs } from '../helpers/judge.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function judgeApi() {
  const d = await freshDatabase();
  cleanups.push(() => d.drop());
  const fq = await freshQueues();
  cleanups.push(() => fq.cleanup());
  const config = loadConfig({ QUEUE_PREFIX: fq.prefix, REDIS_URL: fq.redisUrl, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: d.db, queues: fq.queues, logger: false });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const reg = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'leaver', password: 'password leaver' } });
  assert.equal(reg.statusCode, 201, reg.body);
  const tok = await app.inject({ method: 'POST', url: '/api/tokens', payload: { username: 'leaver', password: 'password leaver' } });
  assert.ok(tok.statusCode < 300, tok.body);
  return { db: d.db, queues: fq.queues, app, port, token: tok.json().token as string };
}

/** An upload's raw request: its head and JSON body, to send whole or in part over a socket of its own. */
function rawUpload(token: string, source: string, key?: string): { head: string; body: Buffer } {
  const body = Buffer.from(JSON.stringify({ game: 'moria', source }));
  const head =
    'POST /api/submissions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
    `authorization: Bearer ${token}\r\n${key ? `idempotency-key: ${key}\r\n` : ''}content-length: ${body.length}\r\n\r\n`;
  return { head, body };
}

/** Sends `bytes` of the request and closes the connection without reading any answer. */
async function sendAndLeave(port: number, bytes: Buffer): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  await new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  socket.destroy();
}

test('a body cut short stores nothing and claims no name', { timeout: 60_000 }, async () => {
  const { db, port, token, app } = await judgeApi();
  const { head, body } = rawUpload(token, botAs('Null', 'HalfSent'));
  await sendAndLeave(port, Buffer.concat([Buffer.from(head), body.subarray(0, body.length >> 1)]));
  // The server notices the closed socket and gives up on the request; nothing of it is stored, now or later.
  await sleep(1500);
  assert.equal(await db.submission.count(), 0);
  assert.equal(await db.playerName.count({ where: { nameLower: 'halfsent' } }), 0, 'no name claimed');
  // The name is free: the same student's whole upload takes it.
  const whole = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { authorization: `Bearer ${token}` },
    payload: { game: 'moria', source: botAs('Null', 'HalfSent') },
  });
  assert.equal(whole.statusCode, 202, whole.body);
  assert.equal(whole.json().version, 1);
});

test('a body sent whole is stored once with its gate started once, though the client left before the answer; its retry with the key is the same submission', {
  timeout: 60_000,
}, async () => {
  const { db, queues, port, token, app } = await judgeApi();
  const source = botAs('Null', 'LeftEarly');
  const { head, body } = rawUpload(token, source, 'left-early-1');
  await sendAndLeave(port, Buffer.concat([Buffer.from(head), body]));
  // The client retries at once with its key, while the first request may still be under way.
  const retry = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'left-early-1' },
    payload: { game: 'moria', source },
  });
  assert.equal(retry.statusCode, 202, retry.body);
  const row = await waitFor('the submission stored', async () => db.submission.findFirst({ where: { player: { nameLower: 'leftearly' } } }), 10_000);
  await sleep(1000);
  const rows = await db.submission.findMany();
  assert.equal(rows.length, 1, 'exactly one submission');
  assert.equal(rows[0]!.version, 1);
  assert.equal(retry.json().id, row.id, 'the retry is the submission the first request stored');
  // Its compile check is queued once (one job id per submission), whoever of the two started it.
  const job = await waitFor('the compile check queued', async () => queues.checks.getJob(checkJobId(row.id, row.createdAt)), 10_000);
  assert.equal(job.data.submissionId, String(row.id));
  const counts = await queues.checks.getJobCounts('waiting', 'prioritized', 'active');
  assert.equal((counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0), 1, 'one compile check');
});
