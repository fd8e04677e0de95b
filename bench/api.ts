// API and page throughput and latency (leaderboard, matches, home) under a
// bounded load generator on loopback (`npm run bench api`).
//
// A fresh Postgres database (BENCH_DATABASE_URL's server, default the test
// server 127.0.0.1:5432; PGlite in memory if none answers) is seeded with
// qualified players, ratings and finished matches; the API runs in a child
// process (so the load generator does not share its event loop) and N
// keep-alive connections each send requests back to back for a few seconds.
// Knobs: BENCH_API_SECONDS (5), BENCH_API_CONNECTIONS (16), BENCH_API_MATCHES (5000).
//
// `npm run bench api polls`, `waits` and `uploads`: the API's CPU in a
// deadline's burst (issue 35), per poll of a waiting submission
// (GET /api/submissions/:id and its page, which compute its place and wait),
// per computation of that place and wait alone (submissionWait), and per upload (POST /api/submissions, 40 at once), counted as the CPU time
// (user + system) of the API's process, in-process requests (fastify's
// inject: no sockets), against real PostgreSQL and Redis. The database holds
// a burst's state: verdicts and finished matches of the last minutes, and
// BENCH_API_WAITING submissions waiting for their check or their self-play.
// With BENCH_API_BASELINE=<another checkout's root> the same rounds run on
// that checkout's sources too, each judge in a process of its own, A and B
// interleaved (A, B, A, B...), and the ratio is printed. Knobs:
// BENCH_API_ROUNDS (6), BENCH_API_POLLS (2000 a round), BENCH_API_UPLOADS (40 a round), BENCH_API_WAITING (200).

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { createDb, migrate, closeDb, type Db } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16);
const MATCHES = Number(process.env.BENCH_API_MATCHES ?? 5000);
const PLAYERS = 200;

export async function adminQuery(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function seed(db: Db) {
  const game = 'moria';
  const user = await db.user.create({ data: { username: 'bench', usernameLower: 'bench', passwordHash: 'x' } });
  const names = await db.playerName.createManyAndReturn({
    data: Array.from({ length: PLAYERS }, (_, i) => ({ game, name: `P${i}`, nameLower: `p${i}`, ownerId: user.id, locked: true, lockedAt: new Date() })),
    select: { id: true, name: true },
  });
  const subs = await db.submission.createManyAndReturn({
    data: names.map((p) => ({
      playerId: p.id,
      userId: user.id,
      game,
      version: 1,
      source: '//',
      filename: 'b.ts',
      sizeBytes: 2,
      status: 'qualified' as const,
      finishedAt: new Date(),
    })),
    select: { id: true, playerId: true },
  });
  await db.rating.createMany({
    data: names.map((p, i) => {
      const mu = 25 + Math.sin(i) * 5;
      const sigma = 1 + (i % 7) / 3;
      return { playerId: p.id, game, mu, sigma, ordinal: mu - 3 * sigma, matchesPlayed: i };
    }),
  });
  const players = names.map((p) => ({ id: p.id, name: p.name, sub: subs.find((s) => s.playerId === p.id)!.id }));
  const replay = new Uint8Array(randomBytes(20_000));
  for (let done = 0; done < MATCHES; ) {
    const n = Math.min(500, MATCHES - done);
    const matches = await db.match.createManyAndReturn({
      data: Array.from({ length: n }, (_, k) => ({
        game,
        seed: done + k,
        kind: 'ranked' as const,
        status: 'done' as const,
        finishedAt: new Date(),
        durationMs: 900,
        winnerSeat: 0,
      })),
      select: { id: true },
    });
    await db.participant.createMany({
      data: matches.flatMap((m, k) =>
        [0, 1, 2, 3].map((seat) => {
          const p = players[(done + k * 7 + seat * 13) % PLAYERS]!;
          return { matchId: m.id, seat, name: p.name, playerId: p.id, submissionId: p.sub, score: 100 - seat * 10, rank: seat + 1, cpuMs: 50 };
        }),
      ),
    });
    await db.replay.createMany({ data: matches.map((m) => ({ matchId: m.id, data: replay, sizeBytes: replay.length })) });
    done += n;
  }
  const ids = await db.match.findMany({ select: { id: true } });
  return ids.map((m) => m.id);
}

/** The child process: serve the API on an ephemeral loopback port, print the URL. */
async function serve(databaseUrl: string | null) {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: 'memory://' });
  const app = await buildApp({ config, db, queues: null, logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`LISTENING ${url}\n`);
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => closeDb(db))
        .then(() => process.exit(0)),
  );
}

