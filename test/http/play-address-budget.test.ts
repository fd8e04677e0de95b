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
import { AddressCompileBudget, addressCompileBudget } from '../../src/http/play-compile.ts';
import { clientKey } from '../../src/domain/attempt-budgets.ts';

test('the address budget: so many at once, CPU seconds per hour, the hour slides, addresses apart', () => {
  let now = 0;
  const budget = new AddressCompileBudget(2, 10, () => now);
  const a = budget.begin('10.0.0.1');
  const b = budget.begin('10.0.0.1');
  assert.ok(!('code' in a) && !('code' in b));
  assert.equal((budget.begin('10.0.0.1') as { code: string }).code, 'play-compile-address-busy');
  const other = budget.begin('10.0.0.2');
  assert.ok(!('code' in other), 'another address is not held');
  other.done(0);
  a.done(6000);
  assert.equal(b.remaining(), 4);
  b.done(3500);
  const refused = budget.begin('10.0.0.1');
  assert.equal((refused as { code: string }).code, 'play-compile-address-budget');
  now += 3600_001;
  const later = budget.begin('10.0.0.1');
  assert.ok(!('code' in later) && later.remaining() === 10, 'an hour later the budget is back');
  later.done(0);
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
  // The app's own budget for these settings: three compiles of the flooder's are under way (C++ compiles of seconds, held here).
  const budget = addressCompileBudget(config.playCompilesRunningPerIp, config.playCompileCpuSecondsPerHourPerIp);
  const running = [0, 1, 2].map(() => budget.begin(clientKey(flooder)));
  for (const r of running) assert.ok(!('code' in r));
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
  for (const r of running) if (!('code' in r)) r.done(17_000);
  const spent = await compile(accounts[3]!.auth, flooder, 'ca');
  assert.equal(spent.statusCode, 429);
  assert.equal(spent.json().code, 'play-compile-address-budget');
  assert.match(spent.json().message, /adreça/);
  assert.equal((await compile(ninth.auth, '10.77.0.2')).statusCode, 200);
});
