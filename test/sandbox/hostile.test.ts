// What one bot controls stays its own: its name is its header's whatever its
// code computes, what it throws or logs is cut to a few KiB before it leaves
// its process, and its memory is held on the process, not only on the heap.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import tally from '../fixtures/tally/index.ts';
import { playMatchWithGame } from '../../src/sandbox/entries/play-match.ts';
import { encodeReplay } from '../../src/match/replay-io.ts';
import type { MatchSeat } from '../../src/match/types.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';
import { adder, bot, assertOthersUnaffected, playAgainstAdders } from './helpers.ts';

after(() => sharedPool.shutdown());

const seat = (filename: string, source: string): MatchSeat => ({ filename, source });

/** Logs every name it is shown, each round. */
const watcher = seat(
  'Watcher.js',
  `export const GAME = 'tally';\nexport const PLAYER_NAME = 'Watcher';\nexport default class extends Player {\n  play() { console.log('names ' + JSON.stringify([0, 1, 2, 3].map((p) => name(p)))); add(1); }\n}\n`,
);

test("the name every bot sees and the replay shows is the header's, whatever PLAYER_NAME evaluates to at run time", async () => {
  // 16 MB computed at load; the header reads "Big".
  const big = seat(
    'Big.js',
    `export const GAME = 'tally';\nexport const PLAYER_NAME = 'Big' + 'x'.repeat(16 << 20);\nexport default class extends Player { play() { add(1); } }\n`,
  );
  // The header the judge reads is the comment's; the code says something else as player 0 with seed 1 (the compile check) and markup otherwise.
  const sly = seat(
    'Sly.js',
    `// export const PLAYER_NAME = 'Sly'\nexport const GAME = 'tally';\nexport const PLAYER_NAME = me() === 0 ? 'Sly' : '<img src=x onerror=alert(1)>Dummy';\nexport default class extends Player { play() { add(1); } }\n`,
  );
  const rounds = 12;
  const out = await playMatchWithGame(tally, {
    game: 'tally',
    seed: 3,
    config: { nb_rounds: rounds },
    limits: { memoryMb: 64 },
    seats: [adder, big, sly, watcher],
  });
  assert.deepEqual(
    out.replay.players.map((p) => p.name),
    ['Adder', 'Big', 'Sly', 'Watcher'],
  );
  for (const p of out.replay.players) assert.equal(p.frozenReason, null, `${p.name}: ${p.frozenMessage}`);
  assert.deepEqual(out.replay.result.scores, [rounds, rounds, rounds, rounds]);
  const seen = out.logs[3]!.split('\n').filter((l) => l.startsWith('names '));
  assert.equal(seen.length, rounds);
  for (const line of seen) assert.equal(line, 'names ["Adder","Big","Sly","Watcher"]');
  assert.ok(encodeReplay(out.replay).length < 50_000, 'nothing the bots computed is in the replay');
});

for (const mb of [8, 48]) {
  test(`a bot throwing a ${mb} MB message makes a small replay and a small result`, async () => {
    const out = await playAgainstAdders(
      bot(`Throw${mb}`, `play() { add(1); if (round() === 2) throw new Error('m'.repeat(${mb} << 20)); }`),
      { memoryMb: 128 },
      6,
    );
    const p = out.replay.players[1]!;
    assert.equal(p.frozenReason, 'exception', p.frozenMessage?.slice(0, 200) ?? '');
    assert.equal(p.frozenRound, 3);
    assert.match(p.frozenMessage!, /^Error: mmmm/);
    assert.ok(p.frozenMessage!.length <= 2200, `message of ${p.frozenMessage!.length} chars`);
    assertOthersUnaffected(out, 6);
    // What the worker puts on the results queue: the gzipped replay, the logs and the players.
    const job = JSON.stringify({ replayGz: encodeReplay(out.replay).toString('base64'), logs: out.logs, players: out.replay.players });
    assert.ok(job.length < 100_000, `result of ${job.length} bytes`);
  });
}

