// The queue, honestly: an upload answers at once while Redis is down (the row
// waits for the sweep, a late queue write is harmless); an Idempotency-Key
// makes a retried upload return the same submission; gate jobs are served
// first come, first served, a whole gate before the next; the wait estimate
// counts all the gate work ahead from measured match run times; the recorder
// retries results with a capped backoff and /health reports its backlog; every
// Redis client logs a lost and a regained connection once, not per retry.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import type { LogFields } from '../../src/log.ts';
import {
  GATE_LOOKAHEAD_PRIORITY,
  GATE_PRIORITY_BAND,
  PRIORITY,
  RESULT_BACKOFF_CAP_MS,
  RESULT_JOB_OPTIONS,
  checkJobId,
  deletePrefix,
  gatePriority,
  openJudgeQueues,
  pingRedis,
  resultBackoffMs,
  workerKey,
  type JudgeQueues,
} from '../../src/queue/index.ts';
import { recordResult, startRecorder } from '../../src/jobs/recorder/index.ts';
import { startGate } from '../../src/domain/gate.ts';
import { createMatch, enqueueMatch, type SeatRef } from '../../src/domain/match-setup.ts';
import { buildApp } from '../../src/http/app.ts';
import { createEventHub } from '../../src/http/events.ts';
import { queueOverview } from '../../src/domain/queue-overview.ts';
import { startWorkerPool } from '../../src/jobs/worker/pool.ts';
import { freshDatabase, type FreshDatabase } from '../helpers/db.ts';
import { freshQueues, waitFor, type FreshQueues } from '../helpers/queue.ts';
import { botAs } from '../helpers/judge.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function database(): Promise<FreshDatabase> {
  const d = await freshDatabase();
  cleanups.push(() => d.drop());
  return d;
}

async function queues(): Promise<FreshQueues> {
  const q = await freshQueues();
  cleanups.push(() => q.cleanup());
  return q;
}

/** A port nothing listens on (yet). */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
}

/** A private redis-server on `port` (no persistence), to take down and bring back. */
async function redisServer(port: number): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
  const exited = once(child, 'exit');
  await waitFor(`redis-server on ${port}`, () => pingRedis('127.0.0.1', port, 200), 10_000, 50);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  cleanups.push(stop);
  return { stop };
}

async function user(db: Db, username: string) {
  return db.user.create({ data: { username, usernameLower: username.toLowerCase(), passwordHash: 'x' } });
}

async function tokenFor(app: Awaited<ReturnType<typeof buildApp>>, username: string): Promise<string> {
  const password = 'password ' + username;
  const reg = await app.inject({ method: 'POST', url: '/api/users', payload: { username, password } });
  assert.equal(reg.statusCode, 201, reg.body);
  const tok = await app.inject({ method: 'POST', url: '/api/tokens', payload: { username, password } });
  assert.ok(tok.statusCode < 300, tok.body);
  return tok.json().token as string;
}