interface Result {
  requests: number;
  errors: number;
  latencies: number[];
}

async function load(base: string, paths: () => string, seconds: number, connections: number): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const result: Result = { requests: 0, errors: 0, latencies: [] };
  const end = performance.now() + seconds * 1000;
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = request(base + path, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          result.latencies.push(performance.now() - t0);
          result.requests++;
          if (res.statusCode !== 200) result.errors++;
          resolve();
        });
      });
      req.on('error', () => {
        result.errors++;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await one(paths());
    }),
  );
  agent.destroy();
  return result;
}

function pct(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

// ------------------------------------------------------------ a burst's polls and uploads, CPU per request

const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 6);
const POLLS = Number(process.env.BENCH_API_POLLS ?? 2000);
const UPLOADS = Number(process.env.BENCH_API_UPLOADS ?? 40);
const WAITING = Number(process.env.BENCH_API_WAITING ?? 200);
/** Requests in flight at once: a burst's pollers, or its uploads arriving together. */
const POLLERS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = fileURLToPath(new URL('..', import.meta.url));

const tokenOf = (userId: number) => `bench-token-${userId}`;

/**
 * A burst's database some minutes in: per kind of match the last 50 finished
 * (what the estimate reads), with their players' CPU; the verdicts of the
 * submissions those gates judged, whose checks overlap the matches; and
 * `waiting` submissions still to judge (a quarter in self-play, their match
 * queued behind the earlier gates, the rest waiting for their check), each
 * user with an API token. Returns the waiting submissions' ids.
 */
async function seedBurst(db: Db, waiting: number): Promise<{ waiting: { id: number; userId: number }[]; users: number[] }> {
  const game = 'moria';
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo);
  const finishedCount = 150;
  const people = finishedCount + waiting + 400;
  const users = await db.user.createManyAndReturn({
    data: Array.from({ length: people }, (_, i) => ({ username: `s${i}`, usernameLower: `s${i}`, passwordHash: 'x' })),
    select: { id: true },
  });
  await db.apiToken.createMany({
    data: users.map((u) => ({ userId: u.id, tokenHash: createHash('sha256').update(tokenOf(u.id)).digest('hex'), prefix: 'bench' })),
  });
  const subsOf = users.slice(0, finishedCount + waiting);
  const names = await db.playerName.createManyAndReturn({
    data: subsOf.map((u, i) => ({ game, name: `B${i}`, nameLower: `b${i}`, ownerId: u.id })),
    select: { id: true, ownerId: true },
  });
  // Uploads one every 1.5 s over the last minutes, oldest first: the first 150 judged (a check of 2-20 s, then their gate), the rest waiting.
  const rows = names.map((p, i) => {
    const createdAgo = (names.length - i) * 1500;
    const judged = i < finishedCount;
    const status = judged ? (i % 3 === 0 ? 'qualified' : 'rejected') : i < finishedCount + waiting / 4 ? 'self_play' : 'queued';
    const checkMs = 2000 + (i % 10) * 2000;
    return {
      playerId: p.id,
      userId: p.ownerId,
      game,
      version: 1,
      source: '//',
      filename: 'b.ts',
      sizeBytes: 2,
      status: status as 'qualified' | 'rejected' | 'self_play' | 'queued',
      createdAt: at(createdAgo),
      startedAt: status === 'queued' || (judged && i % 7 === 1) ? null : at(createdAgo - checkMs),
      finishedAt: judged ? at(Math.max(0, createdAgo - checkMs - 20_000)) : null,
      reasonDetail: status === 'rejected' ? { step: i % 7 === 1 ? 'compile' : 'dummy' } : undefined,
    };
  });
  const subs = await db.submission.createManyAndReturn({ data: rows, select: { id: true, status: true, userId: true, createdAt: true } });
  // The finished matches: self-plays and Dummy matches of the judged gates, and ranked, tournament and challenge matches, 50 each.
  const kinds = [
    { kind: 'gate', gateStep: 'selfplay' },
    { kind: 'gate', gateStep: 'dummy' },
    { kind: 'ranked' },
    { kind: 'tournament' },
    { kind: 'challenge' },
  ] as const;
  const judged = subs.filter((s) => s.status === 'qualified' || s.status === 'rejected');
  for (const [k, kind] of kinds.entries()) {
    const matches = await db.match.createManyAndReturn({
      data: Array.from({ length: 50 }, (_, i) => {
        const end = now - (50 - i) * 4000 - k * 700;
        const durationMs = 600 + ((i * 37) % 900);
        return {
          game,
          seed: i,
          ...kind,
          ...(kind.kind === 'gate' ? { submissionId: judged[(i * 3) % judged.length]!.id, gateIndex: kind.gateStep === 'dummy' ? i % 4 : null } : {}),
          status: 'done' as const,
          createdAt: new Date(end - durationMs - 30_000),
          startedAt: new Date(end - durationMs),
          finishedAt: new Date(end),
          durationMs,
          winnerSeat: 0,
        };
      }),
      select: { id: true, submissionId: true },
    });
    await db.participant.createMany({
      data: matches.flatMap((m) =>
        [0, 1, 2, 3].map((seat) => ({
          matchId: m.id,
          seat,
          name: seat === 0 && m.submissionId ? 'me' : 'Dummy',
          ...(seat === 0 && m.submissionId ? { submissionId: m.submissionId } : { builtinName: 'Dummy' }),
          score: 100 - seat * 10,
          rank: seat + 1,
          cpuMs: 80 + seat,
        })),
      ),
    });
  }
  // The waiting self-plays' matches, queued behind the earlier gates.
  const inSelfPlay = subs.filter((s) => s.status === 'self_play');
  await db.match.createMany({
    data: inSelfPlay.map((s, i) => ({ game, seed: i, kind: 'gate' as const, gateStep: 'selfplay' as const, submissionId: s.id, status: 'queued' as const })),
  });
  return {
    waiting: subs.filter((s) => s.status === 'queued' || s.status === 'self_play').map((s) => ({ id: s.id, userId: s.userId })),
    users: users.slice(finishedCount + waiting).map((u) => u.id),
  };
}

