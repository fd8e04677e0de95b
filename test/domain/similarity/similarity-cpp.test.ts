// The similarity report reads C++. Pure: the C++ tokenizer normalizes names,
// literals, comments, the preprocessor, `std::` and the alternative operators
// away; a student's player (test/fixtures/similarity/AIDelver.cc, a
// Dijkstra/BFS Moria player against the game's C++ API) disguised as a copier
// would (identifiers renamed, member functions reordered, `and` written `&&`,
// comments and layout changed) scores high against its original, also with
// the game's kit left out as given code; the shipped bots (AIDemo.cc, AINull.cc
// and the TypeScript Demo, Dummy, Null of every game) score low against each
// other, and so does an unrelated C++ player (AIMiner.cc). On the database:
// C++ submissions in the report, two students who both started from the
// shipped AIDemo.cc are no pair, and `arbiter similarity import` takes .cc
// files. Slow (ARBITER_SLOW_TESTS=1): the two fixtures really are players
// (they pass the gate's compile check).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { languageOf } from '../../../src/domain/similarity/tokens.ts';
import { cppTokens } from '../../../src/sandbox/languages/cpp/tokens.ts';
import { baseHashes, comparePairs, matchRegions, prepare, scorePair, type Language, type PreparedDoc } from '../../../src/domain/similarity/index.ts';
import { gameHeaders } from '../../../src/sandbox/languages/cpp/headers.ts';
import { startTestApi, registerUser, type TestUser } from '../../helpers/app.ts';
import { adminGrant } from '../../../src/cli/admin.ts';
import { similarityCommand } from '../../../src/cli/similarity.ts';
import { checkBot } from '../../../src/sandbox/entries/check-bot.ts';
import { shippedCppPlayer } from '../../../src/sandbox/languages/cpp/headers.ts';
import { slow } from '../../helpers/slow.ts';

