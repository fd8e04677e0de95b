// Two API replicas sharing one Redis (and one database) hold one limit, not
// two: the upload rate limit, the cap on live-status streams per address and
// the play page's compile budgets (at once, CPU seconds per hour) count across
// both. The holds of a replica that dies lapse by themselves; a live one's are
// renewed for as long as it holds them.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openJudgeQueues } from '../../src/queue/index.ts';
import { RedisLimits } from '../../src/queue/shared-limits.ts';
import { beginPlayCompile, playCompileBounds, type PlayTurn } from '../../src/http/play-compile.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, TEST_REDIS_URL } from '../helpers/queue.ts';
import { bot, registerUser, submitJson } from '../helpers/app.ts';

const fresh = await freshDatabase();
const fq = await freshQueues();
const env = { RATE_LIMIT_SUBMIT: '3', SSE_MAX_PER_IP: '2', PLAY_COMPILES_RUNNING_PER_IP: '2', PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP: '60' };
const config = loadConfig(env);
/** Each replica with its own Redis connections, as two processes would have. */
async function replica() {
  const queues = openJudgeQueues({ redisUrl: fq.redisUrl, prefix: fq.prefix });
  const app = await buildApp({ config, db: fresh.db, queues, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, queues, url };
}
const a = await replica();
const b = await replica();
after(async () => {
  for (const r of [a, b]) {
    await r.app.close();
    await r.queues.close();
  }
  await fq.cleanup();
  await fresh.drop();
});

test('the upload rate limit counts across both replicas: RATE_LIMIT_SUBMIT in all, then 429 from either', async () => {
  const ana = await registerUser(a.app);
  const codes: number[] = [];
  for (const r of [a, b, a, b, a]) {
    codes.push((await r.app.inject({ method: 'POST', url: '/api/submissions', headers: ana.auth, payload: { game: 'chess', source: 'x' } })).statusCode);
  }
  // Three bad uploads (400) in all, whichever replica took them; then both refuse.
  assert.deepEqual(codes, [400, 400, 400, 429, 429]);
  const bob = await registerUser(b.app);
  const other = await a.app.inject({ method: 'POST', url: '/api/submissions', headers: bob.auth, payload: { game: 'chess', source: 'x' } });
  assert.equal(other.statusCode, 400, 'counted per user');
});

/** Opens a live stream: its status, what it sent so far, and the request to close it by. */
function openStream(url: string): Promise<{ status: number; body: () => string; request: ClientRequest }> {
  return new Promise((resolve, reject) => {
    let body = '';
    const request = httpRequest(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      const answer = { status: res.statusCode ?? 0, body: () => body, request };
      // A stream is answered by its head; a refusal once its body is in.
      if (res.statusCode === 200) resolve(answer);
      else res.on('end', () => resolve(answer));
    });
    request.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    request.end();
  });
}

test('live streams per address count across both replicas: SSE_MAX_PER_IP in all; one closed frees a place on the other', async () => {
  const ana = await registerUser(a.app);
  const id = (await submitJson(a.app, ana, bot('Nori'))).json().id as number;
  const path = `/api/submissions/${id}/events`;
  const first = await openStream(`${a.url}${path}`);
  const second = await openStream(`${b.url}${path}`);
  assert.deepEqual([first.status, second.status], [200, 200]);
  for (const r of [a, b]) {
    const third = await openStream(`${r.url}${path}`);
    assert.equal(third.status, 429, 'the cap holds on each replica');
    assert.match(third.body(), /too-many-streams/);
  }
  first.request.destroy();
  // The replica that served it lets its place go as the socket closes.
  const deadline = Date.now() + 5000;
  let again = await openStream(`${b.url}${path}`);
  while (again.status !== 200 && Date.now() < deadline) {
    await new Promise((ok) => setTimeout(ok, 100));
    again = await openStream(`${b.url}${path}`);
  }
  assert.equal(again.status, 200, 'a place freed on one replica is free on the other');
  second.request.destroy();
  again.request.destroy();
});

