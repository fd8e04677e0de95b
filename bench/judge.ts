// `npm run bench judge`: the judge's figures, through the whole pipeline
// (queue → match runners in the sandbox → results queue → recorder → database).
// - Gate latency, submission to verdict, for a Demo-strength bot against the
//   production gate (three Dummies, the game's default config), on an idle machine.
// - A qualifying gate's latency (the whole gate: check, self-play, four Dummy matches won): the burst's strong
//   bot (bench/burst/Prospector.ts.tmpl) under new names until enough qualified (a name changes the file, and
//   so the gate's seeds; about a third of its gates qualify), each gate alone on the idle judge.
// - Matches per minute with one and with two match runners (Moria, default config).
// Uses the embedded defaults: PGlite in memory and Redis as `npm start` finds it.
//   npm run bench judge [gateRuns=3] [matchesPerRun=16] [qualifyingGates=3]

import { availableParallelism, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDb, migrate, closeDb, type Db } from '../src/db/client.ts';
import { deletePrefix, openJudgeQueues, resolveRedis, type JudgeQueues } from '../src/queue/index.ts';
import { startRecorder } from '../src/jobs/recorder/index.ts';
import { startGate } from '../src/domain/gate.ts';
import { createMatch, enqueueMatch } from '../src/domain/match-setup.ts';
import { startWorkerPool } from '../src/jobs/worker/pool.ts';
import { Redis } from 'ioredis';
import type { JudgeEvent } from '../src/queue/index.ts';

const DEMO = fileURLToPath(new URL('../src/games/moria/bots/Demo.ts', import.meta.url));
const PROSPECTOR = fileURLToPath(new URL('./burst/Prospector.ts.tmpl', import.meta.url));
/** Gates tried at most for the qualifying ones asked for: a third of the strong bot's gates qualify. */
const QUALIFYING_TRIES_EACH = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves when `done` says so of the judge's events (the recorder publishes
 * one per recorded match and per verdict): waiting costs nothing, where
 * polling the embedded database would take CPU from the runners it measures.
 */
async function untilEvents(queues: JudgeQueues, done: (event: JudgeEvent) => boolean, start: () => Promise<void>): Promise<void> {
  const sub = new Redis(queues.redisUrl, { maxRetriesPerRequest: 3 });
  try {
    await sub.subscribe(queues.eventsChannel);
    const finished = new Promise<void>((resolve) => {
      sub.on('message', (_channel: string, text: string) => {
        if (done(JSON.parse(text) as JudgeEvent)) resolve();
      });
    });
    await start();
    await finished;
  } finally {
    sub.disconnect();
  }
}

async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('bench: timed out');
    await sleep(50);
  }
}

/** A judge on the embedded defaults (PGlite in memory, Redis as `npm start` finds it): match runners and the recorder, around fn. */
export async function withJudge<T>(runners: number, fn: (db: Db, queues: JudgeQueues) => Promise<T>): Promise<T> {
  const redis = await resolveRedis({ dataDir: './data' });
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const queues = openJudgeQueues({ redisUrl: redis.url, prefix });
  const db = await createDb({ dataDir: 'memory://' });
  await migrate(db);
  const pool = await startWorkerPool({ redisUrl: redis.url, prefix, concurrency: runners });
  const recorder = await startRecorder({ db, queues });
  try {
    return await fn(db, queues);
  } finally {
    await recorder.close();
    await pool.close();
    await deletePrefix(queues.redis(), prefix);
    await queues.close();
    await closeDb(db);
    await redis.stop();
  }
}

interface GateRun {
  ms: number;
  status: string;
  reason: string | null;
  played: number;
}

/** One gate of `source` under `name` on the idle judge, submission to verdict; waits for its leftover matches after. */
async function timeGate(db: Db, queues: JudgeQueues, userId: number, name: string, source: string): Promise<GateRun> {
  const player = await db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: userId } });
  const t0 = Date.now();
  const sub = await db.submission.create({
    data: { playerId: player.id, userId, game: 'moria', version: 1, source, filename: `${name}.ts`, sizeBytes: source.length },
  });
  await untilEvents(
    queues,
    (e) => e.matchId === undefined && e.submissionId === String(sub.id) && (e.status === 'qualified' || e.status === 'rejected'),
    () => startGate({ db, queues }, sub.id),
  );
  const ms = Date.now() - t0;
  const done = await db.submission.findUniqueOrThrow({ where: { id: sub.id } });
  const played = await db.match.count({ where: { submissionId: sub.id, status: 'done' } });
  // Let the gate matches still running (after an early rejection) finish before the next run.
  await until(async () => (await queues.stats()).depth === 0);
  return { ms, status: done.status, reason: done.reason, played };
}