const GAMES = ['moria', 'harry-potter', 'bola-de-drac', 'walking-dead'];
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/similarity/${name}`, import.meta.url), 'utf8');
const shippedCpp = (game: string, file: string) => shippedCppPlayer(game, file as 'AIDemo.cc' | 'AINull.cc')!;
const shippedTs = (game: string, bot: string) => readFileSync(new URL(`../../../src/games/${game}/bots/${bot}.ts`, import.meta.url), 'utf8');
const doc = (key: string, source: string, language: Language = 'cpp', owner = key, base?: Set<number>): PreparedDoc =>
  prepare({ key, owner, language, source }, base);

const DELVER = fixture('AIDelver.cc');
const MINER = fixture('AIMiner.cc');

/** Splits a C++ player into its head (to the struct's line), its member functions (each with the fields after it), and its tail (the struct's `};` and after). */
function members(source: string): { head: string; functions: string[]; tail: string } {
  const lines = source.split('\n');
  const starts = lines.flatMap((l, i) => (/^ {2}[A-Za-z_][\w<>:,&* ]*\(.*\)\s*(const\s*)?\{\s*$/.test(l) ? [i] : []));
  const end = lines.indexOf('};');
  assert.ok(starts.length > 3 && end > starts[starts.length - 1]!, 'a struct with member functions');
  const functions = starts.map((s, k) => lines.slice(s, k + 1 < starts.length ? starts[k + 1] : end).join('\n'));
  return { head: lines.slice(0, starts[0]).join('\n'), functions, tail: lines.slice(end).join('\n') };
}

/** A copy as a student disguises one: member functions in reverse order, names renamed, `and`/`or`/`not` as symbols, comments gone, every line indented anew. */
function disguiseCpp(source: string, renames: Record<string, string>): string {
  const { head, functions, tail } = members(source);
  let text = [head, ...functions.reverse(), tail].join('\n');
  for (const [from, to] of Object.entries(renames)) text = text.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\band\b/g, '&&')
    .replace(/\bor\b/g, '||')
    .replace(/\bnot\b\s*/g, '!')
    .split('\n')
    .map((l) => l.replace(/(^|[^:'"\\])\/\/.*$/, '$1'))
    .filter((l) => l.trim() !== '')
    .map((l) => (l.startsWith('#') ? l.trim() : '\t' + l.trim()))
    .join('\n');
}

const DELVER_RENAMES: Record<string, string> = {
  search: 'dijkstra',
  best_direction: 'choose',
  attack_direction: 'hit',
  flee_direction: 'run_away',
  move_dwarf: 'step_dwarf',
  move_wizards: 'wizards_go',
  wizard_step: 'wstep',
  most_hurt: 'weakest_ally',
  balrog_distance: 'bd',
  taken: 'reserved',
  target: 'goal_of',
  stuck: 'idle',
  last_pos: 'prev',
  dist: 'D',
  first: 'F',
  INF: 'BIG',
  ALL: 'DIRS',
  STRAIGHT: 'CROSS',
  cost: 'price',
  inside: 'valid',
  enemy_at: 'foe',
  sauron_at: 'evil',
  report: 'log_stats',
  best: 'pick',
  far: 'away',
  hurt: 'h',
};
const MINER_RENAMES: Record<string, string> = {
  danger: 'risk',
  smell: 'sniff',
  score: 'value',
  dwarf: 'go_dwarf',
  wizard: 'go_wizard',
  centre: 'middle',
  best: 'choice',
  top: 'hi',
};

/** The C++ kit of a game as the report leaves it out: AIDemo.cc, AINull.cc and every header. */
async function cppBase(game: string): Promise<Set<number>> {
  const headers = Object.values(await gameHeaders(game));
  return baseHashes([...['AIDemo.cc', 'AINull.cc'].map((f) => shippedCpp(game, f)), ...headers].map((source) => ({ language: 'cpp' as const, source })));
}

test("the C++ tokenizer keeps the shape and drops names, literals, comments, the preprocessor, std:: and the operators' spellings", () => {
  const a = cppTokens(
    '#include <bits/stdc++.h>\n#define PLAYER_NAME Ana\n#define SQ(x) \\\n  ((x) * (x))\nusing namespace std; // hi\n' +
      "/* a\n note */ std::vector<std::vector<int>> grid; int total = 1'000 + 0x1F + 2.5e-3; char c = '\\''; string s = \"a\\\"b\";\n" +
      'if (a and not b) total >>= 2;\nauto r = R"x(raw\n)" text)x"; return;',
  );
  const b = cppTokens('using namespace std;\nvector<vector<int> > g;int t=7+8+9.0;char d=\'x\';string q="zz";\nif(p&&!q)t>>=1;\nauto w=u8"w";return;');
  assert.deepEqual(
    a.map((t) => t.text),
    [
      'using',
      'namespace',
      'id',
      ';',
      'id',
      '<',
      'id',
      '<',
      'int',
      '>',
      '>',
      'id',
      ';',
      'int',
      'id',
      '=',
      'num',
      '+',
      'num',
      '+',
      'num',
      ';',
      'char',
      'id',
      '=',
      'chr',
      ';',
      'id',
      'id',
      '=',
      'str',
      ';',
      'if',
      '(',
      'id',
      '&&',
      '!',
      'id',
      ')',
      'id',
      '>',
      '>=',
      'num',
      ';',
      'auto',
      'id',
      '=',
      'str',
      ';',
      'return',
      ';',
    ],
  );
  assert.deepEqual(
    b.map((t) => t.text),
    a.map((t) => t.text),
  );
  // Lines are the source's: the directives, the splice and the comment are counted.
  assert.equal(a[0]!.line, 5);
  assert.equal(a.find((t) => t.text === 'if')!.line, 8);
  assert.equal(a.find((t) => t.text === 'return')!.line, 10);
  // Files by name: .cc and the other C++ endings, headers too.
  assert.deepEqual(['AIAna.cc', 'x.cpp', 'y.cxx', 'z.c++', 'u.hh', 'v.h', 'w.hpp', 'b.ts', 'c.js', 'd.py'].map(languageOf), [
    'cpp',
    'cpp',
    'cpp',
    'cpp',
    'cpp',
    'cpp',
    'cpp',
    'typescript',
    'javascript',
    null,
  ]);
});

test("a copy of a student's C++ player (renamed, member functions reordered, && for and, comments and layout changed) scores high, with or without the kit left out", async () => {
  const copy = disguiseCpp(DELVER, DELVER_RENAMES);
  assert.ok(!copy.includes('best_direction') && copy.includes('choose'), 'renamed');
  assert.ok(copy.indexOf('virtual void play') < copy.indexOf('int price'), 'reordered: play() comes first now');
  assert.ok(DELVER.split('\n').length >= 200, 'a realistic player');
  const a = doc('original', DELVER);
  const b = doc('copy', copy);
  const s = scorePair(a, b);
  assert.ok(s.score >= 0.75 && Math.min(s.fractionA, s.fractionB) >= 0.75, `copy scores ${s.fractionA.toFixed(2)}/${s.fractionB.toFixed(2)}`);
  const m = matchRegions(a, b);
  assert.ok(m.matchedA / m.tokensA >= 0.6, `regions cover ${(m.matchedA / m.tokensA).toFixed(2)} of the original`);
  for (const r of m.regions) assert.ok(r.a[0] <= r.a[1] && r.b[0] <= r.b[1] && r.b[1] <= copy.split('\n').length);
  // The kit every student was given (AIDemo.cc, AINull.cc, the headers) left out: the copy still shows.
  const base = await cppBase('moria');
  const sb = scorePair(doc('original', DELVER, 'cpp', 'o', base), doc('copy', copy, 'cpp', 'c', base));
  assert.ok(sb.score >= 0.75, `with the kit left out: ${sb.score.toFixed(2)}`);
  // The unrelated player's copy too.
  const miner = scorePair(doc('m', MINER), doc('m2', disguiseCpp(MINER, MINER_RENAMES)));
  assert.ok(miner.score >= 0.75, `the other player's copy: ${miner.score.toFixed(2)}`);
  console.log(
    `# C++ copy: ${s.fractionA.toFixed(3)}/${s.fractionB.toFixed(3)} (${s.shared} of ${a.fingerprints.size}/${b.fingerprints.size}), regions ${(m.matchedA / m.tokensA).toFixed(3)}; kit left out ${sb.score.toFixed(3)}; AIMiner's copy ${miner.score.toFixed(3)}`,
  );
});

