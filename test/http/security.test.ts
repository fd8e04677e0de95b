// Web hardening: budgets of failed password checks per address (made-up
// names only), per account and address, and per account from everywhere
// (known browsers have their own), API and login form alike, in Redis when
// there are queues, with no lock-out by a neighbour (a lab behind one NAT), a
// sign-up allowance per address that a lab behind one NAT fits in, the Origin
// check on cookie-authenticated writes, Secure cookies over HTTPS, nosniff and
// CSP on API responses, the cap on open live streams, reasonDetail for its
// owner only. Real Postgres and Redis.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startTestApi, registerUser, bot, submitJson } from '../helpers/app.ts';
import { freshQueues, waitFor } from '../helpers/queue.ts';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';
import { clientKey } from '../../src/domain/attempt-budgets.ts';
import { adminGrant } from '../../src/cli/admin.ts';
import { issueInvitation } from '../../src/domain/account-links.ts';

const api = await startTestApi({
  PASSWORD_FAILURES_PER_ACCOUNT: '3',
  PASSWORD_FAILURES_PER_ACCOUNT_TOTAL: '8',
  PASSWORD_FAILURES_PER_IP: '6',
  RATE_LIMIT_SIGNUP: '1000',
  SSE_MAX_PER_IP: '2',
});
const { app, db } = api;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let ipCounter = 0;
/** A client address of its own, so tests do not share the per-address budgets. */
const newIp = () => `10.9.0.${++ipCounter}`;

async function tryLogin(via: 'session' | 'token' | 'form', username: string, password: string, remoteAddress: string, target: FastifyInstance = app) {
  if (via === 'form') return target.inject({ method: 'POST', url: '/login', remoteAddress, headers: FORM, payload: form({ username, password }) });
  return target.inject({ method: 'POST', url: via === 'session' ? '/api/sessions' : '/api/tokens', remoteAddress, payload: { username, password } });
}

function assertRetryLater(res: LightMyRequestResponse, what: RegExp, windowSeconds = 15 * 60) {
  assert.equal(res.statusCode, 429, res.body);
  const after = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(after) && after > 0 && after <= windowSeconds, `Retry-After ${res.headers['retry-after']}`);
  assert.match(res.body, what);
  assert.match(res.body, /try again in \d+ (seconds|minutes)/);
}

test('password checks share one budget per account and address: sessions, tokens and the login form count together; past it the guesser gets 429 even with the right password, the owner elsewhere gets in', async () => {
  await registerUser(app, 'victim', 'the right password');
  const ip = newIp();
  assert.equal((await tryLogin('session', 'victim', 'guess one', ip)).statusCode, 401);
  assert.equal((await tryLogin('token', 'VICTIM', 'guess two', ip)).statusCode, 401);
  assert.equal((await tryLogin('form', 'Victim', 'guess three', ip)).statusCode, 401);
  // Refused before the password is checked: the right one does not get through from the guessing client.
  assertRetryLater(await tryLogin('session', 'victim', 'the right password', ip), /too many failed password attempts for this account from your address/);
  const page = await tryLogin('form', 'victim', 'the right password', ip);
  assertRetryLater(page, /for this account/);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(page.body, /<form method="post" action="\/login"/, 'the form again, with the message');
  // No lock-out: the owner, from a client that has not been guessing, gets in (API, token, form).
  assert.equal((await tryLogin('session', 'victim', 'the right password', newIp())).statusCode, 200);
  assert.equal((await tryLogin('token', 'victim', 'the right password', newIp())).statusCode, 201);
  assert.equal((await tryLogin('form', 'victim', 'the right password', newIp())).statusCode, 303);
  // Another account is not affected from the guessing address either.
  await registerUser(app, 'bystander', 'bystander password');
  assert.equal((await tryLogin('session', 'bystander', 'bystander password', ip)).statusCode, 200);
});

test('the right password is not counted and clears its address failures; an unknown user is counted as a failure', async () => {
  await registerUser(app, 'typo', 'typo password');
  const ip = newIp();
  for (let round = 0; round < 2; round++) {
    assert.equal((await tryLogin('session', 'typo', 'wrong 1', ip)).statusCode, 401);
    assert.equal((await tryLogin('form', 'typo', 'wrong 2', ip)).statusCode, 401);
    assert.equal((await tryLogin('session', 'typo', 'typo password', ip)).statusCode, 200);
  }
  const ghostIp = newIp();
  for (let i = 0; i < 3; i++) assert.equal((await tryLogin('token', 'ghost', `guess ${i}`, ghostIp)).statusCode, 401);
  assertRetryLater(await tryLogin('token', 'ghost', 'guess 4', ghostIp), /for this account/);
});

