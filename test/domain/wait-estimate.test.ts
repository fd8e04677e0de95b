// The wait estimate counts the gate work still to come as the recent gates
// really were (a gate stops at its first loss, most play fewer than four Dummy
// matches; some never compile or fail self-play), not four Dummy matches for
// every gate: the 2.1x too long estimate of issue 35.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedWait, gateLengthsOf } from '../../src/domain/queue-overview.ts';

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
  const lengths = gateLengthsOf([
    { status: 'rejected', reasonDetail: { step: 'compile', code: 'compile-error' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'selfplay', code: 'selfplay-frozen' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'dummy', code: 'lost' }, dummies: 1 },
    { status: 'qualified', reasonDetail: null, dummies: 4 },
  ]);
  assert.deepEqual(lengths, { samples: 4, selfplayShare: 0.75, dummyShare: 0.5, dummiesPerGate: 2.5 });
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
