// The checks' lane serves quick checks first: a TypeScript or JavaScript file's (esbuild, a tenth of a second)
// before any C++ file's (a compile of seconds), first come, first served within each kind, so a TypeScript
// upload's compile verdict never waits behind a line of C++ compiles.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startGate } from '../../src/domain/gate.ts';
import { CHECK_PRIORITY_HALF, checkPriority, GATE_PRIORITY_BAND } from '../../src/queue/index.ts';
import { freshDatabase, type FreshDatabase } from '../helpers/db.ts';
import { freshQueues, type FreshQueues } from '../helpers/queue.ts';

let database: FreshDatabase;
let fq: FreshQueues;
before(async () => {
  database = await freshDatabase();
  fq = await freshQueues();
});
after(async () => {
  await fq?.cleanup();
  await database?.drop();
});

const CPP = '#include "Player.hh"\n#define PLAYER_NAME Cc\nstruct PLAYER_NAME : public Player { void play() {} };\nRegisterPlayer(PLAYER_NAME);\n';
const TS = "export const GAME = 'moria';\nexport const PLAYER_NAME = 'Tt';\nexport default class extends Player { play(): void {} }\n";

test('checks: every quick one (TypeScript, JavaScript) before the C++ ones, first come, first served within each', async () => {
  // Uploads in this order: C++ 1, C++ 2, TypeScript 3, JavaScript 4, C++ 5, TypeScript 6.
  const files: [number, string, string][] = [
    [1, 'AIC1.cc', CPP],
    [2, 'AIC2.cc', CPP],
    [3, 'T3.ts', TS],
    [4, 'J4.js', TS],
    [5, 'AIC5.cc', CPP],
    [6, 'T6.ts', TS],
  ];
  for (const [id, filename, source] of files)
    await startGate({ db: database.db, queues: fq.queues }, id, {
      id,
      status: 'queued',
      game: 'moria',
      source,
      filename,
      createdAt: new Date(1_700_000_000_000 + id),
      gateSeeds: [1, 2, 3, 4, 5],
    });
  const order = (await fq.queues.checks.getJobs(['prioritized', 'wait'], 0, -1, true)).map((j) => Number(j.data.submissionId));
  assert.deepEqual(order, [3, 4, 6, 1, 2, 5]);
});

test('the priorities stay in BullMQ range and wrap within each half, as the gate band does', () => {
  assert.equal(checkPriority(1, false), 1);
  assert.equal(checkPriority(1, true), CHECK_PRIORITY_HALF + 1);
  assert.equal(checkPriority(CHECK_PRIORITY_HALF, false), CHECK_PRIORITY_HALF);
  assert.equal(checkPriority(CHECK_PRIORITY_HALF + 1, false), 1);
  assert.ok(checkPriority(CHECK_PRIORITY_HALF, true) <= GATE_PRIORITY_BAND && GATE_PRIORITY_BAND <= 2_097_152);
});
