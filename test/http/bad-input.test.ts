// Bad input is a 4xx with a message, never a 500:
// multipart bodies without a boundary or cut mid-part (the API's upload, the
// submit page, the admin's Dummy upload), names that are Object.prototype's
// ("constructor", "__proto__"...) where a name is looked up, malformed JSON,
// form fields named like prototype properties, and paths that are no URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot } from '../helpers/app.ts';
import { builtinSeat, UnknownPlayerError } from '../../src/match/builtins.ts';

const { app, db } = await startTestApi();
const student = await registerUser(app, 'badinput');
const admin = await registerUser(app, 'badadmin');
await db.user.update({ where: { id: admin.id }, data: { isAdmin: true } });

const B = 'XyZzY';
/** A form whose file part is cut off: no closing boundary, the file's text stops mid-way. */
const truncated = `--${B}\r\ncontent-disposition: form-data; name="game"\r\n\r\nmoria\r\n--${B}\r\ncontent-disposition: form-data; name="file"; filename="Bot.ts"\r\ncontent-type: application/octet-stream\r\n\r\n${bot('Cut').slice(0, 60)}`;
/** A form cut inside a part's headers. */
const cutInHeaders = `--${B}\r\ncontent-disposition: form-da`;
const BAD_FORMS = [
  {
    what: 'no boundary',
    headers: { 'content-type': 'multipart/form-data' },
    payload: `--${B}\r\ncontent-disposition: form-data; name="game"\r\n\r\nmoria\r\n--${B}--\r\n`,
  },
  { what: 'cut mid-part', headers: { 'content-type': `multipart/form-data; boundary=${B}` }, payload: truncated },
  { what: 'cut in a header', headers: { 'content-type': `multipart/form-data; boundary=${B}` }, payload: cutInHeaders },
];

test('a multipart upload without a boundary, or cut short, is a 400 "bad-multipart" with a message on the API', async () => {
  for (const form of BAD_FORMS) {
    const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...student.auth, ...form.headers }, payload: form.payload });
    assert.equal(res.statusCode, 400, `${form.what}: ${res.body}`);
    const body = res.json();
    assert.equal(body.code, 'bad-multipart', form.what);
    assert.match(body.message, /malformed multipart body/, form.what);
  }
  assert.equal(await db.submission.count(), 0);
});

test('the submit page answers the same bodies with its form and the message, 400', async () => {
  for (const form of BAD_FORMS) {
    const res = await app.inject({ method: 'POST', url: '/submit', headers: { ...student.auth, ...form.headers, accept: 'text/html' }, payload: form.payload });
    assert.equal(res.statusCode, 400, `${form.what}: ${res.body.slice(0, 200)}`);
    assert.match(res.body, /malformed multipart body/, form.what);
    assert.match(res.body, /<form/, form.what);
  }
});

test("the admin's Dummy upload (API and page) answers them 400 too", async () => {
  for (const form of BAD_FORMS) {
    const api = await app.inject({ method: 'PUT', url: '/api/admin/games/moria/dummy', headers: { ...admin.auth, ...form.headers }, payload: form.payload });
    assert.equal(api.statusCode, 400, `${form.what}: ${api.body}`);
    assert.equal(api.json().code, 'bad-multipart');
    const page = await app.inject({
      method: 'POST',
      url: '/admin/actions/dummy',
      headers: { ...admin.auth, ...form.headers, accept: 'text/html' },
      payload: form.payload,
    });
    assert.equal(page.statusCode, 400, `${form.what}: ${page.body.slice(0, 200)}`);
    assert.match(page.body, /malformed multipart body/);
  }
});

const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'toLocaleString'];

test("a built-in player named like an Object.prototype property is no built-in: 404, not the prototype's function", async () => {
  for (const name of PROTO_NAMES) {
    const res = await app.inject({ url: `/api/play/moria/builtins/${name}` });
    assert.equal(res.statusCode, 404, `${name}: ${res.body}`);
    assert.equal(res.json().code, 'not-found');
    assert.match(res.json().message, /no built-in player/);
    await assert.rejects(builtinSeat('moria', name), UnknownPlayerError, name);
  }
  // The real ones still answer.
  assert.equal((await app.inject({ url: '/api/play/moria/builtins/Null' })).statusCode, 200);
});

test('prototype names in game, player and page params are 4xx', async () => {
  for (const name of PROTO_NAMES) {
    for (const url of [
      `/games/${name}`,
      `/games/${name}/leaderboard`,
      `/games/${name}/play`,
      `/api/games/${name}/leaderboard`,
      `/api/players/${name}?game=${name}`,
      `/api/play/${name}/prelude.js`,
      `/assets/play/${name}.js`,
      `/players/${name}`,
      `/?lang=${name}`,
    ]) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      assert.ok(res.statusCode < 500, `${url}: ${res.statusCode}`);
    }
  }
});

test('malformed JSON bodies are a 400 with a message and a code', async () => {
  for (const [url, auth] of [
    ['/api/submissions', student.auth],
    ['/api/sessions', {}],
    ['/api/users', {}],
    ['/api/challenges', student.auth],
    ['/api/admin/names/release', admin.auth],
    ['/api/play/compile', {}],
  ] as const) {
    for (const payload of ['{"game": ', '{', 'nul', '{"a":1}}', '{"__proto__": {"isAdmin": true}, "username": "x", "password": "yyyyyyyy"}']) {
      const res = await app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload });
      assert.equal(res.statusCode, 400, `${url} ${payload}: ${res.body}`);
      const body = res.json();
      assert.ok(body.message && body.code, `${url} ${payload}: ${res.body}`);
    }
  }
});

test('form fields named __proto__ or constructor are fields like any other', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: '__proto__=x&constructor=y&toString=z&username=nobody&password=wrongwrong',
  });
  assert.equal(res.statusCode, 401);
  const admin2 = await app.inject({
    method: 'POST',
    url: '/admin/actions/name',
    headers: { ...admin.auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: '__proto__=x&constructor=y&action=constructor',
  });
  assert.equal(admin2.statusCode, 400);
});

test('paths that are no URL, or that spell a route oddly, are 4xx', async () => {
  for (const url of [
    '/%',
    '/api/%',
    '/games/%ZZ',
    '/api/games/%E0%A4%A',
    '/%00',
    '/api/matches/%2e%2e',
    '//',
    '///',
    '//evil.example/x',
    '/api//admin/users',
    '/API/ADMIN/USERS',
  ]) {
    for (const accept of ['text/html', 'application/json']) {
      const res = await app.inject({ url, headers: { accept } });
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${url} (${accept}): ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  }
  // The not-found page's language links stay on this site.
  const page = await app.inject({ url: '//evil.example/x', headers: { accept: 'text/html' } });
  assert.equal(page.statusCode, 404);
  assert.doesNotMatch(page.body, /href="\/\/evil/);
});
