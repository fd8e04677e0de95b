// The similarity report. Pure: the tokenizer normalizes names, literals,
// comments and layout away; planted copies (identifiers renamed, functions
// and methods reordered, comments and whitespace changed) score high against
// their original and the matching regions cover them; the games' different
// shipped bots (Demo, Dummy, Null) score low against each other. On the
// database: the report of a game (latest submission per player name, a
// previous term's import), the side-by-side page with HTML-escaped sources,
// and admins only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsTokens } from '../../../src/sandbox/languages/script-tokens.ts';
import { baseHashes, comparePairs, matchRegions, prepare, scorePair, type PreparedDoc } from '../../../src/domain/similarity/index.ts';
import { disguise, randomBot } from '../../helpers/plagiarism.ts';
import { startTestApi, registerUser, type TestUser } from '../../helpers/app.ts';
import { adminGrant } from '../../../src/cli/admin.ts';
import { similarityCommand } from '../../../src/cli/similarity.ts';
import { importArchive } from '../../../src/domain/similarity/report.ts';
import { zip } from '../../../src/http/starter-kit/zip.ts';

const GAMES = ['moria', 'harry-potter', 'bola-de-drac', 'walking-dead'];
const shipped = (game: string, bot: string) => readFileSync(new URL(`../../../src/games/${game}/bots/${bot}.ts`, import.meta.url), 'utf8');
const doc = (key: string, source: string, owner = key): PreparedDoc => prepare({ key, owner, language: 'typescript', source });

const RENAMES: Record<string, Record<string, string>> = {
  moria: {
    readBoard: 'scanCells',
    bfs: 'flood',
    downhill: 'descend',
    enemyDir: 'foeAt',
    INF: 'HUGE',
    DI: 'ROWS',
    DJ: 'COLS',
    mine: 'ours',
    dist: 'dd',
    danger: 'risk',
    free: 'open',
  },
  'harry-potter': { INF: 'BIG', mine: 'myUnits', best: 'choice', dist: 'far', queue: 'todo' },
  'bola-de-drac': { best: 'top', dist: 'gap', mine: 'us', queue: 'fifo' },
  'walking-dead': { best: 'pick', dist: 'hops', mine: 'crew', queue: 'line' },
};

test('the tokenizer keeps the shape and drops names, literals, comments and layout', () => {
  const a = jsTokens(`// hi\nconst total = count * 2 + "x"; /* note */ let r = /a\\/b/g.test(s) ? \`t\${n + 1}u\` : 0.5e-3;`);
  const b = jsTokens(`const   sum=n*7+'y'\n;let q=/zz/.test(w)?\`\${m+2}\`:9;`);
  assert.deepEqual(
    a.map((t) => t.text),
    ['const', 'id', '=', 'id', '*', 'num', '+', 'str', ';', 'let', 'id', '=', 're', '.', 'id', '(', 'id', ')', '?', 'str', 'id', '+', 'num', ':', 'num', ';'],
  );
  assert.deepEqual(
    b.map((t) => t.text),
    a.map((t) => t.text),
  );
  assert.equal(a[0]!.line, 2);
  // Division after an operand is not a regular expression.
  assert.deepEqual(
    jsTokens('x = a / b / c;').map((t) => t.text),
    ['id', '=', 'id', '/', 'id', '/', 'id', ';'],
  );
});

