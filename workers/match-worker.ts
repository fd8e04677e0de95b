// `npm run worker`: a match-worker process. Start as many as wanted, on any
// machine that reaches Redis (REDIS_URL). It holds no database credentials.
//   WORKER_CONCURRENCY  matches played at once (default: cores)

import { judgeSettings } from '../src/queue/settings.ts';
import { resolveRedis } from '../src/queue/redis.ts';
import { startWorkerPool } from './pool.ts';

const log = (m: string) => console.log(`[worker ${process.pid}] ${m}`);

async function main() {
  const settings = judgeSettings();
  const redis = await resolveRedis({ redisUrl: settings.redisUrl, dataDir: settings.dataDir, log });
  const pool = await startWorkerPool({
    redisUrl: redis.url,
    prefix: settings.prefix,
    concurrency: settings.workerConcurrency,
    lockDurationMs: settings.matchLockMs,
    stalledIntervalMs: settings.stalledIntervalMs,
    log,
  });
  log(`ready: ${settings.workerConcurrency} match runner(s) on ${redis.url} (prefix ${settings.prefix}), name ${pool.name}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing running matches, then exiting`);
    await pool.close();
    await redis.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(`[worker] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
