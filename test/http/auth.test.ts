// Accounts: register, log in (cookie), bearer tokens (create, use, revoke),
// wrong passwords, scrypt hashes, the budget of failed logins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../src/domain/secrets.ts';
import { startTestApi } from '../helpers/app.ts';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';

const api = await startTestApi();
const { app, db } = api;

test('passwords: scrypt at N = 2^15 unless PASSWORD_HASH_COST says otherwise, salted (two hashes of one password differ), verified', async () => {
  // The suite hashes at a lower cost (scripts/run-tests.js): the production default is measured without it.
  const suiteCost = process.env['PASSWORD_HASH_COST'];
  delete process.env['PASSWORD_HASH_COST'];
  try {
    const a = await hashPassword('secret password');
    const b = await hashPassword('secret password');
    assert.match(a, /^scrypt\$32768\$8\$1\$/);
    assert.notEqual(a, b);
    assert.ok(await verifyPassword('secret password', a));
    assert.ok(!(await verifyPassword('secret passwore', a)));
    process.env['PASSWORD_HASH_COST'] = '10';
    const cheap = await hashPassword('secret password');
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.ok(await verifyPassword('secret password', cheap));
  } finally {
    if (suiteCost === undefined) delete process.env['PASSWORD_HASH_COST'];
    else process.env['PASSWORD_HASH_COST'] = suiteCost;
  }
});

test('register: 201, the password is stored hashed, a session cookie is set; a taken username (any case) is 409', async () => {
  const res = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'Alice', password: 'wonderland' } });
  assert.equal(res.statusCode, 201);
  assert.equal(res.json().username, 'Alice');
  const cookie = res.cookies.find((c) => c.name === 'arbiter_session');
  assert.ok(cookie?.value && cookie.httpOnly);
  const row = await db.user.findUniqueOrThrow({ where: { usernameLower: 'alice' } });
  assert.ok(!row.passwordHash.includes('wonderland'));
  const me = await app.inject({ url: '/api/me', headers: { cookie: `arbiter_session=${cookie.value}` } });
  assert.equal(me.statusCode, 200);
  assert.equal(me.json().username, 'Alice');
  const dup = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'ALICE', password: 'another one' } });
  assert.equal(dup.statusCode, 409);
  assert.match(dup.json().message, /taken/);
});

test('register: bad bodies are 400 with a message', async () => {
  for (const payload of [
    {},
    { username: 'bob' },
    { username: 'bob', password: 'short' },
    { username: 'b b', password: 'long enough' },
    { username: 'bob', password: 'long enough', extra: 1 },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/api/users', payload });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.ok(res.json().message.length > 5);
  }
  const notJson = await app.inject({ method: 'POST', url: '/api/users', payload: '{"username": ', headers: { 'content-type': 'application/json' } });
  assert.equal(notJson.statusCode, 400);
});

test('log in: the right password gives a cookie, a wrong one or an unknown user 401', async () => {
  await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'carol', password: 'carol password' } });
  const ok = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'Carol', password: 'carol password' } });
  assert.equal(ok.statusCode, 200);
  const cookie = ok.cookies.find((c) => c.name === 'arbiter_session')!;
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: `arbiter_session=${cookie.value}` } })).statusCode, 200);
  const wrong = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'carol', password: 'not it at all' } });
  assert.equal(wrong.statusCode, 401);
  assert.match(wrong.json().message, /wrong username or password/);
  const nobody = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'nobody', password: 'whatever123' } });
  assert.equal(nobody.statusCode, 401);
  // Log out: the session is gone.
  const out = await app.inject({ method: 'DELETE', url: '/api/sessions', headers: { cookie: `arbiter_session=${cookie.value}` } });
  assert.equal(out.statusCode, 204);
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: `arbiter_session=${cookie.value}` } })).statusCode, 401);
});

test('tokens: created from username/password, stored hashed, work as Bearer, revoked → 401', async () => {
  await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'dave', password: 'dave password' } });
  const res = await app.inject({ method: 'POST', url: '/api/tokens', payload: { username: 'dave', password: 'dave password' } });
  assert.equal(res.statusCode, 201);
  const { token, id } = res.json() as { token: string; id: number };
  assert.match(token, /^arb_/);
  const row = await db.apiToken.findUniqueOrThrow({ where: { id } });
  assert.notEqual(row.tokenHash, token);
  assert.ok(!row.tokenHash.includes(token));
  const me = await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
  assert.equal(me.statusCode, 200);
  assert.equal(me.json().via, 'token');
  const list = await app.inject({ url: '/api/tokens', headers: { authorization: `Bearer ${token}` } });
  assert.equal(list.json().length, 1);
  assert.ok(!JSON.stringify(list.json()).includes(token));

  const wrong = await app.inject({ method: 'POST', url: '/api/tokens', payload: { username: 'dave', password: 'nope nope' } });
  assert.equal(wrong.statusCode, 401);
  const bogus = await app.inject({ url: '/api/me', headers: { authorization: 'Bearer arb_not_a_token' } });
  assert.equal(bogus.statusCode, 401);
  assert.match(bogus.json().message, /invalid or revoked token/);

  const del = await app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { authorization: `Bearer ${token}` } });
  assert.equal(del.statusCode, 204);
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 401);
  // Someone else's token id, or a bad id.
  await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'erin', password: 'erin password' } });
  const t2 = (await app.inject({ method: 'POST', url: '/api/tokens', payload: { username: 'erin', password: 'erin password' } })).json().token;
  assert.equal((await app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { authorization: `Bearer ${t2}` } })).statusCode, 404);
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/tokens/xyz', headers: { authorization: `Bearer ${t2}` } })).statusCode, 400);
});

test('logged in with the cookie, a token needs no body', async () => {
  const reg = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'gina', password: 'gina password' } });
  const cookie = `arbiter_session=${reg.cookies.find((c) => c.name === 'arbiter_session')!.value}`;
  const res = await app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie } });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${res.json().token}` } })).json().username, 'gina');
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens' })).statusCode, 401);
});

test('without credentials, private endpoints answer 401', async () => {
  for (const url of ['/api/me', '/api/me/submissions', '/api/tokens']) {
    assert.equal((await app.inject({ url })).statusCode, 401, url);
  }
  assert.equal((await app.inject({ method: 'POST', url: '/api/submissions', payload: { game: 'moria', source: 'x' } })).statusCode, 401);
});

test('failed logins: past PASSWORD_FAILURES_PER_ACCOUNT in the window, 429 with a message (test/http/security.test.ts has the rest)', async () => {
  const limited = await buildApp({ config: loadConfig({ PASSWORD_FAILURES_PER_ACCOUNT: '3' }), db, queues: null, logger: false });
  try {
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await limited.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'frank', password: 'wrong password' } });
      codes.push(last.statusCode);
    }
    assert.deepEqual(codes, [401, 401, 401, 429, 429]);
    assert.match(last!.json().message, /too many failed password attempts/);
    // Reading is not limited.
    assert.equal((await limited.inject({ url: '/api/games' })).statusCode, 200);
  } finally {
    await limited.close();
  }
});
