// Recovery on real processes: the recorder SIGKILLed while it records, the
// embedded server SIGKILLed in the middle of a gate, Redis restarted and
// wiped mid-gate (a private redis-server), and Postgres cut off from the
// recorder for a few seconds. Each time every submission and match reaches
// its final state and nothing is recorded twice. Locks, stalled checks and
// the sweep run on short intervals so the file stays quick.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openJudgeQueues, resultJobId, matchJobId } from '../../src/queue/index.ts';
import { startRecorder } from '../../src/jobs/recorder/index.ts';
import { startScheduler } from '../../src/jobs/scheduler/index.ts';
import { enqueueMatch } from '../../src/domain/match-setup.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Db } from '../../src/db/client.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, spawnWorker, waitFor, type WorkerProcess } from '../helpers/queue.ts';
import {
  assertRecordedOnce,
  builtinMatches,
  FAST_RECOVERY as FAST,
  spawnArbiter,
  startPrivateRedis,
  startTcpProxy,
  type ArbiterProcess,
  type LogLine,
} from '../helpers/faults.ts';
import { MORIA_BOTS } from '../helpers/judge.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

function nullBot(name: string): string {
  return readFileSync(MORIA_BOTS + 'Null.ts', 'utf8').replace(/export const PLAYER_NAME = ['"][^'"]*['"]/, `export const PLAYER_NAME = '${name}'`);
}

/** A gate judged once: every match final, one self-play, Dummy matches with distinct indexes. */
async function assertGateOnce(db: Db, submissionId: number) {
  // A Dummy match already running at the verdict is still played and recorded.
  const matches = await waitFor(
    `every gate match of submission ${submissionId} final`,
    async () => {
      const ms = await db.match.findMany({ where: { submissionId }, include: { replay: { select: { sizeBytes: true } } } });
      return ms.every((m) => m.status === 'done' || m.status === 'failed') ? ms : null;
    },
    30_000,
    100,
  );
  for (const m of matches) assert.equal(m.replay !== null, m.status === 'done', `match ${m.id}: a replay if and only if done`);
  assert.equal(matches.filter((m) => m.gateStep === 'selfplay').length, 1);
  const dummies = matches.filter((m) => m.gateStep === 'dummy').map((m) => m.gateIndex);
  assert.equal(new Set(dummies).size, dummies.length, 'no Dummy match created twice');
}

async function api(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The split judge on a private Redis: API, recorder and scheduler in this process, a real worker process. */
async function judgeOnPrivateRedis() {
  const redis = await startPrivateRedis();
  cleanups.push(() => redis.stop());
  const database = await freshDatabase();
  cleanups.push(() => database.drop());
  const prefix = 'recovery';
  const queues = openJudgeQueues({ redisUrl: redis.url, prefix });
  cleanups.push(() => queues.close());
  const config = loadConfig({ ...FAST, REDIS_URL: redis.url, QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: database.db, queues, logger: false });
  cleanups.push(() => app.close());
  const recorder = await startRecorder({ db: database.db, queues, gate: { config: { nb_rounds: 60 } } });
  cleanups.push(() => recorder.close());
  const scheduler = startScheduler({ db: database.db, queues, rankedEnabled: false, sweepIntervalMs: 500, sweepOlderThanMs: 2000 });
  cleanups.push(() => scheduler.close());
  const worker: WorkerProcess = await spawnWorker({ redisUrl: redis.url, prefix, concurrency: 2, lockMs: 1000, stalledMs: 500 });
  cleanups.push(() => worker.stop());
  const password = 'password redis';
  await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'rita', password } });
  const token = (await app.inject({ method: 'POST', url: '/api/tokens', payload: { username: 'rita', password } })).json().token as string;
  let n = 0;
  const submitSome = async (count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/submissions',
        headers: { authorization: `Bearer ${token}` },
        payload: { game: 'moria', source: nullBot(`Redis${++n}`) },
      });
      assert.equal(res.statusCode, 202, res.body);
      ids.push(res.json().id as number);
    }
    return ids;
  };
  const final = async (ids: number[]) =>
    (await database.db.submission.count({ where: { id: { in: ids }, status: { in: ['qualified', 'rejected'] } } })) === ids.length;
  /** Waits until some submission is inside its gate (past compiling) while some has no verdict yet. */
  const midGate = (ids: number[]) =>
    waitFor(
      'the gate under way',
      async () => (await database.db.submission.count({ where: { id: { in: ids }, status: { in: ['self_play', 'qualifying'] } } })) > 0,
      60_000,
      25,
    );
  return { redis, db: database.db, submitSome, final, midGate };
}