test('Redis down: an upload answers 202 at once and stays queued; the queued command lands once Redis is back; a retry with the same key is the same submission', {
  timeout: 60_000,
}, async () => {
  const { db } = await database();
  const port = await unusedPort();
  const prefix = `test-${process.pid}-down`;
  const downQueues = openJudgeQueues({ redisUrl: `redis://127.0.0.1:${port}`, prefix });
  const config = loadConfig({ QUEUE_PREFIX: prefix, REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'silent', GATE_START_TIMEOUT_MS: '300' });
  const app = await buildApp({ config, db, queues: downQueues, logger: false });
  await app.ready();
  let redis: { stop(): Promise<void> } | null = null;
  try {
    const token = await tokenFor(app, 'ana');
    const auth = { authorization: `Bearer ${token}` };
    const source = botAs('Null', 'Patient');
    // Without the timeout this request waits for Redis for ever (the test's timeout fails it).
    const first = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...auth, 'idempotency-key': 'upload-1' },
      payload: { game: 'moria', source },
    });
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.json().status, 'queued');
    const id = first.json().id as number;
    assert.equal((await db.submission.findUniqueOrThrow({ where: { id } })).status, 'queued', 'left for the sweep');

    // The client gave up and retries with the same key: the same submission, no second version.
    const retry = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...auth, 'idempotency-key': 'upload-1' },
      payload: { game: 'moria', source },
    });
    assert.equal(retry.statusCode, 202, retry.body);
    assert.equal(retry.json().id, id);
    assert.equal(retry.json().version, 1);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(await db.submission.count(), 1);

    // Redis comes back: the commands held meanwhile go through, and do what the sweep would have done, once.
    redis = await redisServer(port);
    const row = await db.submission.findUniqueOrThrow({ where: { id } });
    await waitFor('the compile check queued', async () => downQueues.checks.getJob(checkJobId(id, row.createdAt)), 30_000);
    // No worker took it: still queued, not shown compiling.
    assert.equal((await db.submission.findUniqueOrThrow({ where: { id } })).status, 'queued');
    const counts = await downQueues.checks.getJobCounts('waiting', 'prioritized');
    assert.equal((counts.waiting ?? 0) + (counts.prioritized ?? 0), 1, 'one compile check, not one per attempt');
    await startGate({ db, queues: downQueues }, id); // the sweep, late: nothing new
    const again = await downQueues.checks.getJobCounts('waiting', 'prioritized');
    assert.equal((again.waiting ?? 0) + (again.prioritized ?? 0), 1);
    const third = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...auth, 'idempotency-key': 'upload-1' },
      payload: { game: 'moria', source },
    });
    assert.deepEqual([third.statusCode, third.json().id, third.json().status], [202, id, 'queued']);
  } finally {
    await app.close();
    if (redis) {
      await deletePrefix(downQueues.redis(), prefix).catch(() => {});
      await downQueues.close();
      await redis.stop();
    } else {
      await downQueues.matches.disconnect().catch(() => {});
      await downQueues.checks.disconnect().catch(() => {});
      await downQueues.results.disconnect().catch(() => {});
    }
  }
});

test('Idempotency-Key: another file under a used key is refused (422); bad keys are 400; keys are per user', async () => {
  const { db } = await database();
  const fq = await queues();
  const config = loadConfig({ QUEUE_PREFIX: fq.prefix, REDIS_URL: fq.redisUrl, LOG_LEVEL: 'silent', RATE_LIMIT_SUBMIT: '1000' });
  const app = await buildApp({ config, db, queues: fq.queues, logger: false });
  cleanups.push(() => app.close());
  const ana = { authorization: `Bearer ${await tokenFor(app, 'ana')}` };
  const bob = { authorization: `Bearer ${await tokenFor(app, 'bob')}` };
  const post = (headers: Record<string, string>, source: string) =>
    app.inject({ method: 'POST', url: '/api/submissions', headers, payload: { game: 'moria', source } });

  const first = await post({ ...ana, 'idempotency-key': 'k-1' }, botAs('Null', 'Keyed'));
  assert.equal(first.statusCode, 202, first.body);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const other = await post(
    { ...ana, 'idempotency-key': 'k-1' },
    botAs('Null', 'Keyed', (s) => s + '\n// changed\n'),
  );
  assert.equal(other.statusCode, 422);
  assert.equal(other.json().code, 'idempotency-key-reused');
  assert.match(other.json().message, new RegExp(`already used for submission ${first.json().id}`));
  // The same key from another user is another upload.
  const theirs = await post({ ...bob, 'idempotency-key': 'k-1' }, botAs('Null', 'Other'));
  assert.equal(theirs.statusCode, 202, theirs.body);
  assert.notEqual(theirs.json().id, first.json().id);
  // Without a key, the same file again is a new version, as before.
  const v2 = await post(ana, botAs('Null', 'Keyed'));
  assert.equal(v2.json().version, 2);
  for (const bad of ['', ' ', 'x'.repeat(129), 'caf\u00e9', 'tab\there']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...ana, 'idempotency-key': bad },
      payload: { game: 'moria', source: botAs('Null', 'Keyed') },
    });
    assert.equal(res.statusCode, 400, JSON.stringify(bad));
    assert.equal(res.json().code, 'bad-idempotency-key');
  }
  assert.equal(await db.submission.count(), 3);

  // Two uploads with one key at the same moment: one submission.
  const [a, b] = await Promise.all([
    post({ ...ana, 'idempotency-key': 'race' }, botAs('Null', 'Racer')),
    post({ ...ana, 'idempotency-key': 'race' }, botAs('Null', 'Racer')),
  ]);
  assert.deepEqual([a.statusCode, b.statusCode], [202, 202]);
  assert.equal(a.json().id, b.json().id);
  assert.equal(await db.submission.count({ where: { idempotencyKey: 'race' } }), 1);
});