test('unrelated C++ players score low against each other and against the shipped AIDemo.cc of every game', () => {
  const delver = doc('delver', DELVER);
  const miner = doc('miner', MINER);
  const s = scorePair(delver, miner);
  assert.ok(s.score < 0.2, `AIDelver ~ AIMiner: ${s.score.toFixed(2)}`);
  for (const game of GAMES) {
    for (const d of [delver, miner]) {
      const x = scorePair(d, doc(`${game}/AIDemo.cc`, shippedCpp(game, 'AIDemo.cc')));
      assert.ok(x.score < 0.2, `${d.key} ~ ${game}/AIDemo.cc: ${x.score.toFixed(2)}`);
    }
  }
  console.log(`# AIDelver ~ AIMiner: ${s.score.toFixed(3)}`);
});

test('the shipped bots score low against each other: AIDemo.cc, AINull.cc and the TypeScript Demo, Dummy, Null of every game; C++ and TypeScript are never compared', () => {
  const docs = GAMES.flatMap((game) => [
    ...['AIDemo.cc', 'AINull.cc'].map((f) => doc(`${game}/${f}`, shippedCpp(game, f))),
    ...['Demo', 'Dummy', 'Null'].map((bot) => doc(`${game}/${bot}.ts`, shippedTs(game, bot), 'typescript')),
  ]);
  let worst = { pair: '', score: 0 };
  for (let i = 0; i < docs.length; i++) {
    for (let j = i + 1; j < docs.length; j++) {
      const [a, b] = [docs[i]!, docs[j]!];
      const s = scorePair(a, b);
      if (a.family !== b.family) assert.equal(s.shared, 0, `${a.key} ~ ${b.key}: different languages`);
      // The Null players are one template of a few lines: across games they are the same program.
      const nulls = (k: string) => k.endsWith('/AINull.cc') || k.endsWith('/Null.ts');
      if (nulls(a.key) && nulls(b.key)) continue;
      assert.ok(s.score < 0.3, `${a.key} ~ ${b.key}: ${s.score.toFixed(2)}`);
      if (s.score > worst.score) worst = { pair: `${a.key} ~ ${b.key}`, score: s.score };
    }
  }
  console.log(`# shipped bots, the highest pair: ${worst.pair} ${worst.score.toFixed(3)}`);
});

