// REGISTRATION=open|invite|domain, enforced by the API and the sign-up page
// with clear 4xx messages; nobody becomes an admin by signing up.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi } from '../../helpers/app.ts';

const invite = await startTestApi({ REGISTRATION: 'invite', REGISTRATION_INVITE_CODE: 'eda-spring-2026' });
const domain = await startTestApi({ REGISTRATION: 'domain', REGISTRATION_EMAIL_DOMAINS: 'estudiantat.upc.edu,upc.edu' });
const open = await startTestApi();

const form = { 'content-type': 'application/x-www-form-urlencoded' };

test('invite: without the code or with a wrong one, 403 saying so; with it, 201 (API and form)', async () => {
  const { app } = invite;
  const none = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'ines', password: 'correct horse' } });
  assert.equal(none.statusCode, 403);
  assert.equal(none.json().code, 'invite-required');
  assert.match(none.json().message, /invite code/);
  const wrong = await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'ines', password: 'correct horse', inviteCode: 'eda-spring-2025' },
  });
  assert.equal(wrong.statusCode, 403);
  assert.equal(wrong.json().code, 'bad-invite');
  assert.equal(await invite.db.user.count(), 0);
  const right = await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'ines', password: 'correct horse', inviteCode: 'eda-spring-2026' },
  });
  assert.equal(right.statusCode, 201, right.body);
  assert.equal(right.json().isAdmin, false);

  const page = await app.inject({ url: '/signup' });
  assert.ok(page.body.includes('name="inviteCode"'), 'the sign-up page asks for the code');
  const bad = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'username=ivan&password=correct+horse&inviteCode=nope' });
  assert.equal(bad.statusCode, 403);
  assert.match(bad.body, /wrong invite code/);
  assert.ok(bad.body.includes('id="f-inviteCode-error"'), 'the error is tied to the invite field');
  const good = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'username=ivan&password=correct+horse&inviteCode=eda-spring-2026' });
  assert.equal(good.statusCode, 303);
});

test('domain: an e-mail address of a listed domain is required and kept; another domain is refused', async () => {
  const { app, db } = domain;
  const none = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'dani', password: 'correct horse' } });
  assert.equal(none.statusCode, 400);
  assert.equal(none.json().code, 'email-required');
  assert.match(none.json().message, /estudiantat\.upc\.edu or upc\.edu/);
  const other = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'dani', password: 'correct horse', email: 'dani@gmail.com' } });
  assert.equal(other.statusCode, 403);
  assert.equal(other.json().code, 'email-domain');
  const sub = await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'dani', password: 'correct horse', email: 'dani@evil.upc.edu.example.com' },
  });
  assert.equal(sub.statusCode, 403);
  const garbage = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'dani', password: 'correct horse', email: 'not an address' } });
  assert.equal(garbage.statusCode, 400);
  const ok = await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'dani', password: 'correct horse', email: 'Dani.Perez@Estudiantat.UPC.edu' },
  });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.equal((await db.user.findUniqueOrThrow({ where: { usernameLower: 'dani' } })).email, 'dani.perez@estudiantat.upc.edu');

  const page = await app.inject({ url: '/signup' });
  assert.ok(page.body.includes('name="email"'));
  const bad = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'username=dora&password=correct+horse&email=dora%40gmail.com' });
  assert.equal(bad.statusCode, 403);
  assert.ok(bad.body.includes('id="f-email-error"'));
  assert.ok(bad.body.includes('value="dora@gmail.com"'), 'the form keeps what was typed');
});

test('open: no extra field, anyone signs up; the username "root" or "admin" makes no admin', async () => {
  const page = await open.app.inject({ url: '/signup' });
  assert.ok(!page.body.includes('name="inviteCode"') && !page.body.includes('name="email"'));
  for (const username of ['root', 'admin']) {
    const res = await open.app.inject({ method: 'POST', url: '/api/users', payload: { username, password: 'correct horse' } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().isAdmin, false);
  }
});

test('invite: wrong codes spend the address budget of failed password checks (429 with Retry-After), so the code cannot be guessed at speed', async () => {
  const limited = await startTestApi({ REGISTRATION: 'invite', REGISTRATION_INVITE_CODE: 'eda-spring-2026', PASSWORD_FAILURES_PER_ACCOUNT: '3' });
  const attempt = (inviteCode: string) =>
    limited.app.inject({ method: 'POST', url: '/api/users', payload: { username: 'guesser', password: 'correct horse', inviteCode } });
  for (let i = 0; i < 3; i++) assert.equal((await attempt(`guess-${i}00000`)).statusCode, 403);
  const blocked = await attempt('eda-spring-2026');
  assert.equal(blocked.statusCode, 429, 'even the right code waits once the guesses are spent');
  assert.ok(Number(blocked.headers['retry-after']) > 0);
});