test('arbiter submit sends one key per invocation: an answer lost on the way is retried and gives the same submission', { timeout: 60_000 }, async () => {
  const { db } = await database();
  const fq = await queues();
  const config = loadConfig({ QUEUE_PREFIX: fq.prefix, REDIS_URL: fq.redisUrl, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db, queues: fq.queues, logger: false });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const target = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const token = await tokenFor(app, 'cli');
  // A proxy that lets the first upload reach the server, then drops the connection instead of answering.
  let uploads = 0;
  const proxy = createHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
      string,
      string
    >;
    const upstream = await fetch(target + req.url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (req.method === 'POST' && req.url === '/api/submissions' && ++uploads === 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => proxy.close(r)));
  const proxyAddress = proxy.address();
  const url = `http://127.0.0.1:${typeof proxyAddress === 'object' && proxyAddress ? proxyAddress.port : 0}`;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-key-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'Retried.ts');
  writeFileSync(file, botAs('Null', 'Retried'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(dir, 'none'), ARBITER_URL: url, ARBITER_TOKEN: token };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--no-node-snapshot', 'bin/arbiter.js', 'submit', file, '--no-follow'], { cwd: root, env });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  assert.equal(code, 0, out);
  assert.equal(uploads, 2, out);
  assert.match(out, /trying again/);
  const rows = await db.submission.findMany();
  assert.equal(rows.length, 1, 'the retry did not make a second version');
  assert.match(rows[0]!.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
  assert.match(out, new RegExp(`submission #${rows[0]!.id}, `));
});

/** A user, a player name and a submission row per name, in order (ids rise). */
async function submissions(db: Db, names: string[], status: 'queued' | 'compiling' | 'self_play' | 'qualifying' = 'queued') {
  const owner = (await db.user.findFirst()) ?? (await user(db, 'owner'));
  const rows = [];
  for (const name of names) {
    const player = await db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: owner.id } });
    const source = botAs('Null', name);
    rows.push(
      await db.submission.create({
        data: { playerId: player.id, userId: owner.id, game: 'moria', version: 1, source, filename: `${name}.ts`, sizeBytes: source.length, status },
      }),
    );
  }
  return rows;
}

const dummies = (me: SeatRef, i: number): SeatRef[] => [0, 1, 2, 3].map((seat) => (seat === i ? me : { builtinName: 'Dummy' }));

test('gate jobs are served first come, first served: a whole gate before the next submission, all before ranked; compile checks on a lane of their own, by submission', async () => {
  const { db } = await database();
  const fq = await queues();
  const deps = { db, queues: fq.queues };
  const [a, b, c] = await submissions(db, ['Aa', 'Bb', 'Cc']);
  const seat = (s: { id: number; playerId: number }, name: string): SeatRef => ({ submissionId: s.id, playerId: s.playerId, name });
  // Queued in a breadth-first order: a ranked match, C's check, B's self-play, then A's four Dummy matches.
  const ranked = await createMatch(db, { game: 'moria', kind: 'ranked', seats: [seat(a!, 'Aa'), seat(b!, 'Bb'), seat(c!, 'Cc'), { builtinName: 'Dummy' }] });
  await enqueueMatch(db, fq.queues, ranked);
  await startGate(deps, c!.id);
  const bSelf = await createMatch(db, {
    game: 'moria',
    kind: 'gate',
    submissionId: b!.id,
    gateStep: 'selfplay',
    seats: [0, 1, 2, 3].map(() => seat(b!, 'Bb')),
  });
  await enqueueMatch(db, fq.queues, bSelf);
  const aDummies = [];
  for (let i = 0; i < 4; i++) {
    const id = await createMatch(db, { game: 'moria', kind: 'gate', submissionId: a!.id, gateStep: 'dummy', gateIndex: i, seats: dummies(seat(a!, 'Aa'), i) });
    await enqueueMatch(db, fq.queues, id);
    aDummies.push(id);
  }
  await startGate(deps, b!.id); // late, but B's own check still goes before C's
  const jobs = await fq.queues.matches.getJobs(['prioritized', 'wait'], 0, -1, true);
  const order = jobs.map((j) => (j.data.type === 'check' ? `check ${j.data.submissionId}` : `${j.data.kind} ${j.data.submissionId ?? '-'} ${j.data.matchId}`));
  assert.deepEqual(order, [...aDummies.map((m) => `gate ${a!.id} ${m}`), `gate ${b!.id} ${bSelf}`, `ranked - ${ranked}`]);
  // The checks wait behind no match: their own lane, B's before C's.
  const checks = (await fq.queues.checks.getJobs(['prioritized', 'wait'], 0, -1, true)).map((j) => `check ${j.data.submissionId}`);
  assert.deepEqual(checks, [`check ${b!.id}`, `check ${c!.id}`]);
  // The band: every gate job before the other kinds, and the numbering wraps at its end.
  assert.ok(gatePriority(GATE_PRIORITY_BAND) < PRIORITY.challenge && PRIORITY.challenge < PRIORITY.tournament && PRIORITY.tournament < PRIORITY.ranked);
  assert.ok(PRIORITY.ranked <= 2_097_152, "within BullMQ's range");
  assert.deepEqual([gatePriority(1), gatePriority(GATE_PRIORITY_BAND), gatePriority(GATE_PRIORITY_BAND + 1)], [1, GATE_PRIORITY_BAND, 1]);
});

