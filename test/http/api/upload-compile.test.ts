// A file that does not compile is refused at upload and claims no name, in
// both languages, with the compiler's text as it printed it: clang's
// diagnostics keep their lines and the caret under the column in the API's
// message, on the /submit form (a <pre>), in `arbiter submit` and `arbiter
// play`; a rejection stored by the gate's compile step shows them in a <pre>
// on the submission's page, escaped. Quick: the wording (compileErrorText)
// and the pages for a stored clang rejection. Slow (ARBITER_SLOW_TESTS=1, a
// real C++ compile): the refusal at upload, a good .cc accepted, a compiler
// that fails taking the upload, the CLI's output.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, registerUser, multipart } from '../../helpers/app.ts';
import { compileErrorText, englishReason, type Reason } from '../../../src/domain/reasons.ts';
import { resetCppCompileSettings } from '../../../src/sandbox/languages/cpp/toolchain.ts';
import { CompileInfraError } from '../../../src/sandbox/languages/javascript/compile.ts';
import { compileBot } from '../../../src/sandbox/languages/index.ts';
import { submitCommand } from '../../../src/cli/submit.ts';
import { main } from '../../../src/cli/main.ts';
import { slow } from '../../helpers/slow.ts';

const { app, db } = await startTestApi();
const ana = await registerUser(app, 'ana');
const tmp = mkdtempSync(join(tmpdir(), 'arbiter-upload-compile-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A Moria player whose line 7 lacks its semicolon (clang: 7:14, "expected ';' at end of declaration"). */
const broken = (name: string) => `#include "Player.hh"
#define PLAYER_NAME ${name}
// GAME: moria
struct PLAYER_NAME : public Player {
  static Player* factory () { return new PLAYER_NAME; }
  virtual void play () {
    int x = 3
    vector<int> v(x);
  }
};
RegisterPlayer(PLAYER_NAME);
`;
const good = (name: string) => broken(name).replace('int x = 3\n', 'int x = 3;\n');

/** What clang prints for broken(): the error, the source line, the caret under column 14 (clang 15 and later, the npm toolchain's, put the line number in a gutter before them), the fix-it. */
const SHOWN = String.raw`AI\w+\.cc:7:14: error: expected ';' at end of declaration\n(?: {4}7 \| )? {4}int x = 3\n(?: {6}\| )? {13}\^\n`;
const CLANG = new RegExp(`^compile error: ${SHOWN}`);

test("the wording: esbuild's one line gets its line; clang's lines are kept as printed, the line added on a line of its own only when they do not show it", () => {
  assert.equal(compileErrorText('compile error: A.ts:3:9: Unexpected ";"', 3), 'compile error: A.ts:3:9: Unexpected ";" (line 3)');
  assert.equal(compileErrorText('compile error: A.ts: the compiler crashed', null), 'compile error: A.ts: the compiler crashed');
  const clang = "compile error: AIX.cc:7:14: error: expected ';'\n    int x = 3\n             ^\n1 error generated.";
  assert.equal(compileErrorText(clang, 7), clang);
  const header = 'compile error: Player.hh:20:3: error: boom\n   x\n   ^';
  assert.equal(compileErrorText(header, 4), `${header}\n(line 4)`);
  assert.equal(englishReason({ code: 'compile-error', params: { message: clang, line: 7 } }), clang);
});

test('a clang rejection stored by the gate: the page shows its lines and caret in a <pre>, escaped; the list its first line; the API the text with its newlines', async () => {
  const message =
    "compile error: AIPre.cc:8:5: error: no template named 'vectr'; did you mean 'vector'?\n    vectr<int> v(x);\n    ^~~~~\n    vector\n<b>not markup</b>\n1 error generated.";
  const why: Reason = { code: 'compile-error', params: { message, line: 8 } };
  const player = await db.playerName.create({ data: { game: 'moria', name: 'Pre', nameLower: 'pre', ownerId: ana.id } });
  const source = good('Pre').replace('vector<int>', 'vectr<int>');
  const sub = await db.submission.create({
    data: {
      playerId: player.id,
      userId: ana.id,
      game: 'moria',
      version: 1,
      source,
      filename: 'AIPre.cc',
      sizeBytes: source.length,
      status: 'rejected',
      reason: englishReason(why),
      reasonLine: 8,
      reasonDetail: { step: 'compile', message, line: 8, code: why.code, params: why.params },
      finishedAt: new Date(),
    },
  });
  for (const [lang, heading] of [
    ['en', /^compile error \(line 8\)/],
    ['ca', /^Error de compilació \(línia 8\)/],
    ['es', /^Error de compilación \(línea 8\)/],
  ] as const) {
    const page = await app.inject({ url: `/submissions/${sub.id}?lang=${lang}`, headers: { cookie: ana.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(decode(/<span id="verdict-reason">([^]*?)<\/span>/.exec(page.body)![1]!), heading, lang);
    const pre = /<pre class="compiler-output" id="verdict-compiler"><code>([^]*?)<\/code><\/pre>/.exec(page.body)?.[1] ?? assert.fail(`no <pre> in ${lang}`);
    assert.equal(decode(pre), message.replace(/^compile error: /, ''), 'the text as clang printed it, newlines and caret kept');
    assert.ok(pre.includes('&lt;b&gt;not markup&lt;/b&gt;'), 'escaped');
    assert.ok(!page.body.includes('<b>not markup</b>'));
    assert.match(page.body, /<mark><span class="ln">8<\/span> {4}vectr&lt;int&gt; v\(x\);<\/mark>/, "and the file's line");
  }
  const list = await app.inject({ url: '/submissions', headers: { cookie: ana.cookie } });
  const cell = /<tr id="submission-\d+">[^]*?<td class="reason">([^]*?)<\/td>/.exec(list.body)?.[1] ?? assert.fail('no row');
  assert.equal(decode(cell), "compile error: AIPre.cc:8:5: error: no template named 'vectr'; did you mean 'vector'? …");
  const api = (await app.inject({ url: `/api/submissions/${sub.id}`, headers: ana.auth })).json();
  assert.equal(api.reason, message, 'the API: the text with its newlines');
  assert.equal(api.reasonLine, 8);
});

test("a .cc under a name that cannot be claimed is refused for the name before any compile (no C++ compile's seconds spent)", async () => {
  const bob = await registerUser(app, 'bob');
  await db.playerName.create({ data: { game: 'moria', name: 'Holder', nameLower: 'holder', ownerId: bob.id } });
  // The file does not compile either: the name is said first, so no compile ran.
  const res = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: ana.auth,
    payload: { game: 'moria', source: broken('Holder'), filename: 'AIHolder.cc' },
  });
  assert.equal(res.statusCode, 409, res.body);
  assert.equal(res.json().code, 'name-taken');
});

test("a .cc that does not compile is refused at upload (400 compile-error, clang's line, column and caret) and claims no name; a good one is taken", {
  ...slow,
  timeout: 600_000,
}, async () => {
  const before = await db.submission.count();
  const res = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: ana.auth,
    payload: { game: 'moria', source: broken('Brok'), filename: 'AIBrok.cc' },
  });
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.code, 'compile-error');
  assert.deepEqual([body.line, body.column], [7, 14]);
  assert.match(body.message, CLANG);
  assert.doesNotMatch(body.message, /\(line 7\)/, "the position is clang's own first line");
  assert.equal(await db.playerName.count({ where: { nameLower: 'brok' } }), 0, 'no name claimed');
  assert.equal(await db.submission.count(), before, 'nothing stored');

  // The form: the first line as the file's error, clang's text under the field as printed.
  const form = multipart({ game: 'moria' }, { filename: 'AIBrok.cc', content: broken('Brok') });
  const page = await app.inject({ method: 'POST', url: '/submit', headers: { cookie: ana.cookie, ...form.headers }, payload: form.payload });
  assert.equal(page.statusCode, 400);
  assert.match(
    decode(/<p class="field-error" id="f-file-error">([^]*?)<\/p>/.exec(page.body)?.[1] ?? ''),
    /^compile error: AIBrok\.cc:7:14: error: expected ';' at end of declaration$/,
  );
  const pre =
    /<figure id="compile-output"><figcaption>([^]*?)<\/figcaption><pre class="compiler-output"><code>([^]*?)<\/code><\/pre><\/figure>/.exec(page.body) ??
    assert.fail('no compiler output on the form');
  assert.match(decode(pre[1]!), /^compile error \(line 7\)/);
  assert.match(`compile error: ${decode(pre[2]!)}`, CLANG);
  assert.equal(await db.playerName.count({ where: { nameLower: 'brok' } }), 0);

  const ok = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: ana.auth,
    payload: { game: 'moria', source: good('Goode'), filename: 'AIGoode.cc' },
  });
  assert.equal(ok.statusCode, 202, ok.body);
  assert.equal(ok.json().player, 'Goode');
  assert.equal(await db.playerName.count({ where: { nameLower: 'goode' } }), 1);
});