test('a guess spread over many addresses: past PASSWORD_FAILURES_PER_ACCOUNT_TOTAL, new clients wait, a browser that logged in before still gets in', async () => {
  await registerUser(app, 'target', 'target password');
  // The owner logged in once from her laptop: the answer remembers the browser.
  const first = await tryLogin('form', 'target', 'target password', newIp());
  assert.equal(first.statusCode, 303);
  const device = first.cookies.find((c) => c.name === 'arbiter_device');
  assert.ok(device?.httpOnly, 'a device cookie, httpOnly');
  // Eight addresses, one guess each (under the per-address budgets), spend the account's total.
  for (let i = 0; i < 8; i++) assert.equal((await tryLogin('session', 'target', `botnet ${i}`, newIp())).statusCode, 401);
  assertRetryLater(await tryLogin('session', 'target', 'target password', newIp()), /from many addresses/);
  // The laptop, from yet another address, is let through to the password check.
  const laptop = await app.inject({
    method: 'POST',
    url: '/api/sessions',
    remoteAddress: newIp(),
    cookies: { arbiter_device: device.value },
    payload: { username: 'target', password: 'target password' },
  });
  assert.equal(laptop.statusCode, 200, laptop.body);
  // A made-up device cookie is no key.
  const forged = await app.inject({
    method: 'POST',
    url: '/api/sessions',
    remoteAddress: newIp(),
    cookies: { arbiter_device: 'target~not-a-real-device' },
    payload: { username: 'target', password: 'target password' },
  });
  assert.equal(forged.statusCode, 429);
});

test('one address spreading guesses over many accounts hits the per-address budget; another address does not', async () => {
  const ip = newIp();
  const codes: number[] = [];
  for (let i = 0; i < 6; i++) codes.push((await tryLogin(i % 2 ? 'form' : 'session', `spray${i}`, 'password123', ip)).statusCode);
  assert.deepEqual(codes, [401, 401, 401, 401, 401, 401]);
  assertRetryLater(await tryLogin('session', 'spray99', 'password123', ip), /too many failed password attempts from your address/);
  assert.equal((await tryLogin('session', 'spray99', 'password123', newIp())).statusCode, 401);
  // The address's budget holds made-up names only: a real account's right password from it is still checked.
  await registerUser(app, 'sprayed_at', 'sprayed password');
  assert.equal((await tryLogin('session', 'sprayed_at', 'sprayed password', ip)).statusCode, 200);
});

test('a lab behind one address: one student guessing at made-up names and at classmates never stops the others logging in, new browsers included; the account guessed at stays throttled, its known browser gets in', async () => {
  const lab = newIp();
  const students = ['lab_ana', 'lab_biel', 'lab_carla', 'lab_dani', 'lab_eva'];
  for (const name of students) await registerUser(app, name, `${name} password`);
  // Ana logged in from this lab's machine before the mischief: her browser is known to her account.
  const before = await tryLogin('form', 'lab_ana', 'lab_ana password', lab);
  assert.equal(before.statusCode, 303);
  const anaDevice = before.cookies.find((c) => c.name === 'arbiter_device')!.value;
  // The guesser: 40 made-up names and 10 guesses at each classmate's name, all from the lab's one address.
  const answers: number[] = [];
  for (let i = 0; i < 40; i++) answers.push((await tryLogin('session', `nobody_${i}`, 'password123', lab)).statusCode);
  for (const victim of students) for (let i = 0; i < 10; i++) answers.push((await tryLogin('token', victim, `guess ${i}`, lab)).statusCode);
  assert.ok(
    answers.filter((c) => c === 429).length >= 40,
    `the guesser is held (${answers.filter((c) => c === 401).length} checks, ${answers.filter((c) => c === 429).length} refusals)`,
  );
  // Every hashed guess is bounded: the address's budget (made-up names) plus the pair budget per real account.
  assert.ok(answers.filter((c) => c === 401).length <= 6 + 3 * students.length);
  assertRetryLater(await tryLogin('session', 'nobody_new', 'password123', lab), /from your address/);
  // Ana's own browser, at the same address, is not held by anyone else's guesses at her account.
  const known = await app.inject({
    method: 'POST',
    url: '/api/sessions',
    remoteAddress: lab,
    cookies: { arbiter_device: anaDevice },
    payload: { username: 'lab_ana', password: 'lab_ana password' },
  });
  assert.equal(known.statusCode, 200, known.body);
  // The accounts guessed at stay throttled for new clients at the guesser's address (no guessing at speed from there).
  assertRetryLater(await tryLogin('session', 'lab_biel', 'lab_biel password', lab), /for this account from your address/);
  // A classmate nobody guessed at logs in from a new browser in the lab: API, token and form.
  await registerUser(app, 'lab_quiet', 'lab_quiet password');
  assert.equal((await tryLogin('session', 'lab_quiet', 'lab_quiet password', lab)).statusCode, 200);
  assert.equal((await tryLogin('token', 'lab_quiet', 'lab_quiet password', lab)).statusCode, 201);
  assert.equal((await tryLogin('form', 'lab_quiet', 'lab_quiet password', lab)).statusCode, 303);
});

