// Judging never waits for the play page. POST /api/play/compile compiles in
// the play lane (its own compile server or slots, at nice 19, a bounded
// queue), bounded per client (one at a time, compiler CPU seconds per hour),
// and C++ only for signed-in users; a compile stopped for the client's budget
// is a 429, never the file's error, never cached. The measure: with ten
// never-ending compiles sent from the play page, an honest file's compile in
// the judge's lane (as the gate calls it) takes its normal time plus at most
// 10 s. That part compiles C++ for minutes: slow. The toolchain is the one
// ARBITER_CPP_CLANG names (npm unless it says system).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLimits } from '../../../../src/queue/shared-limits.ts';
import { beginPlayCompile, type PlayTurn } from '../../../../src/http/play-compile.ts';
import { compileBot } from '../../../../src/sandbox/languages/index.ts';
import { resetCppCompileSettings, stopCompileServer } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { slow } from '../../../helpers/slow.ts';
import { bot, registerUser, startTestApi } from '../../../helpers/app.ts';

const toolchain = process.env['ARBITER_CPP_CLANG'] === 'system' ? 'system' : 'npm';
const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-play-'));
/** Each play compile may use this much CPU (the client's hourly budget): the never-ending ones end there. */
const BUDGET_SECONDS = 12;
const savedBudget = process.env['PLAY_COMPILE_CPU_SECONDS_PER_HOUR'];
before(() => {
  process.env['PLAY_COMPILE_CPU_SECONDS_PER_HOUR'] = String(BUDGET_SECONDS);
  resetCppCompileSettings({ cacheDir, toolchain });
});
after(() => {
  stopCompileServer();
  if (savedBudget === undefined) delete process.env['PLAY_COMPILE_CPU_SECONDS_PER_HOUR'];
  else process.env['PLAY_COMPILE_CPU_SECONDS_PER_HOUR'] = savedBudget;
  rmSync(cacheDir, { recursive: true, force: true });
});

test('the play budget: one compile at a time per client, CPU seconds per hour, the hour slides', async () => {
  let now = 0;
  const limits = new MemoryLimits(() => now);
  // The address's bounds wide open: this is the client's budget (the address's: test/http/play-address-budget.test.ts).
  const bounds = { clientCpuSecondsPerHour: 100, addressRunning: 100, addressCpuSecondsPerHour: 1_000_000 };
  const begin = (key: string) => beginPlayCompile(limits, { key, ip: '10.0.0.9' }, bounds);
  const a = (await begin('user:1')) as PlayTurn;
  assert.ok(!('code' in a));
  const busy = await begin('user:1');
  assert.deepEqual(Object.keys(busy), ['code', 'message']);
  assert.equal((busy as { code: string }).code, 'play-compile-running');
  const b = await begin('ip:10.0.0.1');
  assert.ok(!('code' in b), 'another client is not held');
  await b.done(0);
  assert.equal(a.remainingSeconds, 100);
  await a.done(99_500);
  const refused = await begin('user:1');
  assert.equal((refused as { code: string }).code, 'play-compile-budget');
  now += 3600_001;
  const later = await begin('user:1');
  assert.ok(!('code' in later) && later.remainingSeconds === 100, 'an hour later the budget is back');
  await later.done(0);
});

/** A file clang never finishes: a million constant evaluations of a tenth of a second each. */
const NEVER_ENDING = `#include "Player.hh"
// GAME: moria
#define PLAYER_NAME Spin
constexpr unsigned spin(unsigned k) { unsigned x = 0; for (unsigned i = 0; i < 50000; ++i) x += i ^ k; return x; }
#define A static_assert(spin(__COUNTER__) != 1, "");
#define B A A A A A A A A A A
#define C B B B B B B B B B B
#define D C C C C C C C C C C
${'D\n'.repeat(1000)}
struct PLAYER_NAME : public Player {
  static Player* factory () { return new PLAYER_NAME; }
  virtual void play () { }
};
RegisterPlayer(PLAYER_NAME);
`;

const demo = readFileSync(new URL('../../../../src/games/moria/cpp/AIDemo.cc', import.meta.url), 'utf8');
let unique = 0;
/** The C++ Demo, as a file no compile has seen (compiles are cached by source). */
const honest = () => `// GAME: moria\n${demo}\n// ${Date.now()} ${++unique}\n`;

