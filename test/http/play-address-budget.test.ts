// The play page's compiles are bounded per client address as well as per
// client, so that one student's many accounts cannot multiply the per-user
// budget: so many compiles at once from an address, and compiler CPU seconds
// per hour. Eight fresh accounts at one address are held while that address
// is at its bounds; a ninth account at another address compiles as usual; the
// refusals are 429s with stable codes, translated. (bench/play-flood.ts
// measures an honest C++ compile's delay with and without such a flood.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot } from '../helpers/app.ts';
import { beginPlayCompile, playCompileBounds, type PlayTurn } from '../../src/http/play-compile.ts';
import { MemoryLimits } from '../../src/queue/shared-limits.ts';

test('the address budget: so many at once, CPU seconds per hour, the hour slides, addresses apart', async () => {
  let now = 0;
  const limits = new MemoryLimits(() => now);
  // Each compile from a client of its own: this is the address's budget (the client's: the play lane's test).
  const bounds = { clientCpuSecondsPerHour: 1_000_000, addressRunning: 2, addressCpuSecondsPerHour: 10 };
  let clients = 0;
  const begin = (ip: string) => beginPlayCompile(limits, { key: `user:${++clients}`, ip }, bounds);
  const a = (await begin('10.0.0.1')) as PlayTurn;
  const b = (await begin('10.0.0.1')) as PlayTurn;
  assert.ok(!('code' in a) && !('code' in b));
  assert.equal(((await begin('10.0.0.1')) as { code: string }).code, 'play-compile-address-busy');
  const other = await begin('10.0.0.2');
  assert.ok(!('code' in other), 'another address is not held');
  await other.done(0);
  await a.done(6000);
  const c = (await begin('10.0.0.1')) as PlayTurn;
  assert.ok(!('code' in c) && c.remainingSeconds === 4 && c.addressShort, 'what the address has left bounds the compile');
  await b.done(3500);
  await c.done(0);
  const refused = await begin('10.0.0.1');
  assert.equal((refused as { code: string }).code, 'play-compile-address-budget');
  now += 3600_001;
  const later = await begin('10.0.0.1');
  assert.ok(!('code' in later) && later.remainingSeconds === 10, 'an hour later the budget is back');
  await later.done(0);
});

test('eight fresh accounts at one address are held at its bounds; a ninth at another address compiles; 429s with stable codes, translated', async () => {
  const env = { PLAY_COMPILES_RUNNING_PER_IP: '3', PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP: '50', RATE_LIMIT_SIGNUP: '1000' };
  const { app, config } = await startTestApi(env);
  const flooder = '10.77.0.1';
  const accounts = [];
  for (let i = 0; i < 8; i++) accounts.push(await registerUser(app));
  const ninth = await registerUser(app);
  const compile = (auth: { authorization: string }, remoteAddress: string, lang = 'en') =>
    app.inject({
      method: 'POST',
      url: '/api/play/compile',
      remoteAddress,
      headers: { ...auth, 'accept-language': lang },
      payload: { filename: 'Loop.ts', source: bot('Loop') },
    });
  // The app's own budgets: three compiles of the flooder's are under way (C++ compiles of seconds, held here).
  const running: PlayTurn[] = [];
  for (let i = 0; i < 3; i++) {
    const turn = await beginPlayCompile(app.deps.limits, { key: `ip:flood-${i}`, ip: flooder }, playCompileBounds(config));
    assert.ok(!('code' in turn));
    running.push(turn);
  }
  const held = await Promise.all(accounts.map((a) => compile(a.auth, flooder)));
  for (const r of held) {
    assert.equal(r.statusCode, 429, r.body);
    assert.equal(r.json().code, 'play-compile-address-busy');
    assert.match(r.json().message, /3 compiles from your address are running/);
  }
  const honest = await compile(ninth.auth, '10.77.0.2');
  assert.equal(honest.statusCode, 200, honest.body);
  assert.match(honest.json().code, /module\.exports/);
  // The compiles end having used the address's CPU time: the eight are refused for the hour, in Catalan too; the ninth is not.
  for (const r of running) await r.done(17_000);
  const spent = await compile(accounts[3]!.auth, flooder, 'ca');
  assert.equal(spent.statusCode, 429);
  assert.equal(spent.json().code, 'play-compile-address-budget');
  assert.match(spent.json().message, /adreça/);
  assert.equal((await compile(ninth.auth, '10.77.0.2')).statusCode, 200);
});