test('guesses at other accounts from many addresses do not hold a student in a new browser; her known browser survives guesses at her own account from her own address', async () => {
  await registerUser(app, 'bystander2', 'bystander2 password');
  await registerUser(app, 'popular', 'popular password');
  const home = newIp();
  const first = await tryLogin('form', 'popular', 'popular password', home);
  const device = first.cookies.find((c) => c.name === 'arbiter_device')!.value;
  // A botnet at other accounts (real and made up): no budget of bystander2's is touched.
  for (let i = 0; i < 12; i++) await tryLogin('session', i % 2 ? 'popular' : `made_up_${i}`, `botnet ${i}`, newIp());
  assert.equal((await tryLogin('session', 'bystander2', 'bystander2 password', newIp())).statusCode, 200);
  // Guesses at popular from her own address: her browser still gets in; it has a budget of its own.
  for (let i = 0; i < 5; i++) await tryLogin('session', 'popular', `neighbour ${i}`, home);
  const mine = () =>
    app.inject({
      method: 'POST',
      url: '/api/sessions',
      remoteAddress: home,
      cookies: { arbiter_device: device },
      payload: { username: 'popular', password: 'popular password' },
    });
  assert.equal((await mine()).statusCode, 200);
});

test('in Redis (the app has queues): two API processes share the budget; keys under the queue prefix, with a TTL', async () => {
  const fq = await freshQueues();
  const config = loadConfig({ QUEUE_PREFIX: fq.prefix, PASSWORD_FAILURES_PER_ACCOUNT: '2', PASSWORD_FAILURES_PER_IP: '50' });
  const one = await buildApp({ config, db, queues: fq.queues, logger: false });
  const two = await buildApp({ config, db, queues: fq.queues, logger: false });
  try {
    await registerUser(app, 'shared', 'shared password');
    const ip = newIp();
    assert.equal((await tryLogin('session', 'shared', 'nope 1', ip, one)).statusCode, 401);
    assert.equal((await tryLogin('form', 'shared', 'nope 2', ip, two)).statusCode, 401);
    assertRetryLater(await tryLogin('token', 'shared', 'shared password', ip, one), /for this account/);
    assertRetryLater(await tryLogin('session', 'shared', 'shared password', ip, two), /for this account/);
    assert.equal((await tryLogin('session', 'shared', 'shared password', newIp(), two)).statusCode, 200);
    const redis = fq.queues.redis();
    const keys = await redis.keys(`${fq.prefix}:limits:password:*`);
    assert.ok(keys.length >= 2, keys.join(' '));
    for (const k of keys) {
      const ttl = await redis.pttl(k);
      assert.ok(ttl > 0 && ttl <= 15 * 60_000, `${k}: ${ttl}`);
    }
    // The browser that logged in is remembered for its account, with the device cookie's life.
    const devices = await redis.keys(`${fq.prefix}:devices:*`);
    assert.equal(devices.length, 1, devices.join(' '));
    const ttl = await redis.pttl(devices[0]!);
    assert.ok(ttl > 170 * 24 * 3600_000 && ttl <= 180 * 24 * 3600_000, `${ttl}`);
  } finally {
    await one.close();
    await two.close();
    await fq.cleanup();
  }
});

