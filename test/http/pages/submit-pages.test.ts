// The submitting pages: the submit form and its errors, the
// submission page and its gate timeline, my submissions, the source. Real
// Postgres (and, in the last test, the whole judge: Redis, the recorder and a
// real worker process following the gate).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot, multipart, insertMatch, type TestUser } from '../../helpers/app.ts';
import { botAs, startTestJudge, TEST_GATE_CONFIG } from '../../helpers/judge.ts';
import { waitFor } from '../../helpers/queue.ts';

const MAX = 4096;
const { app, db } = await startTestApi({ SUBMISSION_MAX_BYTES: String(MAX), OFFENSIVE_WORDS: 'badword' });
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');

async function submitForm(user: TestUser | null, fields: Record<string, string>, file?: { filename: string; content: string | Buffer }) {
  const mp = multipart(fields, file);
  return app.inject({ method: 'POST', url: '/submit', payload: mp.payload, headers: { ...mp.headers, ...(user ? { cookie: user.cookie } : {}) } });
}

function control(body: string, id: string): string {
  const m = new RegExp(`<(input|select)[^>]*\\bid="${id}"[^>]*>`).exec(body);
  assert.ok(m, `no control #${id}`);
  return m[0];
}

test('GET /submit: a multipart form with the games, a file input in a drop zone, and the submit script', async () => {
  const res = await app.inject({ url: '/submit?game=moria', headers: { cookie: ana.cookie } });
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<form method="post" action="\/submit" enctype="multipart\/form-data" id="submit-form"/);
  assert.match(res.body, /<option value="moria" selected>Moria<\/option>/);
  assert.match(res.body, /<div class="dropzone" id="dropzone">[\s\S]*id="f-file"/);
  assert.match(control(res.body, 'f-file'), /type="file"[^>]*accept="\.ts,\.js/);
  assert.match(res.body, /<label for="f-file">/);
  assert.match(res.body, /src="\/assets\/js\/submit\.js"/);
  const js = await app.inject({ url: '/assets/js/submit.js' });
  assert.equal(js.statusCode, 200, 'the drop-zone script bundles');
  const live = await app.inject({ url: '/assets/js/gate-live.js' });
  assert.equal(live.statusCode, 200, 'the live-gate script bundles');
  const out = await app.inject({ url: '/submit' });
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, '/login?next=%2Fsubmit');
});

