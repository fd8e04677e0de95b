// The play page's C++ path outside a browser: the bots' worker script as the
// page gets it (/assets/play/worker.js) runs in node:worker_threads behind a
// Web Worker stand-in, driven by the page's own match code (playInBrowser,
// WorkerBotHost). A C++ player compiled by the judge's compile plays Bola de
// Drac against the Dummies, and the replay is the one the judge's runner
// (playMatch in its isolates) plays for the same seed and bots, but for the
// time figures. Slow: a C++ compile takes seconds with the npm toolchain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker as ThreadWorker } from 'node:worker_threads';
import { gameDir, getGame } from '../../../../src/games/registry.ts';
import { builtinSeat } from '../../../../src/match/builtins.ts';
import { playMatch } from '../../../../src/sandbox/entries/play-match.ts';
import { compileSeat } from '../../../../src/sandbox/languages/compile-seat.ts';
import type { Replay } from '../../../../src/sdk/replay-format.ts';
import { buildPrelude } from '../../../../src/sandbox/hosts/prelude.ts';
import type { AnyGame } from '../../../../src/sdk/types.ts';
import type { CompiledSeat, MatchOutcome } from '../../../../src/match/types.ts';
import { playWorkerScript } from '../../../../src/http/play-bundles.ts';
import { slow } from '../../../helpers/slow.ts';

interface PlaySeat {
  filename: string;
  source: string;
  compiled: CompiledSeat;
}
type PlayInBrowser = (game: AnyGame, o: { seed: number; seats: PlaySeat[]; prelude: string; workerUrl: string }) => Promise<MatchOutcome>;
// The page's module is browser code (DOM types, its own tsconfig): loaded by a path the Node program does not follow.
const PAGE_MATCH: string = '../../../../src/http/client/play/match.ts';

const GAME = 'bola-de-drac';
const SEED = 5;

/** What a Web Worker's script sees of its global scope, over a worker thread's port. */
const BOOT = `const { parentPort } = require('node:worker_threads');
globalThis.addEventListener = (type, f) => { if (type === 'message') parentPort.on('message', (data) => f({ data })); };
globalThis.postMessage = (m) => parentPort.postMessage(m);
`;

/** The part of a browser's Worker that WorkerBotHost uses, over node:worker_threads. */
function webWorkerOver(script: string) {
  return class {
    private readonly thread = new ThreadWorker(BOOT + script, { eval: true });
    private readonly listeners = new Map<(e: never) => void, (...a: unknown[]) => void>();
    addEventListener(type: 'message' | 'error', f: (e: never) => void) {
      const g =
        type === 'message'
          ? (data: unknown) => f({ data } as never)
          : (err: unknown) => f({ message: String((err as Error).message), preventDefault() {} } as never);
      this.listeners.set(f, g);
      this.thread.on(type, g);
    }
    removeEventListener(type: 'message' | 'error', f: (e: never) => void) {
      const g = this.listeners.get(f);
      if (g) this.thread.off(type, g);
      this.listeners.delete(f);
    }
    postMessage(m: unknown, transfer: ArrayBuffer[] = []) {
      this.thread.postMessage(m, transfer);
    }
    terminate() {
      void this.thread.terminate();
    }
  };
}

const withoutTimes = (r: Replay) => ({ ...r, players: r.players.map((p) => ({ ...p, cpuMs: 0 })), rounds: r.rounds.map((x) => ({ ...x, cpuMs: [] })) });

test("the play page's worker runs a C++ player compiled by the judge: the match is the judge's for the same seed", slow, async () => {
  const game = await getGame(GAME);
  const source = (await readFile(join((await gameDir(GAME))!, 'cpp', 'AIDemo.cc'), 'utf8')).replace(/#define PLAYER_NAME \w+/, '#define PLAYER_NAME CppTester');
  assert.match(source, /PLAYER_NAME CppTester/);
  const cpp = { filename: 'AICppTester.cc', source, compiled: await compileSeat(source, 'AICppTester.cc', 0, GAME) };
  assert.ok('code' in cpp.compiled, JSON.stringify(cpp.compiled).slice(0, 500));
  const others = await Promise.all(
    ['Dummy', 'Dummy', 'Dummy'].map(async (name, i) => {
      const s = await builtinSeat(GAME, name);
      return { ...s, compiled: await compileSeat(s.source, s.filename, i + 1, GAME) };
    }),
  );
  const seats: PlaySeat[] = [cpp, ...others];

  const g = globalThis as { Worker?: unknown };
  const before = g.Worker;
  g.Worker = webWorkerOver(await playWorkerScript());
  const { playInBrowser } = (await import(PAGE_MATCH)) as { playInBrowser: PlayInBrowser };
  let played;
  try {
    played = await playInBrowser(game, { seed: SEED, seats, prelude: await buildPrelude(game), workerUrl: 'worker.js' });
  } finally {
    g.Worker = before;
  }
  const judged = await playMatch({ game: GAME, seed: SEED, seats }, { host: 'isolate', compiled: seats.map((s) => s.compiled) });
  assert.deepEqual(
    played.replay.players.map((p) => [p.name, p.frozenReason]),
    [
      ['CppTester', null],
      ['Dummy', null],
      ['Dummy', null],
      ['Dummy', null],
    ],
  );
  assert.equal(played.replay.rounds.at(-1)!.round, game.totalRounds(played.replay.config));
  assert.deepEqual(withoutTimes(played.replay), withoutTimes(judged.replay), 'the worker plays the match the judge plays');
});