test('sign-up: a lab behind one address is not held by the password budget; past RATE_LIMIT_SIGNUP accounts an hour, 429; a roster invitation is not counted', async () => {
  // The default allowance (60 an hour): a lab's first session behind one address.
  const lab = await buildApp({ config: loadConfig({}), db, queues: null, logger: false });
  try {
    const ip = newIp();
    for (let i = 0; i < 25; i++) {
      const res = await lab.inject({
        method: 'POST',
        url: '/api/users',
        remoteAddress: ip,
        payload: { username: `student${i}`, password: 'student password' },
      });
      assert.equal(res.statusCode, 201, `student ${i}: ${res.body}`);
    }
  } finally {
    await lab.close();
  }
  const small = await buildApp({ config: loadConfig({ RATE_LIMIT_SIGNUP: '2' }), db, queues: null, logger: false });
  try {
    const ip = newIp();
    const signup = (username: string, password = 'long enough') =>
      small.inject({ method: 'POST', url: '/api/users', remoteAddress: ip, payload: { username, password } });
    assert.equal((await signup('first_one')).statusCode, 201);
    // Refused sign-ups (a taken name, a short password) create nothing and are not counted.
    assert.equal((await signup('FIRST_ONE')).statusCode, 409);
    assert.equal((await signup('short_pw', 'short')).statusCode, 400);
    const second = await small.inject({
      method: 'POST',
      url: '/signup',
      remoteAddress: ip,
      headers: FORM,
      payload: form({ username: 'second_one', password: 'long enough' }),
    });
    assert.equal(second.statusCode, 303, second.body);
    assertRetryLater(await signup('third_one'), /too many accounts created from your address/, 3600);
    const page = await small.inject({
      method: 'POST',
      url: '/signup',
      remoteAddress: ip,
      headers: FORM,
      payload: form({ username: 'third_one', password: 'long enough' }),
    });
    assertRetryLater(page, /too many accounts created/, 3600);
    assert.equal(await db.user.count({ where: { usernameLower: 'third_one' } }), 0);
    // A roster invitation is one student's: its sign-up is not counted, nor held by the address's budget.
    const invitation = await db.$transaction((tx) =>
      issueInvitation(tx, null, { studentId: 'INV-1', fullName: null, email: null }, new Date(Date.now() + 86_400_000)),
    );
    const invited = await small.inject({
      method: 'POST',
      url: '/api/users',
      remoteAddress: ip,
      payload: { username: 'invited_one', password: 'long enough', invitation: invitation.token },
    });
    assert.equal(invited.statusCode, 201, invited.body);
    assert.equal(
      (await small.inject({ method: 'POST', url: '/api/users', remoteAddress: newIp(), payload: { username: 'third_one', password: 'long enough' } }))
        .statusCode,
      201,
    );
  } finally {
    await small.close();
  }
});

test('IPv6 clients are counted by their /64', () => {
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(clientKey('10.1.2.3'), '10.1.2.3');
});

test('cookie-authenticated writes from another origin are 403, API and forms alike; same origin, curl and bearer tokens pass', async () => {
  const user = await registerUser(app, 'csrf_target');
  const cookie = { cookie: user.cookie };
  const tokens = () => db.apiToken.count({ where: { userId: user.id } });
  const before = await tokens();

  const evil = await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...cookie, origin: 'https://evil.example' } });
  assert.equal(evil.statusCode, 403, evil.body);
  assert.match(evil.json().message, /another site \(https:\/\/evil\.example\)/);
  const opaque = await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...cookie, origin: 'null' } });
  assert.equal(opaque.statusCode, 403);
  assert.match(opaque.json().message, /Origin: null/);
  const crossSite = await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...cookie, 'sec-fetch-site': 'cross-site' } });
  assert.equal(crossSite.statusCode, 403);
  const logout = await app.inject({ method: 'DELETE', url: '/api/sessions', headers: { ...cookie, origin: 'https://evil.example' } });
  assert.equal(logout.statusCode, 403);
  assert.equal((await app.inject({ url: '/api/me', headers: cookie })).statusCode, 200, 'the session survived');
  assert.equal(await tokens(), before, 'no token was made');

  // Forms: the account page's token form, a revoke, the login form.
  const pageForm = await app.inject({ method: 'POST', url: '/account/tokens', headers: { ...cookie, ...FORM, origin: 'null' }, payload: form({ label: 'x' }) });
  assert.equal(pageForm.statusCode, 403);
  assert.match(String(pageForm.headers['content-type']), /text\/html/);
  assert.match(pageForm.body, /Origin: null/);
  const login = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { ...FORM, origin: 'https://evil.example' },
    payload: form({ username: 'csrf_target', password: 'correct horse' }),
  });
  assert.equal(login.statusCode, 403);
  assert.equal(await tokens(), before);

  // The site itself (inject's Host is localhost:80), a browser's same-origin fetch, curl, a bearer token.
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...cookie, origin: 'http://localhost' } })).statusCode, 201);
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...cookie, 'sec-fetch-site': 'same-origin' } })).statusCode, 201);
  assert.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/account/tokens',
        headers: { ...cookie, ...FORM, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        payload: form({ label: 'y' }),
      })
    ).statusCode,
    201,
  );
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens', headers: cookie })).statusCode, 201);
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens', headers: { ...user.auth, origin: 'https://evil.example' } })).statusCode, 201);
  // Reads are not checked.
  assert.equal((await app.inject({ url: '/api/me', headers: { ...cookie, origin: 'https://evil.example' } })).statusCode, 200);
});