test("a gate's Dummy matches after its first wait behind every needed gate job until the ones before them are won", async () => {
  const { db } = await database();
  const fq = await queues();
  const deps = { db, queues: fq.queues };
  const [a, b] = await submissions(db, ['La', 'Lb'], 'self_play');
  const seat = (s: { id: number; playerId: number }, name: string): SeatRef => ({ submissionId: s.id, playerId: s.playerId, name });
  const selfplay = async (s: { id: number; playerId: number }, name: string) =>
    createMatch(db, { game: 'moria', kind: 'gate', submissionId: s.id, gateStep: 'selfplay', seats: [0, 1, 2, 3].map(() => seat(s, name)) });
  const aSelf = await selfplay(a!, 'La');
  const bSelf = await selfplay(b!, 'Lb');
  await enqueueMatch(db, fq.queues, bSelf);
  /** A result as a worker sends it: the submission's seat scores 10 (a win) or 1 (a loss) against 5. */
  const result = async (matchId: number, mine: number, won: boolean) => {
    const seats = await db.participant.findMany({ where: { matchId }, orderBy: { seat: 'asc' } });
    const scores = seats.map((p) => (p.submissionId === mine ? (won ? 10 : 1) : 5));
    return recordResult(deps, {
      type: 'match',
      matchId: String(matchId),
      jobId: `m-${matchId}`,
      ok: true,
      replayGz: Buffer.from('replay').toString('base64'),
      logs: seats.map(() => ''),
      players: seats.map((p) => ({ name: p.name, cpuMs: 1, frozenRound: null, frozenReason: null, frozenMessage: null })),
      scores,
      ranks: scores.map((x) => 1 + scores.filter((y) => y > x).length),
      winner: null,
      startedAt: new Date().toISOString(),
      durationMs: 1000,
      worker: 'w',
      attempt: 1,
    });
  };
  /** A runner takes the match's job (off the queue). */
  const take = async (matchId: number) => {
    const job = (await fq.queues.matches.getJobs(['prioritized', 'wait'], 0, -1, true)).find(
      (j) => (j.data as { matchId: string }).matchId === String(matchId),
    );
    assert.ok(job, `match ${matchId} is queued`);
    await job.remove();
  };
  const order = async () =>
    (await fq.queues.matches.getJobs(['prioritized', 'wait'], 0, -1, true)).map((j) => {
      const d = j.data as { matchId: string };
      return Number(d.matchId);
    });
  // A passes self-play: its first Dummy match is needed, the other three only if the ones before them are won.
  assert.equal(await result(aSelf, a!.id, true), 'recorded');
  const aDummies = (await db.match.findMany({ where: { submissionId: a!.id, gateStep: 'dummy' }, orderBy: { gateIndex: 'asc' } })).map((m) => m.id);
  assert.equal(aDummies.length, 4);
  assert.deepEqual(await order(), [aDummies[0], bSelf, aDummies[1], aDummies[2], aDummies[3]], "B's self-play before A's Dummy matches ahead of need");
  const priorities = async () =>
    Promise.all(
      aDummies.map(
        async (id) =>
          (await fq.queues.matches.getJobs(['prioritized', 'wait'], 0, -1, true)).find((j) => (j.data as { matchId: string }).matchId === String(id))?.priority,
      ),
    );
  assert.deepEqual(await priorities(), [gatePriority(a!.id), GATE_LOOKAHEAD_PRIORITY, GATE_LOOKAHEAD_PRIORITY, GATE_LOOKAHEAD_PRIORITY]);
  assert.ok(
    GATE_LOOKAHEAD_PRIORITY > gatePriority(GATE_PRIORITY_BAND) && GATE_LOOKAHEAD_PRIORITY < PRIORITY.challenge,
    'behind every gate job, before the other kinds',
  );
  // Match 1 played (its job taken by a runner) and won: match 2 is needed now, at A's priority, ahead of B again.
  await take(aDummies[0]!);
  await result(aDummies[0]!, a!.id, true);
  assert.deepEqual(await order(), [aDummies[1], bSelf, aDummies[2], aDummies[3]]);
  // Match 2 lost: the gate stops there, the two still waiting are cancelled, B's self-play is all that is left.
  await take(aDummies[1]!);
  await result(aDummies[1]!, a!.id, false);
  assert.deepEqual(await order(), [bSelf]);
  assert.equal((await db.submission.findUniqueOrThrow({ where: { id: a!.id } })).status, 'rejected');
});