test("planted copies of every game's Demo and Dummy (renamed, reordered, comments and layout changed) score high, and their regions cover them", () => {
  for (const game of GAMES) {
    for (const bot of ['Demo', 'Dummy']) {
      const original = shipped(game, bot);
      const copy = disguise(original, RENAMES[game]!);
      assert.notEqual(copy, original);
      // The disguise really reordered: the first method of the original is no longer the first in the copy.
      const firstMethod = /^ {2}([A-Za-z_]\w*)\(/m.exec(original)![1]!;
      assert.ok(
        copy.indexOf(`${firstMethod}(`) > copy.indexOf('(', copy.indexOf('export default class')) || !Object.hasOwn(RENAMES[game]!, firstMethod),
        `${game}/${bot}: reordered`,
      );
      const a = doc('original', original);
      const b = doc('copy', copy);
      const s = scorePair(a, b);
      assert.ok(
        s.score >= 0.75 && Math.min(s.fractionA, s.fractionB) >= 0.7,
        `${game}/${bot}: copy scores ${s.fractionA.toFixed(2)}/${s.fractionB.toFixed(2)}`,
      );
      const m = matchRegions(a, b);
      assert.ok(m.matchedA / m.tokensA >= 0.6, `${game}/${bot}: regions cover ${(m.matchedA / m.tokensA).toFixed(2)} of the original`);
      for (const r of m.regions) {
        assert.ok(r.a[0] <= r.a[1] && r.b[0] <= r.b[1] && r.b[1] <= copy.split('\n').length);
      }
    }
  }
});

test("the games' different shipped bots score low against each other (Demo, Dummy, Null of each game, and across games)", () => {
  const docs = GAMES.flatMap((game) => ['Demo', 'Dummy', 'Null'].map((bot) => doc(`${game}/${bot}`, shipped(game, bot))));
  for (let i = 0; i < docs.length; i++) {
    for (let j = i + 1; j < docs.length; j++) {
      const [a, b] = [docs[i]!, docs[j]!];
      // The Null bots are one template of a few lines: across games they are the same program.
      if (a.key.endsWith('/Null') && b.key.endsWith('/Null')) continue;
      const s = scorePair(a, b);
      assert.ok(s.score < 0.3, `${a.key} ~ ${b.key}: ${s.score.toFixed(2)}`);
    }
  }
});

test('comparePairs finds the planted pairs among many unrelated documents, ignores same-owner pairs and the base', () => {
  const docs: PreparedDoc[] = [];
  for (const game of GAMES) for (const bot of ['Demo', 'Dummy']) docs.push(doc(`${game}/${bot}`, shipped(game, bot)));
  docs.push(doc('copy-of-moria-demo', disguise(shipped('moria', 'Demo'), RENAMES.moria!)));
  docs.push(doc('copy-of-hp-dummy', disguise(shipped('harry-potter', 'Dummy'), RENAMES['harry-potter']!)));
  // The same owner's two versions are never a pair.
  docs.push(doc('wd-demo-v2', shipped('walking-dead', 'Demo') + '\n// v2\n', 'walking-dead/Demo'));
  const pairs = comparePairs(docs);
  assert.deepEqual(
    pairs
      .filter((p) => p.score >= 0.5)
      .map((p) => [p.a, p.b].sort().join(' ~ '))
      .sort(),
    ['copy-of-hp-dummy ~ harry-potter/Dummy', 'copy-of-moria-demo ~ moria/Demo'],
  );
  assert.ok(!pairs.some((p) => [p.a, p.b].includes('wd-demo-v2') && [p.a, p.b].includes('walking-dead/Demo')));
  // With the original as base code (what every student was given), two copies of it share nothing that counts.
  const base = baseHashes([{ language: 'typescript', source: shipped('moria', 'Demo') }]);
  const c1 = prepare({ key: 'c1', owner: 'x', language: 'typescript', source: disguise(shipped('moria', 'Demo'), RENAMES.moria!) }, base);
  const c2 = prepare({ key: 'c2', owner: 'y', language: 'typescript', source: shipped('moria', 'Demo') }, base);
  assert.equal(comparePairs([c1, c2], { minShared: 1 }).length, 0);
});

test('300 students, 5 of whom copied: the planted pairs top the report, and the inverted index keeps it fast', () => {
  const docs = Array.from({ length: 300 }, (_, i) => doc(`d${i}`, randomBot(i)));
  const planted = [3, 50, 120, 200, 290];
  planted.forEach((i, n) => docs.push(doc(`copy-of-d${i}`, disguise(randomBot(i), { a: 'x', best: 'top', q: 'todo' }), `copier${n}`)));
  // CPU time, not wall time: the suite shares the cores with other files, and the index's speed is its own work.
  const t0 = process.cpuUsage();
  const pairs = comparePairs(docs, { top: 100 });
  const used = process.cpuUsage(t0);
  const ms = (used.user + used.system) / 1000;
  assert.deepEqual(
    pairs
      .slice(0, 5)
      .map((p) => [p.a, p.b].sort().join(' ~ '))
      .sort(),
    planted.map((i) => [`copy-of-d${i}`, `d${i}`].sort().join(' ~ ')).sort(),
  );
  assert.ok(pairs[0]!.score >= 0.75 && pairs[4]!.score >= 0.75, `planted ${pairs[4]!.score}`);
  assert.ok((pairs[5]?.score ?? 0) < 0.3, `the first unplanted pair scores ${pairs[5]?.score}`);
  assert.ok(ms < 5000, `${ms} ms of CPU`);
});

// ---------------------------------------------------------------- on the database

const api = await startTestApi();
const { app, db } = api;
const teacher = await registerUser(app, 'teacher');
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
const cat = await registerUser(app, 'cat');
await adminGrant(db, 'grant', 'teacher');

async function submission(user: TestUser, name: string, source: string, version = 1) {
  const player = await db.playerName.upsert({
    where: { game_nameLower: { game: 'moria', nameLower: name.toLowerCase() } },
    create: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: user.id },
    update: {},
  });
  return db.submission.create({
    data: { playerId: player.id, userId: user.id, game: 'moria', version, source, filename: `${name}.ts`, sizeBytes: source.length, status: 'qualified' },
  });
}

