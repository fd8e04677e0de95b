// `arbiter tokens` against a real server: my tokens listed with when each was
// made and last used, one revoked by its id (then it no longer works), and
// the refusals (a revoked token, a bad id, someone else's token).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser } from '../helpers/app.ts';
import { arbiterAsync } from '../helpers/cli.ts';

const { app, db } = await startTestApi();
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

test('arbiter tokens lists mine with their creation and last use; revoke <id> ends one; refusals exit 2', async () => {
  const ada = await registerUser(app, 'ada_cli');
  const other = await registerUser(app, 'bob_cli');
  const made = await app.inject({ method: 'POST', url: '/api/tokens', headers: ada.auth, payload: { label: 'laptop' } });
  const laptop = made.json() as { id: number; token: string };
  await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${laptop.token}` } });
  const run = (...args: string[]) => arbiterAsync('tokens', ...args, '--url', url, '--token', ada.token);

  const list = await run();
  assert.equal(list.code, 0, list.err);
  const lines = list.out.trim().split('\n');
  assert.match(lines[0]!, /^id\s+token\s+label\s+created\s+last used\s+revoked$/);
  assert.equal(lines.length, 3, list.out);
  const row = lines.find((l) => l.includes('laptop'))!;
  assert.match(row, new RegExp(`^${laptop.id}\\s+arb_\\S+…\\s+laptop\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ\\s+-$`));
  assert.ok(!list.out.includes(laptop.token), 'never the secret');

  const revoke = await run('revoke', String(laptop.id));
  assert.equal(revoke.code, 0, revoke.err);
  assert.equal(revoke.out.trim(), `token ${laptop.id} revoked`);
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${laptop.token}` } })).statusCode, 401);
  assert.ok((await db.apiToken.findUniqueOrThrow({ where: { id: laptop.id } })).revokedAt);

  const otherToken = await db.apiToken.findFirstOrThrow({ where: { userId: other.id } });
  const notMine = await run('revoke', String(otherToken.id));
  assert.equal(notMine.code, 2);
  assert.match(notMine.err, /^arbiter tokens: no token \d+ of yours \(not-found\)/);
  assert.equal((await arbiterAsync('tokens', 'revoke', 'x1', '--url', url, '--token', ada.token)).code, 2);
  const revokedCaller = await arbiterAsync('tokens', '--url', url, '--token', laptop.token);
  assert.equal(revokedCaller.code, 2);
  assert.match(revokedCaller.err, /invalid or revoked token/);
  const usage = await arbiterAsync('tokens', 'burn', '--url', url, '--token', ada.token);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /usage: arbiter tokens/);
});
