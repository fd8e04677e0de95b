// The one entry of every Arbiter process: `src/main.ts [part...]`.
//
// `npm start` (part `all`, the default): everything in one process with the
// embedded defaults (PGlite under DATA_DIR without DATABASE_URL; Redis on
// 127.0.0.1:6379 or a private redis-server without REDIS_URL): the API, the
// recorder, the scheduler and one pool of match runners (WORKER_CONCURRENCY,
// default: cores).
//
// Each part also starts alone for a real deployment:
//   npm run api | recorder | scheduler | worker
// (= node --no-node-snapshot bin/server.js <part>, which runs the built dist/main.js). Parts that open
// the database need DATABASE_URL when run apart: embedded PGlite serves a single
// process. The worker never opens the database and needs no database
// credentials: start as many as wanted, on any machine that reaches Redis
// (REDIS_URL); MATCH_LOCK_MS / STALLED_INTERVAL_MS say how soon a dead
// worker's match is queued again.

import { setPriority } from 'node:os';
import { loadConfig, type Config } from './config.ts';
import { partLog, type Log } from './log.ts';
import { resolveRedis, type RedisHandle } from './queue/redis.ts';
import { openJudgeQueues, type JudgeQueues } from './queue/index.ts';
import type { Db } from './db/client.ts';

type Part = 'api' | 'recorder' | 'scheduler' | 'worker';
const PARTS: Part[] = ['api', 'recorder', 'scheduler', 'worker'];

/** What `--help` says each part is. */
const PART_HELP: Record<Part | 'all', string> = {
  all: 'every part below in one process (the default; embedded database without DATABASE_URL)',
  api: 'the HTTP API and the pages (needs DATABASE_URL when run apart)',
  worker: 'a pool of match runners, WORKER_CONCURRENCY at once (default: cores); Redis only, no database',
  recorder: "writes the workers' results to the database (needs DATABASE_URL when run apart)",
  scheduler: 'ranked play, the sweep of lost jobs, retention (needs DATABASE_URL when run apart)',
};

export function usage(): string {
  const width = Math.max(...Object.keys(PART_HELP).map((p) => p.length));
  return [
    'usage: node --no-node-snapshot bin/server.js [part...]   (npm start | npm run <part>)',
    '',
    'parts:',
    ...Object.entries(PART_HELP).map(([part, text]) => `  ${part.padEnd(width)}  ${text}`),
    '',
  ].join('\n');
}

interface Running {
  name: string;
  close(): Promise<void>;
}

function logger(part: string): Log {
  return partLog(part);
}

/** What every part is started with. */
interface PartContext {
  config: Config;
  db: Db | null;
  queues: JudgeQueues;
  redisUrl: string;
  log: Log;
}

/** How each part starts; `start` runs them in this order (runners first, the API last). */
const STARTERS: Record<Part, (ctx: PartContext) => Promise<Running>> = {
  async worker({ config, redisUrl, log }) {
    const { startWorkerPool } = await import('./jobs/worker/pool.ts');
    const pool = await startWorkerPool({
      redisUrl,
      prefix: config.queuePrefix,
      concurrency: config.workerConcurrency,
      matchNiceOffset: config.matchNiceOffset,
      lockDurationMs: config.matchLockMs,
      stalledIntervalMs: config.stalledIntervalMs,
      ...(config.workerHealthPort > 0 ? { healthPort: config.workerHealthPort, healthHost: config.host } : {}),
      log: logger('worker'),
    });
    // "worker pool: " is what scripts and tests wait for before they queue matches (test/helpers).
    log(`worker pool: ${config.workerConcurrency} match runner(s) on ${redisUrl} (prefix ${config.queuePrefix}), name ${pool.name}`);
    return { name: 'worker', close: () => pool.close() };
  },
  async recorder({ config, db, queues, log }) {
    const { startLeasedRecorder } = await import('./jobs/recorder/index.ts');
    // One recorder works at a time, the others wait for its lease ("recorder: consuming results" is what tests wait for).
    const recorder = startLeasedRecorder(
      { db: db!, queues, lockDurationMs: config.resultLockMs, stalledIntervalMs: config.resultStalledIntervalMs, log: logger('recorder') },
      { redisUrl: queues.redisUrl, prefix: queues.prefix, ttlMs: config.leaseTtlMs, log: logger('recorder') },
      () => log('recorder: consuming results'),
    );
    return { name: 'recorder', close: () => recorder.close() };
  },
  async scheduler({ config, db, queues, log }) {
    const { startLeasedScheduler } = await import('./jobs/scheduler/index.ts');
    // One scheduler works at a time, the others wait for its lease.
    const scheduler = startLeasedScheduler(
      {
        db: db!,
        queues,
        rankedEnabled: config.rankedEnabled,
        rankedIntervalMs: config.rankedIntervalMs,
        ranked: { target: config.rankedQueueTarget, settledMatches: config.rankedSettledMatches },
        sweepIntervalMs: config.sweepIntervalMs,
        sweepOlderThanMs: config.sweepAfterMs,
        retention: { rankedDays: config.retentionRankedDays, rankedPerPlayer: config.retentionRankedPerPlayer, intervalMs: config.retentionIntervalMs },
        log: logger('scheduler'),
      },
      { redisUrl: queues.redisUrl, prefix: queues.prefix, ttlMs: config.leaseTtlMs, log: logger('scheduler') },
      () => log(`scheduler: ranked play ${config.rankedEnabled ? 'on' : 'off'}`),
    );
    return { name: 'scheduler', close: () => scheduler.close() };
  },
  async api({ config, db, queues, log }) {
    const { buildApp } = await import('./http/app.ts');
    const app = await buildApp({ config, db: db!, queues });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log(`API on http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port} (OpenAPI at /docs)`);
    return { name: 'api', close: () => app.close() };
  },
};