// Students' bots are not the moria ones (those are the base): other games' bots play the part.
const anaBot = shipped('harry-potter', 'Dummy').replace(/PLAYER_NAME = '\w+'/, "PLAYER_NAME = 'Ana'") + '\n// <script>alert("x")</script>\n';
await submission(ana, 'Ana', shipped('bola-de-drac', 'Demo'), 1);
const anaLatest = await submission(ana, 'Ana', anaBot, 2);
const bobCopy = await submission(bob, 'Bob', disguise(anaBot, RENAMES['harry-potter']!));
const catOwn = await submission(cat, 'Cat', shipped('walking-dead', 'Dummy'));

test('the report of a game: the copy on top, the latest version only, unrelated bots low; the side-by-side page escapes the sources', async () => {
  const out: string[] = [];
  const log = console.log;
  console.log = (s: string) => out.push(s);
  try {
    assert.equal(await similarityCommand(['report', 'moria'], { DATABASE_URL: api.fresh.url }), 0);
  } finally {
    console.log = log;
  }
  assert.match(out[0]!, /^moria: 3 documents/);
  const report = (await app.inject({ url: '/api/admin/similarity/moria', headers: teacher.auth })).json();
  assert.equal(report.documents, 3);
  const top = report.pairs[0];
  assert.deepEqual([top.a, top.b].sort(), [`s:${anaLatest.id}`, `s:${bobCopy.id}`].sort());
  assert.ok(top.score >= 0.75, `top ${top.score}`);
  for (const p of report.pairs.slice(1)) assert.ok(p.score < 0.3, `${p.a} ~ ${p.b}: ${p.score}`);

  const page = await app.inject({ url: '/admin/similarity/moria', headers: { cookie: teacher.cookie } });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /ana/);
  const pair = await app.inject({ url: `/admin/similarity/moria/pair?a=s:${anaLatest.id}&b=s:${bobCopy.id}`, headers: { cookie: teacher.cookie } });
  assert.equal(pair.statusCode, 200);
  assert.ok(!pair.body.includes('<script>alert'), 'the source is escaped');
  assert.ok(pair.body.includes('&lt;script&gt;alert'));
  assert.match(pair.body, /class="[^"]*\bmatch\b/);

  // The index lists every game; the button computes again and comes back with a notice, in the audit.
  const index = await app.inject({ url: '/admin/similarity', headers: { cookie: teacher.cookie } });
  assert.equal(index.statusCode, 200);
  for (const game of GAMES) assert.ok(index.body.includes(`data-game="${game}"`), game);
  const post = await app.inject({
    method: 'POST',
    url: '/admin/actions/similarity',
    headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'game=walking-dead',
  });
  assert.equal(post.statusCode, 303);
  assert.match(String(post.headers.location), /^\/admin\/similarity\/walking-dead\?done=/);
  assert.equal((await db.similarityReport.findUniqueOrThrow({ where: { game: 'walking-dead' } })).documents, 0);
  assert.equal((await db.auditEntry.findFirstOrThrow({ orderBy: { id: 'desc' } })).action, 'similarity.compute');

  // In Spanish (?lang= or Accept-Language): the report, the side-by-side page and the notice; the same ids.
  const es = await app.inject({ url: '/admin/similarity/moria?lang=es', headers: { cookie: teacher.cookie } });
  assert.match(es.body, /<html lang="es">/);
  assert.match(es.body, /<h1>Similitud: /);
  assert.match(es.body, /<h2>Los pares más parecidos<\/h2>/);
  assert.match(es.body, /<table id="similarity-pairs">[^]*<th scope="col">Huellas en común<\/th>[^]*>lado a lado<\/a>/);
  assert.match(es.body, /3 documentos, calculado <time /);
  assert.doesNotMatch(es.body.replace(/<[^>]+>/g, ' '), /Most similar|side by side|Fingerprints|computed|Compute it again|of it\b/);
  const esPair = await app.inject({
    url: `/admin/similarity/moria/pair?a=s:${anaLatest.id}&b=s:${bobCopy.id}`,
    headers: { cookie: teacher.cookie, 'accept-language': 'es' },
  });
  assert.match(esPair.body, /<h1>Lado a lado: \d+%<\/h1>/);
  assert.match(esPair.body, /<h2>Regiones coincidentes<\/h2>\s*<ol id="similarity-regions">[^]*líneas? \d+/);
  const esPost = await app.inject({
    method: 'POST',
    url: '/admin/actions/similarity',
    headers: { cookie: teacher.cookie, 'accept-language': 'es', 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'game=walking-dead',
  });
  assert.match(decodeURIComponent(String(esPost.headers.location)), /\?done=.*: 0 documentos comparados, 0 pares listados$/);
});