test('two students who both started from the shipped AIDemo.cc share nothing that counts once the kit is left out', async () => {
  const base = await cppBase('moria');
  const demo = shippedCpp('moria', 'AIDemo.cc');
  const c1 = doc('c1', demo.replace('#define PLAYER_NAME Demo', '#define PLAYER_NAME Uno'), 'cpp', 'x', base);
  const c2 = doc(
    'c2',
    disguiseCpp(demo, { move_dwarves: 'dwarves_go', pick_direction: 'which', style: 'mode' }).replace('PLAYER_NAME Demo', 'PLAYER_NAME Dos'),
    'cpp',
    'y',
    base,
  );
  assert.equal(comparePairs([c1, c2], { minShared: 1 }).length, 0);
  // Without the base they would have been the top pair.
  assert.ok(scorePair(doc('c1', demo), doc('c2', demo)).score === 1);
});

// ---------------------------------------------------------------- on the database

const api = await startTestApi();
const { app, db } = api;
const teacher = await registerUser(app, 'teacher');
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
const cat = await registerUser(app, 'cat');
const dan = await registerUser(app, 'dan');
const eve = await registerUser(app, 'eve');
await adminGrant(db, 'grant', 'teacher');

async function submission(user: TestUser, name: string, source: string) {
  const player = await db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: user.id } });
  const text = source.replace(/#define PLAYER_NAME \w+/, `#define PLAYER_NAME ${name}`);
  return db.submission.create({
    data: {
      playerId: player.id,
      userId: user.id,
      game: 'moria',
      version: 1,
      source: text,
      filename: `AI${name}.cc`,
      sizeBytes: text.length,
      status: 'qualified',
    },
  });
}

const anaSub = await submission(ana, 'Ana', DELVER);
const bobSub = await submission(bob, 'Bob', disguiseCpp(DELVER, DELVER_RENAMES));
const catSub = await submission(cat, 'Cat', MINER);
// Two students who handed in the shipped Demo, barely touched: given code, no pair.
const danSub = await submission(dan, 'Dan', shippedCpp('moria', 'AIDemo.cc'));
const eveSub = await submission(eve, 'Eve', shippedCpp('moria', 'AIDemo.cc').replace(/return Left;/g, 'return Right;'));