test('behind a trusted proxy the origin is the public one (X-Forwarded-Proto/Host); without TRUST_PROXY those headers are ignored', async () => {
  const user = await registerUser(app, 'proxied');
  const headers = { cookie: user.cookie, origin: 'https://arbiter.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'arbiter.example' };
  assert.equal((await app.inject({ method: 'POST', url: '/api/tokens', headers })).statusCode, 403);
  const proxied = await buildApp({ config: loadConfig({ TRUST_PROXY: 'true' }), db, queues: null, logger: false });
  try {
    assert.equal((await proxied.inject({ method: 'POST', url: '/api/tokens', headers })).statusCode, 201);
    assert.equal(
      (await proxied.inject({ method: 'POST', url: '/api/tokens', headers: { ...headers, origin: 'http://arbiter.example' } })).statusCode,
      403,
      'the scheme counts',
    );
  } finally {
    await proxied.close();
  }
});

test('the session cookie is Secure with COOKIE_SECURE or over HTTPS (a trusted proxy saying so), not over plain HTTP', async () => {
  await registerUser(app, 'cookie_user', 'cookie password');
  const payload = { username: 'cookie_user', password: 'cookie password' };
  const secure = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    return res.cookies.find((c) => c.name === 'arbiter_session')!.secure === true;
  };
  const https = { 'x-forwarded-proto': 'https' };
  assert.equal(secure(await app.inject({ method: 'POST', url: '/api/sessions', payload })), false);
  assert.equal(secure(await app.inject({ method: 'POST', url: '/api/sessions', payload, headers: https })), false, 'an untrusted X-Forwarded-Proto');
  const proxied = await buildApp({ config: loadConfig({ TRUST_PROXY: 'true' }), db, queues: null, logger: false });
  const forced = await buildApp({ config: loadConfig({ COOKIE_SECURE: 'true' }), db, queues: null, logger: false });
  try {
    assert.equal(secure(await proxied.inject({ method: 'POST', url: '/api/sessions', payload, headers: https })), true);
    assert.equal(secure(await proxied.inject({ method: 'POST', url: '/api/sessions', payload })), false);
    assert.equal(secure(await forced.inject({ method: 'POST', url: '/api/sessions', payload })), true);
    const page = await proxied.inject({ method: 'POST', url: '/login', headers: { ...FORM, ...https }, payload: form(payload) });
    assert.equal(page.statusCode, 303);
    assert.equal(page.cookies.find((c) => c.name === 'arbiter_session')!.secure, true, 'the login form too');
  } finally {
    await proxied.close();
    await forced.close();
  }
});

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

