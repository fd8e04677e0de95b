// The account pages: sign up, log in, log out, API tokens, the password. Real
// Postgres through test/helpers/app.ts; forms posted as a browser posts them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startTestApi } from '../../helpers/app.ts';
import type { Db } from '../../../src/db/client.ts';

const { app, db }: { app: FastifyInstance; db: Db } = await startTestApi();

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

async function post(url: string, fields: Record<string, string>, cookie?: string) {
  const f = form(fields);
  return app.inject({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, ...(cookie ? { cookie } : {}) } });
}

function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'arbiter_session');
  assert.ok(c?.value, `a session cookie (status ${res.statusCode})`);
  return `arbiter_session=${c.value}`;
}

/** The <input> or <select> with this id, as markup. */
function control(body: string, id: string): string {
  const m = new RegExp(`<(input|select)[^>]*\\bid="${id}"[^>]*>`).exec(body);
  assert.ok(m, `no control #${id}`);
  return m[0];
}

test('sign up sets the session cookie and goes to ?next=; log out ends the session; log in comes back to ?next=', async () => {
  const page = await app.inject({ url: '/signup?next=/account' });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<label for="f-username">/);
  assert.match(page.body, /name="next" value="\/account"/);

  const res = await post('/signup', { username: 'ada_l', password: 'correct horse', next: '/account' });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, '/account');
  const cookie = sessionCookie(res);
  const me = await app.inject({ url: '/api/me', headers: { cookie } });
  assert.equal(me.json().username, 'ada_l', 'the page cookie is the API session');
  const account = await app.inject({ url: '/account', headers: { cookie } });
  assert.equal(account.statusCode, 200);
  assert.match(account.body, /<strong id="account-username">ada_l<\/strong>/);

  const out = await post('/logout', {}, cookie);
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, '/');
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie } })).statusCode, 401, 'the session row is gone');

  const login = await post('/login', { username: 'ADA_L', password: 'correct horse', next: '/submissions?game=moria' });
  assert.equal(login.statusCode, 303);
  assert.equal(login.headers.location, '/submissions?game=moria');
  const again = sessionCookie(login);
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: again } })).json().username, 'ada_l');
});

test('?next= only returns to a path on this site', async () => {
  await post('/signup', { username: 'nextcheck', password: 'correct horse' });
  for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '']) {
    const res = await post('/login', { username: 'nextcheck', password: 'correct horse', next });
    assert.equal(res.statusCode, 303, next);
    assert.equal(res.headers.location, '/', `next=${next} falls back to /`);
  }
  const page = await app.inject({ url: '/login?next=//evil.example' });
  assert.match(page.body, /name="next" value="\/"/);
});

test('a bad sign-up re-renders the form with the error on its field, the username kept, never the password', async () => {
  const bad = await post('/signup', { username: 'a b', password: 'correct horse' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /role="alert"/);
  assert.match(control(bad.body, 'f-username'), /aria-invalid="true"/);
  assert.match(control(bad.body, 'f-username'), /value="a b"/);
  assert.match(control(bad.body, 'f-username'), /aria-describedby="[^"]*f-username-error/);
  assert.match(bad.body, /<a href="#f-username">Username: username must be 3 to 32 characters/);
  assert.equal(
    bad.cookies.find((c) => c.name === 'arbiter_session'),
    undefined,
  );

  const weak = await post('/signup', { username: 'weakling', password: 'short' });
  assert.equal(weak.statusCode, 400);
  assert.match(control(weak.body, 'f-password'), /aria-invalid="true"/);
  assert.doesNotMatch(control(weak.body, 'f-username'), /aria-invalid/);
  assert.match(weak.body, /password must be at least 8 characters/);
  assert.ok(!weak.body.includes('value="short"'), 'the password is not echoed');

  await post('/signup', { username: 'taken_one', password: 'correct horse' });
  const taken = await post('/signup', { username: 'Taken_One', password: 'another horse' });
  assert.equal(taken.statusCode, 409);
  assert.match(control(taken.body, 'f-username'), /aria-invalid="true"/);
  assert.match(taken.body, /username &quot;Taken_One&quot; is taken/);
  assert.equal(await db.user.count({ where: { usernameLower: 'taken_one' } }), 1);
});

test('a wrong login answers 401 with the form, the username kept, a link-free summary', async () => {
  await post('/signup', { username: 'grace', password: 'correct horse' });
  const res = await post('/login', { username: 'grace', password: 'wrong horse', next: '/submit' });
  assert.equal(res.statusCode, 401);
  assert.match(res.body, /role="alert"[\s\S]*wrong username or password/);
  assert.match(control(res.body, 'f-username'), /value="grace"/);
  assert.ok(!res.body.includes('wrong horse'));
  assert.match(res.body, /name="next" value="\/submit"/);
  const empty = await post('/login', { username: '', password: '' });
  assert.equal(empty.statusCode, 400);
  assert.match(control(empty.body, 'f-username'), /aria-invalid="true"/);
  assert.match(control(empty.body, 'f-password'), /aria-invalid="true"/);
});

test('a form posted from another site is refused', async () => {
  const f = form({ username: 'mallory', password: 'correct horse' });
  const res = await app.inject({ method: 'POST', url: '/signup', payload: f.payload, headers: { ...f.headers, origin: 'https://evil.example' } });
  assert.equal(res.statusCode, 403);
  assert.equal(await db.user.count({ where: { usernameLower: 'mallory' } }), 0);
});

