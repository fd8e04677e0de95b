// The Dummy gate end to end: the API takes a submission, real worker
// processes compile and play it in the sandbox, the recorder writes the
// verdict. the judge's qualification and player-name rules.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { botAs, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../helpers/judge.ts';
import { startGate } from '../../src/domain/gate.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARBITER_BIN } from '../helpers/cli.ts';

let judge: TestJudge;
let alice: string;

before(async () => {
  // The production gate: three Dummies.
  judge = await startTestJudge({ gate: { config: TEST_GATE_CONFIG }, concurrency: 4 });
  alice = await judge.user('alice');
});
after(async () => {
  await judge?.close();
});

test('a file that does not compile is rejected with "compile error", the message and the line', async () => {
  const source = botAs('Null', 'Broken', (s) => s.replace('play(): void {', 'play(): void {\n    const x = ;'));
  const line = source.split('\n').findIndex((l) => l.includes('const x = ;')) + 1;
  // The API refuses it at upload (the same check), with the line; nothing is stored.
  const refused = await judge.submit(alice, source);
  assert.equal(refused.statusCode, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.code, 'compile-error');
  assert.equal(refused.body.line, line);
  // One that reached the gate anyway (taken while the upload's compiler was down) is rejected by the compile step.
  const owner = await judge.db.user.findUniqueOrThrow({ where: { usernameLower: 'alice' } });
  const player = await judge.db.playerName.create({ data: { game: 'moria', name: 'Broken', nameLower: 'broken', ownerId: owner.id } });
  const row = await judge.db.submission.create({
    data: { playerId: player.id, userId: owner.id, game: 'moria', version: 1, source, filename: 'Broken.ts', sizeBytes: source.length },
  });
  await startGate({ db: judge.db, queues: judge.queues }, row.id);
  const sub = { body: { id: row.id } };
  const v = await judge.verdict(sub.body.id);
  assert.equal(v.status, 'rejected');
  assert.match(v.reason, /^compile error: /);
  assert.equal(v.reasonLine, line);
  assert.match(v.reason, new RegExp(`\\b${line}\\b`));
  assert.equal(v.gateMatches.length, 0, 'no match is played for a file that does not compile');
  assert.deepEqual(
    v.gate.steps.map((s: { key: string; state: string }) => `${s.key}:${s.state}`),
    ['compile:failed', 'selfplay:skipped', 'dummy-0:skipped', 'dummy-1:skipped', 'dummy-2:skipped', 'dummy-3:skipped'],
  );
  assert.equal(v.gate.failedStep, 'compile');
});