test("nosniff on every response; API answers carry CSP default-src 'none'; pages keep their own; /docs still works", async () => {
  const user = await registerUser(app, 'headers_user');
  const sub = await submitJson(app, user, bot('Headers'));
  assert.equal(sub.statusCode, 202, sub.body);
  for (const url of [
    '/api/games',
    `/api/submissions/${sub.json().id}`,
    `/api/submissions/${sub.json().id}/source`,
    '/api/nothing-here',
    '/health',
    '/api/matches/999999/replay',
  ]) {
    const res = await app.inject({ url, headers: user.auth });
    assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    assert.equal(res.headers['content-security-policy'], API_CSP, url);
  }
  const bad = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'x' } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.headers['content-security-policy'], API_CSP, 'errors too');

  const home = await app.inject({ url: '/' });
  assert.equal(home.statusCode, 200);
  assert.equal(home.headers['x-content-type-options'], 'nosniff');
  assert.match(String(home.headers['content-security-policy']), /script-src 'self'/, 'the page keeps its own policy');

  const docs = await app.inject({ url: '/docs/' });
  assert.equal(docs.statusCode, 200);
  assert.match(docs.body, /swagger/i);
  assert.notEqual(docs.headers['content-security-policy'], API_CSP, 'Swagger UI runs its own scripts');
  const spec = await app.inject({ url: '/docs/json' });
  assert.equal(spec.statusCode, 200);
  assert.ok(spec.json().paths['/api/submissions']);
  const script = /src="\.?\/?([^"]+\.js)"/.exec(docs.body);
  assert.ok(script, 'the docs page loads its scripts');
  const asset = await app.inject({ url: `/docs/${script[1]!.replace(/^docs\//, '')}` });
  assert.equal(asset.statusCode, 200, script[1]);
});

// The SSE route hijacks its reply: a real socket to see its headers and hold it open.
let base = '';
async function listening() {
  if (!base) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  return base;
}

function openStream(path: string): Promise<{ req: ClientRequest; res: IncomingMessage; body: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: { accept: 'text/event-stream' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      const ended = new Promise<string>((ok) => res.on('end', () => ok(text)));
      resolve({ req, res, body: () => ended });
    });
    req.on('error', reject);
    req.end();
  });
}

test('open live streams are capped per address: past SSE_MAX_PER_IP, 429 before the stream starts; closing one frees its place', async () => {
  await listening();
  const user = await registerUser(app, 'streamer');
  const id = (await submitJson(app, user, bot('Streamer'))).json().id as number;
  const path = `/api/submissions/${id}/events`;
  const first = await openStream(path);
  const second = await openStream(path);
  for (const s of [first, second]) {
    assert.equal(s.res.statusCode, 200);
    assert.match(String(s.res.headers['content-type']), /text\/event-stream/);
    assert.equal(s.res.headers['x-content-type-options'], 'nosniff');
    assert.equal(s.res.headers['content-security-policy'], API_CSP);
  }
  const third = await openStream(path);
  assert.equal(third.res.statusCode, 429);
  assert.match(await third.body(), /too many live status streams open from your address \(at most 2\)/);
  // Other reads still work meanwhile.
  assert.equal((await app.inject({ url: `/api/submissions/${id}` })).statusCode, 200);

  first.req.destroy();
  const again = await waitFor(
    'a place freed by the closed stream',
    async () => {
      const s = await openStream(path);
      if (s.res.statusCode === 200) return s;
      await s.body();
      return null;
    },
    10_000,
    50,
  );
  assert.equal(again.res.statusCode, 200);
  second.req.destroy();
  again.req.destroy();
});

test('reasonDetail of a submission: its owner and admins read it, anyone else gets null', async () => {
  const owner = await registerUser(app, 'detail_owner');
  const other = await registerUser(app, 'detail_other');
  const admin = await registerUser(app, 'root');
  await adminGrant(db, 'grant', 'root');
  const id = (await submitJson(app, owner, bot('Detailed'))).json().id as number;
  const detail = { step: 'selfplay', message: 'TypeError: secret strategy at line 42' };
  await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'self-play: copy 1 of 4 froze', reasonDetail: detail } });
  const read = async (headers: Record<string, string>) => {
    const res = await app.inject({ url: `/api/submissions/${id}`, headers });
    assert.equal(res.statusCode, 200);
    return res.json() as { reason: string; reasonDetail: unknown };
  };
  assert.deepEqual((await read(owner.auth)).reasonDetail, detail);
  assert.deepEqual((await read({ cookie: owner.cookie })).reasonDetail, detail);
  assert.deepEqual((await read(admin.auth)).reasonDetail, detail);
  const anonymous = await read({});
  assert.equal(anonymous.reasonDetail, null);
  assert.equal(anonymous.reason, 'self-play: copy 1 of 4 froze', 'the reason itself stays public');
  assert.equal((await read(other.auth)).reasonDetail, null);
  assert.equal((await read({ authorization: 'Bearer arb_not_a_token' })).reasonDetail, null);
});