test('/account: a new token is shown once with how to use it, works as a bearer token, and is revoked from the list', async () => {
  const cookie = sessionCookie(await post('/signup', { username: 'tokenist', password: 'correct horse' }));
  const made = await post('/account/tokens', { label: 'laptop' }, cookie);
  assert.equal(made.statusCode, 201);
  const token = /id="new-token"[^>]*value="(arb_[A-Za-z0-9_-]+)"/.exec(made.body)?.[1];
  assert.ok(token, 'the secret is in the answer');
  assert.match(made.body, /shown only this once/);
  assert.match(made.body, /ARBITER_URL=http:\/\/localhost\n/);
  assert.ok(made.body.includes(`ARBITER_TOKEN=${token}`));
  assert.match(made.body, /node arbiter\.mjs submit MyBot\.ts/);
  assert.match(made.headers['cache-control'] as string, /no-store/);

  const me = await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
  assert.equal(me.json().username, 'tokenist');

  const list = await app.inject({ url: '/account', headers: { cookie } });
  assert.ok(!list.body.includes(token), 'never shown again');
  assert.ok(list.body.includes(token.slice(0, 10)), 'its prefix is listed');
  assert.match(list.body, /<td>laptop<\/td>/);
  const row = await db.apiToken.findFirstOrThrow({ where: { label: 'laptop' } });
  assert.match(list.body, new RegExp(`<tr id="token-${row.id}" data-revoked="false">`));

  const revoke = await post(`/account/tokens/${row.id}/revoke`, {}, cookie);
  assert.equal(revoke.statusCode, 303);
  assert.equal(revoke.headers.location, '/account');
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 401);
  const after = await app.inject({ url: '/account', headers: { cookie } });
  assert.match(after.body, new RegExp(`<tr id="token-${row.id}" data-revoked="true">`));

  // Someone else's token is not mine to revoke.
  const other = sessionCookie(await post('/signup', { username: 'other_one', password: 'correct horse' }));
  const mine = await db.apiToken.create({
    data: { userId: (await db.user.findFirstOrThrow({ where: { usernameLower: 'tokenist' } })).id, tokenHash: 'x'.repeat(64), prefix: 'arb_xxxxxx' },
  });
  const refused = await post(`/account/tokens/${mine.id}/revoke`, {}, other);
  assert.equal(refused.statusCode, 404);
  assert.equal((await db.apiToken.findUniqueOrThrow({ where: { id: mine.id } })).revokedAt, null);

  const long = await post('/account/tokens', { label: 'x'.repeat(101) }, cookie);
  assert.equal(long.statusCode, 400);
  assert.match(control(long.body, 'f-label'), /aria-invalid="true"/);
  assert.ok(!/id="new-token"/.test(long.body));
});

test('/account: the password is changed with the current one; other browsers are logged out and every token revoked; this browser stays in', async () => {
  const cookie = sessionCookie(await post('/signup', { username: 'changer_page', password: 'correct horse' }));
  const elsewhere = sessionCookie(await post('/login', { username: 'changer_page', password: 'correct horse' }));
  const token = /id="new-token"[^>]*value="(arb_[A-Za-z0-9_-]+)"/.exec((await post('/account/tokens', { label: 'ci' }, cookie)).body)![1]!;
  const page = await app.inject({ url: '/account', headers: { cookie } });
  assert.match(page.body, /<form method="post" action="\/account\/password" id="password-form"/);
  assert.match(control(page.body, 'f-currentPassword'), /autocomplete="current-password"/);

  const wrong = await post('/account/password', { currentPassword: 'not it at all', password: 'brand new pass', confirm: 'brand new pass' }, cookie);
  assert.equal(wrong.statusCode, 401);
  assert.match(control(wrong.body, 'f-currentPassword'), /aria-invalid="true"/);
  assert.match(wrong.body, /not your current password/);
  const mismatch = await post('/account/password', { currentPassword: 'correct horse', password: 'brand new pass', confirm: 'other new pass' }, cookie);
  assert.equal(mismatch.statusCode, 400);
  const weak = await post('/account/password', { currentPassword: 'correct horse', password: 'short', confirm: 'short' }, cookie);
  assert.equal(weak.statusCode, 400);
  assert.match(control(weak.body, 'f-password'), /aria-invalid="true"/);
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 200, 'nothing changed yet');

  const done = await post('/account/password', { currentPassword: 'correct horse', password: 'brand new pass', confirm: 'brand new pass' }, cookie);
  assert.equal(done.statusCode, 200, done.body.slice(0, 300));
  assert.match(done.body, /Password changed: your other sessions ended and 1 API token was revoked/);
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: sessionCookie(done) } })).statusCode, 200, 'this browser stays logged in');
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie } })).statusCode, 401);
  assert.equal((await app.inject({ url: '/api/me', headers: { cookie: elsewhere } })).statusCode, 401, 'the other browser is logged out');
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 401, 'the token is revoked');
  assert.equal((await post('/login', { username: 'changer_page', password: 'brand new pass' })).statusCode, 303);
});

test('logged out: account pages redirect to the login page and come back; no page crashes', async () => {
  const res = await app.inject({ url: '/account' });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, '/login?next=%2Faccount');
  const tokenPost = await post('/account/tokens', { label: 'x' });
  assert.equal(tokenPost.statusCode, 303);
  assert.equal(tokenPost.headers.location, '/login?next=%2Faccount');
  for (const url of ['/signup', '/login', '/account', '/submit', '/submissions', '/submissions/1', '/submissions/1/timeline', '/submissions/1/source']) {
    const r = await app.inject({ url, headers: { accept: 'text/html' } });
    assert.ok(r.statusCode === 200 || r.statusCode === 303, `${url}: ${r.statusCode}`);
    assert.ok(r.body.length < 300 * 1024, `${url} is under 300 KB`);
  }
  const out = await post('/logout', {});
  assert.equal(out.statusCode, 303, 'logging out twice is fine');
});
