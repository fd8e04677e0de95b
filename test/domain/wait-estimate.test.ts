// The wait estimate counts the gate work still to come as the recent gates
// really were (a gate stops at its first loss, most play fewer than four Dummy
// matches; some never compile or fail self-play), not four Dummy matches for
// every gate: the 2.1x too long estimate of issue 35.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dummiesStillToPlay, expectedWait, GATE_LENGTH_PRIOR, gateLengthsOf } from '../../src/domain/queue-overview.ts';

const work = {
  compiling: 2,
  inSelfPlay: 1,
  selfplay: { queued: 1, running: 0 },
  dummy: { queued: 2, running: 1 },
  otherRunning: [],
  submissions: 4,
};
const durations = { selfplay: 8, dummy: 10, ranked: null, tournament: null, challenge: null };

test("the gates' lengths from the verdicts: who compiled, who passed self-play, the Dummy matches they played", () => {
  const four = [
    { status: 'rejected', reasonDetail: { step: 'compile', code: 'compile-error' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'selfplay', code: 'selfplay-frozen' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'dummy', code: 'lost' }, dummies: 1 },
    { status: 'qualified', reasonDetail: null, dummies: 4 },
  ];
  // Many verdicts: the shares are what the gates did (3 of 4 compiled, 2 of 4 played Dummy matches, 2.5 each), the prior's
  // GATE_LENGTH_PRIOR longest gates weigh little.
  const many = gateLengthsOf(Array.from({ length: 50 }, () => four).flat());
  assert.deepEqual(many, { samples: 200, selfplayShare: 0.76, dummyShare: 0.51, dummiesPerGate: 2.57 });
  // A few verdicts are drawn towards the longest gate: (3 + 5) / (4 + 5) compiled, (2 + 5) / 9 played Dummies, (1 + 4 + 5 x 4) / 7 each.
  assert.equal(GATE_LENGTH_PRIOR, 5);
  assert.deepEqual(gateLengthsOf(four), { samples: 4, selfplayShare: 0.89, dummyShare: 0.78, dummiesPerGate: 3.57 });
  // A deadline's first verdicts are the files that do not compile: not a promise that no gate will play a match.
  const broken = gateLengthsOf([four[0]!, four[0]!]);
  assert.ok(broken!.selfplayShare >= 0.7 && broken!.dummyShare >= 0.7, JSON.stringify(broken));
  // On two runners a gate lost at its first Dummy match played the second beside it (dropped, but it took a runner).
  const lostFirst = Array.from({ length: 100 }, () => four[2]!);
  assert.equal(gateLengthsOf(lostFirst, 1)!.dummiesPerGate, 1.14);
  assert.equal(gateLengthsOf(lostFirst, 2)!.dummiesPerGate, 2.1);
  assert.equal(gateLengthsOf(lostFirst, 8)!.dummiesPerGate, 4, 'never more than the four');
  assert.equal(gateLengthsOf([]), null);
});

test('the work ahead counts the matches still to come as the recent gates played them', () => {
  const lengths = { samples: 4, selfplayShare: 0.75, dummyShare: 0.5, dummiesPerGate: 2.5 };
  const learned = expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work, lengths });
  // Self-plays: 2 unchecked x 0.75 to come + 1 queued = 2.5, x 8 s = 20. Dummy matches: 2 unchecked x 0.5 x 2.5 + 1 in self-play
  // x (0.5 / 0.75) x 2.5 = 4.17 to come + 2 queued, x 10 s = 61.7, + 1 running x 10 / 2 = 66.7. (20 + 66.7) / 2 runners = 43.3 s,
  // then its own gate, 1 + 8 + 2 x 10 = 29 s.
  assert.equal(learned.seconds, 72);
  assert.deepEqual(learned.ahead, { submissions: 4, checks: 2, selfplays: 3, dummies: 7, otherRunning: 0 });
  // Before any verdict: every gate as long as it can be (four Dummy matches each), as before.
  const assumed = expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work, lengths: null });
  assert.equal(assumed.seconds, 114);
  assert.equal(assumed.ahead.dummies, 15);
});

test("a gate's queued Dummy matches count as many as the recent gates went on to play, not all four", () => {
  const row = (submissionId: number, status: string, n: number) => ({ submissionId, gateStep: 'dummy', status, _count: { _all: n } });
  const lengths = { samples: 50, selfplayShare: 0.9, dummyShare: 0.8, dummiesPerGate: 2.2 };
  const rows = [
    // Just started: four queued, 2.2 of them expected.
    row(1, 'queued', 4),
    // Two on the runners, two queued: 0.2 more expected.
    row(2, 'running', 2),
    row(2, 'queued', 2),
    // One won, one running, two queued: 0.2 more expected too.
    row(3, 'done', 1),
    row(3, 'running', 1),
    row(3, 'queued', 2),
    // A self-play row is not a Dummy match.
    { submissionId: 4, gateStep: 'selfplay', status: 'queued', _count: { _all: 1 } },
  ];
  assert.equal(dummiesStillToPlay(rows, lengths), 2.6);
  // A gate past the recent length expects none more (never below zero).
  assert.equal(dummiesStillToPlay([row(5, 'done', 3), row(5, 'queued', 1)], lengths), 0);
  // Before any verdict, every queued match counts.
  assert.equal(dummiesStillToPlay(rows, null), 4 + 2 + 2);
});
