// The judge's limits and what breaking them means, case by case: the bad bot
// is frozen with the right reason, the three others play on, and the result
// is what their orders make it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { bot, assertOthersUnaffected, playAgainstAdders } from './helpers.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';

after(() => sharedPool.shutdown());

test('an infinite loop in play() is frozen for CPU in that round', async () => {
  const out = await playAgainstAdders(bot('Loop', `play() { if (round() >= 3) for (;;) {} add(2); }`), { cpuBudgetMs: 400 });
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'cpu');
  assert.equal(p.frozenRound, 4);
  // Its budget used up, to within the one clock tick (1 ms) the CPU meter may lag by.
  assert.ok(p.cpuMs >= 399 && p.cpuMs < 1500, `cpu ${p.cpuMs}`);
  assert.equal(out.replay.result.scores[1], 6, 'three rounds of 2 before the loop');
  assertOthersUnaffected(out);
  // Ended by the stop switch, not by killing the match process: the match was played once.
  assert.equal(out.runs, 1);
});

test('an infinite loop at top level is frozen at load (round 0)', async () => {
  const out = await playAgainstAdders(bot('TopLoop', `play() { add(3); }`, 'for (;;) {}'), { cpuBudgetMs: 300 });
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'cpu');
  assert.equal(p.frozenRound, 0);
  assert.equal(out.replay.result.scores[1], 0);
  assertOthersUnaffected(out);
});

test('an infinite loop in a promise callback is frozen too', async () => {
  const out = await playAgainstAdders(bot('Promise', `play() { add(1); if (round() === 2) Promise.resolve().then(() => { for (;;) {} }); }`), {
    cpuBudgetMs: 300,
  });
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'cpu');
  assert.ok(p.frozenRound === 3 || p.frozenRound === 4, `frozen in ${p.frozenRound}`);
  assertOthersUnaffected(out);
});

test('a memory bomb by array growth is frozen for memory', async () => {
  const out = await playAgainstAdders(
    bot('Grow', `play() { add(1); if (round() === 1) { const a = []; for (;;) a.push(new Array(100000).fill(round())); } }`),
    {
      memoryMb: 64,
      cpuBudgetMs: 20000,
    },
  );
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'memory', p.frozenMessage ?? '');
  assert.equal(p.frozenRound, 2);
  assert.equal(out.replay.result.scores[1], 1);
  assertOthersUnaffected(out);
});

test('one huge allocation is frozen for memory', async () => {
  const out = await playAgainstAdders(
    bot('Huge', `play() { add(1); if (round() === 4) { this.big = new Float64Array(400 * 1024 * 1024); this.big.fill(1); } }`),
    {
      memoryMb: 64,
    },
  );
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'memory', p.frozenMessage ?? '');
  assert.equal(p.frozenRound, 5);
  assertOthersUnaffected(out);
});

test('a huge string allocation is frozen for memory', async () => {
  const out = await playAgainstAdders(
    bot('Str', `play() { add(1); if (round() === 1) { let s = 'x'; const keep = []; for (;;) { s = s + s; keep.push(s + '!'); } } }`),
    {
      memoryMb: 64,
    },
  );
  const p = out.replay.players[1]!;
  assert.ok(p.frozenReason === 'memory' || p.frozenReason === 'exception', `${p.frozenReason}: ${p.frozenMessage}`);
  assert.equal(p.frozenRound, 2);
  assertOthersUnaffected(out);
});

test('WebAssembly.Memory is not available (it would ignore the memory cap)', async () => {
  const out = await playAgainstAdders(bot('Wasm', `play() { add(1); if (round() === 2) { this.m = new WebAssembly.Memory({ initial: 16000 }); } }`));
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'exception');
  assert.match(p.frozenMessage ?? '', /WebAssembly is not defined/);
  assert.equal(p.frozenRound, 3, 'round() is 2 in the third round');
  assertOthersUnaffected(out);
});

test('SharedArrayBuffer and Atomics are gone too', async () => {
  const out = await playAgainstAdders(
    bot('Shared', `play() { add(typeof SharedArrayBuffer === 'undefined' && typeof Atomics === 'undefined' && typeof WebAssembly === 'undefined' ? 1 : 3); }`),
  );
  assert.equal(out.replay.result.scores[1], 10);
});

test('1001 orders in one round freeze the bot; 1000 do not', async () => {
  const out = await playAgainstAdders(bot('Spam', `play() { const n = round() === 5 ? 1001 : 1000; for (let i = 0; i < n; i++) add(1); }`));
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'orders');
  assert.equal(p.frozenRound, 6);
  assert.equal(out.replay.result.scores[1], 5, 'one order counts per round; round 6 orders are dropped');
  assertOthersUnaffected(out);
});