test('the wait estimate counts all the gate work ahead, from match run times per kind, over the runners', async () => {
  const { db } = await database();
  const fq = await queues();
  await fq.queues.redis().set(workerKey(fq.prefix, 'w1'), JSON.stringify({ name: 'w1', concurrency: 2, host: 'box', pid: 1 }), 'PX', 60_000);
  const built = (n: number): SeatRef[] => Array.from({ length: 4 }, () => ({ builtinName: n % 2 ? 'Null' : 'Dummy' }));
  const played = async (kind: 'gate' | 'ranked', gateStep: 'selfplay' | 'dummy' | undefined, seconds: number, queuedFor: number) => {
    const id = await createMatch(db, { game: 'moria', kind, ...(gateStep ? { gateStep } : {}), seats: built(seconds) });
    const finishedAt = new Date();
    // Queue time is long on purpose: the estimate must use the run time only.
    await db.match.update({
      where: { id },
      data: {
        status: 'done',
        durationMs: seconds * 1000,
        startedAt: new Date(finishedAt.getTime() - seconds * 1000),
        finishedAt,
        createdAt: new Date(finishedAt.getTime() - (queuedFor + seconds) * 1000),
      },
    });
  };
  for (const s of [7, 8, 9]) await played('gate', 'selfplay', s, 300);
  for (const s of [9, 10, 11]) await played('gate', 'dummy', s, 300);
  await played('ranked', undefined, 20, 0);

  let q = await queueOverview({ db, queues: fq.queues });
  assert.deepEqual(q.durations, { selfplay: 8, dummy: 10, ranked: 20, tournament: null, challenge: null });
  // Nothing ahead: its own gate only, a check (1 s) + a self-play (8 s) + its Dummy matches two at a time, before any verdict
  // one to four alike: 10 s (one or two) or 20 s (three or four), 19 or 29 s, in proportion 23 s.
  assert.equal(q.expectedWait.seconds, 23);

  // Two submissions compiling, one in self-play (its match queued), one qualifying (two Dummy matches queued, one running), one ranked match running.
  await submissions(db, ['Cx', 'Cy'], 'compiling');
  const [sp] = await submissions(db, ['Sp'], 'self_play');
  await createMatch(db, { game: 'moria', kind: 'gate', gateStep: 'selfplay', submissionId: sp!.id, seats: built(1) });
  const [ql] = await submissions(db, ['Ql'], 'qualifying');
  for (const status of ['queued', 'queued', 'running'] as const) {
    const id = await createMatch(db, { game: 'moria', kind: 'gate', gateStep: 'dummy', submissionId: ql!.id, seats: built(1) });
    await db.match.update({ where: { id }, data: { status } });
  }
  const rankedRunning = await createMatch(db, { game: 'moria', kind: 'ranked', seats: built(1) });
  await db.match.update({ where: { id: rankedRunning }, data: { status: 'running' } });
  const rankedWaiting = await createMatch(db, { game: 'moria', kind: 'ranked', seats: built(1) });
  assert.ok(rankedWaiting, 'a waiting ranked match is behind the gate: not counted');

  q = await queueOverview({ db, queues: fq.queues });
  assert.deepEqual(q.expectedWait.ahead, { submissions: 4, checks: 2, selfplays: 3, dummies: 10, otherRunning: 1 });
  // Ahead, in runner-seconds (the checks have their own lane: no runner time): self-plays (2 to come + 1 queued) x 8; Dummy matches
  // ((2 + 1) x 2.5 to come, the typical gate before any verdict, + 1.5 of the qualifying gate's queued two) x 10 + 1 running x 10 / 2;
  // the ranked match running, 20 / 2: 129 runner-seconds for 5 gates and matches, each played one match after another, so it
  // starts once all but one runner's worth are done: (129 - 129 / 5) / 2 runners = 51.6 s. Then its own: 1 + 8 + 1 to 4 Dummy
  // matches one after another (10 s and a quarter of one for a free runner each), in proportion 91 s in all.
  assert.equal(q.expectedWait.seconds, 91);
  assert.match(
    q.expectedWait.explanation,
    /the gates of 4 earlier submissions \(2 checks, 3 self-plays, 10 Dummy matches\) and 1 other match being played: about 52 s on 2 runners/,
  );
  assert.match(q.expectedWait.explanation, /Gate jobs go before ranked/);

  // No runner: no number.
  await fq.queues.redis().del(workerKey(fq.prefix, 'w1'));
  q = await queueOverview({ db, queues: fq.queues });
  assert.equal(q.expectedWait.seconds, null);
});