test('each bad upload re-renders the form with the message on the right field (aria-invalid) and stores nothing', async () => {
  const before = await db.submission.count();
  const cases: {
    what: string;
    fields: Record<string, string>;
    file?: { filename: string; content: string | Buffer };
    field: 'game' | 'file';
    status: number;
    message: RegExp;
  }[] = [
    {
      what: 'no game chosen, none in the file',
      fields: { game: '' },
      file: { filename: 'A.ts', content: bot('Abc').replace(/export const GAME[^\n]*\n/, '') },
      field: 'game',
      status: 400,
      message: /choose the game/,
    },
    {
      what: 'unknown game',
      fields: { game: 'chess' },
      file: { filename: 'A.ts', content: bot('Abc') },
      field: 'game',
      status: 400,
      message: /unknown game &quot;chess&quot;/,
    },
    { what: 'no file', fields: { game: 'moria' }, field: 'file', status: 400, message: /no file/ },
    { what: 'no file chosen', fields: { game: 'moria' }, file: { filename: '', content: '' }, field: 'file', status: 400, message: /no file/ },
    { what: 'empty file', fields: { game: 'moria' }, file: { filename: 'A.ts', content: '  \n' }, field: 'file', status: 400, message: /the file is empty/ },
    {
      what: 'not UTF-8',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: Buffer.from([0xff, 0xfe, 0x00, 0xc3]) },
      field: 'file',
      status: 400,
      message: /not UTF-8/,
    },
    {
      what: 'too large',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: bot('Abc') + '//' + 'x'.repeat(MAX) },
      field: 'file',
      status: 413,
      message: new RegExp(`file too large: ${Buffer.byteLength(bot('Abc')) + 2 + MAX} bytes, at most 4096`),
    },
    {
      what: 'no PLAYER_NAME',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: "export const GAME = 'moria';\nexport default class {}\n" },
      field: 'file',
      status: 400,
      message: /no player name in the file/,
    },
    {
      what: 'GAME mismatch',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: bot('Abc', 'walking-dead') },
      field: 'file',
      status: 400,
      message: /game mismatch/,
    },
    {
      what: 'not a .ts/.js/.cc file',
      fields: { game: 'moria' },
      file: { filename: 'A.py', content: bot('Abc') },
      field: 'file',
      status: 400,
      message: /must be a \.ts, \.js or \.cc file/,
    },
    {
      what: 'bad name',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: bot('Bad-Name') },
      field: 'file',
      status: 400,
      message: /characters other than A-Z/,
    },
    {
      what: 'name too long',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: bot('ThirteenChars') },
      field: 'file',
      status: 400,
      message: /too long/,
    },
    { what: 'reserved name', fields: { game: 'moria' }, file: { filename: 'A.ts', content: bot('dummy') }, field: 'file', status: 400, message: /reserved/ },
    {
      what: 'offensive name',
      fields: { game: 'moria' },
      file: { filename: 'A.ts', content: bot('MyBadword') },
      field: 'file',
      status: 400,
      message: /not allowed/,
    },
    {
      what: 'syntax error',
      fields: { game: 'moria' },
      file: { filename: 'Oops.ts', content: bot('Oops', 'moria', '\n    const x = ;\n') },
      field: 'file',
      status: 400,
      message: /compile error: Oops\.ts:6:\d+: .*\(line 6\)/,
    },
  ];
  for (const c of cases) {
    const res = await submitForm(ana, c.fields, c.file);
    assert.equal(res.statusCode, c.status, `${c.what}: ${res.statusCode}`);
    assert.match(res.body, /<div class="form-errors" role="alert"/, c.what);
    assert.match(res.body, c.message, c.what);
    assert.match(control(res.body, `f-${c.field}`), /aria-invalid="true"/, `${c.what}: on the ${c.field} field`);
    assert.match(control(res.body, `f-${c.field}`), new RegExp(`aria-describedby="[^"]*f-${c.field}-error`), c.what);
    assert.match(res.body, new RegExp(`<a href="#f-${c.field}">`), `${c.what}: the summary links to the field`);
    if (c.fields.game === 'moria') assert.match(res.body, /<option value="moria" selected>/, `${c.what}: the game is kept`);
  }
  assert.equal(await db.submission.count(), before, 'nothing stored');
  assert.equal(await db.playerName.count({ where: { nameLower: 'oops' } }), 0);
});

test('taken and locked names are refused in the form with 409', async () => {
  const first = await submitForm(bob, { game: 'moria' }, { filename: 'Bobby.ts', content: bot('Bobby') });
  assert.equal(first.statusCode, 303);
  const taken = await submitForm(ana, { game: 'moria' }, { filename: 'Bobby.ts', content: bot('BOBBY') });
  assert.equal(taken.statusCode, 409);
  assert.match(taken.body, /is taken by another user/);
  assert.match(control(taken.body, 'f-file'), /aria-invalid="true"/);

  await db.playerName.updateMany({ where: { nameLower: 'bobby' }, data: { locked: true, lockedAt: new Date() } });
  const locked = await submitForm(bob, { game: 'moria' }, { filename: 'Bobby.ts', content: bot('Bobby') });
  assert.equal(locked.statusCode, 409);
  assert.match(locked.body, /name locked: &quot;Bobby&quot; already qualified/);
  assert.match(control(locked.body, 'f-file'), /aria-invalid="true"/);
});

