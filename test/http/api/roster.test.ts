// Accounts a teacher can manage: the roster import (CSV parsing,
// invitations and accounts, created and skipped rows, the links CSV, the
// page), sign-up through an invitation (the link's id, name and e-mail win
// and it works once), password links (roster accounts, an admin's 24-hour
// reset link: once, ends the user's sessions and revokes their tokens), PUT
// /api/me/password (the current password asked of a token too), and SIGNUP_REQUIRE. Real Postgres, app.inject.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, multipart, type TestUser } from '../../helpers/app.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { GENERATED_USERNAME_RE, parseRoster, rosterLinksCsv, ROSTER_MAX_BYTES } from '../../../src/domain/roster.ts';
import { csvCellValue } from '../../../src/domain/exports.ts';
import { findLink } from '../../../src/domain/account-links.ts';
import { DomainError } from '../../../src/domain/errors.ts';

const api = await startTestApi();
const { app, db } = api;
const admin = await registerUser(app, 'teacher');
await db.user.update({ where: { id: admin.id }, data: { isAdmin: true } });
const student = await registerUser(app, 'someone');

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const csvPost = (who: TestUser | null, csv: string | Buffer, query = '') =>
  app.inject({ method: 'POST', url: `/api/admin/roster${query}`, headers: { ...(who ? who.auth : {}), 'content-type': 'text/csv' }, payload: csv });
const tokenOf = (link: string) => /(?:invite=|\/reset\/)([A-Za-z0-9_-]+)/.exec(link)![1]!;
const sessionOf = (res: { cookies: { name: string; value: string }[] }) => `arbiter_session=${res.cookies.find((c) => c.name === 'arbiter_session')!.value}`;
const asCookie = (cookie: string) => app.inject({ url: '/api/me', headers: { cookie } });

test('parsing: a BOM, ; or , separators, quotes holding separators, quotes and line breaks, header names in other words, blank lines', () => {
  const semi = parseRoster(
    Buffer.from('\uFEFFDNI;Nom;Correu\r\n11111111A;"Pérez; Anna";anna@upc.edu\r\n\r\n22222222B;"Joan ""Jo""\nRius";JOAN@UPC.EDU\r\n', 'utf8'),
  );
  assert.deepEqual(
    semi.map((r) => [r.line, r.studentId, r.fullName, r.email]),
    [
      [2, '11111111A', 'Pérez; Anna', 'anna@upc.edu'],
      [4, '22222222B', 'Joan "Jo"\nRius', 'JOAN@UPC.EDU'],
    ],
  );
  const comma = parseRoster('id,first name,last name,e-mail,username\n7,Ada,Lovelace,ada@x.org,ada\n');
  assert.deepEqual(
    comma.map((r) => [r.studentId, r.fullName, r.email, r.username]),
    [['7', 'Ada Lovelace', 'ada@x.org', 'ada']],
  );
  const refused = (input: string | Buffer, code: string) =>
    assert.throws(
      () => parseRoster(input),
      (e: unknown) => e instanceof DomainError && e.code === code,
      code,
    );
  refused('name,email\nAda,ada@x.org\n', 'roster-header');
  refused('', 'empty-roster');
  refused('id,name\n', 'empty-roster');
  refused('id,name\n1,"never closed\n', 'bad-csv');
  refused(Buffer.from([0x69, 0x64, 0x0a, 0xff, 0xfe, 0x0a]), 'not-utf8');
  refused('id\n' + 'x'.repeat(ROSTER_MAX_BYTES), 'too-large');
});

test('the links CSV is written as every export is: every cell quoted, a formula (= + - @) neutralised with an apostrophe', () => {
  const row = (studentId: string, fullName: string, email: string | null) => ({
    line: 2,
    studentId,
    fullName,
    email,
    username: null,
    status: 'created' as const,
    code: null,
    reason: null,
    link: '/signup?invite=x',
    expiresAt: '2027-01-01T00:00:00.000Z',
  });
  const csv = rosterLinksCsv(
    {
      mode: 'invite',
      created: 3,
      skipped: 0,
      rows: [row('=1+1', '=HYPERLINK("http://evil.example","click")', null), row('+34', '-2', '@x.org'), row('S5', 'Plain "Quoted"', 'a@b.c')],
    },
    'https://arbiter.example.edu',
  );
  const lines = csv.split('\r\n');
  assert.equal(
    lines[1],
    `"'=1+1","'=HYPERLINK(""http://evil.example"",""click"")","","","https://arbiter.example.edu/signup?invite=x","2027-01-01T00:00:00.000Z"`,
  );
  assert.ok(lines[2]!.startsWith(`"'+34","'-2","'@x.org",`), lines[2]);
  assert.ok(lines[3]!.startsWith('"S5","Plain ""Quoted""","a@b.c"'), lines[3]);
  assert.equal(csvCellValue("'=1+1"), '=1+1');
  assert.equal(csvCellValue("it's"), "it's");
});