test('a throw freezes the bot with its message and line', async () => {
  const out = await playAgainstAdders(bot('Thrower', `play() {\n add(2);\n if (round() === 3) throw new Error('boom at three');\n}`));
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'exception');
  assert.match(p.frozenMessage ?? '', /boom at three/);
  assert.match(p.frozenMessage ?? '', /Thrower\.js:7:/, "the line in the author's file (the throw is on line 7)");
  assert.equal(p.frozenRound, 4);
  assert.equal(out.replay.result.scores[1], 6);
  assertOthersUnaffected(out);
});

test('1 MB of console output is capped at 64 KiB and costs nothing else', async () => {
  const out = await playAgainstAdders(bot('Chatty', `play() { console.log('y'.repeat(1 << 20)); console.error('z'); add(1); }`));
  assert.equal(out.replay.players[1]!.frozenReason, null);
  assert.equal(out.replay.result.scores[1], 10);
  assert.ok(out.logs[1]!.length <= 64 * 1024 + 200, `log is ${out.logs[1]!.length} chars`);
  assert.match(out.logs[1]!, /log truncated/);
  assertOthersUnaffected(out);
});

test('a bot that returns garbage or gives garbage orders only loses those orders', async () => {
  const out = await playAgainstAdders(
    bot('Garbage', `play() { add('x'); add({}); add(NaN); add(Infinity); add([1, 2]); add(7); if (round() % 2) add(2); return { evil: true, n: 1e9 }; }`),
  );
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, null);
  assert.equal(out.replay.result.scores[1], 10, 'five odd rounds of 2');
  assert.match(out.logs[1]!, /bad order/);
  assertOthersUnaffected(out);
});

test('fields of the player object keep their values between rounds', async () => {
  const out = await playAgainstAdders(bot('Memory', `n = 0; play() { this.n++; add(this.n === round() + 1 ? 3 : 1); }`));
  assert.equal(out.replay.result.scores[1], 30);
});

test('Math.random is seeded: the same match replays identically', async () => {
  const r = bot('Dice', `play() { add(1 + Math.floor(Math.random() * 3)); }`);
  const a = await playAgainstAdders(r);
  const b = await playAgainstAdders(r);
  assert.deepEqual(
    a.replay.rounds.map((x) => x.orders),
    b.replay.rounds.map((x) => x.orders),
  );
  assert.notEqual(a.replay.result.scores[1], 10, 'it really is random');
});

test("a match process killed from outside is the judge's failure: playMatch throws SandboxInfraError, nobody is frozen", async () => {
  const { SandboxInfraError } = await import('../../src/sandbox/match-process/match-pool.ts');
  // Kill the match's process with SIGKILL in round 3, while seat 1 is busy (the bot did nothing wrong); rounds 1 and 2 take no time.
  const match = playAgainstAdders(
    bot('Victim', `play() { add(1); if (round() === 2) { const t = Date.now(); while (Date.now() - t < 3000) {} } }`),
    { cpuBudgetMs: 20000 },
    10,
    {
      onRound: (round) => {
        if (round === 1) setTimeout(() => sharedPool.pids.forEach((pid) => process.kill(pid, 'SIGKILL')), 500);
      },
    },
  );
  await assert.rejects(match, (err: Error) => err instanceof SandboxInfraError && /SIGKILL/.test(err.message));
});

test('a real V8 catastrophic OOM kills only that match’s process: the bot is frozen for memory as if it had survived, the match completes', async () => {
  // Measured here: this allocation takes V8 into its last-resort collections
  // and then its fatal out-of-memory error, in which a synchronous call hangs;
  // the watcher stops the match process (past the bot's resident memory, or
  // once the call's thread sleeps), and the match is played again with the
  // bot frozen in that round.
  const out = await playAgainstAdders(bot('Fatal', `play() { add(1); if (round() === 2) { this.a = new Array(2 ** 27).fill(1.5); } }`), { memoryMb: 64 });
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'memory', `${p.frozenReason}: ${p.frozenMessage}`);
  assert.equal(p.frozenRound, 3);
  assert.equal(out.replay.result.scores[1], 2);
  assertOthersUnaffected(out);
  // The CPU of the fatal call counts (the watcher notes it as the call runs): filling 2^27 doubles takes real work.
  const before = out.replay.rounds[2]!.cpuMs[1]!;
  assert.match(p.frozenMessage ?? '', /crashed V8|out of memory|memory limit of 64 MiB exceeded/);
  assert.ok(p.cpuMs - before > 5, `CPU recorded for the fatal round: ${p.cpuMs - before} ms`);
});