test("a compiler that fails (the judge's fault) takes the C++ upload: the gate compiles it later", { ...slow, timeout: 600_000 }, async () => {
  resetCppCompileSettings({ extraFlags: ['-fuse-ld=/nonexistent/wasm-ld-14'] });
  try {
    const source = good('Infra') + `// ${Date.now()}\n`;
    await assert.rejects(compileBot(source, 'AIInfra.cc', 'moria'), CompileInfraError, 'the compiler fails');
    const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: ana.auth, payload: { game: 'moria', source, filename: 'AIInfra.cc' } });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().player, 'Infra');
  } finally {
    resetCppCompileSettings({ extraFlags: [] });
  }
});

test("`arbiter submit` and `arbiter play` print clang's diagnostics as it printed them", { ...slow, timeout: 600_000 }, async () => {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const file = join(tmp, 'AICli.cc');
  writeFileSync(file, broken('Cli'));
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  let submitted: number;
  let played: number;
  try {
    submitted = await submitCommand([file, '--game', 'moria', '--url', url, '--token', ana.token]);
    played = await main(['play', 'moria', file, 'Dummy', 'Dummy', 'Dummy']);
  } finally {
    console.log = log;
    console.error = error;
  }
  assert.equal(submitted, 1);
  const rejected = out.join('\n');
  assert.match(rejected, new RegExp(`^REJECTED: compile error: ${SHOWN}`));
  assert.doesNotMatch(rejected, /HTTP 400/);
  assert.equal(await db.playerName.count({ where: { nameLower: 'cli' } }), 0);
  assert.equal(played, 2);
  assert.match(err.join('\n'), new RegExp(`^arbiter play: ${SHOWN}`));
});
