// The worker pool alone decides whether a failed match is played again, from
// the failure's type (faultOf): the judge's machinery is tried again, a spec
// the judge cannot play is recorded failed at once, and neither freezes a bot.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxInfraError } from '../../src/match/bot-host.ts';
import { MatchSpecError } from '../../src/sandbox/entries/play-match.ts';
import { createMatch, enqueueMatch } from '../../src/domain/match-setup.ts';
import { faultOf } from '../../src/jobs/worker/pool.ts';
import { waitFor } from '../helpers/queue.ts';
import { startTestJudge, type TestJudge } from '../helpers/judge.ts';

let judge: TestJudge;

before(async () => {
  judge = await startTestJudge({ workers: 1 });
});
after(async () => {
  await judge?.close();
});

test("faultOf: the judge's machinery, a spec that cannot be played, anything else of the judge's", () => {
  assert.equal(faultOf(new SandboxInfraError('the match process died')), 'infra');
  assert.equal(faultOf(new MatchSpecError('bad seed')), 'spec');
  // As it comes back from a match process: a plain Error that kept its name.
  assert.equal(faultOf(Object.assign(new Error('moria needs 4 players'), { name: 'MatchSpecError' })), 'spec');
  assert.equal(faultOf(new TypeError('an engine bug')), 'judge');
  assert.equal(faultOf('a string'), 'judge');
});

test('a match whose spec cannot be played is recorded failed on its first attempt, not played again', async () => {
  // Three seats for a four-player game: no attempt could ever play it.
  const id = await createMatch(judge.db, {
    game: 'moria',
    kind: 'challenge',
    seed: 9,
    config: { nb_rounds: 5 },
    seats: ['Null', 'Null', 'Null'].map((builtinName) => ({ builtinName })),
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
  assert.match(m.error ?? '', /needs 4 players, got 3/);
  assert.equal(m.attempts, 1, 'played once: the pool does not try a spec it cannot play again');
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 0);
});