test('invitations: created and skipped rows with reasons, links CSV, audit; admins only', async () => {
  await db.user.update({ where: { id: student.id }, data: { studentId: 'S-TAKEN' } });
  const csv =
    'id;name;email\nS1;Anna Pérez;anna@upc.edu\nS2;Bernat;not-an-address\n;No Id;noid@upc.edu\nS1;Again;again@upc.edu\nS-TAKEN;Taken;t@upc.edu\nS3;"Carla, C.";\n';
  assert.equal((await csvPost(null, csv)).statusCode, 401);
  assert.equal((await csvPost(student, csv)).statusCode, 403);
  assert.equal(await db.accountLink.count(), 0);
  const res = await csvPost(admin, csv);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.mode, 'invite');
  assert.equal(body.created, 2);
  assert.equal(body.skipped, 4);
  const byLine = Object.fromEntries(body.rows.map((r: { line: number }) => [r.line, r]));
  assert.equal(byLine[2].status, 'created');
  assert.match(byLine[2].link, /^http:\/\/localhost(:\d+)?\/signup\?invite=[A-Za-z0-9_-]{40,}$/);
  assert.equal(byLine[3].code, 'bad-email');
  assert.equal(byLine[4].code, 'no-student-id');
  assert.equal(byLine[5].code, 'duplicate');
  assert.equal(byLine[6].code, 'student-id-taken');
  assert.equal(byLine[7].status, 'created');
  assert.equal(byLine[7].fullName, 'Carla, C.');
  const lines = body.linksCsv.trim().split('\r\n');
  assert.equal(lines[0], '"student_id","name","email","username","link","expires_at"');
  assert.equal(lines.length, 3);
  assert.ok(lines[2].startsWith('"S3","Carla, C.","","","http'));
  // Only hashes are stored.
  const stored = await db.accountLink.findMany();
  assert.equal(stored.length, 2);
  for (const l of stored) assert.ok(!body.linksCsv.includes(l.tokenHash));
  const audit = await db.auditEntry.findFirstOrThrow({ where: { action: 'roster.import' } });
  assert.equal(audit.actorId, admin.id);
  assert.deepEqual((audit.detail as { created: number; skipped: number }).created, 2);

  // Importing S1 again replaces the first invitation: the older link stops working.
  const again = (await csvPost(admin, 'id,name,email\nS1,Anna Pérez,anna@upc.edu\n', '?expiresInDays=3')).json();
  assert.equal(again.rows[0].code, 'replaced');
  assert.equal(await findLink(db, tokenOf(byLine[2].link), 'invite'), null);
  const fresh = tokenOf(again.rows[0].link);
  const row = (await findLink(db, fresh, 'invite'))!;
  assert.ok(Math.abs(row.expiresAt.getTime() - Date.now() - 3 * 86_400_000) < 60_000);

  // Bad input: the mode, the expiry, a body that is no CSV.
  assert.equal((await csvPost(admin, csv, '?mode=other')).statusCode, 400);
  assert.equal((await csvPost(admin, csv, '?expiresInDays=0')).statusCode, 400);
  const notCsv = await csvPost(admin, 'name,email\nA,a@b.c\n');
  assert.equal(notCsv.statusCode, 400);
  assert.equal(notCsv.json().code, 'roster-header');

  // Sign-up through the invitation: the page locks the id; the link's values win over typed ones; once only.
  const page = await app.inject({ url: `/signup?invite=${fresh}` });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /name="studentId"[^>]*value="S1"|value="S1"[^>]*name="studentId"/);
  assert.match(page.body, /readonly/);
  assert.ok(page.body.includes('anna@upc.edu'));
  const signed = await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'anna', password: 'correct horse', invitation: fresh, studentId: 'FORGED', email: 'x@y.z' },
  });
  assert.equal(signed.statusCode, 201, signed.body);
  const anna = await db.user.findUniqueOrThrow({ where: { usernameLower: 'anna' } });
  assert.deepEqual([anna.studentId, anna.fullName, anna.email], ['S1', 'Anna Pérez', 'anna@upc.edu']);
  const twice = await app.inject({ method: 'POST', url: '/api/users', payload: { username: 'anna2', password: 'correct horse', invitation: fresh } });
  assert.equal(twice.statusCode, 404);
  assert.equal((await app.inject({ url: `/signup?invite=${fresh}` })).statusCode, 404);
  assert.equal((await db.auditEntry.findFirstOrThrow({ where: { action: 'user.signup-invited' } })).targetId, String(anna.id));

  // By the form, with the invitation of S3 (no e-mail in the roster).
  const s3 = tokenOf(byLine[7].link);
  const viaForm = await app.inject({
    method: 'POST',
    url: '/signup',
    headers: formHeaders,
    payload: new URLSearchParams({ username: 'carla', password: 'correct horse', invitation: s3 }).toString(),
  });
  assert.equal(viaForm.statusCode, 303, viaForm.body);
  const carla = await db.user.findUniqueOrThrow({ where: { usernameLower: 'carla' } });
  assert.deepEqual([carla.studentId, carla.fullName, carla.email], ['S3', 'Carla, C.', null]);
});