test('a bot that crashes in self-play is rejected, saying which copy froze, when and why', async () => {
  const source = botAs('Null', 'Crasher', (s) =>
    s.replace('play(): void {', 'play(): void {\n    if (round() >= 3 && me() === 2) throw new Error("boom at " + round());'),
  );
  const sub = await judge.submit(alice, source);
  assert.equal(sub.statusCode, 202);
  const v = await judge.verdict(sub.body.id);
  assert.equal(v.status, 'rejected');
  // The round is said as the bot's round() saw it (the replay stores 4: the play() that made rounds[4]).
  // me() === 2: seat 2, as arbiter play and the match page number seats (0 to 3).
  assert.match(v.reason, /^self-play: the copy in seat 2 froze in round 3 \(exception\): Error: boom at 3 \(Crasher\.ts:\d+:\d+\); see match #\d+$/);
  assert.equal(v.gateMatches.length, 1);
  const m = v.gateMatches[0];
  assert.equal(m.gateStep, 'selfplay');
  assert.equal(m.status, 'done');
  assert.ok(m.replay, 'the self-play match is stored with its replay');
  assert.equal(m.participants[2].frozen.reason, 'exception');
  assert.equal(m.participants[2].frozen.round, 4);
  assert.equal(m.participants[0].frozen, null);
  const name = await judge.db.playerName.findFirstOrThrow({ where: { nameLower: 'crasher' } });
  assert.equal(name.locked, false);
  assert.equal(name.heldAt, null, 'failed self-play: the name is held only for NAME_HOLD_HOURS');
});

test('a bot that cannot beat the Dummies is rejected with "lost to Dummy" and the match', async () => {
  const sub = await judge.submit(alice, botAs('Null', 'Loser'));
  assert.equal(sub.statusCode, 202);
  const v = await judge.verdict(sub.body.id);
  assert.equal(v.status, 'rejected');
  assert.match(v.reason, /^lost to Dummy in gate match [1-4] of 4 \(match #(\d+), seed \d+\)/);
  const lostIn = Number(/#(\d+)/.exec(v.reason)![1]);
  const steps = v.gateMatches.map((m: { gateStep: string }) => m.gateStep);
  assert.equal(steps[0], 'selfplay');
  assert.ok(steps.filter((s: string) => s === 'dummy').length >= 1);
  const lost = v.gateMatches.find((m: { id: number }) => m.id === lostIn);
  assert.ok(lost && lost.status === 'done' && lost.replay, 'the lost match is stored with its replay');
  const dummies = lost.participants.filter((p: { builtin: string | null }) => p.builtin === 'Dummy');
  assert.equal(dummies.length, 3);
  const name = await judge.db.playerName.findFirstOrThrow({ where: { nameLower: 'loser' } });
  assert.equal(name.locked, false, 'a rejected name stays open');
  assert.ok(name.heldAt, "passed self-play: the name is its owner's for good");
  // Its owner may resubmit under the same name: a new version.
  const again = await judge.submit(alice, botAs('Null', 'Loser'));
  assert.equal(again.statusCode, 202);
  assert.equal(again.body.version, 2);

  // The identical file gets the same gate: the same seeds, the same verdict, the same scores in every match both played.
  const v2 = await judge.verdict(again.body.id);
  assert.equal(v2.status, 'rejected');
  assert.match(v2.reason, /^lost to Dummy in gate match [1-4] of 4/);
  const rows = await judge.db.submission.findMany({ where: { id: { in: [sub.body.id, again.body.id] } }, orderBy: { id: 'asc' }, select: { gateSeeds: true } });
  assert.ok(Array.isArray(rows[0]!.gateSeeds) && (rows[0]!.gateSeeds as number[]).length === 5);
  assert.deepEqual(rows[1]!.gateSeeds, rows[0]!.gateSeeds);
  type M = { gateStep: string; gateIndex: number | null; seed: number; status: string; participants: { score: number | null }[] };
  const key = (m: M) => `${m.gateStep}:${m.gateIndex ?? ''}`;
  // Both as they stand now (a match running at the verdict still finishes); which Dummy match a loss stops at first may differ.
  const now = async (id: number) => (await judge.app.inject({ url: `/api/submissions/${id}` })).json().gateMatches as M[];
  const before = new Map<string, M>((await now(sub.body.id)).map((m) => [key(m), m]));
  let compared = 0;
  for (const m of await now(again.body.id)) {
    const was = before.get(key(m));
    if (!was) continue;
    assert.equal(m.seed, was.seed, `${key(m)}: the same seed`);
    if (m.status === 'done' && was.status === 'done') {
      assert.deepEqual(
        m.participants.map((p) => p.score),
        was.participants.map((p) => p.score),
        `${key(m)}: the same scores`,
      );
      compared++;
    }
  }
  assert.ok(compared >= 1, 'self-play played both times');

  // The lost match is played again, score for score, by the play line the API gives (the page and `arbiter submit` print the same).
  assert.match(lost.play, /^node arbiter\.mjs play( (Dummy|Loser\.ts)){4} --seed \d+ --set nb_rounds=40$/);
  assert.deepEqual(
    lost.play.split(' ').slice(3, 7),
    lost.participants.map((p: { builtin: string | null }) => p.builtin ?? 'Loser.ts'),
    'the seats in order',
  );
  assert.ok(lost.play.includes(`--seed ${lost.seed}`));
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-gate-replay-'));
  try {
    writeFileSync(join(dir, 'Loser.ts'), botAs('Null', 'Loser'));
    // The starter kit's line, played by the repository's `arbiter play` (which names the game).
    const args = ['play', 'moria', ...lost.play.split(' ').slice(3), '--quiet', '-o', 'again.json'];
    const run = spawnSync(process.execPath, ['--no-node-snapshot', ARBITER_BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
    assert.equal(run.status, 0, run.stderr);
    const replay = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')) as { result: { scores: number[] } };
    assert.deepEqual(
      replay.result.scores,
      lost.participants.map((p: { score: number }) => p.score),
      'arbiter play gives the recorded scores',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a submission that wins all four gate matches qualifies, its name locks, and nobody may submit under it again', async () => {
  // Walker (test/fixtures/bots/moria) surely beats three Nulls; the test gate uses Null so the outcome is certain (production uses Dummy).
  await judge.startRecorder({ opponent: 'Null', config: TEST_GATE_CONFIG });
  try {
    const sub = await judge.submit(alice, botAs('Walker', 'Winner'));
    assert.equal(sub.statusCode, 202);
    const v = await judge.verdict(sub.body.id);
    assert.equal(v.status, 'qualified', v.reason);
    assert.equal(v.reason, null);
    const dummy = v.gateMatches.filter((m: { gateStep: string }) => m.gateStep === 'dummy');
    assert.equal(dummy.length, 4);
    // The gate's view model, as the page and the CLI show it.
    assert.deepEqual(
      v.gate.steps.map((s: { label: string; state: string; matchId: number | null }) => [s.label, s.state, s.matchId !== null]),
      [['Compile', 'passed', false], ['Self-play', 'passed', true], ...[1, 2, 3, 4].map((i) => [`Match ${i} against Null`, 'won', true])],
    );
    assert.equal(v.gate.final, true);
    // The submission sat in each seat once and was strictly first each time.
    assert.deepEqual(
      dummy.map((m: { participants: { submissionId: number | null }[] }) => m.participants.findIndex((p) => p.submissionId === sub.body.id)).sort(),
      [0, 1, 2, 3],
    );
    for (const m of dummy) {
      const me = m.participants.find((p: { submissionId: number | null }) => p.submissionId === sub.body.id);
      assert.equal(me.rank, 1);
      assert.ok(m.participants.every((p: { score: number }) => p === me || p.score < me.score));
      assert.ok(m.replay);
    }
    const name = await judge.db.playerName.findFirstOrThrow({ where: { nameLower: 'winner' } });
    assert.equal(name.locked, true);
    assert.ok(name.heldAt);
    assert.equal(name.qualifiedSubmissionId, sub.body.id);
    const rating = await judge.db.rating.findUnique({ where: { playerId_game: { playerId: name.id, game: 'moria' } } });
    assert.ok(rating, 'a qualified player enters the ranked pool');

    const again = await judge.submit(alice, botAs('Walker', 'Winner'));
    assert.equal(again.statusCode, 409);
    assert.match(again.body.message, /name locked/);
    const otherCase = await judge.submit(alice, botAs('Walker', 'WINNER'));
    assert.equal(otherCase.statusCode, 409);
    const bob = await judge.user('bob');
    const taken = await judge.submit(bob, botAs('Walker', 'winner'));
    assert.equal(taken.statusCode, 409);
    assert.equal(await judge.db.submission.count({ where: { player: { nameLower: 'winner' } } }), 1);
  } finally {
    await judge.startRecorder();
  }
});
