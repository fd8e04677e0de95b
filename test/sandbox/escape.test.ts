// Escape attempts. Each suspect adds 3 if it got anything out of the isolate
// and 1 otherwise, so a score of exactly one per round proves it got nothing,
// and the adders' scores prove nobody else was touched.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { playMatchWithGame } from '../../src/sandbox/entries/play-match.ts';
import tally from '../fixtures/tally/index.ts';
import { adder, bot, assertOthersUnaffected, playAgainstAdders } from './helpers.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';

after(() => sharedPool.shutdown());

function assertContained(out: Awaited<ReturnType<typeof playAgainstAdders>>) {
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, null, `${p.frozenReason}: ${p.frozenMessage}`);
  assert.equal(out.replay.result.scores[1], 10, out.logs[1]);
  assertOthersUnaffected(out);
}

test('constructor.constructor reaches only the isolate’s own Function', async () => {
  const out = await playAgainstAdders(
    bot(
      'Ctor',
      `play() {
        let escaped = false;
        const probes = [this.constructor.constructor, (() => {}).constructor, add.constructor, Player.constructor, Object.getPrototypeOf(async function () {}).constructor];
        for (const F of probes) {
          try {
            const g = F('return this')();
            if (g && (typeof g.process === 'object' || typeof g.Buffer === 'function' || typeof g.setTimeout === 'function')) escaped = true;
          } catch (e) {}
          try {
            const p = F('return process')();
            if (p && typeof p.then === 'function') p.then(() => {}, () => {});
            else if (p) escaped = true;
          } catch (e) {}
        }
        add(escaped ? 3 : 1);
      }`,
    ),
  );
  assertContained(out);
});

test('import() of node modules fails, from the bot and from eval', async () => {
  const out = await playAgainstAdders(
    bot(
      'Importer',
      `escaped = false;
      play() {
        if (round() === 0) {
          const mark = () => { this.escaped = true; };
          try { import('node:fs').then(mark, () => {}); } catch (e) {}
          try { eval("import('fs')").then(mark, () => {}); } catch (e) {}
          try { new Function("return import('child_process')")().then(mark, () => {}); } catch (e) {}
          try { require('fs'); this.escaped = true; } catch (e) {}
        }
        add(this.escaped ? 3 : 1);
      }`,
    ),
  );
  assertContained(out);
});

test('globalThis holds nothing of Node, isolated-vm or the host', async () => {
  const out = await playAgainstAdders(
    bot(
      'Globals',
      `play() {
        const names = [];
        let o = globalThis;
        while (o) { names.push(...Object.getOwnPropertyNames(o)); o = Object.getPrototypeOf(o); }
        const bad = ['process', 'Buffer', 'global', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'ivm', '_ivm', 'isolated_vm', 'module', 'exports', '__arbiter', 'WebAssembly', 'SharedArrayBuffer', 'Atomics'];
        const found = bad.filter((n) => names.includes(n) && globalThis[n] !== undefined);
        if (found.length) console.log('found ' + found.join(','));
        add(found.length ? 3 : 1);
      }`,
    ),
  );
  assertContained(out);
});

test('prototype tampering with the API and intrinsics hurts only the bot: orders stay honest', async () => {
  const out = await playAgainstAdders(
    bot(
      'Tamper',
      `play() {
        Player.prototype.me = () => 0;
        globalThis.me = () => 0;
        Array.prototype.toJSON = function () { return [3]; };
        Object.prototype.toJSON = function () { return [[3]]; };
        JSON.stringify = () => '[[3],[3]]';
        JSON.parse = () => [[3]];
        String.prototype.slice = () => '[[3]]';
        Array.prototype.push = function () { return 0; };
        add(1);
      }`,
    ),
  );
  assertContained(out);
});

test('two bots of a match share nothing: globals set by one are not seen by another', async () => {
  const writer = bot('Writer', `play() { globalThis.leak = 42; Object.prototype.leaked = 1; add(1); }`);
  const reader = bot('Reader', `play() { add(typeof leak === 'undefined' && ({}).leaked === undefined ? 1 : 3); }`);
  const out = await playMatchWithGame(tally, { game: 'tally', seed: 3, seats: [adder, writer, reader, adder] });
  assert.deepEqual(out.replay.result.scores, [10, 10, 10, 10]);
});

test('a file without PLAYER_NAME, GAME or a player class is refused at load with a clear message', async () => {
  const cases: [string, RegExp][] = [
    [`export const GAME = 'tally'; export default class extends Player { play() {} }`, /PLAYER_NAME/],
    [`export const PLAYER_NAME = 'X'; export default class extends Player { play() {} }`, /GAME/],
    [`export const GAME = 'tally'; export const PLAYER_NAME = 'X';`, /player class/],
    [`export const GAME = 'moria'; export const PLAYER_NAME = 'X'; export default class extends Player { play() {} }`, /declares GAME = "moria"/],
    [
      `export const GAME = 'tally'; export const PLAYER_NAME = 'X'; export default class extends Player { play() { }`,
      /x\.ts:1:\d+: Expected .* but found end of file/,
    ],
    [
      `import fs from 'fs'; const used = fs; export const GAME = 'tally'; export const PLAYER_NAME = 'X'; export default class extends Player { play() {} }`,
      /cannot import "fs"/,
    ],
  ];
  for (const [source, message] of cases) {
    const out = await playAgainstAdders({ source, filename: 'x.ts' });
    const p = out.replay.players[1]!;
    assert.equal(p.frozenReason, 'compile', source);
    assert.equal(p.frozenRound, 0);
    assert.match(p.frozenMessage ?? '', message);
    assertOthersUnaffected(out);
  }
});

test('TypeScript bots have their types stripped', async () => {
  const out = await playAgainstAdders({
    source: `export const GAME: string = 'tally';\nexport const PLAYER_NAME = 'Typed';\ninterface Plan { k: number }\nexport default class extends Player {\n  private plan: Plan = { k: 2 };\n  play(): void { add(this.plan.k as number); }\n}\n`,
    filename: 'typed.ts',
  });
  assert.equal(out.replay.players[1]!.name, 'Typed');
  assert.equal(out.replay.result.scores[1], 20);
});

test('an unhandled promise rejection counts as a throw', async () => {
  const out = await playAgainstAdders(bot('Reject', `async play() { add(1); if (round() === 1) await Promise.reject(new Error('async boom')); }`));
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'exception');
  assert.match(p.frozenMessage ?? '', /async boom/);
  assert.equal(p.frozenRound, 2);
  assertOthersUnaffected(out);
});