test('the report of a game reads C++ submissions and a previous term imported as .cc: the copies on top, the shipped Demo is no evidence', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-archive-cc-'));
  try {
    mkdirSync(join(dir, 'oldstudent'));
    writeFileSync(join(dir, 'oldstudent', 'AIOld.cc'), disguiseCpp(MINER, MINER_RENAMES));
    writeFileSync(join(dir, 'other.cpp'), shippedCpp('walking-dead', 'AIDemo.cc'));
    writeFileSync(join(dir, 'notes.txt'), 'not a bot');
    const out: string[] = [];
    const [log, err] = [console.log, console.error];
    console.log = (s: string) => out.push(s);
    console.error = (s: string) => out.push(s);
    try {
      assert.equal(await similarityCommand(['import', dir, '--term', '2024-25', '--game', 'moria'], { DATABASE_URL: api.fresh.url }), 0);
      assert.equal(await similarityCommand(['report', 'moria'], { DATABASE_URL: api.fresh.url }), 0);
    } finally {
      console.log = log;
      console.error = err;
    }
    assert.match(out.join('\n'), /2 file\(s\) imported, 0 replaced, 1 skipped/);
    assert.match(out.join('\n'), /skipped notes\.txt: not a \.ts, \.js or \.cc file/);
    assert.equal(
      (await db.archivedSubmission.findMany({ where: { term: '2024-25' }, orderBy: { author: 'asc' } })).map((a) => `${a.author}/${a.filename}`).join(' '),
      'oldstudent/AIOld.cc other/other.cpp',
    );
    const report = (await app.inject({ url: '/api/admin/similarity/moria', headers: teacher.auth })).json();
    assert.equal(report.documents, 7);
    const key = (p: { a: string; b: string }) => [p.a, p.b].sort().join(' ~ ');
    const listed = new Map<string, number>(report.pairs.map((p: { a: string; b: string; score: number }) => [key(p), p.score]));
    const anaBob = listed.get([`s:${anaSub.id}`, `s:${bobSub.id}`].sort().join(' ~ '));
    assert.ok(anaBob !== undefined && anaBob >= 0.75, `ana ~ bob: ${anaBob}`);
    const withArchive = report.pairs.find((p: { a: string; b: string }) => [p.a, p.b].includes(`s:${catSub.id}`) && [p.a, p.b].some((k) => k.startsWith('a:')));
    assert.ok(withArchive && withArchive.score >= 0.75, JSON.stringify(withArchive));
    assert.ok([withArchive.labelA.title, withArchive.labelB.title].some((t: string) => t === '2024-25: AIOld.cc'));
    // The two top pairs are the copies; every other pair is low, and the two Demos are none.
    const top = report.pairs.slice(0, 2).map(key).sort();
    assert.deepEqual(top, [key(withArchive), [`s:${anaSub.id}`, `s:${bobSub.id}`].sort().join(' ~ ')].sort());
    for (const p of report.pairs.slice(2)) assert.ok(p.score < 0.3, `${p.a} ~ ${p.b}: ${p.score}`);
    const danEve = listed.get([`s:${danSub.id}`, `s:${eveSub.id}`].sort().join(' ~ '));
    assert.ok(danEve === undefined || danEve < 0.3, `dan ~ eve (the shipped Demo): ${danEve}`);
    // The side-by-side page of a C++ pair.
    const pair = await app.inject({ url: `/api/admin/similarity/moria/pair?a=s:${anaSub.id}&b=s:${bobSub.id}`, headers: teacher.auth });
    assert.equal(pair.statusCode, 200, pair.body);
    assert.ok(pair.json().regions.length > 0 && pair.json().coverA >= 0.6, `cover ${pair.json().coverA}`);
    console.log(
      `# report: ana ~ bob ${anaBob!.toFixed(3)}, cat ~ the archive ${withArchive.score.toFixed(3)}, dan ~ eve ${danEve === undefined ? 'not listed' : danEve.toFixed(3)}, then ${report.pairs[2]?.score?.toFixed(3) ?? 'nothing'}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the C++ fixtures are real Moria players: they pass the gate's compile check", slow, async () => {
  for (const [filename, source] of [
    ['AIDelver.cc', DELVER],
    ['AIMiner.cc', MINER],
  ] as const) {
    const r = await checkBot({ game: 'moria', source, filename });
    assert.deepEqual(r, { ok: true, name: filename.slice(2, -3), game: 'moria' }, filename);
  }
});