test('a good submit redirects to its page; only its owner (or an admin) sees it; the API refuses a syntax error as the form does', async () => {
  const res = await submitForm(ana, { game: 'moria' }, { filename: 'Anna.ts', content: bot('Anna') });
  assert.equal(res.statusCode, 303);
  const id = Number(/^\/submissions\/(\d+)$/.exec(res.headers.location as string)?.[1]);
  assert.ok(id > 0);
  const row = await db.submission.findUniqueOrThrow({ where: { id }, include: { player: true } });
  assert.equal(row.player.name, 'Anna');
  assert.equal(row.filename, 'Anna.ts');

  // No game chosen: the file's GAME decides.
  const byFile = await submitForm(ana, { game: '' }, { filename: 'Annb.ts', content: bot('Annb') });
  assert.equal(byFile.statusCode, 303);
  const byFileId = Number(/^\/submissions\/(\d+)$/.exec(byFile.headers.location as string)?.[1]);
  assert.equal((await db.submission.findUniqueOrThrow({ where: { id: byFileId } })).game, 'moria');

  const page = await app.inject({ url: `/submissions/${id}`, headers: { cookie: ana.cookie } });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<div id="gate-live" data-submission-id="\d+" data-final="false">/);
  assert.match(page.body, /<div id="gate-announcer"[^>]*aria-live="polite"/);
  assert.match(page.body, /<section id="verdict"[^>]*data-status="pending"/);
  assert.match(page.body, /<noscript><meta http-equiv="refresh" content="5"><\/noscript>/);
  assert.match(page.body, /src="\/assets\/js\/gate-live\.js"/);
  assert.match(page.body, /id="gate-refresh-link"/);
  assert.match(page.body, new RegExp(`href="/submissions/${id}/source"`));

  const other = await app.inject({ url: `/submissions/${id}`, headers: { cookie: bob.cookie, accept: 'text/html' } });
  assert.equal(other.statusCode, 403);
  assert.match(other.body, /Only the owner/);
  assert.equal((await app.inject({ url: `/submissions/${id}/timeline`, headers: { cookie: bob.cookie } })).statusCode, 403);
  assert.equal((await app.inject({ url: `/submissions/${id}/source`, headers: { cookie: bob.cookie } })).statusCode, 403);
  assert.equal((await app.inject({ url: '/submissions/999999', headers: { cookie: ana.cookie } })).statusCode, 404);
  assert.equal((await app.inject({ url: '/submissions/abc', headers: { cookie: ana.cookie } })).statusCode, 400);
  const loggedOut = await app.inject({ url: `/submissions/${id}` });
  assert.equal(loggedOut.statusCode, 303);
  assert.equal(loggedOut.headers.location, `/login?next=${encodeURIComponent(`/submissions/${id}`)}`);

  const source = await app.inject({ url: `/submissions/${id}/source`, headers: { cookie: ana.cookie } });
  assert.equal(source.statusCode, 200);
  assert.match(source.headers['content-type'] as string, /^text\/plain/);
  assert.equal(source.body, bot('Anna'));
  const download = await app.inject({ url: `/submissions/${id}/source?download=1`, headers: { cookie: ana.cookie } });
  assert.match(download.headers['content-disposition'] as string, /^attachment; filename="Anna\.ts"/);

  // The API checks the syntax as the form does: a 400 with the line, nothing stored, the name not claimed.
  const api = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: ana.auth,
    payload: { game: 'moria', source: bot('Later', 'moria', 'const = ;') },
  });
  assert.equal(api.statusCode, 400);
  assert.equal(api.json().code, 'compile-error');
  assert.equal(api.json().line, 5);
  assert.equal(await db.playerName.count({ where: { nameLower: 'later' } }), 0);
});