test('a previous term imported from a folder laid out by user joins the report (and never plays)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-archive-'));
  try {
    mkdirSync(join(dir, 'oldstudent'));
    writeFileSync(join(dir, 'oldstudent', 'bot.ts'), disguise(shipped('walking-dead', 'Dummy'), RENAMES['walking-dead']!));
    writeFileSync(join(dir, 'other.ts'), shipped('bola-de-drac', 'Dummy'));
    writeFileSync(join(dir, 'notes.txt'), 'not a bot');
    const out: string[] = [];
    const [log, err] = [console.log, console.error];
    console.log = (s: string) => out.push(s);
    console.error = (s: string) => out.push(s);
    try {
      assert.equal(await similarityCommand(['import', dir, '--term', '2024-25', '--game', 'moria'], { DATABASE_URL: api.fresh.url }), 0);
    } finally {
      console.log = log;
      console.error = err;
    }
    assert.match(out.join('\n'), /2 file\(s\) imported, 0 replaced, 1 skipped/);
    assert.equal(await db.submission.count({ where: { game: 'moria' } }), 4);
    const report = (await app.inject({ method: 'POST', url: '/api/admin/similarity/moria', headers: teacher.auth })).json();
    assert.equal(report.documents, 5);
    const withArchive = report.pairs.find((p: { a: string; b: string }) => [p.a, p.b].includes(`s:${catOwn.id}`));
    assert.ok(withArchive && withArchive.score >= 0.75, JSON.stringify(withArchive));
    assert.ok([withArchive.labelA.title, withArchive.labelB.title].some((t: string) => t.startsWith('2024-25')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a previous term from a zip: its wrapping folder taken off, one author per folder, files at any depth; importing again replaces', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-archive-zip-'));
  try {
    const file = join(dir, 'term.zip');
    writeFileSync(
      file,
      zip([
        { name: '2023-24/zed/main.ts', data: shipped('bola-de-drac', 'Demo') },
        { name: '2023-24/zed/lib/util.js', data: 'export const twice = (x) => 2 * x;\n' },
        { name: '2023-24/yan/bot.ts', data: shipped('harry-potter', 'Demo') },
        { name: '__MACOSX/2023-24/._bot.ts', data: 'junk' },
      ]),
    );
    assert.deepEqual(await importArchive(db, file, '2023-24', 'moria'), { imported: 3, replaced: 0, skipped: [] });
    const rows = await db.archivedSubmission.findMany({
      where: { term: '2023-24' },
      orderBy: [{ author: 'asc' }, { filename: 'asc' }],
      select: { author: true, filename: true },
    });
    assert.deepEqual(rows, [
      { author: 'yan', filename: 'bot.ts' },
      { author: 'zed', filename: 'lib/util.js' },
      { author: 'zed', filename: 'main.ts' },
    ]);
    assert.deepEqual(await importArchive(db, file, '2023-24', 'moria'), { imported: 0, replaced: 3, skipped: [] });
    writeFileSync(join(dir, 'bad.zip'), 'not a zip at all, just text that is long enough to search');
    await assert.rejects(importArchive(db, join(dir, 'bad.zip'), '2023-24', 'moria'), /not a zip archive/);
    await assert.rejects(importArchive(db, file, 'a term with spaces', 'moria'), /a term is/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the report and its pages are an admin's: 401 without a user, 403 for anyone else", async () => {
  for (const url of ['/api/admin/similarity/moria', `/admin/similarity/moria/pair?a=s:${anaLatest.id}&b=s:${bobCopy.id}`, '/admin/similarity/moria']) {
    const anon = await app.inject({ url });
    assert.ok(anon.statusCode === 401 || anon.statusCode === 303 || anon.statusCode === 302, `${url}: ${anon.statusCode}`);
    assert.equal((await app.inject({ url, headers: { cookie: ana.cookie } })).statusCode, 403, url);
  }
  assert.equal((await app.inject({ method: 'POST', url: '/api/admin/similarity/moria', headers: ana.auth })).statusCode, 403);
  assert.equal((await app.inject({ url: `/api/admin/similarity/moria/pair?a=s:${anaLatest.id}&b=s:${bobCopy.id}`, headers: bob.auth })).statusCode, 403);
});