/** A TypeScript bot of a student's size (about 120 lines), different for each upload. */
function uploadSource(name: string, n: number): string {
  const helpers = Array.from(
    { length: 12 },
    (_, k) => `  helper${k}(x: number): number {
    let s = ${n + k};
    for (let i = 0; i < x; i++) s = (s * 31 + i) % 1000003;
    return s;
  }
`,
  ).join('');
  return `/// <reference path="player.d.ts" />
export const GAME = 'moria';
export const PLAYER_NAME = '${name}';

export default class extends Player {
  turns = 0;
${helpers}
  play(): void {
    this.turns++;
    for (const id of dwarves(me())) command(id, random(0, 7) as Dir);
  }
}
`;
}

/** polls: GET a waiting submission (API and page); waits: its place and wait alone (submissionWait, the part of a poll issue 35 is about); uploads: POST a new file. */
type RoundKind = 'polls' | 'waits' | 'uploads';

/** A round the parent asks of a judge child: `count` polls of the waiting submissions, or uploads by `users` (player names starting with `tag`). */
interface RoundAsked {
  kind: RoundKind;
  waiting: { id: number; userId: number }[];
  users: number[];
  count: number;
  tag: string;
}

/** What a judge child answers for one round: its process's CPU and the wall time over the round's requests. */
interface RoundFigures {
  requests: number;
  cpuUs: number;
  wallMs: number;
  /** The event loop's delay, 99th percentile over the round, ms. */
  loopDelayP99Ms: number;
  statuses: Record<string, number>;
}

