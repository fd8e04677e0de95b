// `npm run worker`: a match-worker process. Start as many as wanted, on any
// machine that reaches Redis (REDIS_URL). It never opens the database and
// needs no database credentials.
//   WORKER_CONCURRENCY  matches played at once (default: cores)
//   MATCH_LOCK_MS / STALLED_INTERVAL_MS  how soon a dead worker's match is re-queued

import { loadConfig } from '../src/config.ts';
import { partLog } from '../src/log.ts';
import { resolveRedis } from '../src/queue/redis.ts';
import { startWorkerPool } from './pool.ts';

const log = partLog('worker');

async function main() {
  const config = loadConfig();
  const redis = await resolveRedis({ redisUrl: config.redisUrl, dataDir: config.dataDir, log });
  const pool = await startWorkerPool({
    redisUrl: redis.url,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDurationMs: config.matchLockMs,
    stalledIntervalMs: config.stalledIntervalMs,
    log,
  });
  log(`ready: ${config.workerConcurrency} match runner(s) on ${redis.url} (prefix ${config.queuePrefix}), name ${pool.name}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1); // second signal: leave now; the matches are re-queued by the others
    stopping = true;
    log(`${signal}: finishing running matches, then exiting (again to quit now)`);
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