test('accounts: a user per student with a one-time password link (the username generated when the roster has none, never the student id); the link sets the password, logs in, ends other sessions, works once', async () => {
  const body = multipart(
    { mode: 'account', expiresInDays: '7' },
    {
      filename: 'roster.csv',
      content:
        'Student ID,Full name,Email,Username\nA100,Dídac Puig,didac@upc.edu,\n42,Too Short,x@upc.edu,no way!\nA101,Eva,eva@upc.edu,teacher\nA102,Fina,fina@upc.edu,fina.p\nA103,Gil,gil@upc.edu,a103\n',
    },
  );
  const res = await app.inject({ method: 'POST', url: '/api/admin/roster', headers: { ...admin.auth, ...body.headers }, payload: body.payload });
  assert.equal(res.statusCode, 200, res.body);
  const rows = res.json().rows as { studentId: string; status: string; code: string | null; username: string | null; link: string | null }[];
  const generated = (name: string | null | undefined) => (name && GENERATED_USERNAME_RE.test(name) ? 'generated' : (name ?? ''));
  assert.deepEqual(
    rows.map((r) => [r.studentId, r.status, r.code ?? '', generated(r.username)]),
    [
      ['A100', 'created', '', 'generated'],
      ['42', 'skipped', 'bad-username', ''],
      ['A101', 'skipped', 'username-taken', 'teacher'],
      ['A102', 'created', '', 'fina.p'],
      ['A103', 'created', '', 'generated'],
    ],
  );
  assert.notEqual(rows[0]!.username, rows[4]!.username);
  const didac = await db.user.findUniqueOrThrow({ where: { studentId: 'A100' } });
  assert.equal(didac.username, rows[0]!.username);
  assert.deepEqual([didac.studentId, didac.fullName, didac.email], ['A100', 'Dídac Puig', 'didac@upc.edu']);
  // No password opens it before the link is used.
  const login = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: didac.username, password: 'unset$roster' } });
  assert.equal(login.statusCode, 401);

  const token = tokenOf(rows[0]!.link!);
  const page = await app.inject({ url: `/reset/${token}` });
  assert.equal(page.statusCode, 200);
  assert.ok(page.body.includes('id="reset-form"'));
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  const mismatch = await app.inject({ method: 'POST', url: `/reset/${token}`, headers: formHeaders, payload: 'password=a+new+secret&confirm=another+one' });
  assert.equal(mismatch.statusCode, 400);
  const weak = await app.inject({ method: 'POST', url: `/reset/${token}`, headers: formHeaders, payload: 'password=short&confirm=short' });
  assert.equal(weak.statusCode, 400);
  const set = await app.inject({ method: 'POST', url: `/reset/${token}`, headers: formHeaders, payload: 'password=a+new+secret&confirm=a+new+secret' });
  assert.equal(set.statusCode, 303, set.body);
  assert.equal(set.headers.location, '/account');
  assert.equal((await asCookie(sessionOf(set))).statusCode, 200, 'the browser that used the link is logged in');
  assert.equal((await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: didac.username, password: 'a new secret' } })).statusCode, 200);
  const reuse = await app.inject({ method: 'POST', url: `/reset/${token}`, headers: formHeaders, payload: 'password=third+secret&confirm=third+secret' });
  assert.equal(reuse.statusCode, 404);
  assert.equal((await app.inject({ url: `/reset/${token}` })).statusCode, 404);
  assert.equal((await app.inject({ url: '/reset/not-a-token' })).statusCode, 404);
  const audit = await db.auditEntry.findFirstOrThrow({ where: { action: 'user.password-reset', targetId: String(didac.id) } });
  assert.equal((audit.detail as { via: string }).via, 'link');
});

