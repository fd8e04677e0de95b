// A bot's isolate kept for its next match in the same process (isolate-host.ts,
// Spare): nothing the bot made in one match is there in the next, only the
// same code gets it back, and a bot that broke a rule leaves none. Run here,
// in this process, with gc() exposed as a match process has it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { callKey, disposeSpares, IsolateBotHost, spareCount } from '../../src/sandbox/hosts/isolate-host.ts';
import type { LoadRequest } from '../../src/match/bot-host.ts';
import { bot, tallyLoad, tallyPlay } from './helpers.ts';

// What the match process gets from --expose-gc, for the isolates made from now on.
setFlagsFromString('--expose-gc');

after(() => disposeSpares());

/** One match of `rounds` calls (each with the first round's view): what each call logged, and whether every call went well. */
function playMatch(req: LoadRequest, rounds: number, host = new IsolateBotHost()): { logs: string[]; ok: boolean } {
  const loaded = host.loadSync(req);
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.message);
  const logs: string[] = [];
  let ok = true;
  for (let r = 0; r < rounds; r++) {
    const reply = host.playSync(tallyPlay());
    logs.push(reply.log);
    ok &&= reply.ok;
  }
  host.closeSync();
  return { logs, ok };
}

const TAMPERER = `play() {
  globalThis.count = (globalThis.count ?? 0) + 1;
  const tampered = typeof Array.prototype.mine === 'function';
  Array.prototype.mine = () => 1;
  console.log(globalThis.count + ' ' + tampered + ' ' + Math.random().toFixed(6) + ' ' + typeof gc);
  add(1);
}`;

test('the same bot gets its isolate back for its next match, with none of its state: globals, prototypes and Math.random start afresh', async () => {
  disposeSpares();
  const req = await tallyLoad(bot('Tamperer', TAMPERER));
  const first = playMatch(req, 3);
  assert.ok(first.ok);
  assert.equal(spareCount(), 1, 'kept after a clean match');
  const second = playMatch(req, 3);
  assert.equal(spareCount(), 1, 'taken for the second match and kept again');
  assert.deepEqual(second.logs, first.logs, 'the second match replays the first exactly');
  assert.match(first.logs[0]!, /^1 false 0\.\d{6} undefined\n$/);
  assert.match(first.logs[2]!, /^3 true /);
});

test('another bot never gets that isolate', async () => {
  disposeSpares();
  const mine = await tallyLoad(bot('Tamperer', TAMPERER));
  playMatch(mine, 2);
  const other = await tallyLoad(bot('Reader', `play() { console.log(String(globalThis.count) + ' ' + typeof Array.prototype.mine); add(1); }`));
  const out = playMatch(other, 1);
  assert.equal(out.logs[0], 'undefined undefined\n');
  assert.equal(spareCount(), 2, "each bot's own spare");
});

test('a bot that broke a rule leaves no spare: a call that threw, or one past its CPU budget', async () => {
  disposeSpares();
  const thrower = await tallyLoad(bot('Thrower', `play() { this.calls = (this.calls ?? 0) + 1; if (this.calls === 2) throw new Error('no'); add(1); }`));
  assert.equal(playMatch(thrower, 3).ok, false);
  assert.equal(spareCount(), 0);
  // Its second call works well past a 10 ms budget and returns: refused for CPU without a throw. The
  // call is patient (a watchdog of seconds), so a busy machine cannot turn it into a stopped one.
  const spinner = await tallyLoad(
    bot(
      'Spinner',
      `play() { this.calls = (this.calls ?? 0) + 1; if (this.calls === 2) { let x = 1; for (let i = 0; i < 3e7; i++) x = Math.imul(x, 7) + 1; if (x === 0.5) add(2); } add(1); }`,
    ),
    { cpuBudgetMs: 10 },
  );
  assert.equal(playMatch(spinner, 3, new IsolateBotHost({ patient: new Set([callKey(1, 2)]) })).ok, false);
  assert.equal(spareCount(), 0);
});

test("a shipped built-in's code keeps its whole context warm for its next match: the runtime starts afresh (seat, Math.random, log), its module does not", async () => {
  disposeSpares();
  const req = await tallyLoad(bot('Tamperer', TAMPERER));
  const builtins = new Set([req.code]);
  const first = playMatch(req, 3, new IsolateBotHost({ builtins }));
  assert.ok(first.ok);
  const second = playMatch(req, 3, new IsolateBotHost({ builtins }));
  assert.equal(spareCount(), 1);
  // The context is the same one: what the module left on its globals is still there. Only code the
  // judge ships (which keeps nothing there) may have that; any other bot gets a new context (tests above).
  assert.match(second.logs[0]!, /^4 true /);
  // Its Math.random was seeded again for this seat and seed.
  assert.equal(second.logs[0]!.split(' ')[2], first.logs[0]!.split(' ')[2]);
  // Another seat in the same warm context draws its own numbers.
  const third = playMatch({ ...req, me: 2 }, 1, new IsolateBotHost({ builtins }));
  assert.notEqual(third.logs[0]!.split(' ')[2], first.logs[0]!.split(' ')[2]);
});