test('a thrown non-Error value and a huge stack are cut too', async () => {
  const out = await playAgainstAdders(
    bot('Odd', `play() { add(1); if (round() === 1) { const e = new Error('short'); e.stack = 'Error: short\\n' + 's'.repeat(4 << 20); throw e; } }`),
    { memoryMb: 128 },
    4,
  );
  assert.equal(out.replay.players[1]!.frozenReason, 'exception');
  assert.ok(out.replay.players[1]!.frozenMessage!.length <= 2200);
  const str = await playAgainstAdders(bot('Str', `play() { add(1); if (round() === 1) throw 'z'.repeat(8 << 20); }`), { memoryMb: 128 }, 4);
  assert.equal(str.replay.players[1]!.frozenReason, 'exception');
  assert.ok(str.replay.players[1]!.frozenMessage!.length <= 2200);
  assert.ok(str.logs[1]!.length < 4000, `log of ${str.logs[1]!.length} chars`);
});

/** Highest VmHWM (peak RSS, MiB) among the pool's match processes while `run` runs, in fresh processes. */
async function peakRss<T>(run: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  sharedPool.shutdown();
  let peak = 0;
  const poll = setInterval(() => {
    for (const pid of sharedPool.pids) {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        /* gone */
      }
    }
  }, 2);
  try {
    return { value: await run(), peakMb: peak };
  } finally {
    clearInterval(poll);
  }
}

/** Peak RSS of a match process playing honest bots: what Node, isolated-vm, the engine and four isolates take before any bot grows. */
let honestPeakMb = 0;
async function honestPeak(): Promise<number> {
  if (!honestPeakMb) honestPeakMb = (await peakRss(() => playAgainstAdders(bot('Calm', `play() { add(1); }`), { memoryMb: 128 }, 4))).peakMb;
  return honestPeakMb;
}

test('a bot building huge strings is frozen for memory with its process near the limit', async () => {
  // Each doubling flattens into a new string of up to hundreds of MB in one allocation.
  const hog = bot(
    'Hog',
    `play() { add(1); if (round() === 1) { let s = 'x'.repeat(1 << 20); const keep = []; for (;;) { s = s + s; keep.push(s.toUpperCase()); } } }`,
  );
  const { value: out, peakMb } = await peakRss(() => playAgainstAdders(hog, { memoryMb: 128, cpuBudgetMs: 20000 }, 4));
  const p = out.replay.players[1]!;
  assert.equal(p.frozenReason, 'memory', `${p.frozenReason}: ${p.frozenMessage}`);
  assert.equal(p.frozenRound, 2);
  assert.ok(p.cpuMs > 0, 'the CPU it used is recorded');
  assertOthersUnaffected(out, 4);
  // 128 MiB for the bot on top of what the process takes with honest bots, plus the watcher's headroom (32 MiB) and a poll's worth of growth.
  const base = await honestPeak();
  assert.ok(peakMb > 0 && peakMb < base + 128 + 64, `peak RSS of the match process: ${Math.round(peakMb)} MiB (${Math.round(base)} MiB with honest bots)`);
});

test('a bot growing many strings is frozen for memory with its process near the limit', async () => {
  const hog = bot(
    'Many',
    `play() { add(1); if (round() === 1) { const keep = []; for (let i = 0;; i++) { const a = new Array(1 << 16).fill('abcdefgh' + i); keep.push(a.join('')); } } }`,
  );
  const { value: out, peakMb } = await peakRss(() => playAgainstAdders(hog, { memoryMb: 128, cpuBudgetMs: 20000 }, 4));
  assert.equal(out.replay.players[1]!.frozenReason, 'memory');
  const base = await honestPeak();
  assert.ok(peakMb > 0 && peakMb < base + 128 + 64, `peak RSS of the match process: ${Math.round(peakMb)} MiB (${Math.round(base)} MiB with honest bots)`);
});
