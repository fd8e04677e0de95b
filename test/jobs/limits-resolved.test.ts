// A match's limits are merged once (resolveLimits), when its job is created:
// the job carries them resolved and the worker plays under them as they are.
// A job queued before jobs carried limits still runs: the worker resolves it
// with the same function, to the same values.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Prisma } from '../../src/db/generated/client.ts';
import { getGame } from '../../src/games/registry.ts';
import { resolveLimits } from '../../src/sdk/limits.ts';
import { checkJobId, MATCH_JOB_OPTIONS, matchJobId, type CheckJobData, type MatchJobData } from '../../src/queue/index.ts';
import { decodeReplay } from '../../src/match/replay-io.ts';
import { createMatch, enqueueMatch, matchSpecFromDb } from '../../src/domain/match-setup.ts';
import { waitFor } from '../helpers/queue.ts';
import { botAs, startTestJudge, type TestJudge } from '../helpers/judge.ts';

let judge: TestJudge;

before(async () => {
  judge = await startTestJudge({ workers: 0 });
});
after(async () => {
  await judge?.close();
});

const nulls = () => ['Null', 'Null', 'Null', 'Null'].map((builtinName) => ({ builtinName }));

test('resolveLimits: an override wins field by field over the defaults, nothing else is read', () => {
  const defaults = { cpuBudgetMs: 10_000, memoryMb: 128 };
  assert.deepEqual(resolveLimits(defaults), defaults);
  assert.deepEqual(resolveLimits(defaults, null), defaults);
  assert.deepEqual(resolveLimits(defaults, { cpuBudgetMs: 2500 }), { cpuBudgetMs: 2500, memoryMb: 128 });
  assert.deepEqual(resolveLimits(defaults, { cpuBudgetMs: 2500, memoryMb: 64 }), { cpuBudgetMs: 2500, memoryMb: 64 });
  assert.deepEqual(resolveLimits(defaults, { memoryMb: 'lots' } as never), defaults, 'a value that is not a number is not a limit');
  assert.deepEqual(Object.keys(resolveLimits(defaults, { cpuBudgetMs: 1, extra: 5 } as never)), ['cpuBudgetMs', 'memoryMb']);
});

test("a match job carries its limits resolved: the game's defaults, or an override merged over them", async () => {
  const moria = await getGame('moria');
  const plain = await createMatch(judge.db, { game: 'moria', kind: 'challenge', seed: 1, seats: nulls() });
  const tight = await createMatch(judge.db, { game: 'moria', kind: 'challenge', seed: 2, limits: { cpuBudgetMs: 2500 }, seats: nulls() });
  for (const [id, expected] of [
    [plain, moria.defaultLimits],
    [tight, { cpuBudgetMs: 2500, memoryMb: moria.defaultLimits.memoryMb }],
  ] as const) {
    await enqueueMatch(judge.db, judge.queues, id);
    const row = await judge.db.match.findUniqueOrThrow({ where: { id } });
    assert.deepEqual(row.limits, expected, 'the row records them resolved');
    const job = await judge.queues.matches.getJob(matchJobId(id, row.createdAt));
    assert.ok(job, 'the job is queued');
    assert.deepEqual((job.data as MatchJobData).spec.limits, expected, 'the job payload carries them resolved');
    await job.remove();
  }
});

test('a job queued without limits (before jobs carried them) is played by a worker under the values a new job would carry', async () => {
  const moria = await getGame('moria');
  const id = await createMatch(judge.db, { game: 'moria', kind: 'challenge', seed: 3, config: { nb_rounds: 5 }, seats: nulls() });
  // The row as an older version wrote it: no limits recorded.
  await judge.db.match.update({ where: { id }, data: { limits: Prisma.DbNull } });
  const { spec, createdAt } = await matchSpecFromDb(judge.db, id);
  assert.deepEqual(spec.limits, moria.defaultLimits, 'a new job from that row gets the defaults');
  const { limits: _dropped, ...oldSpec } = spec;
  const old: MatchJobData = { type: 'match', matchId: String(id), kind: 'challenge', spec: oldSpec };
  assert.equal('limits' in old.spec, false);
  await judge.queues.matches.add('match', old, { ...MATCH_JOB_OPTIONS, jobId: matchJobId(id, createdAt) });
  await judge.addWorker({ concurrency: 1 });
  await waitFor('the old job played and recorded', async () => (await judge.db.match.findUniqueOrThrow({ where: { id } })).status === 'done', 60_000);
  const replay = decodeReplay(Buffer.from((await judge.db.replay.findUniqueOrThrow({ where: { matchId: id } })).data));
  assert.deepEqual(replay.limits, spec.limits, 'played under the same values the scheduler resolves');
  assert.deepEqual(replay.limits, resolveLimits(moria.defaultLimits, undefined));
});

test("the gate's check job carries the game's limits resolved too", async () => {
  const moria = await getGame('moria');
  const token = await judge.user('lena');
  const res = await judge.submit(token, botAs('Null', 'Checked'));
  assert.ok(res.statusCode >= 200 && res.statusCode < 300 && res.body.id, JSON.stringify(res.body));
  const sub = await judge.db.submission.findUniqueOrThrow({ where: { id: Number(res.body.id) } });
  const job = await waitFor('the check job queued', async () => (await judge.queues.checks.getJob(checkJobId(sub.id, sub.createdAt))) ?? null);
  assert.deepEqual((job.data as CheckJobData).limits, moria.defaultLimits);
});
