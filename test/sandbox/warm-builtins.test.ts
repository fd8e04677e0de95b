// The shipped built-in players keep a warm context between matches in a match
// process, one per built-in shared by its seats (inprocess-host.ts,
// WarmBuiltinHost): their matches must be the ones a fresh context per seat plays. Each game's Dummies, Demos and Nulls play matches one
// after another in one match process, and every replay must equal the same
// match played in-process, where each bot gets a new context.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSeat } from '../../src/match/builtins.ts';
import { playMatch, resolveSpec } from '../../src/sandbox/entries/play-match.ts';
import { playResolvedMatch } from '../../src/sandbox/match-process/play-resolved.ts';
import { compileSeat } from '../../src/sandbox/languages/compile-seat.ts';
import { dropWarmBuiltins, warmBuiltinCount } from '../../src/sandbox/hosts/builtin-host.ts';
import { getGame } from '../../src/games/registry.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';

after(() => sharedPool.shutdown());

/** What decides a match: every round's orders, frame and scores, and the result. */
function decisions(replay: Awaited<ReturnType<typeof playMatch>>['replay']) {
  return {
    rounds: replay.rounds.map((r) => ({ orders: r.orders, frame: r.frame, scores: r.scores, frozen: r.frozen })),
    result: replay.result,
    frozen: replay.players.map((p) => p.frozenReason),
  };
}

for (const game of ['moria', 'harry-potter', 'walking-dead', 'bola-de-drac']) {
  test(`${game}: built-ins in warm contexts play the matches fresh contexts play`, async () => {
    const [dummy, demo, nul] = await Promise.all(['Dummy', 'Demo', 'Null'].map((name) => builtinSeat(game, name)));
    // The second match finds the first's contexts warm, in other seats and with another seed.
    const matches = [
      { seed: 5, seats: [dummy, dummy, demo, nul] },
      { seed: 6, seats: [demo, dummy, nul, dummy] },
    ];
    for (const { seed, seats } of matches) {
      const spec = { game, seed, seats: seats.map((s) => s!) };
      const sandboxed = await playMatch(spec);
      const fresh = await playMatch(spec, { host: 'inprocess' });
      assert.deepEqual(decisions(sandboxed.replay), decisions(fresh.replay), `seed ${seed}`);
      assert.deepEqual(
        sandboxed.logs.map((l) => l.length),
        fresh.logs.map((l) => l.length),
        `seed ${seed}: the logs`,
      );
    }
  });
}

test("host 'local' plays a match of built-ins in this process, with the sandbox's decisions, and hands any other bot to the sandbox", async () => {
  const dummy = (await builtinSeat('moria', 'Dummy'))!;
  const demo = (await builtinSeat('moria', 'Demo'))!;
  const spec = { game: 'moria', seed: 11, seats: [dummy, demo, dummy, demo] };
  const local = await playMatch(spec, { host: 'local' });
  const sandboxed = await playMatch(spec);
  assert.deepEqual(decisions(local.replay), decisions(sandboxed.replay));
  // Played here: no match process counted its CPU, and the replay was not encoded by one.
  assert.equal(local.processCpuMs, undefined);
  assert.ok(sandboxed.processCpuMs !== undefined);
  // A copy of the Dummy is not the judge's code: the whole match goes to a match process.
  const copy = { ...dummy, source: `${dummy.source}\nexport const COPIED_BY = 'a student';\n` };
  const mixed = await playMatch({ ...spec, seats: [copy, demo, dummy, demo] }, { host: 'local' });
  assert.ok(mixed.processCpuMs !== undefined, 'played in a match process');
  assert.deepEqual(decisions(mixed.replay), decisions((await playMatch({ ...spec, seats: [copy, demo, dummy, demo] })).replay));
});

test("the match process's host runs only the built-ins' code in its warm node:vm contexts; any other code (a teacher's copy of the Dummy) in an isolate", async () => {
  const game = await getGame('moria');
  const dummy = (await builtinSeat('moria', 'Dummy'))!;
  const compiled = await compileSeat(dummy.source, dummy.filename, 0, 'moria');
  assert.ok('code' in compiled);
  const builtins = new Set([compiled.code]);
  const copy = { ...dummy, source: `${dummy.source}\nexport const COPIED_BY = 'a teacher';\n` };
  dropWarmBuiltins();
  const spec = resolveSpec(game, { game: 'moria', seed: 7, seats: [dummy, copy, dummy, copy] });
  const first = await playResolvedMatch(game, spec, { host: 'isolate', builtins });
  // The two built-in seats shared one context, left warm; the copies (other compiled code: a comment alone
  // would compile to the built-in's very code) ran in isolates.
  assert.equal(warmBuiltinCount(), 1);
  const second = await playResolvedMatch(game, spec, { host: 'isolate', builtins });
  assert.equal(warmBuiltinCount(), 1);
  const fresh = await playMatch(spec, { host: 'inprocess' });
  assert.deepEqual(decisions(first.replay), decisions(fresh.replay));
  assert.deepEqual(decisions(second.replay), decisions(fresh.replay));
  dropWarmBuiltins();
});

test("seats that share a built-in's context each keep their own me(), random streams, log and player, call after call", async () => {
  const { WarmBuiltinHost, InProcessBotHost } = await import('../../src/sandbox/hosts/inprocess-host.ts');
  const { bot, tallyLoad, tallyPlay } = await import('./helpers.ts');
  const seat = bot('Twin', `n = 0; play() { this.n++; console.log(me(), this.n, Math.random(), random(0, 1000)); }`);
  const load = async (me: number, seed: number) => ({ ...(await tallyLoad(seat)), me, seed });
  const calls = async (hosts: { play: InstanceType<typeof InProcessBotHost>['play'] }[]) => {
    const logs: string[] = [];
    // Interleaved, as a match calls its seats: each call finds the context last used by another seat.
    for (let round = 0; round < 3; round++) for (const host of hosts) logs.push(((await host.play(tallyPlay())) as { log: string }).log);
    return logs;
  };
  dropWarmBuiltins();
  const shared = [new WarmBuiltinHost(), new WarmBuiltinHost(), new WarmBuiltinHost()];
  const alone = [new InProcessBotHost(), new InProcessBotHost(), new InProcessBotHost()];
  for (const [i, [me, seed]] of [
    [0, 9],
    [2, 9],
    [3, 10],
  ].entries()) {
    assert.ok((await shared[i]!.load(await load(me!, seed!))).ok);
    assert.ok((await alone[i]!.load(await load(me!, seed!))).ok);
  }
  assert.equal(warmBuiltinCount(), 1, 'one context for the three seats');
  const got = await calls(shared);
  assert.deepEqual(got, await calls(alone));
  assert.equal(new Set(got).size, got.length, 'no two calls alike');
  // A seat that leaves frees its slot; a new one starts from nothing.
  await shared[1]!.close();
  const again = new WarmBuiltinHost();
  assert.ok((await again.load(await load(2, 9))).ok);
  assert.equal(((await again.play(tallyPlay())) as { log: string }).log, got[1]);
  for (const h of [...shared, again, ...alone]) await h.close();
  dropWarmBuiltins();
});