test("the play page's address budget counts across both replicas: compiles at once, then CPU seconds per hour", async () => {
  const flooder = '10.66.0.1';
  const users = [await registerUser(a.app), await registerUser(a.app), await registerUser(a.app)];
  const compile = (app: typeof a.app, auth: { authorization: string }) =>
    app.inject({ method: 'POST', url: '/api/play/compile', remoteAddress: flooder, headers: auth, payload: { filename: 'Loop.ts', source: bot('Loop') } });
  // Two compiles from the address under way, one on each replica (held here: C++ compiles of seconds).
  const running: PlayTurn[] = [];
  for (const r of [a, b]) {
    const turn = await beginPlayCompile(r.app.deps.limits, { key: `ip:held-${running.length}`, ip: flooder }, playCompileBounds(config));
    assert.ok(!('code' in turn), JSON.stringify(turn));
    running.push(turn);
  }
  for (const r of [a, b]) {
    const held = await compile(r.app, users[0]!.auth);
    assert.equal(held.statusCode, 429, held.body);
    assert.equal(held.json().code, 'play-compile-address-busy');
  }
  // They end having used the address's hour between them: refused on both replicas.
  await running[0]!.done(31_000);
  await running[1]!.done(29_000);
  for (const r of [b, a]) {
    const spent = await compile(r.app, users[1]!.auth);
    assert.equal(spent.statusCode, 429, spent.body);
    assert.equal(spent.json().code, 'play-compile-address-budget');
  }
  // Another address is not held.
  const other = await b.app.inject({
    method: 'POST',
    url: '/api/play/compile',
    remoteAddress: '10.66.0.2',
    headers: users[2]!.auth,
    payload: { filename: 'Loop.ts', source: bot('Loop') },
  });
  assert.equal(other.statusCode, 200, other.body);
});

test("a client's one compile at a time holds across replicas", async () => {
  const bounds = playCompileBounds(config);
  const turn = await beginPlayCompile(a.app.deps.limits, { key: 'user:4242', ip: '10.66.1.1' }, bounds);
  assert.ok(!('code' in turn));
  const second = await beginPlayCompile(b.app.deps.limits, { key: 'user:4242', ip: '10.66.1.2' }, bounds);
  assert.equal((second as { code: string }).code, 'play-compile-running');
  await turn.done(0);
  const third = await beginPlayCompile(b.app.deps.limits, { key: 'user:4242', ip: '10.66.1.2' }, bounds);
  assert.ok(!('code' in third), 'free again once the first ended');
  await third.done(0);
});

test("holds: a dead replica's lapse after the hold's time, a live one's are renewed past it", async () => {
  const prefix = `${fq.prefix}-holds`;
  const redisA = new Redis(TEST_REDIS_URL);
  const redisB = new Redis(TEST_REDIS_URL);
  const ttl = 600;
  const dying = new RedisLimits(redisA, prefix, undefined, ttl);
  const living = new RedisLimits(redisB, prefix, undefined, ttl);
  try {
    const dead = await dying.hold({ key: 'k', max: 2 });
    const kept = await living.hold({ key: 'k', max: 2 });
    assert.ok(dead.ok && kept.ok);
    assert.deepEqual(await living.hold({ key: 'k', max: 2 }), { ok: false, reason: 'busy', held: 2 });
    // The first replica dies: nothing renews its hold any more.
    await dying.close();
    redisA.disconnect();
    await new Promise((ok) => setTimeout(ok, ttl * 2.5));
    const after = await living.hold({ key: 'k', max: 2 });
    assert.ok(after.ok, "the dead replica's hold lapsed; the living one's is still counted");
    assert.equal(after.held, 2);
    await after.hold.release();
    await kept.hold.release();
    const empty = await living.hold({ key: 'k', max: 1 });
    assert.ok(empty.ok && empty.held === 1, 'released holds are gone at once');
    await empty.hold.release();
  } finally {
    await living.close();
    redisB.disconnect();
  }
});
