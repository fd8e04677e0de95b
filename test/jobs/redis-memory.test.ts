// Redis stays bounded: a result job (which carries its replay) leaves Redis
// once the recorder has stored it; failed ones are kept up to a count. And
// what a job costs in Redis, measured with MEMORY USAGE (docs/operations.md
// quotes these figures; the test prints them).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues, waitFor } from '../helpers/queue.ts';
import { botAs } from '../helpers/judge.ts';
import { startRecorder } from '../../src/jobs/recorder/index.ts';
import { MATCH_JOB_OPTIONS, RESULT_FAILED_KEPT, RESULT_JOB_OPTIONS, type MatchResultOk } from '../../src/queue/index.ts';
import { builtinSeat } from '../../src/match/builtins.ts';
import { resolveLimits } from '../../src/sdk/limits.ts';
import { getGame } from '../../src/games/registry.ts';

const database = await freshDatabase();
const fq = await queues();
after(async () => {
  await fq.cleanup();
  await database.drop();
});
async function queues() {
  return freshQueues();
}

/** Bytes Redis holds for a job: its hash (data, options, state) and its log list. */
async function jobBytes(key: string): Promise<number> {
  const redis = fq.queues.redis();
  const hash = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) || 0;
  const logs = Number(await redis.call('MEMORY', 'USAGE', `${key}:logs`, 'SAMPLES', '0')) || 0;
  return hash + logs;
}

test('a recorded result leaves Redis at once; failed ones are kept up to a count; what a queued and a finished job cost', { timeout: 60_000 }, async () => {
  assert.equal(RESULT_JOB_OPTIONS.removeOnComplete, true);
  assert.deepEqual(RESULT_JOB_OPTIONS.removeOnFail, { count: RESULT_FAILED_KEPT });

  // A queued gate match: a student's bot and three Dummies, as a job carries them.
  const moria = await getGame('moria');
  const spec = {
    game: 'moria',
    seed: 1,
    limits: resolveLimits(moria.defaultLimits),
    seats: [{ source: botAs('Null', 'Measured'), filename: 'Measured.ts' }, ...(await Promise.all([1, 2, 3].map(() => builtinSeat('moria', 'Dummy'))))],
  };
  const match = await fq.queues.matches.add(
    'match',
    { type: 'match', matchId: '1', kind: 'gate', submissionId: '1', spec },
    { ...MATCH_JOB_OPTIONS, jobId: 'm-1-1', priority: 1 },
  );
  const queuedMatch = await jobBytes(fq.queues.matches.toKey(match.id!));

  // A result with a replay of the usual size (about 220 KB of base64: incompressible bytes, as gzip leaves them).
  const result: MatchResultOk = {
    type: 'match',
    matchId: '999999',
    jobId: 'm-999999-1',
    ok: true,
    replayGz: randomBytes(165_000).toString('base64'),
    logs: ['', '', '', ''],
    players: [],
    scores: [0, 0, 0, 0],
    ranks: [1, 1, 1, 1],
    winner: null,
    startedAt: new Date().toISOString(),
    durationMs: 1,
    worker: 'test',
    attempt: 1,
  };
  await fq.queues.addResult(result);
  const key = fq.queues.results.toKey('r-m-999999-1');
  const waitingResult = await jobBytes(key);
  assert.ok(waitingResult > 200_000, `a waiting result holds its replay: ${waitingResult} bytes`);

  // The recorder takes it (a match the database does not know: recorded as nothing, completed) and it is gone.
  const recorder = await startRecorder({ db: database.db, queues: fq.queues });
  try {
    await waitFor('the result completed and removed', async () => (await fq.queues.redis().exists(key)) === 0, 20_000, 50);
  } finally {
    await recorder.close();
  }
  const counts = await fq.queues.results.getJobCounts('completed');
  assert.equal(counts.completed ?? 0, 0, 'no completed result kept');
  console.log(
    `redis memory: a queued gate match job ${queuedMatch} bytes; a result job waiting for the recorder ${waitingResult} bytes; after it is recorded 0`,
  );
});