test('the play page: C++ for signed-in users only (401), TypeScript open to all', async () => {
  const { app } = await startTestApi();
  const anon = await app.inject({ method: 'POST', url: '/api/play/compile', payload: { filename: 'AISpin.cc', source: NEVER_ENDING } });
  assert.equal(anon.statusCode, 401, anon.body);
  assert.equal(anon.json().code, 'unauthorized');
  assert.match(anon.json().message, /signed-in users only/);
  const ts = await app.inject({ method: 'POST', url: '/api/play/compile', payload: { filename: 'Open.ts', source: bot('Open') } });
  assert.equal(ts.statusCode, 200, ts.body);
  assert.match(ts.json().code, /module\.exports/);
});

test("ten never-ending compiles from the play page: an honest compile in the judge's lane takes its normal time plus at most 10 s; the play compiles end at their budget as 429s, never cached", {
  skip: slow.skip,
  timeout: 900_000,
}, async () => {
  // Ten clients as if from ten addresses (inject's are all one): the address's own bounds are test/http/play-address-budget.test.ts's.
  const { app } = await startTestApi({ PLAY_COMPILES_RUNNING_PER_IP: '100', PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP: '100000' });
  const users = [];
  for (let i = 0; i < 10; i++) users.push(await registerUser(app));
  // The judge's lane warm (a fresh npm server compiles the toolchain first); the play lane's server warms up during the flood, at nice 19.
  await compileBot(honest(), 'AIDemo.cc', 'moria');

  let t = Date.now();
  await compileBot(honest(), 'AIDemo.cc', 'moria');
  const normalMs = Date.now() - t;

  const flood = users
    .slice(0, 10)
    .map((u) => app.inject({ method: 'POST', url: '/api/play/compile', headers: u.auth, payload: { filename: 'AISpin.cc', source: NEVER_ENDING } }));
  // Under way before the judge's compile starts.
  await new Promise((r) => setTimeout(r, 3000));
  const again = await app.inject({ method: 'POST', url: '/api/play/compile', headers: users[0]!.auth, payload: { filename: 'AIDemo.cc', source: honest() } });
  t = Date.now();
  await compileBot(honest(), 'AIDemo.cc', 'moria');
  const loadedMs = Date.now() - t;
  console.log(`${toolchain}: the honest compile took ${normalMs} ms alone, ${loadedMs} ms with ten never-ending play compiles sent`);
  assert.ok(loadedMs <= normalMs + 10_000, `${loadedMs} ms with the play page's compiles, ${normalMs} ms without`);

  // The same client again while its compile runs, or the lane's queue full: 429 with a stable code.
  assert.equal(again.statusCode, 429, again.body);
  assert.ok(['play-compile-running', 'play-compile-busy'].includes(again.json().code), again.body);
  const answers = await Promise.all(flood);
  const codes = answers.map((r) => `${r.statusCode} ${r.statusCode === 200 ? 'compiled' : r.json().code}`);
  console.log(codes.join(', '));
  for (const r of answers) {
    assert.equal(r.statusCode, 429, r.body.slice(0, 300));
    assert.ok(['play-compile-busy', 'play-compile-budget'].includes(r.json().code), r.body);
  }
  assert.ok(
    codes.some((c) => c.endsWith('play-compile-budget')),
    'some ran to the budget',
  );
  assert.ok(
    codes.some((c) => c.endsWith('play-compile-busy')),
    "some were refused by the lane's queue",
  );
  // Nothing cached for a compile stopped for its client's budget: only the honest modules are there.
  assert.equal(readdirSync(cacheDir).filter((f) => !f.endsWith('.wasm')).length, 0, readdirSync(cacheDir).join(' '));
  // That client's budget is spent: refused up front.
  const spent = answers.findIndex((r) => r.json().code === 'play-compile-budget');
  const next = await app.inject({
    method: 'POST',
    url: '/api/play/compile',
    headers: users[spent]!.auth,
    payload: { filename: 'AIDemo.cc', source: honest() },
  });
  assert.equal(next.statusCode, 429);
  assert.equal(next.json().code, 'play-compile-budget');
});
