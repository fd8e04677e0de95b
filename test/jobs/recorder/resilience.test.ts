// Nothing is lost and nothing is stored twice: a worker killed in the middle
// of a match (BullMQ's stalled-job check re-queues it; the re-run's result is
// recorded once), and the recorder down for a while (results wait in Redis).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchJobId, resultJobId, type ResultJobData } from '../../../src/queue/index.ts';
import { recordResult } from '../../../src/jobs/recorder/index.ts';
import { createMatch, enqueueMatch } from '../../../src/domain/match-setup.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startTestJudge, type TestJudge } from '../../helpers/judge.ts';

let judge: TestJudge;

before(async () => {
  judge = await startTestJudge({ workers: 0 });
});
after(async () => {
  await judge?.close();
});

async function builtinMatch(rounds: number, seed: number) {
  const id = await createMatch(judge.db, {
    game: 'moria',
    kind: 'challenge',
    seed,
    config: { nb_rounds: rounds },
    seats: ['Demo', 'Null', 'Demo', 'Null'].map((builtinName) => ({ builtinName })),
  });
  await enqueueMatch(judge.db, judge.queues, id);
  return id;
}

test('a worker killed in the middle of a match: the match is re-run by another worker and recorded once', async () => {
  const fast = { concurrency: 1, lockMs: 1000, stalledMs: 500 };
  const doomed = await judge.addWorker(fast);
  const id = await builtinMatch(200, 7);
  const jobId = matchJobId(id, (await judge.db.match.findUniqueOrThrow({ where: { id } })).createdAt);
  // Mid-match: the job is active and the worker has published progress.
  await waitFor('the match to run', async () => (await judge.queues.matches.getJob(jobId))?.progress && true, 60_000, 50);
  await doomed.kill();
  const match0 = await judge.db.match.findUniqueOrThrow({ where: { id } });
  assert.notEqual(match0.status, 'done', 'killed before it finished');

  await judge.addWorker(fast);
  const done = await waitFor('the re-run to be recorded', async () => {
    const m = await judge.db.match.findUniqueOrThrow({ where: { id } });
    return m.status === 'done' ? m : null;
  });
  assert.ok(done.attempts >= 2, `played twice (attempts ${done.attempts})`);
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 1);
  const seats = await judge.db.participant.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
  assert.equal(seats.length, 4);
  assert.ok(seats.every((p) => p.score !== null && p.rank !== null));

  // Recorded: the result (its replay) leaves Redis (BullMQ removes the job once the recorder's handler, which wrote
  // the row read above, has returned: a moment later on a loaded machine).
  await waitFor('the recorded result to leave Redis', async () => (await judge.queues.results.getJob(resultJobId(jobId))) === undefined, 10_000, 50);
  // The same result delivered again changes nothing.
  const replay = await judge.db.replay.findUniqueOrThrow({ where: { matchId: id } });
  const again: ResultJobData = {
    type: 'match',
    matchId: String(id),
    jobId,
    ok: true,
    replayGz: Buffer.from(replay.data).toString('base64'),
    logs: seats.map(() => ''),
    players: [],
    scores: seats.map((p) => p.score ?? 0),
    ranks: seats.map((p) => p.rank ?? 0),
    winner: done.winnerSeat,
    startedAt: (done.startedAt ?? new Date()).toISOString(),
    durationMs: done.durationMs ?? 0,
    worker: 'test',
    attempt: 1,
  };
  assert.equal(await recordResult({ db: judge.db, queues: judge.queues }, again), 'duplicate');
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 1);
  assert.equal(await judge.db.participant.count({ where: { matchId: id } }), 4);
  const after = await judge.db.match.findUniqueOrThrow({ where: { id } });
  assert.deepEqual(after.finishedAt, done.finishedAt);
});

test('the recorder down for a while: results wait in the queue and are all recorded when it returns', async () => {
  await judge.stopRecorder();
  const ids = [await builtinMatch(20, 1), await builtinMatch(20, 2), await builtinMatch(20, 3)];
  await waitFor('three results waiting', async () => ((await judge.queues.results.getJobCounts('waiting')).waiting ?? 0) >= 3);
  for (const id of ids) {
    const m = await judge.db.match.findUniqueOrThrow({ where: { id } });
    assert.ok(m.status === 'queued' || m.status === 'running', 'nothing recorded while the recorder is down');
  }
  await judge.startRecorder();
  await waitFor('all three recorded', async () => (await judge.db.match.count({ where: { id: { in: ids }, status: 'done' } })) === 3);
  assert.equal(await judge.db.replay.count({ where: { matchId: { in: ids } } }), 3);
  const seeds = (await judge.db.match.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })).map((m) => m.seed);
  assert.deepEqual(seeds, [1, 2, 3]);
  await waitFor('the results queue to drain', async () => {
    const c = await judge.queues.results.getJobCounts('waiting', 'active', 'failed');
    return c.waiting === 0 && c.active === 0 && c.failed === 0;
  });
});