// The four scenarios share nothing (own database, queue prefix or Redis) and
// mostly wait on other processes, so they run side by side.
describe('recovery', { concurrency: true }, () => {
  test('the recorder SIGKILLed in the middle of recording a result: after a restart every result is recorded once', async () => {
    const database = await freshDatabase();
    cleanups.push(() => database.drop());
    const fresh = await freshQueues();
    cleanups.push(() => fresh.cleanup());
    const env = { ...FAST, DATABASE_URL: database.url, REDIS_URL: fresh.redisUrl, QUEUE_PREFIX: fresh.prefix };
    const worker = await spawnWorker({ redisUrl: fresh.redisUrl, prefix: fresh.prefix, concurrency: 2, lockMs: 1000, stalledMs: 500 });
    cleanups.push(() => worker.stop());
    let recorder = await spawnArbiter({ parts: ['recorder'], env });
    cleanups.push(() => recorder.stop());
    const ids = await builtinMatches(database.db, 4, 20);

    // Hold the first match's row: the recorder blocks inside its transaction on it.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM "Match" WHERE id = $1 FOR UPDATE', [ids[0]]);
    for (const id of ids) await enqueueMatch(database.db, fresh.queues, id);
    const first = await database.db.match.findUniqueOrThrow({ where: { id: ids[0]! } });
    const resultId = resultJobId(matchJobId(first.id, first.createdAt));
    // The recorder has taken the result; the held row keeps it from committing.
    let seen = 'no job yet';
    await waitFor(
      'the recorder to take the first result',
      async () => {
        const job = await fresh.queues.results.getJob(resultId);
        seen = job ? await job.getState() : 'no job yet';
        return seen === 'active';
      },
      90_000,
      50,
    ).catch((e: Error) => {
      throw new Error(`${e.message} (last state: ${seen})\n${recorder.output().slice(-2000)}`);
    });
    await recorder.kill();
    await holder.query('ROLLBACK');
    assert.notEqual((await database.db.match.findUniqueOrThrow({ where: { id: ids[0]! } })).status, 'done', 'killed before it committed');

    recorder = await spawnArbiter({ parts: ['recorder'], env });
    await waitFor(
      'every result recorded',
      async () => (await database.db.match.count({ where: { id: { in: ids }, status: 'done' } })) === ids.length,
      60_000,
      100,
    );
    await assertRecordedOnce(database.db, ids);
    await waitFor('the results queue drained', async () => {
      const c = await fresh.queues.results.getJobCounts('waiting', 'active', 'delayed', 'failed');
      return c.waiting === 0 && c.active === 0 && c.delayed === 0 && c.failed === 0;
    });
  });

  test('the embedded server SIGKILLed mid-gate: restarted on the same DATA_DIR, the submission reaches its verdict, nothing recorded twice; its logs tell each step', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-embedded-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const fresh = await freshQueues();
    cleanups.push(() => fresh.cleanup());
    // Embedded PGlite runs on the server's own thread and can hold it for a
    // while: locks shorter than that would expire under live jobs.
    const env = {
      ...FAST,
      MATCH_LOCK_MS: '4000',
      STALLED_INTERVAL_MS: '1000',
      RESULT_LOCK_MS: '4000',
      RESULT_STALLED_INTERVAL_MS: '1000',
      DATA_DIR: dataDir,
      REDIS_URL: fresh.redisUrl,
      QUEUE_PREFIX: fresh.prefix,
      PORT: '0',
      WORKER_CONCURRENCY: '2',
    };
    let server: ArbiterProcess = await spawnArbiter({ env });
    cleanups.push(() => server.stop());
    const base = server.url!;
    const password = 'password embedded';
    assert.equal((await api(base, '/api/users', { method: 'POST', body: { username: 'emma', password } })).status, 201);
    const token = (await api(base, '/api/tokens', { method: 'POST', body: { username: 'emma', password } })).body.token as string;
    const sub = await api(base, '/api/submissions', { method: 'POST', token, body: { game: 'moria', source: nullBot('Embedded') } });
    assert.equal(sub.status, 202);
    const id = sub.body.id as number;
    // Past its compile check, and the step logged (a line not written yet would die with the process).
    await waitFor(
      'the gate past its compile check',
      async () => {
        const s = (await api(base, `/api/submissions/${id}`)).body;
        const logged = server.lines().some((l) => l.submissionId === id && l.msg === 'submission step');
        return logged && (s.status === 'self-play' || s.status === 'qualifying');
      },
      90_000,
      50,
    );
    await server.kill();
    const firstRun = server.lines();

    server = await spawnArbiter({ env });
    const base2 = server.url!;
    const verdict = await waitFor(
      'a verdict after the restart',
      async () => {
        const s = (await api(base2, `/api/submissions/${id}`)).body;
        return s.status === 'qualified' || s.status === 'rejected' ? s : null;
      },
      90_000,
      200,
    );
    assert.equal(verdict.status, 'rejected', 'Null cannot beat Dummy');
    assert.match(verdict.reason, /lost to Dummy/);
    const matches = await waitFor(
      'every gate match final',
      async () => {
        const ms = (await api(base2, `/api/matches?submission=${id}&limit=200`)).body.matches as Record<string, any>[];
        return ms.every((m) => m.status === 'done' || m.status === 'failed') ? ms : null;
      },
      60_000,
      200,
    );
    assert.equal(matches.filter((m) => m.gateStep === 'selfplay').length, 1, 'one self-play match');
    const dummies = matches.filter((m) => m.gateStep === 'dummy').map((m) => m.gateIndex);
    assert.equal(new Set(dummies).size, dummies.length, 'no Dummy match created twice');
    await server.stop();

    // Structured logs: grep by submissionId across both runs.
    const mine = [...firstRun, ...server.lines()].filter((l: LogLine) => l.submissionId === id);
    const find = (msg: string, extra: (l: LogLine) => boolean = () => true) => mine.find((l) => l.msg === msg && extra(l));
    const stored = find('submission stored');
    assert.ok(stored, 'a line when the API stored it');
    assert.equal(stored.part, 'api');
    assert.equal(stored.player, 'Embedded');
    assert.equal(stored.version, 1);
    assert.equal(stored.game, 'moria');
    assert.ok(typeof stored.userId === 'number');
    assert.ok(find('compile check recorded', (l) => l.ok === true && l.part === 'recorder'));
    assert.ok(find('submission step', (l) => l.status === 'self-play' || l.status === 'qualifying'));
    assert.ok(find('gate match created', (l) => l.step === 'selfplay'));
    assert.ok(find('gate match created', (l) => l.step === 'dummy'));
    assert.ok(find('match recorded', (l) => l.step === 'dummy' && l.status === 'done'));
    const v = find('submission verdict');
    assert.ok(v, 'a verdict line');
    assert.equal(v.verdict, 'rejected');
    assert.match(String(v.reason), /lost to Dummy/);
  });

  test('Redis restarted mid-gate, then wiped (FLUSHALL) mid-gate: every submission and match reaches a final state, nothing twice', async () => {
    const judge = await judgeOnPrivateRedis();

    const before = await judge.submitSome(2);
    await judge.midGate(before);
    assert.equal(await judge.final(before), false, 'the restart lands before the verdicts');
    await judge.redis.restart(500);
    await waitFor('every verdict after the restart', () => judge.final(before), 60_000, 100);
    for (const id of before) await assertGateOnce(judge.db, id);

    const wiped = await judge.submitSome(2);
    await judge.midGate(wiped);
    assert.equal(await judge.final(wiped), false, 'the wipe lands before the verdicts');
    await judge.redis.wipe();
    await waitFor('every verdict after the wipe (the sweep re-queues what Redis lost)', () => judge.final(wiped), 60_000, 100);
    for (const id of wiped) await assertGateOnce(judge.db, id);
    const reasons = await judge.db.submission.findMany({ where: { id: { in: [...before, ...wiped] } }, select: { status: true, reason: true } });
    assert.ok(
      reasons.every((s) => s.status === 'rejected' && /lost to Dummy/.test(s.reason ?? '')),
      `each judged on its merits: ${JSON.stringify(reasons)}`,
    );
  });

  test('Postgres cut off from the recorder for a few seconds mid-run: the backlog drains, nothing lost or doubled', async () => {
    const database = await freshDatabase();
    cleanups.push(() => database.drop());
    const fresh = await freshQueues();
    cleanups.push(() => fresh.cleanup());
    const target = new URL(database.url);
    const proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    viaProxy.hostname = '127.0.0.1';
    const recorder = await spawnArbiter({
      parts: ['recorder'],
      env: { ...FAST, DATABASE_URL: viaProxy.toString(), REDIS_URL: fresh.redisUrl, QUEUE_PREFIX: fresh.prefix },
    });
    cleanups.push(() => recorder.stop());
    const worker = await spawnWorker({ redisUrl: fresh.redisUrl, prefix: fresh.prefix, concurrency: 1, lockMs: 1000, stalledMs: 500 });
    cleanups.push(() => worker.stop());

    const ids = await builtinMatches(database.db, 6, 100);
    for (const id of ids) await enqueueMatch(database.db, fresh.queues, id);
    const done = () => database.db.match.count({ where: { id: { in: ids }, status: 'done' } });
    await waitFor('the first result recorded', async () => (await done()) > 0, 60_000, 25);
    proxy.cut();
    const cutAt = Date.now();
    assert.ok((await done()) < ids.length, 'the outage lands mid-run');
    // The outage lasts until the recorder has felt it (a result failed) and at least 3 s.
    await waitFor(
      'a result failing against the dead database',
      async () => {
        const jobs = await fresh.queues.results.getJobs(['delayed', 'failed', 'wait', 'active']);
        return jobs.some((j) => j.attemptsMade > 0) && Date.now() - cutAt >= 3000;
      },
      60_000,
      100,
    );
    proxy.restore();
    await waitFor('the backlog drained', async () => (await done()) === ids.length, 90_000, 100);
    await assertRecordedOnce(database.db, ids);
    const c = await fresh.queues.results.getJobCounts('waiting', 'active', 'delayed', 'failed');
    assert.equal(c.failed, 0);
  });
});