test('results: a backoff capped at 30 s with attempts for a long outage; the recorder holds short locks and uses that backoff', async () => {
  assert.deepEqual([1, 2, 3, 5, 6, 7, 50, 5000].map(resultBackoffMs), [1000, 2000, 4000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  assert.equal(RESULT_BACKOFF_CAP_MS, 30_000);
  const backoff = RESULT_JOB_OPTIONS.backoff;
  assert.ok(backoff && typeof backoff === 'object');
  assert.ok((RESULT_JOB_OPTIONS.attempts ?? 0) * RESULT_BACKOFF_CAP_MS >= 12 * 3600_000, 'rides out a 12-hour outage');

  const { db } = await database();
  const fq = await queues();
  const recorder = await startRecorder({ db, queues: fq.queues });
  cleanups.push(() => recorder.close());
  assert.equal(recorder.worker.opts.lockDuration, 5000);
  assert.equal(recorder.worker.opts.stalledInterval, 5000);
  const strategy = recorder.worker.opts.settings?.backoffStrategy;
  assert.ok(strategy);
  assert.equal(await strategy(40, backoff.type), RESULT_BACKOFF_CAP_MS);

  // A result that cannot be recorded (the database is gone) waits to be retried: at most the cap, whatever its attempt.
  const gone = await freshDatabase();
  await gone.drop();
  const dead = await startRecorder({ db: gone.db, queues: fq.queues, lockDurationMs: 2000, stalledIntervalMs: 2000 });
  cleanups.push(() => dead.close());
  await recorder.close();
  await fq.queues.addResult({ type: 'check', submissionId: '1', jobId: 'c-1-1', verdict: { ok: false, message: 'x' }, worker: 'test' });
  const job = await waitFor(
    'the result delayed for a retry',
    async () => {
      const j = await fq.queues.results.getJob('r-c-1-1');
      return j && (await j.getState()) === 'delayed' ? j : null;
    },
    20_000,
  );
  assert.equal(job.attemptsMade, 1);
  assert.ok(job.delay <= RESULT_BACKOFF_CAP_MS, String(job.delay));
  assert.equal(job.opts.backoff && typeof job.opts.backoff === 'object' ? job.opts.backoff.type : null, backoff.type);
});

test("/health reports the recorder's backlog: results waiting and the age of the oldest", async () => {
  const { db } = await database();
  const fq = await queues();
  const config = loadConfig({ QUEUE_PREFIX: fq.prefix, REDIS_URL: fq.redisUrl, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db, queues: fq.queues, logger: false });
  cleanups.push(() => app.close());
  let health = (await app.inject({ url: '/health' })).json();
  assert.deepEqual(health.recorder, { waiting: 0, failed: 0, oldestSeconds: null });

  const now = Date.now();
  const result = (n: number) => ({
    type: 'check' as const,
    submissionId: String(n),
    jobId: `c-${n}-1`,
    verdict: { ok: true as const, name: 'X', game: 'moria' },
    worker: 'test',
  });
  await fq.queues.results.add('check', result(1), { jobId: 'r-c-1-1', timestamp: now - 90_000 });
  await fq.queues.results.add('check', result(2), { jobId: 'r-c-2-1', timestamp: now - 10_000 });
  await fq.queues.results.add('check', result(3), { jobId: 'r-c-3-1', timestamp: now - 300_000, delay: 60_000 }); // waiting to be retried
  const backlog = await fq.queues.resultBacklog(now);
  assert.deepEqual(backlog, { waiting: 3, failed: 0, oldestSeconds: 300 });
  health = (await app.inject({ url: '/health' })).json();
  assert.equal(health.recorder.waiting, 3);
  assert.ok(health.recorder.oldestSeconds >= 300, String(health.recorder.oldestSeconds));
});

test('every Redis client logs a lost connection once and its return once, not once per retry', { timeout: 90_000 }, async () => {
  const { db } = await database();
  const port = await unusedPort();
  const url = `redis://127.0.0.1:${port}`;
  const prefix = `test-${process.pid}-watch`;
  let redis = await redisServer(port);
  const lines: { source: string; message: string; fields: LogFields | undefined }[] = [];
  const logOf = (source: string) => (message: string, fields?: LogFields) => void lines.push({ source, message, fields });
  const log = logOf('main');
  const unhandled: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => void unhandled.push(args.map(String).join(' '));
  try {
    const judgeQueues: JudgeQueues = openJudgeQueues({ redisUrl: url, prefix, log });
    await judgeQueues.matches.waitUntilReady();
    await judgeQueues.results.waitUntilReady();
    await judgeQueues.redis().ping();
    const hub = createEventHub(url, `${prefix}:events`, (message, fields) => log(message, fields as LogFields));
    await hub.ready();
    const recorder = await startRecorder({ db, queues: judgeQueues, log });
    const pool = await startWorkerPool({ redisUrl: url, prefix, concurrency: 1, log: logOf('pool') });
    const names = [
      ...['matches queue', 'results queue', 'redis client', 'event subscriber', 'recorder', 'recorder match events'].map((c) => `main/${c}`),
      ...['matches queue', 'results queue', 'redis client', 'match worker'].map((c) => `pool/${c}`),
    ];
    const said = (name: string, state: 'down' | 'up') =>
      lines.filter((l) => `${l.source}/${String(l.fields?.client)}` === name && l.fields?.redis === state).length;

    // A client of our own counts the retries: several of them go by while Redis is down.
    const counter = new Redis(url, { maxRetriesPerRequest: null });
    let retries = 0;
    counter.on('error', () => retries++);
    await redis.stop();
    await waitFor('several reconnection attempts', async () => retries >= 8 && names.every((n) => said(n, 'down') >= 1), 30_000);
    for (const name of names) assert.equal(said(name, 'down'), 1, name);
    assert.equal(
      names.reduce((n, name) => n + said(name, 'up'), 0),
      0,
    );

    redis = await redisServer(port);
    await waitFor('every client back', async () => names.every((n) => said(n, 'up') >= 1), 30_000);
    await new Promise((r) => setTimeout(r, 500));
    for (const name of names) {
      assert.equal(said(name, 'down'), 1, name);
      assert.equal(said(name, 'up'), 1, name);
    }
    assert.deepEqual(
      unhandled.filter((l) => /Unhandled error event/.test(l)),
      [],
    );
    counter.disconnect();
    await pool.close();
    await recorder.close();
    await hub.close();
    await deletePrefix(judgeQueues.redis(), prefix);
    await judgeQueues.close();
  } finally {
    console.error = consoleError;
  }
});