test("an admin's reset link: 24 hours, once, a newer one replaces it; using it ends the user's other sessions and revokes their tokens; audited", async () => {
  const u = await registerUser(app, 'forgetful');
  assert.equal((await app.inject({ method: 'POST', url: `/api/admin/users/${u.id}/reset-link`, headers: student.auth })).statusCode, 403);
  assert.equal((await app.inject({ method: 'POST', url: '/api/admin/users/999999/reset-link', headers: admin.auth })).statusCode, 404);
  const first = await app.inject({ method: 'POST', url: `/api/admin/users/${u.id}/reset-link`, headers: admin.auth });
  assert.equal(first.statusCode, 201, first.body);
  const second = (await app.inject({ method: 'POST', url: `/api/admin/users/${u.id}/reset-link`, headers: admin.auth })).json();
  assert.equal(second.username, 'forgetful');
  assert.match(second.link, /\/reset\/[A-Za-z0-9_-]{40,}$/);
  assert.ok(Math.abs(new Date(second.expiresAt).getTime() - Date.now() - 24 * 3600_000) < 60_000);
  assert.equal(await findLink(db, tokenOf(first.json().link), 'password'), null, 'the newer link replaces the older');
  const token = tokenOf(second.link);
  assert.equal(await findLink(db, token, 'password', new Date(Date.now() + 25 * 3600_000)), null, 'expired after 24 h');
  assert.equal(await findLink(db, token, 'invite'), null, 'a password link is no invitation');

  assert.equal((await asCookie(u.cookie)).statusCode, 200);
  const used = await app.inject({ method: 'POST', url: `/reset/${token}`, headers: formHeaders, payload: 'password=brand+new+pass&confirm=brand+new+pass' });
  assert.equal(used.statusCode, 303);
  assert.equal((await asCookie(u.cookie)).statusCode, 401, 'the older session ended');
  assert.equal((await app.inject({ url: '/api/me', headers: u.auth })).statusCode, 401, 'API tokens are revoked too');
  const actions = (await db.auditEntry.findMany({ where: { targetType: 'user', targetId: String(u.id) }, orderBy: { id: 'asc' } })).map((a) => a.action);
  assert.deepEqual(actions, ['user.reset-link', 'user.reset-link', 'user.password-reset']);

  // The page: a button per user on /admin/users, the roster section, and the link shown once.
  const users = await app.inject({ url: '/admin/users', headers: { cookie: admin.cookie } });
  assert.equal(users.statusCode, 200);
  assert.ok(users.body.includes('action="/admin/actions/reset-link"'));
  assert.ok(users.body.includes('id="roster-form"'));
  const viaPage = await app.inject({
    method: 'POST',
    url: '/admin/actions/reset-link',
    headers: { ...formHeaders, cookie: admin.cookie },
    payload: `id=${u.id}`,
  });
  assert.equal(viaPage.statusCode, 200);
  assert.match(viaPage.body, /id="reset-link"[^>]*value="http:\/\/localhost(:\d+)?\/reset\/[A-Za-z0-9_-]{40,}"/);
  assert.equal(
    (await app.inject({ method: 'POST', url: '/admin/actions/reset-link', headers: { ...formHeaders, cookie: student.cookie }, payload: `id=${u.id}` }))
      .statusCode,
    403,
  );
});