test('the timeline: compile and self-play passed, each Dummy match with seats, scores, won/lost and Watch; the verdict with the reason', async () => {
  const res = await submitForm(ana, { game: 'moria' }, { filename: 'Tl.ts', content: bot('Timeline') });
  const id = Number((res.headers.location as string).split('/').pop());
  const sub = await db.submission.findUniqueOrThrow({ where: { id } });
  const me = { name: 'Timeline', playerId: sub.playerId, submissionId: id };
  const dummy = (score: number) => ({ name: 'Dummy', builtinName: 'Dummy', score, rank: 1 });
  const won = await insertMatch(db, { kind: 'gate', submissionId: id, seats: [{ ...me, score: 50, rank: 1 }, dummy(10), dummy(20), dummy(30)] });
  const lost = await insertMatch(db, { kind: 'gate', submissionId: id, seats: [dummy(90), { ...me, score: 50, rank: 2 }, dummy(20), dummy(30)] });
  await db.match.update({ where: { id: won.id }, data: { gateIndex: 0 } });
  await db.match.update({ where: { id: lost.id }, data: { gateIndex: 1 } });
  await db.submission.update({ where: { id }, data: { status: 'qualifying' } });

  const live = await app.inject({ url: `/submissions/${id}/timeline`, headers: { cookie: ana.cookie } });
  assert.equal(live.statusCode, 200);
  assert.match(live.headers['content-type'] as string, /^text\/html/);
  assert.ok(!live.body.includes('<html'), 'a fragment, not a page');
  assert.match(live.body, /<div id="gate-state" data-status="qualifying" data-final="false">/);
  assert.match(live.body, /data-step="compile" data-state="passed"/);
  assert.match(live.body, /data-step="selfplay" data-state="passed"/);
  assert.match(live.body, new RegExp(`data-step="dummy-0" data-state="won" data-label="Match 1 against Dummy" data-match-id="${won.id}"`));
  assert.match(live.body, new RegExp(`data-step="dummy-1" data-state="lost" data-label="Match 2 against Dummy" data-match-id="${lost.id}"`));
  assert.match(live.body, /data-step="dummy-2" data-state="pending"/);
  assert.match(live.body, new RegExp(`<a href="/matches/${won.id}" id="watch-${won.id}"[^>]*>Watch</a>`));
  assert.match(live.body, /<span class="seat seat-0" aria-hidden="true"><\/span><span class="visually-hidden">Seat 0: <\/span><strong>Timeline<\/strong>/);
  assert.match(live.body, /<span class="score">50<\/span>/);

  await db.submission.update({
    where: { id },
    data: {
      status: 'rejected',
      reason: `lost to Dummy in match #${lost.id} (seed 42): ranked 2 of 4`,
      reasonDetail: { step: 'dummy', matchId: lost.id },
      finishedAt: new Date(),
    },
  });
  const final = await app.inject({ url: `/submissions/${id}/timeline`, headers: { cookie: ana.cookie } });
  assert.match(final.body, /data-final="true"/);
  assert.match(final.body, /<section id="verdict" class="verdict rejected" data-status="rejected"/);
  assert.match(final.body, /<span id="verdict-reason">lost to Dummy in match #\d+ \(seed 42\): ranked 2 of 4<\/span>/);
  assert.match(final.body, /data-step="dummy-3" data-state="skipped"/);
  const page = await app.inject({ url: `/submissions/${id}`, headers: { cookie: ana.cookie } });
  assert.ok(!page.body.includes('gate-live.js'), 'no live script once final');
  assert.ok(!page.body.includes('http-equiv="refresh"'));

  // A compile error shows its line of the file.
  const broken = await db.submission.create({
    data: {
      playerId: sub.playerId,
      userId: ana.id,
      game: 'moria',
      version: 99,
      source: 'a\nb\nconst x = ;\nd\n',
      filename: 'Tl.ts',
      sizeBytes: 20,
      status: 'rejected',
      reason: 'compile error: Tl.ts:3:11: Unexpected ";" (line 3)',
      reasonLine: 3,
      reasonDetail: { step: 'compile', line: 3 },
    },
  });
  const compile = await app.inject({ url: `/submissions/${broken.id}/timeline`, headers: { cookie: ana.cookie } });
  assert.match(compile.body, /data-step="compile" data-state="failed"/);
  assert.match(compile.body, /data-step="selfplay" data-state="skipped"/);
  assert.match(compile.body, /<mark><span class="ln">3<\/span>const x = ;<\/mark>/);
});

test('my submissions: versions per name newest first, statuses, locked names, links; a game filter and pages; mine only', async () => {
  const carol = await registerUser(app, 'carol');
  for (const v of [1, 2]) assert.equal((await submitForm(carol, { game: 'moria' }, { filename: `Carl${v}.ts`, content: bot('Carl') })).statusCode, 303);
  assert.equal((await submitForm(carol, { game: 'walking-dead' }, { filename: 'Walker.ts', content: bot('Walker', 'walking-dead') })).statusCode, 303);
  const carl = await db.playerName.findFirstOrThrow({ where: { nameLower: 'carl' }, include: { submissions: { orderBy: { version: 'asc' } } } });
  await db.submission.update({ where: { id: carl.submissions[0]!.id }, data: { status: 'qualified' } });
  await db.playerName.update({ where: { id: carl.id }, data: { locked: true, lockedAt: new Date(), qualifiedSubmissionId: carl.submissions[0]!.id } });

  const res = await app.inject({ url: '/submissions', headers: { cookie: carol.cookie } });
  assert.equal(res.statusCode, 200);
  const walker = res.body.indexOf('data-player="Walker"');
  const carlAt = res.body.indexOf('data-player="Carl"');
  assert.ok(walker > 0 && carlAt > walker, 'the name with the newest submission first');
  assert.match(res.body, /data-player="Carl" data-locked="true"[\s\S]*?🔒 locked/);
  const v2 = res.body.indexOf(`id="submission-${carl.submissions[1]!.id}"`);
  const v1 = res.body.indexOf(`id="submission-${carl.submissions[0]!.id}"`);
  assert.ok(v2 > 0 && v1 > v2, 'versions newest first');
  assert.match(res.body, new RegExp(`<a href="/submissions/${carl.submissions[0]!.id}">v1</a> <span class="muted">\\(qualified\\)</span>`));
  assert.match(res.body, /<span class="badge qualified" data-status="qualified">qualified<\/span>/);
  assert.match(res.body, new RegExp(`href="/submissions/${carl.submissions[1]!.id}/source"`));
  assert.ok(!res.body.includes('Anna'), "another user's submissions are not listed");

  const moria = await app.inject({ url: '/submissions?game=moria', headers: { cookie: carol.cookie } });
  assert.ok(moria.body.includes('data-player="Carl"') && !moria.body.includes('data-player="Walker"'));
  assert.match(moria.body, /<option value="moria" selected>/);

  // 21 names: two pages of 20.
  const dave = await registerUser(app, 'dave');
  for (let i = 0; i < 21; i++) {
    const p = await db.playerName.create({ data: { game: 'moria', name: `Dv${i}`, nameLower: `dv${i}`, ownerId: dave.id } });
    await db.submission.create({
      data: { playerId: p.id, userId: dave.id, game: 'moria', version: 1, source: bot(`Dv${i}`), filename: `Dv${i}.ts`, sizeBytes: 10 },
    });
  }
  const page1 = await app.inject({ url: '/submissions', headers: { cookie: dave.cookie } });
  assert.equal((page1.body.match(/class="player-group"/g) ?? []).length, 20);
  assert.match(page1.body, /Page 1 of 2/);
  assert.match(page1.body, /<a href="\/submissions\?page=2" rel="next">Older<\/a>/);
  const page2 = await app.inject({ url: '/submissions?page=2', headers: { cookie: dave.cookie } });
  assert.equal((page2.body.match(/class="player-group"/g) ?? []).length, 1);
  assert.match(page2.body, /data-player="Dv0"/);
  const none = await app.inject({ url: '/submissions', headers: { cookie: (await registerUser(app, 'erin')).cookie } });
  assert.match(none.body, /id="no-submissions"/);
  for (const r of [res, moria, page1, page2, none]) assert.ok(r.body.length < 300 * 1024);
});

test('with the judge: a Null copy is rejected and a test player (Walker) qualifies, followed on the page and its timeline', { timeout: 240_000 }, async () => {
  // Null as the gate opponent so that Walker surely wins (production uses Dummy; see test/cli/submit.test.ts).
  const judge = await startTestJudge({ gate: { opponent: 'Null', config: TEST_GATE_CONFIG }, concurrency: 2 });
  try {
    const reg = await judge.app.inject({
      method: 'POST',
      url: '/signup',
      payload: 'username=frank&password=correct+horse',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = `arbiter_session=${reg.cookies.find((c) => c.name === 'arbiter_session')!.value}`;
    const send = async (name: string, builtin: string) => {
      const mp = multipart({ game: 'moria' }, { filename: `${name}.ts`, content: botAs(builtin, name) });
      const res = await judge.app.inject({ method: 'POST', url: '/submit', payload: mp.payload, headers: { ...mp.headers, cookie } });
      assert.equal(res.statusCode, 303, res.body.slice(0, 500));
      return Number((res.headers.location as string).split('/').pop());
    };
    const good = await send('Champ', 'Walker');
    const bad = await send('Idle', 'Null');
    const timeline = (id: number) => judge.app.inject({ url: `/submissions/${id}/timeline`, headers: { cookie } }).then((r) => r.body);
    const final = (id: number) =>
      waitFor(`the verdict of ${id} on its timeline`, async () => ((await timeline(id)).includes('data-final="true"') ? timeline(id) : null), 200_000, 300);

    const won = await final(good);
    assert.match(won, /<section id="verdict" class="verdict qualified" data-status="qualified"/);
    for (let i = 0; i < 4; i++) assert.match(won, new RegExp(`data-step="dummy-${i}" data-state="won"`));
    assert.equal((won.match(/>Watch<\/a>/g) ?? []).length, 5, 'self-play and four gate matches to watch');
    assert.match(won, /🔒 locked/);

    const lost = await final(bad);
    assert.match(lost, /<section id="verdict" class="verdict rejected" data-status="rejected"/);
    assert.match(lost, /<span id="verdict-reason">lost to Null in gate match [1-4] of 4 \(match #\d+, seed \d+\): (tied for first|ranked \d of 4)/);
    assert.match(lost, /data-state="lost" data-label="Match \d against Null"/);

    // The live stream the page's script follows answers at once with the final status and ends.
    const events = await judge.app.inject({ url: `/api/submissions/${good}/events`, headers: { cookie } });
    assert.match(events.body, /"status":"qualified"/);
    const page = await judge.app.inject({ url: `/submissions/${good}`, headers: { cookie } });
    assert.ok(page.body.length < 300 * 1024);
  } finally {
    await judge.close();
  }
});
