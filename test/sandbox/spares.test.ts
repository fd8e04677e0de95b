// A bot's isolate kept for its next match in the same process (isolate-host.ts,
// Spare): nothing the bot made in one match is there in the next, only the
// same code gets it back, and a bot that broke a rule leaves none. Run here,
// in this process, with gc() exposed as a match process has it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { compileBot } from '../../sandbox/compile.ts';
import { buildPrelude } from '../../sandbox/prelude.ts';
import { disposeSpares, IsolateBotHost, spareCount } from '../../sandbox/isolate-host.ts';
import type { LoadRequest, PlayRequest } from '../../sandbox/host.ts';
import { LOG_CAP_BYTES } from '../../src/limits.ts';
import tally from '../fixtures/tally/index.ts';
import { bot } from './helpers.ts';

// What the match process gets from --expose-gc, for the isolates made from now on.
setFlagsFromString('--expose-gc');

after(() => disposeSpares());

async function request(name: string, body: string, memoryMb = 64): Promise<LoadRequest> {
  const seat = bot(name, body);
  return {
    prelude: await buildPrelude(tally),
    code: await compileBot(seat.source, seat.filename, 'tally'),
    filename: seat.filename,
    me: 1,
    seed: 11,
    cpuBudgetMs: 5000,
    memoryMb,
    logCapBytes: LOG_CAP_BYTES,
  };
}

/** One match of `rounds` calls (each with the first round's view): what each call logged, and whether every call went well. */
function playMatch(req: LoadRequest, rounds: number): { logs: string[]; ok: boolean; load: string } {
  const host = new IsolateBotHost();
  const loaded = host.loadSync(req);
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.message);
  const view = tally.encodeView(tally.create(tally.parseConfig({ nb_rounds: rounds }), 11));
  const logs: string[] = [];
  let ok = true;
  for (let r = 0; r < rounds; r++) {
    const play: PlayRequest = { names: JSON.stringify(Object.keys(view)), status: JSON.stringify({ status: [0, 0, 0, 0], names: ['a', 'b', 'c', 'd'] }), arrays: Object.values(view) };
    const reply = host.playSync(play);
    logs.push(reply.log);
    ok &&= reply.ok;
  }
  host.closeSync();
  return { logs, ok, load: loaded.log };
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
  const req = await request('Tamperer', TAMPERER);
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
  const mine = await request('Tamperer', TAMPERER);
  playMatch(mine, 2);
  const other = await request('Reader', `play() { console.log(String(globalThis.count) + ' ' + typeof Array.prototype.mine); add(1); }`);
  const out = playMatch(other, 1);
  assert.equal(out.logs[0], 'undefined undefined\n');
  assert.equal(spareCount(), 2, "each bot's own spare");
});

test('a bot that broke a rule leaves no spare', async () => {
  disposeSpares();
  const thrower = await request('Thrower', `play() { this.calls = (this.calls ?? 0) + 1; if (this.calls === 2) throw new Error('no'); add(1); }`);
  const out = playMatch(thrower, 3);
  assert.equal(out.ok, false);
  assert.equal(spareCount(), 0);
});