/** The database, migrated (Postgres with DATABASE_URL, else embedded PGlite). */
async function openDatabase(config: Config, log: Log): Promise<Running & { db: Db }> {
  const { createDb, migrate, closeDb } = await import('./db/client.ts');
  const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(db, { log: logger('db') });
    log(
      `database: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}/pglite`}${applied.length ? `, applied ${applied.length} migration(s)` : ''}`,
    );
  } catch (e) {
    await closeDb(db);
    throw e;
  }
  return { name: 'database', db, close: () => closeDb(db) };
}

function describeRedis(redis: RedisHandle, config: Config): string {
  const where =
    redis.source === 'private'
      ? `a private redis-server, data under ${config.dataDir}/redis`
      : redis.source === 'local'
        ? 'found on 127.0.0.1:6379'
        : 'shared with another Arbiter process';
  return `Redis: ${redis.url} (${where})`;
}

export async function start(parts: Part[], config: Config = loadConfig()): Promise<{ close(): Promise<void> }> {
  const log = logger('arbiter');
  // A worker apart from the API yields the cores to it: the burst bench saw uploads wait 9-11 s for an API
  // starved by two workers' matches and compiles. Processes it starts later inherit the niceness.
  if (parts.includes('worker') && !parts.includes('api') && config.workerNice > 0) {
    try {
      setPriority(config.workerNice);
    } catch (err) {
      log(`worker: could not lower the priority to nice ${config.workerNice} (${(err as Error).message})`);
    }
  }
  const needsDb = parts.some((p) => p !== 'worker');
  if (needsDb && parts.length < PARTS.length && !config.databaseUrl) {
    throw new Error(
      `running ${parts.join(', ')} apart needs DATABASE_URL (postgres://...): the embedded PGlite database serves one process. ` +
        'Use `npm start` to run everything in one process with the embedded database.',
    );
  }
  const running: Running[] = [];
  const closeAll = async () => {
    for (const r of running.reverse()) {
      try {
        await r.close();
      } catch (e) {
        log(`closing ${r.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  try {
    const redis: RedisHandle = await resolveRedis({ redisUrl: config.redisUrl, dataDir: config.dataDir, log });
    running.push({ name: 'redis', close: () => redis.stop() });
    if (redis.source !== 'env') log(describeRedis(redis, config));
    const queues: JudgeQueues = openJudgeQueues({ redisUrl: redis.url, prefix: config.queuePrefix, log: logger('queue') });
    running.push({ name: 'queues', close: () => queues.close() });
    let db: Db | null = null;
    if (needsDb) {
      const database = await openDatabase(config, log);
      running.push(database);
      db = database.db;
      // The embedded database serves this process only: `arbiter admin`, `backup` and `similarity` on this machine ask it through a socket.
      if (!config.databaseUrl && config.dataDir !== 'memory://') {
        const { serveControl } = await import('./cli/control.ts');
        const runCommand = async (name: string, args: string[]) => {
          const { commands } = await import('./cli/main.ts');
          return commands[name]!.run(args);
        };
        const control = await serveControl(config.dataDir, db, runCommand, log);
        running.push({ name: 'control socket', close: () => control.close() });
      }
    }
    for (const part of Object.keys(STARTERS) as Part[])
      if (parts.includes(part)) running.push(await STARTERS[part]({ config, db, queues, redisUrl: redis.url, log }));
    // Each language's compiler warmed in the background (CPP_PREWARM=0: not): C++'s compile server and the
    // games' precompiled headers, so the first upload after a start compiles in seconds, not in the minute
    // clang's own module takes to compile.
    if ((parts.includes('api') || parts.includes('worker')) && config.cppPrewarm) {
      void (async () => {
        const [{ languages }, { loadGames }] = await Promise.all([import('./sandbox/languages/index.ts'), import('./games/registry.ts')]);
        const games = [...(await loadGames()).keys()];
        for (const language of languages) await language.prewarm?.(games);
      })().catch((e: unknown) => log(`compiler warm-up: ${e instanceof Error ? e.message : String(e)}`));
    }
  } catch (e) {
    await closeAll();
    throw e;
  }
  return { close: closeAll };
}

export function parseParts(argv: string[]): Part[] {
  if (argv.length === 0 || (argv.length === 1 && argv[0] === 'all')) return [...PARTS];
  for (const a of argv) {
    if (!(PARTS as string[]).includes(a)) throw new Error(`unknown part "${a}": use all, or one or more of ${PARTS.join(', ')} (--help lists them)`);
  }
  return argv as Part[];
}

/** The process's entry: bin/server.js calls it (the built dist/main.js), as does `--import tsx src/main.ts`. */
export async function cli() {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(usage());
    return;
  }
  let parts: Part[];
  let config: Config;
  try {
    parts = parseParts(process.argv.slice(2));
    config = loadConfig();
  } catch (e) {
    console.error(`arbiter: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  }
  const running = await start(parts, config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    // A worker finishes its running matches first; a second signal leaves now, and the other workers play them again.
    console.log(`[arbiter] ${signal}: stopping${parts.includes('worker') ? ' after the running matches' : ''} (again to quit now)`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('src/main.ts')) {
  cli().catch((e: unknown) => {
    console.error(`arbiter: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
