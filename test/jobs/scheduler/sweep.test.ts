// Repairs: a submission the API could not queue (Redis down) and a match
// whose job Redis lost are picked up by the scheduler's sweep; a match the
// runner cannot play is recorded as failed with the reason, after retries.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchJobId } from '../../../src/queue/index.ts';
import { createMatch, enqueueMatch } from '../../../src/domain/match-setup.ts';
import { sweep } from '../../../src/jobs/scheduler/sweep.ts';
import { decodeReplay } from '../../../src/match/replay-io.ts';
import { waitFor } from '../../helpers/queue.ts';
import { botAs, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../../helpers/judge.ts';

let judge: TestJudge;

before(async () => {
  judge = await startTestJudge({ gate: { config: TEST_GATE_CONFIG }, workers: 1 });
});
after(async () => {
  await judge?.close();
});

test('a submission left queued (Redis was down when it arrived) is started by the sweep and judged', async () => {
  const token = await judge.user('dora');
  const user = await judge.db.user.findUniqueOrThrow({ where: { usernameLower: 'dora' } });
  assert.ok(token);
  const player = await judge.db.playerName.create({ data: { game: 'moria', name: 'Late', nameLower: 'late', ownerId: user.id } });
  const source = botAs('Null', 'Late', (s) => s.replace('play(): void {', 'play(): void {\n    const = 1;'));
  const sub = await judge.db.submission.create({
    data: { playerId: player.id, userId: user.id, game: 'moria', version: 1, source, filename: 'Late.ts', sizeBytes: source.length },
  });
  const deps = { db: judge.db, queues: judge.queues };
  assert.equal((await sweep(deps, { olderThanMs: 60_000 })).started, 0, 'too recent: the API may still be starting it');
  assert.equal((await sweep(deps, { olderThanMs: 0 })).started, 1);
  const v = await judge.verdict(sub.id);
  assert.equal(v.status, 'rejected');
  assert.match(v.reason, /^compile error/);
});

test('a match whose job Redis lost is queued again by the sweep, under the same id, and recorded', async () => {
  const limits = { cpuBudgetMs: 3000, memoryMb: 96 };
  const id = await createMatch(judge.db, {
    game: 'moria',
    kind: 'challenge',
    seed: 5,
    config: { nb_rounds: 10 },
    limits,
    seats: ['Demo', 'Null', 'Null', 'Null'].map((builtinName) => ({ builtinName })),
  });
  const row = await judge.db.match.findUniqueOrThrow({ where: { id } });
  assert.deepEqual(row.limits, limits);
  assert.equal(await judge.queues.matches.getJob(matchJobId(id, row.createdAt)), undefined);
  const report = await sweep({ db: judge.db, queues: judge.queues }, { olderThanMs: 0 });
  assert.ok(report.requeued >= 1);
  await waitFor('the match recorded', async () => (await judge.db.match.findUniqueOrThrow({ where: { id } })).status === 'done');
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 1);
  const recorded = decodeReplay(Buffer.from((await judge.db.replay.findUniqueOrThrow({ where: { matchId: id } })).data));
  assert.deepEqual(recorded.limits, limits, 'the match was played under its own limits');
  // A second sweep finds nothing to do for it.
  const again = await sweep({ db: judge.db, queues: judge.queues }, { olderThanMs: 0 });
  assert.equal(again.requeued + again.failed, 0);
});

test("a match the runner cannot play is retried, then recorded as failed with the reason (never the bot's fault)", async () => {
  const id = await createMatch(judge.db, {
    game: 'moria',
    kind: 'challenge',
    seed: 6,
    config: { nb_rounds: 0 },
    seats: ['Demo', 'Null', 'Null', 'Null'].map((builtinName) => ({ builtinName })),
  });
  await enqueueMatch(judge.db, judge.queues, id);
  const m = await waitFor(
    'the match marked failed',
    async () => {
      const row = await judge.db.match.findUniqueOrThrow({ where: { id } });
      return row.status === 'failed' ? row : null;
    },
    60_000,
  );
  assert.match(m.error ?? '', /nb_rounds/);
  assert.equal(m.attempts, 3);
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 0);
});
