// The gate's seeds come from the file: the same code (comments and layout
// aside) gets the same seeds, changed code new ones; the deployment's secret
// is kept in the database when not configured; a rejudge keeps its
// original's seeds. (test/domain/gate.test.ts plays an identical resubmission
// through the real gate and compares the verdicts.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveGateSeeds, deriveGateSeedsAsync, gateSecret, normalizeSource, normalizeSourceAsync, GATE_SEED_COUNT } from '../../src/domain/gate-seeds.ts';
import { startGate } from '../../src/domain/gate.ts';
import { createDb, closeDb } from '../../src/db/client.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { JudgeQueues } from '../../src/queue/index.ts';
import { bot, registerUser, startTestApi, submitJson } from '../helpers/app.ts';

const SECRET = 'a test secret of some length';
const TS = `export const GAME = 'moria';
export const PLAYER_NAME = 'Seeder';
// walks east
export default class extends Player {
  play(): void {
    const n: number = 3; /* three */
    for (let i = 0; i < n; i++) console.log("// not a comment", i);
  }
}
`;
const TS_RELAID = `/** The bot. */
export const GAME = 'moria'; export const PLAYER_NAME = 'Seeder';
export default class extends Player {
    play(): void
    {
        const n: number = 3;


        for (let i = 0; i < n; i++)   console.log("// not a comment", i); // loop
    }
}`;
const CPP = `#include "Player.hh"
// A comment
#define PLAYER_NAME Seeder
struct PLAYER_NAME : public Player {
  static Player* factory () { return new PLAYER_NAME; }
  virtual void play () { /* nothing */ int x = 1; cout << "a // b" << x; }
};
RegisterPlayer(PLAYER_NAME);
`;
const CPP_RELAID = `#include   "Player.hh"
#define PLAYER_NAME Seeder
/* block
   comment */
struct PLAYER_NAME:public Player{
static Player*factory(){return new PLAYER_NAME;}
virtual void play(){int x=1;cout<<"a // b"<<x;}   // trailing
};
RegisterPlayer(PLAYER_NAME);
`;

test('comments and layout do not change the seeds; code, the game and the secret do', () => {
  const seeds = deriveGateSeeds(SECRET, 'moria', TS, 'Seeder.ts');
  assert.equal(seeds.length, GATE_SEED_COUNT);
  assert.ok(seeds.every((s) => Number.isInteger(s) && s >= 0 && s <= 0x7fffffff));
  assert.equal(new Set(seeds).size, GATE_SEED_COUNT, 'five different seeds');
  assert.deepEqual(deriveGateSeeds(SECRET, 'moria', TS, 'Seeder.ts'), seeds, 'the same file: the same seeds');
  assert.equal(normalizeSource(TS_RELAID, 'Seeder.ts'), normalizeSource(TS, 'Seeder.ts'));
  assert.deepEqual(deriveGateSeeds(SECRET, 'moria', TS_RELAID, 'Other.ts'), seeds, 'comments and whitespace only: the same seeds');
  assert.notDeepEqual(deriveGateSeeds(SECRET, 'moria', TS.replace('= 3', '= 4'), 'Seeder.ts'), seeds, 'a changed constant: new seeds');
  assert.notDeepEqual(
    deriveGateSeeds(SECRET, 'moria', TS.replace('"// not a comment"', '"//  not a comment"'), 'Seeder.ts'),
    seeds,
    'a string is code, spaces and all',
  );
  assert.notDeepEqual(deriveGateSeeds(SECRET, 'walking-dead', TS, 'Seeder.ts'), seeds, 'another game');
  assert.notDeepEqual(deriveGateSeeds(SECRET + '!', 'moria', TS, 'Seeder.ts'), seeds, 'another deployment');

  const cpp = deriveGateSeeds(SECRET, 'moria', CPP, 'AISeeder.cc');
  assert.equal(normalizeSource(CPP_RELAID, 'AISeeder.cc'), normalizeSource(CPP, 'AISeeder.cc'));
  assert.deepEqual(deriveGateSeeds(SECRET, 'moria', CPP_RELAID, 'AISeeder.cc'), cpp);
  assert.notDeepEqual(deriveGateSeeds(SECRET, 'moria', CPP.replace('x = 1', 'x = 2'), 'AISeeder.cc'), cpp);
  assert.notDeepEqual(deriveGateSeeds(SECRET, 'moria', CPP.replace('int x', 'long x'), 'AISeeder.cc'), cpp, 'int x and longx differ');
  // A file esbuild cannot parse still gets stable seeds.
  assert.deepEqual(deriveGateSeeds(SECRET, 'moria', 'const x = ;', 'B.ts'), deriveGateSeeds(SECRET, 'moria', 'const   x =\n;', 'B.ts'));
});

