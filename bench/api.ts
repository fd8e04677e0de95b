// API and page throughput and latency (leaderboard, matches, home) under a
// bounded load generator on loopback (`npm run bench api`).
//
// A fresh Postgres database (BENCH_DATABASE_URL's server, default the test
// server 127.0.0.1:5432; PGlite in memory if none answers) is seeded with
// qualified players, ratings and finished matches; the API runs in a child
// process (so the load generator does not share its event loop) and N
// keep-alive connections each send requests back to back for a few seconds.
// Knobs: BENCH_API_SECONDS (5), BENCH_API_CONNECTIONS (16), BENCH_API_MATCHES (5000).

import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { once } from 'node:events';
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

export async function run(): Promise<void> {
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
