// The compile checks' own lane: a check never waits for a match to end (the
// only match runner is busy with a long match, and the check's verdict still
// comes within seconds); a file that does not compile claims nothing (its name
// is free for another user as soon as it is rejected); a check the judge could
// not do is tried again by the sweep, never turned into a rejection.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestJudge } from '../helpers/judge.ts';
import { bot } from '../helpers/app.ts';
import { waitFor } from '../helpers/queue.ts';
import { createMatch, enqueueMatch } from '../../src/domain/match-setup.ts';
import { startGate } from '../../src/domain/gate.ts';
import { sweep } from '../../src/jobs/scheduler/sweep.ts';
import { Worker } from 'bullmq';
import { CHECKS_QUEUE, checkJobId, matchJobId, redisOptions } from '../../src/queue/index.ts';

const judge = await startTestJudge({ concurrency: 1 });
after(() => judge.close());

test('a check is done while the only match runner plays a long match; the name of a file that did not compile is free at once', {
  timeout: 180_000,
}, async () => {
  await judge.user('ana');
  const anaId = (await judge.db.user.findFirstOrThrow({ where: { username: 'ana' } })).id;
  // A long match: four copies of a bot that spends 5 ms of CPU a round, over 1000 rounds.
  const source = bot('Spinner', 'moria', 'const t = Date.now(); while (Date.now() - t < 5) {}');
  const player = await judge.db.playerName.create({ data: { game: 'moria', name: 'Spinner', nameLower: 'spinner', ownerId: anaId } });
  const spinner = await judge.db.submission.create({
    data: { playerId: player.id, userId: anaId, game: 'moria', version: 1, source, filename: 'Spinner.ts', sizeBytes: source.length, status: 'qualified' },
  });
  const seat = { submissionId: spinner.id, playerId: player.id, name: 'Spinner' };
  const long = await createMatch(judge.db, { game: 'moria', kind: 'challenge', config: { nb_rounds: 1000 }, seats: [seat, seat, seat, seat] });
  await enqueueMatch(judge.db, judge.queues, long);
  const row = await judge.db.match.findUniqueOrThrow({ where: { id: long } });
  const longJob = await judge.queues.matches.getJob(matchJobId(long, row.createdAt));
  await waitFor('the long match running', async () => (await longJob!.getState()) === 'active', 60_000, 50);

  // Bob's file parses (esbuild) but throws when loaded: the gate's check rejects it.
  const bob = await judge.user('bob');
  const broken = bot('Claimed', 'moria').replace('export default class', "throw new Error('broken at load');\nexport default class");
  const started = Date.now();
  const up = await judge.submit(bob, broken);
  assert.equal(up.statusCode, 202, JSON.stringify(up.body));
  const verdict = await judge.verdict(Number(up.body.id), 60_000);
  const seconds = (Date.now() - started) / 1000;
  assert.equal(verdict.status, 'rejected');
  assert.match(verdict.reason, /^compile error: .*broken at load/);
  assert.equal((await longJob!.getState()) === 'active', true, `the long match still runs: the check did not wait for it (verdict in ${seconds} s)`);

  // Carl takes the name at once: a file that never compiled claimed nothing.
  const carl = await judge.user('carl');
  const taken = await judge.submit(carl, bot('Claimed', 'moria'));
  assert.equal(taken.statusCode, 202, JSON.stringify(taken.body));
  assert.equal(taken.body.player, 'Claimed');
  // Bob, whose file compiled nowhere, is now refused the name as anyone else would be.
  const again = await judge.submit(bob, bot('Claimed', 'moria'));
  assert.equal(again.statusCode, 409, JSON.stringify(again.body));
  assert.equal(again.body.code, 'name-taken');
  await judge.queues.matches.remove(matchJobId(long, row.createdAt)).catch(() => {});
});

test('a check that failed every attempt (the judge could not do it) is tried again by the sweep, not rejected', { timeout: 60_000 }, async () => {
  await judge.stopRecorder();
  for (const w of judge.workers.splice(0)) await w.stop();
  const dan = await judge.user('dan');
  const up = await judge.submit(dan, bot('Retried', 'moria'));
  assert.equal(up.statusCode, 202);
  const sub = await judge.db.submission.findUniqueOrThrow({ where: { id: Number(up.body.id) } });
  const jobId = checkJobId(sub.id, sub.createdAt);
  // What a worker's last failed attempt leaves: the job failed, no result.
  const manual = new Worker(CHECKS_QUEUE, null, { connection: redisOptions(judge.redisUrl), prefix: judge.prefix });
  const job = await manual.getNextJob('test-token');
  assert.equal(job?.id, jobId);
  job.opts.attempts = 1; // its last attempt
  await job.moveToFailed(new Error('the compiler could not run'), 'test-token', false);
  await manual.close();
  assert.equal(await (await judge.queues.checks.getJob(jobId))!.getState(), 'failed');
  await judge.db.submission.update({ where: { id: sub.id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
  const report = await sweep({ db: judge.db, queues: judge.queues });
  assert.equal(report.retried, 1);
  assert.equal(await (await judge.queues.checks.getJob(jobId))!.getState(), 'prioritized', 'waiting again');
  assert.equal((await judge.db.submission.findUniqueOrThrow({ where: { id: sub.id } })).status, 'queued', 'not rejected');
  // Workers back: the same check is done and the gate goes on.
  await judge.addWorker({ concurrency: 1 });
  await judge.startRecorder({ config: { nb_rounds: 40 } });
  await waitFor('the check done', async () => (await judge.db.submission.findUniqueOrThrow({ where: { id: sub.id } })).status !== 'queued', 30_000);
  await startGate({ db: judge.db, queues: judge.queues }, sub.id); // late: nothing new
});