test("the upload's seeds, off the event loop (esbuild's asynchronous service), are the seeds: every kind of file, parsing or not", async () => {
  const files: [string, string][] = [
    [TS, 'Seeder.ts'],
    [TS_RELAID, 'Other.ts'],
    [TS.replace(': number', '').replace('(): void', '()'), 'Seeder.js'],
    [TS, 'Seeder.js'], // TypeScript in a .js file: does not parse as JavaScript
    ['const x = ;', 'B.ts'],
    ['await Promise.resolve(); export default 1;', 'Top.mts'],
    [CPP, 'AISeeder.cc'],
    [CPP_RELAID, 'AISeeder.cc'],
    ['', 'Empty.ts'],
  ];
  for (const [source, filename] of files) {
    assert.equal(await normalizeSourceAsync(source, filename), normalizeSource(source, filename), filename);
    assert.deepEqual(await deriveGateSeedsAsync(SECRET, 'moria', source, filename), deriveGateSeeds(SECRET, 'moria', source, filename), filename);
  }
});

test('GATE_SEED_SECRET is validated once with the rest of the configuration', () => {
  assert.equal(loadConfig({}).gateSeedSecret, null);
  assert.equal(loadConfig({ GATE_SEED_SECRET: SECRET }).gateSeedSecret, SECRET);
  assert.throws(
    () => loadConfig({ GATE_SEED_SECRET: 'short' }),
    (err: unknown) => err instanceof ConfigError && /GATE_SEED_SECRET/.test(err.message),
  );
});

/** A queue that accepts the compile check and does nothing (no worker here). */
const idleQueues = { matches: { add: async () => ({}) }, checks: { add: async () => ({}) }, publish: async () => {} } as unknown as JudgeQueues;

test('unconfigured, the secret is made once and kept in the database: another client, as after a restart, reads the same; a resubmission and a rejudge keep the seeds', async () => {
  const { app, db, fresh } = await startTestApi();
  const first = await gateSecret(db, null);
  assert.ok(first.length >= 32);
  const other = await createDb({ databaseUrl: fresh.url });
  try {
    assert.equal(await gateSecret(other, null), first, 'a restarted process reads the same secret');
  } finally {
    await closeDb(other);
  }
  assert.equal(await gateSecret(db, SECRET), SECRET, 'a configured secret wins');

  const ana = await registerUser(app, 'seedana');
  const gate = async (source: string) => {
    const res = await submitJson(app, ana, source);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as number;
    await startGate({ db, queues: idleQueues }, id);
    const row = await db.submission.findUniqueOrThrow({ where: { id } });
    await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'lost', finishedAt: new Date() } });
    return { id, seeds: row.gateSeeds as number[] };
  };
  const a = await gate(bot('Seeded'));
  assert.deepEqual(a.seeds, deriveGateSeeds(first, 'moria', bot('Seeded'), 'Seeded.ts'));
  const b = await gate(bot('Seeded'));
  assert.deepEqual(b.seeds, a.seeds, 'the identical file resubmitted: the same seeds');
  const c = await gate(`// version 3, tidied\n${bot('Seeded').replace(/\n {2}/g, '\n    ')}`);
  assert.deepEqual(c.seeds, a.seeds, 'comments and indentation only: the same seeds');
  const d = await gate(bot('Seeded', 'moria', ' let x = 1; x++;'));
  assert.notDeepEqual(d.seeds, a.seeds, 'a real change: new seeds');

  // A rejudge keeps the seeds the submission had, even under another secret (say, GATE_SEED_SECRET set since).
  await db.submission.update({ where: { id: d.id }, data: { gateSeeds: [1, 2, 3, 4, 5] } });
  const teacher = await registerUser(app, 'seedteacher');
  await db.user.update({ where: { id: teacher.id }, data: { isAdmin: true } });
  const res = await app.inject({ method: 'POST', url: `/api/admin/submissions/${d.id}/rejudge`, headers: teacher.auth });
  assert.equal(res.statusCode, 202, res.body);
  const again = res.json().id as number;
  await startGate({ db, queues: idleQueues }, again);
  assert.deepEqual((await db.submission.findUniqueOrThrow({ where: { id: again } })).gateSeeds, [1, 2, 3, 4, 5]);
});
