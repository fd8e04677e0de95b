// The pieces a match's replay passes through on its way out of the match
// process: frames' grids as flat strings (charCodesToString) and a replay
// whose rounds are decoded from its encoding only when read (withRoundsFrom).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charCodesToString } from '../../src/sdk/grid.ts';
import { encodeReplay, withRoundsFrom } from '../../src/match/replay-io.ts';
import { playMatch } from '../../src/sandbox/entries/play-match.ts';
import { builtinSeat } from '../../src/match/builtins.ts';

test('charCodesToString gives the characters of its codes, across its 4096-code chunks', () => {
  const codes = new Uint16Array(10_000);
  for (let i = 0; i < codes.length; i++) codes[i] = 46 + (i % 7) * 5 + (i % 4096 === 0 ? 1 : 0);
  let expected = '';
  for (const c of codes) expected += String.fromCharCode(c);
  assert.equal(charCodesToString(codes), expected);
  assert.equal(charCodesToString(new Uint8Array([35, 66, 48, 46])), '#B0.');
  assert.equal(charCodesToString(new Uint8Array(0)), '');
});

test('charCodesToString gives every byte its own char code, 0x80-0x9f included (where a latin1 TextDecoder reads windows-1252)', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const high = Uint8Array.from({ length: 96 }, (_, i) => 0xa0 + i);
  for (const codes of [all, high, new Uint8Array([0x80]), new Uint8Array([46, 0x9f, 46])]) {
    const got = charCodesToString(codes);
    assert.equal(got.length, codes.length);
    for (let i = 0; i < codes.length; i++) assert.equal(got.charCodeAt(i), codes[i], `byte ${codes[i]}`);
  }
});

test('a replay with its rounds read from its encoding serializes as the original, rounds in their place, and takes a new value', async () => {
  const nul = await builtinSeat('moria', 'Null');
  const demo = await builtinSeat('moria', 'Demo');
  const { replay } = await playMatch({ game: 'moria', seed: 5, config: { nb_rounds: 6 }, seats: [demo, nul, demo, nul] }, { host: 'inprocess' });
  const gz = encodeReplay(replay);
  const lazy = withRoundsFrom(structuredClone({ ...replay, rounds: null }), gz);
  assert.deepEqual(Object.keys(lazy), Object.keys(replay));
  assert.equal(JSON.stringify(lazy), JSON.stringify(replay));
  assert.deepEqual(lazy.rounds, replay.rounds);
  assert.equal(lazy.rounds, lazy.rounds, 'decoded once, then kept');
  const other = withRoundsFrom(structuredClone({ ...replay, rounds: null }), gz);
  other.rounds = [];
  assert.deepEqual(other.rounds, []);
});