/** One judge's API (the sources under `root`), in this process: serves the parent's rounds over IPC. */
async function judgeChild(root: string, databaseUrl: string, prefix: string): Promise<void> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, 'src', path)).href)) as T;
  const configs = await load<typeof import('../src/config.ts')>('config.ts');
  const client = await load<typeof import('../src/db/client.ts')>('db/client.ts');
  const queueModule = await load<typeof import('../src/queue/index.ts')>('queue/index.ts');
  const appModule = await load<typeof import('../src/http/app.ts')>('http/app.ts');
  const { submissionWait } = await load<typeof import('../src/domain/queue-overview.ts')>('domain/queue-overview.ts');
  const config = configs.loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_SUBMIT: '1000000' });
  const db = await client.createDb({ databaseUrl });
  const queues = queueModule.openJudgeQueues({ redisUrl: REDIS_URL, prefix });
  const app: FastifyInstance = await appModule.buildApp({ config, db, queues, logger: false });
  await app.ready();
  let uploads = 0;
  const round = async (msg: RoundAsked): Promise<RoundFigures> => {
    const statuses: Record<string, number> = {};
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    // How long the event loop was held at a time: every other request waits that long.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let next = 0;
    const one = async (k: number) => {
      const sub = msg.waiting[k % msg.waiting.length]!;
      if (msg.kind === 'waits') {
        await submissionWait({ db, queues }, sub.id);
        statuses.ok = (statuses.ok ?? 0) + 1;
        return;
      }
      const res =
        msg.kind === 'polls'
          ? // Most polls are the API's (arbiter submit, a page's script); every fifth the page's timeline, by its owner.
            await app.inject({
              url: k % 5 === 4 ? `/submissions/${sub.id}/timeline` : `/api/submissions/${sub.id}`,
              headers: { authorization: `Bearer ${tokenOf(sub.userId)}` },
            })
          : await app.inject({
              method: 'POST',
              url: '/api/submissions',
              headers: { authorization: `Bearer ${tokenOf(msg.users[uploads % msg.users.length]!)}` },
              payload: { game: 'moria', source: uploadSource(`${msg.tag}${uploads++}`, uploads), filename: 'Bot.ts' },
            });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    };
    await Promise.all(
      Array.from({ length: Math.min(POLLERS, msg.count) }, async () => {
        for (let k = next++; k < msg.count; k = next++) await one(k);
      }),
    );
    const c = process.cpuUsage(c0);
    delay.disable();
    return { requests: msg.count, cpuUs: c.user + c.system, wallMs: performance.now() - t0, loopDelayP99Ms: delay.percentile(99) / 1e6, statuses };
  };
  process.on('message', (msg: RoundAsked | { kind: 'stop' }) => {
    if (msg.kind === 'stop') {
      void app
        .close()
        .then(() => queues.close())
        .then(() => client.closeDb(db))
        .then(() => process.exit(0));
      return;
    }
    round(msg).then(
      (figures) => process.send!({ figures }),
      (err: Error) => process.send!({ error: err.stack ?? err.message }),
    );
  });
  process.send!({ ready: true });
}

/** Starts a judge child on `root`'s sources and waits until it serves. */
async function startJudge(root: string, databaseUrl: string, prefix: string): Promise<ChildProcess> {
  const child = fork(fileURLToPath(import.meta.url), ['judge', root, databaseUrl, prefix], {
    // BENCH_API_PROFILE=<dir>: each judge writes a CPU profile there (--cpu-prof) when it stops.
    execArgv: [
      '--no-node-snapshot',
      '--import',
      'tsx',
      ...(process.env.BENCH_API_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_PROFILE}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`judge on ${root} exited (${code})`)));
  });
  return child;
}

function ask(child: ChildProcess, msg: object): Promise<RoundFigures> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { figures?: RoundFigures; error?: string }) => (m.figures ? resolve(m.figures) : reject(new Error(m.error))));
    child.send(msg);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `polls` or `uploads`: rounds on this checkout, and on BENCH_API_BASELINE's interleaved with them. */