const named = (source: string, name: string) => source.replace(/PLAYER_NAME = '[^']*'/, `PLAYER_NAME = '${name}'`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function gateLatency(runs: number, qualifying: number): Promise<void> {
  const runners = availableParallelism();
  await withJudge(runners, async (db, queues) => {
    const user = await db.user.create({ data: { username: 'bench', usernameLower: 'bench', passwordHash: 'x' } });
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const run = await timeGate(db, queues, user.id, `DemoBench${i}`, named(readFileSync(DEMO, 'utf8'), `DemoBench${i}`));
      times.push(run.ms);
      console.log(
        `gate latency, Demo-strength bot, run ${i + 1}: ${secs(run.ms)} to "${run.status}" (${run.reason ?? 'no reason'}); ${run.played} gate match(es) played; ${runners} match runner(s)`,
      );
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`gate latency: mean ${secs(mean)}, median ${secs(median)} over ${times.length} run(s) (goal ≤ 5 s on an idle machine)`);
    if (qualifying <= 0) return;
    const strong = readFileSync(PROSPECTOR, 'utf8');
    const qualified: number[] = [];
    const rejected: number[] = [];
    for (let i = 0; i < qualifying * QUALIFYING_TRIES_EACH && qualified.length < qualifying; i++) {
      const name = `Strong${i}`;
      const run = await timeGate(db, queues, user.id, name, named(strong, name));
      (run.status === 'qualified' ? qualified : rejected).push(run.ms);
      console.log(`gate, strong bot ${name}: ${secs(run.ms)} to "${run.status}"${run.reason ? ` (${run.reason})` : ''}; ${run.played} gate match(es) played`);
    }
    const q = [...qualified].sort((a, b) => a - b);
    console.log(
      q.length > 0
        ? `qualifying gate latency: median ${secs(q[Math.floor(q.length / 2)]!)}, max ${secs(q[q.length - 1]!)} over ${q.length} qualifying gate(s) (goal ≤ 5 s on an idle queue); ${rejected.length} gate(s) of the same bot rejected on the way`
        : `qualifying gate latency: none of ${rejected.length} gates qualified`,
    );
  });
}

async function matchesPerMinute(runners: number, count: number): Promise<number> {
  return withJudge(runners, async (db, queues) => {
    const seats = ['Demo', 'Dummy', 'Demo', 'Dummy'].map((builtinName) => ({ builtinName }));
    // Warm-up matches not counted, three per runner, queued at once so that each runner's match
    // process plays some: module loading, bundling the bot API, and the JIT of a fresh process, whose
    // first match costs about twice a warm one's CPU (a process then plays 100 before it is replaced).
    const warm: number[] = [];
    for (let i = 0; i < 3 * runners; i++) {
      const id = await createMatch(db, { game: 'moria', kind: 'challenge', seed: 900 + i, seats });
      warm.push(id);
      await enqueueMatch(db, queues, id);
    }
    await until(async () => (await db.match.count({ where: { id: { in: warm }, status: 'done' } })) === warm.length);
    // Throughput in the steady state: `runners` matches more than are counted are queued, so no runner
    // idles at the end while another finishes the last one (with 16 matches on two runners that tail
    // was up to 5% of the run); the clock stops when `count` of them are recorded.
    const ids = new Set<string>();
    const recorded = new Set<string>();
    // The matches are made first, as a tournament's round is: what is timed is the judge's pipeline from the queue.
    for (let i = 0; i < count + runners; i++) ids.add(String(await createMatch(db, { game: 'moria', kind: 'challenge', seed: 1000 + i, seats })));
    const t0 = Date.now();
    const cpu0 = process.cpuUsage();
    await untilEvents(
      queues,
      (e) => {
        if (e.status === 'done' && e.matchId !== undefined && ids.has(e.matchId)) recorded.add(e.matchId);
        return recorded.size >= count;
      },
      async () => {
        for (const id of ids) await enqueueMatch(db, queues, Number(id));
      },
    );
    const ms = Date.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const doneIds = [...ids].map(Number);
    await until(async () => (await db.match.count({ where: { id: { in: doneIds }, status: 'done' } })) === doneIds.length);
    const rows = await db.match.findMany({ where: { id: { in: doneIds } }, select: { durationMs: true } });
    const perMatch = rows.reduce((a, r) => a + (r.durationMs ?? 0), 0) / rows.length;
    console.log(
      `matches per minute, ${runners} match runner(s): ${((count * 60_000) / ms).toFixed(1)} ` +
        `(${count} Moria matches of 200 rounds recorded, Demo/Dummy x2, ${runners} more queued, in ${(ms / 1000).toFixed(1)} s; ${(perMatch / 1000).toFixed(1)} s per match on a runner; ` +
        `the worker and recorder process: ${((cpu.user + cpu.system) / 1000 / count).toFixed(0)} ms of CPU per match)`,
    );
    return (count * 60_000) / ms;
  });
}

export async function run(args: string[] = []): Promise<void> {
  const gateRuns = Number(args[0] ?? 3) || 3;
  const perRun = Number(args[1] ?? 16) || 16;
  const qualifying = Number(args[2] ?? 3);
  console.log(
    `machine: ${availableParallelism()} core(s), node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await gateLatency(gateRuns, Number.isFinite(qualifying) ? qualifying : 3);
  const one = await matchesPerMinute(1, perRun);
  const two = await matchesPerMinute(2, perRun);
  console.log(
    `matches per minute, 2 runners / 1 runner: ${(two / one).toFixed(2)} (goal ≥ 1.8); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the end`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run(process.argv.slice(2)).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