test('the roster page: upload, the result table and the links CSV', async () => {
  const body = multipart({ mode: 'invite' }, { filename: 'roster.csv', content: 'id,name,email\nP1,Pau,pau@upc.edu\nP1,Pau,pau@upc.edu\n' });
  const res = await app.inject({ method: 'POST', url: '/admin/actions/roster', headers: { ...body.headers, cookie: admin.cookie }, payload: body.payload });
  assert.equal(res.statusCode, 200, res.body);
  assert.ok(res.body.includes('id="roster-rows"'));
  assert.match(res.body, /data-status="created"/);
  assert.match(res.body, /data-status="skipped" data-code="duplicate"/);
  assert.match(res.body, /id="roster-csv" download="roster-links.csv" href="data:text\/csv/);
  assert.match(
    res.body,
    /<textarea id="roster-links"[^>]*>&quot;student_id&quot;,&quot;name&quot;,&quot;email&quot;,&quot;username&quot;,&quot;link&quot;,&quot;expires_at&quot;/,
  );
  const none = await app.inject({ method: 'POST', url: '/admin/actions/roster', headers: { ...formHeaders, cookie: admin.cookie }, payload: 'mode=invite' });
  assert.equal(none.statusCode, 400);
});

test('PUT /api/me/password: the current password asked of a token and a cookie alike (budgeted); every session ends and every token is revoked; audited', async () => {
  const u = await registerUser(app, 'changer');
  assert.equal((await app.inject({ method: 'PUT', url: '/api/me/password', payload: { password: 'whatever long' } })).statusCode, 401);
  const weak = await app.inject({ method: 'PUT', url: '/api/me/password', headers: u.auth, payload: { password: 'short', currentPassword: 'correct horse' } });
  assert.equal(weak.statusCode, 400);
  assert.equal(weak.json().code, 'weak-password');
  // A token alone (a leaked one) cannot change the password.
  const tokenOnly = await app.inject({ method: 'PUT', url: '/api/me/password', headers: u.auth, payload: { password: 'token set this' } });
  assert.equal(tokenOnly.statusCode, 400);
  assert.equal(tokenOnly.json().code, 'current-password-required');
  const tokenWrong = await app.inject({
    method: 'PUT',
    url: '/api/me/password',
    headers: u.auth,
    payload: { password: 'token set this', currentPassword: 'not my password' },
  });
  assert.equal(tokenWrong.statusCode, 401);
  const second = (await app.inject({ method: 'POST', url: '/api/tokens', headers: u.auth, payload: { label: 'second' } })).json().token as string;
  const viaToken = await app.inject({
    method: 'PUT',
    url: '/api/me/password',
    headers: u.auth,
    payload: { password: 'token set this', currentPassword: 'correct horse' },
  });
  assert.equal(viaToken.statusCode, 204, viaToken.body);
  assert.equal((await asCookie(u.cookie)).statusCode, 401, 'sessions ended');
  assert.equal((await app.inject({ url: '/api/me', headers: u.auth })).statusCode, 401, 'the token that called is revoked');
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${second}` } })).statusCode, 401, 'every other token too');
  const login = await app.inject({ method: 'POST', url: '/api/sessions', payload: { username: 'changer', password: 'token set this' } });
  assert.equal(login.statusCode, 200);
  const cookie = sessionOf(login);
  const third = (await app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie } })).json().token as string;
  const noOld = await app.inject({ method: 'PUT', url: '/api/me/password', headers: { cookie }, payload: { password: 'cookie set this' } });
  assert.equal(noOld.statusCode, 400);
  assert.equal(noOld.json().code, 'current-password-required');
  assert.equal(
    (await app.inject({ method: 'PUT', url: '/api/me/password', headers: { cookie }, payload: { password: 'cookie set this', currentPassword: 'wrong one' } }))
      .statusCode,
    401,
  );
  const viaCookie = await app.inject({
    method: 'PUT',
    url: '/api/me/password',
    headers: { cookie },
    payload: { password: 'cookie set this', currentPassword: 'token set this' },
  });
  assert.equal(viaCookie.statusCode, 204);
  assert.equal((await asCookie(cookie)).statusCode, 401);
  assert.equal((await asCookie(sessionOf(viaCookie))).statusCode, 200, 'the caller gets a new session');
  assert.equal((await app.inject({ url: '/api/me', headers: { authorization: `Bearer ${third}` } })).statusCode, 401, 'tokens are revoked');
  const audit = await db.auditEntry.findMany({ where: { action: 'user.password-change', targetId: String(u.id) }, orderBy: { id: 'asc' } });
  assert.deepEqual(
    audit.map((a) => {
      const d = a.detail as { via: string; tokensRevoked: number };
      return [d.via, d.tokensRevoked];
    }),
    [
      ['token', 2],
      ['session', 1],
    ],
  );
});

test('a leaked token after an admin reset: the reset revokes it, so it can neither read nor change the password again', async () => {
  const owner = await registerUser(app, 'leaky');
  const reset = await app.inject({ method: 'POST', url: `/api/admin/users/${owner.id}/reset-link`, headers: admin.auth });
  assert.equal(reset.statusCode, 201, reset.body);
  const token = tokenOf(reset.json().link);
  const used = await app.inject({
    method: 'POST',
    url: `/reset/${token}`,
    headers: formHeaders,
    payload: new URLSearchParams({ password: 'owner took it back', confirm: 'owner took it back' }).toString(),
  });
  assert.ok(used.statusCode < 400, `${used.statusCode} ${used.body.slice(0, 200)}`);
  assert.equal((await asCookie(owner.cookie)).statusCode, 401);
  assert.equal((await app.inject({ url: '/api/me', headers: owner.auth })).statusCode, 401, 'the leaked token no longer works');
  const again = await app.inject({
    method: 'PUT',
    url: '/api/me/password',
    headers: owner.auth,
    payload: { password: 'attacker again', currentPassword: 'x' },
  });
  assert.equal(again.statusCode, 401);
  const audit = await db.auditEntry.findFirstOrThrow({ where: { action: 'user.password-reset', targetId: String(owner.id) } });
  assert.equal((audit.detail as { tokensRevoked: number }).tokensRevoked, 1);
});

test('SIGNUP_REQUIRE: validated at start; the API and the form ask for the fields; a student id is unique', async () => {
  assert.throws(
    () => loadConfig({ SIGNUP_REQUIRE: 'email,phone' }),
    (e: unknown) => e instanceof ConfigError && /SIGNUP_REQUIRE: "phone"/.test(e.message),
  );
  assert.deepEqual(loadConfig({ SIGNUP_REQUIRE: ' StudentID , email,email ' }).signupRequire, ['studentId', 'email']);
  assert.deepEqual(loadConfig({}).signupRequire, []);

  const strict = await startTestApi({ SIGNUP_REQUIRE: 'email,studentId,fullName' });
  const post = (payload: Record<string, string>) =>
    strict.app.inject({ method: 'POST', url: '/api/users', payload: { username: 'gina', password: 'correct horse', ...payload } });
  assert.equal((await post({ studentId: 'G1', fullName: 'Gina G' })).json().code, 'email-required');
  assert.equal((await post({ email: 'gina@upc.edu', fullName: 'Gina G' })).json().code, 'student-id-required');
  assert.equal((await post({ email: 'gina@upc.edu', studentId: 'G1' })).json().code, 'full-name-required');
  const spaced = await post({ email: 'gina@upc.edu', studentId: 'G 1', fullName: 'Gina G' });
  assert.equal(spaced.statusCode, 400);
  assert.equal(spaced.json().code, 'bad-student-id');
  const ok = await post({ email: 'Gina@UPC.edu', studentId: 'G1', fullName: '  Gina   Gómez ' });
  assert.equal(ok.statusCode, 201, ok.body);
  const gina = await strict.db.user.findUniqueOrThrow({ where: { usernameLower: 'gina' } });
  assert.deepEqual([gina.email, gina.studentId, gina.fullName], ['gina@upc.edu', 'G1', 'Gina Gómez']);
  const dup = await strict.app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { username: 'gina2', password: 'correct horse', email: 'g2@upc.edu', studentId: 'G1', fullName: 'Other' },
  });
  assert.equal(dup.statusCode, 409);
  assert.equal(dup.json().code, 'student-id-taken');

  const page = await strict.app.inject({ url: '/signup' });
  for (const f of ['email', 'studentId', 'fullName']) assert.ok(page.body.includes(`name="${f}"`), f);
  const bad = await strict.app.inject({
    method: 'POST',
    url: '/signup',
    headers: formHeaders,
    payload: 'username=hugo&password=correct+horse&email=hugo%40upc.edu&fullName=Hugo',
  });
  assert.equal(bad.statusCode, 400);
  assert.ok(bad.body.includes('id="f-studentId-error"'));
  assert.ok(bad.body.includes('value="Hugo"'), 'the form keeps what was typed');
  const caPage = await strict.app.inject({
    method: 'POST',
    url: '/signup',
    headers: { ...formHeaders, cookie: 'lang=ca' },
    payload: 'username=hugo&password=correct+horse&email=hugo%40upc.edu&fullName=Hugo',
  });
  assert.match(caPage.body, /per registrar-te cal el teu identificador d(&#39;|')estudiant/);
  const good = await strict.app.inject({
    method: 'POST',
    url: '/signup',
    headers: formHeaders,
    payload: 'username=hugo&password=correct+horse&email=hugo%40upc.edu&fullName=Hugo&studentId=H1',
  });
  assert.equal(good.statusCode, 303);
  // An open course's sign-up asks nothing more.
  assert.ok(!(await app.inject({ url: '/signup' })).body.includes('name="studentId"'));
});
