import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { bot, playAgainstAdders } from './helpers.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';

after(() => sharedPool.shutdown());

test('a bot can read every player’s declared name', async () => {
  const out = await playAgainstAdders(bot('Reader', `play() { if (round() === 0) console.log([0, 1, 2, 3].map((p) => name(p)).join(',')); add(1); }`));
  assert.equal(out.logs[1]!.trim(), 'Adder,Reader,Adder,Adder');
});

test('a script that ran sandboxed matches exits by itself (idle sandbox processes hold nothing open)', () => {
  const script = `
    import { playMatchWithGame } from './src/sandbox/entries/play-match.ts';
    import tally from './test/fixtures/tally/index.ts';
    import { adder } from './test/sandbox/helpers.ts';
    const out = await playMatchWithGame(tally, { game: 'tally', seed: 1, seats: [adder, adder, adder, adder] });
    console.log(out.replay.result.scores.join(' '));
  `;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url).pathname,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.signal, null, 'it had to be killed: something kept the event loop alive');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), '10 10 10 10');
});