async function cpuPerRequest(kind: RoundKind): Promise<void> {
  const dbName = `arbiter_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `bench-api-${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${dbName}"`);
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + dbName;
  const databaseUrl = u.toString();
  const baseline = process.env.BENCH_API_BASELINE;
  const judges: { label: string; child: ChildProcess; perRequest: number[]; loopDelays: number[] }[] = [];
  const queueModule = await import('../src/queue/index.ts');
  const queues = queueModule.openJudgeQueues({ redisUrl: REDIS_URL, prefix });
  try {
    const db = await createDb({ databaseUrl });
    await migrate(db);
    const seeded = await seedBurst(db, WAITING);
    await closeDb(db);
    // Two runners' heartbeat: the estimate is computed in full (without one it stops at "no runner").
    await queues.redis().set(queueModule.workerKey(prefix, 'bench'), JSON.stringify({ name: 'bench', concurrency: 2, host: 'bench', pid: 1 }), 'PX', 3_600_000);
    if (baseline) judges.push({ label: `A (${baseline})`, child: await startJudge(baseline, databaseUrl, prefix), perRequest: [], loopDelays: [] });
    judges.push({ label: `B (${here})`, child: await startJudge(here, databaseUrl, prefix), perRequest: [], loopDelays: [] });
    const count = kind === 'uploads' ? UPLOADS : POLLS;
    console.log(
      `api ${kind}: ${seeded.waiting.length} waiting submissions, 150 verdicts and 250 finished matches of the last minutes; ${ROUNDS} rounds of ${count} ${kind} (${POLLERS} at once) per judge, in-process, interleaved`,
    );
    // A first round each to warm up (JIT, pools, plan caches), not counted.
    for (let r = -1; r < ROUNDS; r++) {
      for (const [j, judge] of judges.entries()) {
        const f = await ask(judge.child, { kind, waiting: seeded.waiting, users: seeded.users, count, tag: `R${r + 1}J${j}N` } satisfies RoundAsked);
        const bad = Object.entries(f.statuses).filter(([s]) => s !== { polls: '200', waits: 'ok', uploads: '202' }[kind]);
        if (bad.length) throw new Error(`${judge.label}: answers ${JSON.stringify(f.statuses)}`);
        if (r < 0) continue;
        judge.perRequest.push(f.cpuUs / f.requests);
        judge.loopDelays.push(f.loopDelayP99Ms);
        console.log(
          `api ${kind}: round ${r + 1} ${judge.label.slice(0, 1)}: ${(f.cpuUs / f.requests / 1000).toFixed(3)} ms CPU per request, ${(f.wallMs / f.requests).toFixed(3)} ms wall, event loop delay p99 ${f.loopDelayP99Ms.toFixed(1)} ms`,
        );
      }
    }
    for (const judge of judges)
      console.log(
        `api ${kind}: ${judge.label}: median ${(median(judge.perRequest) / 1000).toFixed(3)} ms CPU per request, event loop delay p99 ${median(judge.loopDelays).toFixed(1)} ms`,
      );
    if (judges.length === 2) {
      const ratios = judges[0]!.perRequest.map((a, i) => judges[1]!.perRequest[i]! / a);
      console.log(`api ${kind}: B/A CPU per request, round by round: ${ratios.map((x) => x.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(2)}`);
    }
  } finally {
    for (const judge of judges) {
      judge.child.send({ kind: 'stop' });
      await once(judge.child, 'exit');
    }
    await queueModule.deletePrefix(queues.redis(), prefix).catch(() => {});
    await queues.close();
    await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
  }
}

export async function run(args: string[] = []): Promise<void> {
  if (args[0] === 'polls' || args[0] === 'waits' || args[0] === 'uploads') return cpuPerRequest(args[0]);
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  try {
    dbName = `arbiter_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE DATABASE "${dbName}"`);
    const u = new URL(ADMIN_URL);
    u.pathname = '/' + dbName;
    databaseUrl = u.toString();
  } catch {
    dbName = null;
    console.log('api: no Postgres answers; PGlite in memory is not shared with a child process, so the bench needs Postgres');
    return;
  }
  try {
    const db = await createDb({ databaseUrl });
    await migrate(db);
    const t0 = performance.now();
    const ids = await seed(db);
    console.log(
      `api: seeded ${PLAYERS} qualified players and ${ids.length} matches (4 seats, 20 KB replay each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    await closeDb(db);

    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', fileURLToPath(import.meta.url), 'serve', databaseUrl], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: string) => {
        out += c;
        const m = /LISTENING (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`api server exited (${code})`)));
    });
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const scenarios: [string, () => string][] = [
      ['GET /api/games/moria/leaderboard?limit=50', () => '/api/games/moria/leaderboard?limit=50'],
      ['GET /api/matches?game=moria&limit=20', () => '/api/matches?game=moria&limit=20'],
      ['GET /api/matches?player=P7&limit=20', () => '/api/matches?player=P7&limit=20'],
      ['GET /api/matches/:id', () => `/api/matches/${pick(ids)}`],
      ['GET /api/matches/:id/replay (20 KB)', () => `/api/matches/${pick(ids)}/replay`],
      // The website's pages over the same data (server-rendered HTML).
      ['GET / (home page)', () => '/'],
      ['GET /games/moria/leaderboard (page)', () => '/games/moria/leaderboard'],
      ['GET /matches?game=moria (page)', () => '/matches?game=moria'],
      ['GET /matches/:id (page)', () => `/matches/${pick(ids)}`],
    ];
    // Warm up (JIT, connection pool, plan caches).
    await load(base, () => scenarios[0]![1](), 1, CONNECTIONS);
    console.log(`api: ${CONNECTIONS} keep-alive connections, ${SECONDS} s per endpoint, server in its own process`);
    for (const [name, path] of scenarios) {
      const r = await load(base, path, SECONDS, CONNECTIONS);
      const sorted = r.latencies.sort((a, b) => a - b);
      console.log(
        `api: ${name.padEnd(42)} ${(r.requests / SECONDS).toFixed(0).padStart(6)} req/s  p50 ${pct(sorted, 0.5).toFixed(1)} ms  p99 ${pct(sorted, 0.99).toFixed(1)} ms  errors ${r.errors}`,
      );
    }
    child.kill('SIGTERM');
    await once(child, 'exit');
  } finally {
    if (dbName) await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === 'serve') {
  await serve(process.argv[3] ?? null);
}
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === 'judge') {
  await judgeChild(process.argv[3]!, process.argv[4]!, process.argv[5]!);
}
