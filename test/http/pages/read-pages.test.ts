// The reading pages against real Postgres and Redis: the home page,
// a game's page with its statement, the starter kit, leaderboards, player
// pages, the matches list with filters and pages, a match's page, its log
// download for the owner only, /queue and /api/queue.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startTestApi, registerUser, insertMatch } from '../../helpers/app.ts';
import { freshQueues } from '../../helpers/queue.ts';
import { buildApp } from '../../../src/http/app.ts';
import { selfContainedTypes } from '../../../src/games/player-types.ts';
import { workerKey } from '../../../src/queue/index.ts';
import { Prisma } from '../../../src/db/generated/client.ts';

const fq = await freshQueues();
const api = await startTestApi({}, { queues: fq.queues });
after(() => fq.cleanup());
const { app, db } = api;
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
const eve = await registerUser(app, 'eve');

async function qualified(ownerId: number, name: string, mu: number, sigma: number, matchesPlayed: number, game = 'moria') {
  const p = await db.playerName.create({ data: { game, name, nameLower: name.toLowerCase(), ownerId, locked: true, lockedAt: new Date() } });
  const s = await db.submission.create({
    data: {
      playerId: p.id,
      userId: ownerId,
      game,
      version: 1,
      source: 'x',
      filename: 'x.ts',
      sizeBytes: 1,
      status: 'qualified',
      startedAt: new Date(Date.now() - 30_000),
      finishedAt: new Date(),
    },
  });
  await db.playerName.update({ where: { id: p.id }, data: { qualifiedSubmissionId: s.id } });
  await db.rating.create({ data: { playerId: p.id, game, mu, sigma, ordinal: mu - 3 * sigma, matchesPlayed } });
  return { playerId: p.id, submissionId: s.id, name };
}

const top = await qualified(bob.id, 'Top', 30, 2, 40);
const mid = await qualified(ana.id, 'Mid', 28, 3, 12);
const low = await qualified(ana.id, 'Low', 20, 5, 3);
const evil = await qualified(eve.id, 'Evil_<b>', 10, 5, 1); // a name no real player could have: checks escaping
// 51 more qualified players with lower ratings: the leaderboard has two pages.
for (let i = 0; i < 51; i++) {
  const p = await db.playerName.create({ data: { game: 'moria', name: `Filler${i}`, nameLower: `filler${i}`, ownerId: eve.id, locked: true } });
  await db.rating.create({ data: { playerId: p.id, game: 'moria', mu: 5, sigma: 5, ordinal: -10 - i, matchesPlayed: 0 } });
}

const seat = (x: { name: string; playerId: number; submissionId: number }, score: number, rank: number, log?: string) => ({
  name: x.name,
  playerId: x.playerId,
  submissionId: x.submissionId,
  score,
  rank,
  log,
});
const replay = gzipSync(Buffer.from(JSON.stringify({ format: 'arbiter-replay', version: 1, game: 'moria' })));
const ranked = await insertMatch(db, {
  kind: 'ranked',
  seats: [seat(top, 90, 1, 'top says hi\n'), seat(mid, 50, 2, 'mid log'), seat(low, 10, 3), seat(evil, 0, 4)],
  replay,
});
await db.participant.updateMany({
  where: { matchId: ranked.id, seat: 3 },
  data: { frozenReason: 'cpu', frozenRound: 17, frozenMessage: 'CPU budget <exceeded>' },
});
const gate = await insertMatch(db, {
  kind: 'gate',
  submissionId: top.submissionId,
  seats: [
    seat(top, 5, 1),
    { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 2 },
    { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 2 },
    { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 4 },
  ],
});
// 26 more ranked matches: the matches list (25 a page) has two pages.
const later: number[] = [];
for (let i = 0; i < 26; i++)
  later.push((await insertMatch(db, { kind: 'ranked', seats: [seat(mid, 3, 1), seat(low, 2, 2), seat(evil, 1, 3), seat(top, 0, 4)] })).id);
await db.ratingHistory.createMany({
  data: [
    { playerId: top.playerId, game: 'moria', matchId: ranked.id, mu: 27, sigma: 4, ordinal: 15 },
    { playerId: top.playerId, game: 'moria', matchId: later[0]!, mu: 30, sigma: 2, ordinal: 24 },
  ],
});
const queued = await db.match.create({
  data: { game: 'moria', seed: 7, kind: 'ranked', status: 'queued', participants: { create: [{ seat: 0, name: 'Top', playerId: top.playerId }] } },
});
const failed = await db.match.create({
  data: { game: 'moria', seed: 8, kind: 'gate', status: 'failed', error: 'worker <lost>', submissionId: top.submissionId },
});

const MAX_PAGE = 300 * 1024;
async function page(url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ url, headers: { accept: 'text/html', ...headers } });
  if (res.statusCode === 200) {
    assert.match(String(res.headers['content-type']), /^text\/html/, url);
    assert.ok(res.body.length < MAX_PAGE, `${url}: ${res.body.length} bytes`);
  }
  return res;
}

test('home: a card per game with its leaderboard top 5, latest matches and starter kit; how it works', async () => {
  const res = await page('/');
  assert.equal(res.statusCode, 200);
  // Pages run only their own scripts and styles (no inline code).
  assert.match(String(res.headers['content-security-policy']), /script-src 'self'; style-src 'self';/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.doesNotMatch(res.body, /<script(?![^>]*\ssrc=)[^>]*>|\sstyle="|\son[a-z]+="/, 'no inline script, style or handler');
  for (const id of ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac']) {
    assert.match(res.body, new RegExp(`<article class="card game-card" id="game-${id}"`), id);
    assert.match(res.body, new RegExp(`href="/games/${id}/starter-kit.zip"`), id);
  }
  const moria = res.body.slice(res.body.indexOf('id="game-moria"'), res.body.indexOf('</article>', res.body.indexOf('id="game-moria"')));
  assert.match(moria, /55 qualified players/);
  assert.equal((moria.match(/<tr><td class="num">/g) ?? []).length, 5, 'top 5');
  assert.match(moria, /<a href="\/players\/Top\?game=moria">Top<\/a>/);
  assert.match(moria, /id="latest-moria"/);
  assert.match(moria, /All 55 players/);
  assert.match(res.body, /node play\.mjs/);
  assert.match(res.body, /Evil_&lt;b&gt;/);
  assert.doesNotMatch(res.body, /Evil_<b>/);
});

test('game page: statement rendered, language switch, limits, built-in players, leaderboard top 10; unknown game or language 404', async () => {
  const res = await page('/games/moria');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<h2 id="s-1">1 Game rules<\/h2>/);
  assert.match(res.body, /This is a game for four players/);
  assert.match(res.body, /<a href="\/games\/moria\?statement=ca" hreflang="ca" lang="ca">Català<\/a>/);
  assert.match(res.body, /id="starter-kit" href="\/games\/moria\/starter-kit.zip"/);
  assert.match(res.body, /<dt>CPU time<\/dt><dd>10 s per bot/);
  assert.match(res.body, /<dt>Memory<\/dt><dd>128 MiB<\/dd>/);
  assert.match(res.body, /<ul id="builtin-players"><li>Null/);
  const board = res.body.slice(res.body.indexOf('<table id="leaderboard"'), res.body.indexOf('</table>', res.body.indexOf('<table id="leaderboard"')));
  assert.equal((board.match(/<tr><td class="num">/g) ?? []).length, 10);
  const ca = await page('/games/moria?statement=ca');
  assert.equal(ca.statusCode, 200);
  assert.match(ca.body, /<h2 id="s-1">1 Normes del joc<\/h2>/);
  assert.match(ca.body, /lang="ca"/);
  const wd = await page('/games/walking-dead');
  assert.equal(wd.statusCode, 200);
  for (const l of ['ca', 'es'])
    assert.match(
      wd.body,
      new RegExp(`<a href="/games/walking-dead\\?statement=${l}" hreflang="${l}"`),
      'every game is in Catalan, Spanish and English: a switch',
    );
  assert.match(wd.body, /<section class="statement" id="statement" [^>]*lang="en"/);
  assert.match((await page('/games/walking-dead?statement=ca')).body, /Regles del joc/i);
  for (const [url, status, msg] of [
    ['/games/chess', 404, /There is no game &quot;chess&quot;/],
    ['/games/moria?statement=fr', 404, /not available in &quot;fr&quot;/],
    ['/games/moria?colour=red', 400, /must NOT have additional properties/],
  ] as const) {
    const r = await page(url);
    assert.equal(r.statusCode, status, url);
    assert.match(r.body, msg, url);
    assert.match(String(r.headers['content-type']), /^text\/html/);
  }
});

test('starter kit: a zip with the template, the Demo, player.d.ts, tsconfig.json and a README (playing locally both ways); unzip extracts it', async () => {
  const res = await app.inject({ url: '/games/moria/starter-kit.zip' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/zip');
  assert.match(String(res.headers['content-disposition']), /attachment; filename="moria-starter-kit.zip"/);
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-kit-'));
  try {
    writeFileSync(join(dir, 'kit.zip'), res.rawPayload);
    assert.match(execFileSync('unzip', ['-t', join(dir, 'kit.zip')]).toString(), /No errors detected/);
    execFileSync('unzip', ['-q', join(dir, 'kit.zip'), '-d', dir]);
    const kit = join(dir, 'moria-starter-kit');
    assert.deepEqual(readdirSync(kit).sort(), ['Demo.ts', 'MyBot.ts', 'README.md', 'arbiter.mjs', 'cpp', 'play', 'play.mjs', 'player.d.ts', 'tsconfig.json']);
    const demo = readFileSync(join(kit, 'Demo.ts'), 'utf8');
    assert.equal(demo, readFileSync('src/games/moria/bots/Demo.ts', 'utf8').replace('../player.d.ts', 'player.d.ts'));
    // The C++ variant: the headers (the statement's API, the generated view header), Null and Demo, how to run them.
    const cpp = readdirSync(join(kit, 'cpp'));
    for (const f of ['AINull.cc', 'AIDemo.cc', 'Player.hh', 'State.hh', 'Structs.hh', 'ArbiterView.hh', 'arbiter.hh', 'README.md'])
      assert.ok(cpp.includes(f), f);
    assert.match(readFileSync(join(kit, 'cpp', 'AINull.cc'), 'utf8'), /#define PLAYER_NAME Null/);
    assert.match(readFileSync(join(kit, 'cpp', 'README.md'), 'utf8'), /node arbiter\.mjs play cpp\/AIYourName\.cc Dummy Demo Dummy --seed 7/);
    const bot = readFileSync(join(kit, 'MyBot.ts'), 'utf8');
    assert.match(bot, /^\/\/\/ <reference path="player\.d\.ts" \/>/);
    assert.match(bot, /export const GAME = 'moria';/);
    const types = readFileSync(join(kit, 'player.d.ts'), 'utf8');
    assert.equal(types, await selfContainedTypes('src/games/moria/player.d.ts'));
    assert.doesNotMatch(types, /<reference/, 'self-contained: the shared declarations are inlined');
    assert.match(types, /declare function random\(l: number, u: number\): number;/);
    assert.deepEqual(JSON.parse(readFileSync(join(kit, 'tsconfig.json'), 'utf8')).files, ['player.d.ts', 'MyBot.ts', 'Demo.ts']);
    const readme = readFileSync(join(kit, 'README.md'), 'utf8');
    for (const s of [
      'PLAYER_NAME',
      '/games/moria/play',
      'only the server does',
      'node arbiter.mjs play MyBot.ts Dummy Demo Dummy --seed 7 -o match.json',
      'node arbiter.mjs eval MyBot.ts --seeds 1-100',
      'node arbiter.mjs view match.json',
      'node arbiter.mjs verify match.json',
      'ARBITER_URL',
      'ARBITER_TOKEN',
      'node arbiter.mjs submit MyBot.ts',
      'CPU time: 10 s',
      'Memory: 128 MiB',
    ]) {
      assert.ok(readme.includes(s), s);
    }
    // The kit type-checks as shipped (the template and the Demo against its own player.d.ts).
    execFileSync(process.execPath, [join(process.cwd(), 'node_modules/typescript/bin/tsc'), '-p', kit], { stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal((await app.inject({ url: '/games/chess/starter-kit.zip', headers: { accept: 'text/html' } })).statusCode, 404);
});

test('leaderboard: rank, player link, owner, rating with 2 decimals, its uncertainty (μ ± 3σ, provisional while σ > 4), matches, how ranks are computed; two pages; bad pages 4xx', async () => {
  const res = await page('/games/moria/leaderboard');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<table id="leaderboard">/);
  assert.match(
    res.body,
    /<tr><td class="num">1<\/td><td><a href="\/players\/Top\?game=moria">Top<\/a><\/td><td>bob<\/td><td class="num">24\.00<\/td><td class="num">30\.00 ± 6\.00<\/td><td class="num">40<\/td><\/tr>/,
  );
  assert.match(
    res.body,
    /<tr><td class="num">2<\/td><td><a href="\/players\/Mid\?game=moria">Mid<\/a><\/td><td>ana<\/td><td class="num">19\.00<\/td><td class="num">28\.00 ± 9\.00<\/td>/,
  );
  // Low has σ = 5: provisional.
  assert.match(
    res.body,
    /<a href="\/players\/Low\?game=moria">Low<\/a><\/td><td>ana<\/td><td class="num">5\.00 <span class="badge provisional"[^>]*>provisional<\/span><\/td><td class="num">20\.00 ± 15\.00<\/td>/,
  );
  assert.match(res.body, /ranked by rating: OpenSkill(&#39;|&#x27;|')s μ − 3σ, where μ is the estimated skill and σ its uncertainty/);
  const api = await app.inject({ url: '/api/games/moria/leaderboard' });
  assert.deepEqual(
    api
      .json()
      .players.slice(0, 3)
      .map((p: { player: string; provisional: boolean }) => [p.player, p.provisional]),
    [
      ['Top', false],
      ['Mid', false],
      ['Low', true],
    ],
  );
  assert.equal((res.body.match(/<tr><td class="num">/g) ?? []).length, 50);
  assert.match(res.body, /<a rel="next" href="\/games\/moria\/leaderboard\?page=2">/);
  const p2 = await page('/games/moria/leaderboard?page=2');
  assert.equal((p2.body.match(/<tr><td class="num">/g) ?? []).length, 5);
  assert.match(p2.body, /<tr><td class="num">51<\/td>/);
  assert.match(p2.body, /<a rel="prev" href="\/games\/moria\/leaderboard">/);
  assert.equal((await page('/games/moria/leaderboard?page=3')).statusCode, 404);
  assert.equal((await page('/games/moria/leaderboard?page=x')).statusCode, 400);
  assert.equal((await page('/games/chess/leaderboard')).statusCode, 404);
  const empty = await page('/games/harry-potter/leaderboard');
  assert.match(empty.body, /No qualified player yet/);
});

test('player page: qualified, rank and rating, the rating chart (svg with title, desc and a table), versions, recent matches; unknown 404', async () => {
  const res = await page('/players/top');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<h1>Top<\/h1>/);
  assert.match(res.body, /<span class="badge qualified">qualified<\/span>/);
  assert.match(res.body, /<dt>Rank<\/dt><dd>1 on the/);
  assert.match(res.body, /<span class="rating">24\.00<\/span>/);
  assert.match(res.body, /<svg class="chart" id="rating-chart-moria"[^>]* role="img" aria-labelledby="rating-chart-moria-title rating-chart-moria-desc"/);
  assert.match(res.body, /<title id="rating-chart-moria-title">Top&#39;s rating in Moria<\/title>/);
  assert.match(res.body, /<desc id="rating-chart-moria-desc">2 ranked matches: from 15\.00 after match \d+ to 24\.00/);
  assert.match(res.body, /<path class="chart-line" d="M[\d.]+,[\d.]+ L[\d.]+,[\d.]+"/);
  assert.match(res.body, /<details class="chart-data">[^]*<table id="rating-history-moria">/);
  assert.match(res.body, /<table id="versions-moria">[^]*the qualified version/);
  assert.match(res.body, new RegExp(`<table id="recent-matches-moria"[^]*href="/matches/${later.at(-1)}"`));
  assert.equal((await page('/players/Top?game=moria')).statusCode, 200);
  assert.equal((await page('/players/Top?game=walking-dead')).statusCode, 404);
  const none = await page('/players/nobody');
  assert.equal(none.statusCode, 404);
  assert.match(none.body, /There is no player named &quot;nobody&quot;/);
});

test('matches list: filters (game, player, kind) applied and kept in the pager; bad filters 400 with the message', async () => {
  const res = await page('/matches');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<form method="get" action="\/matches" id="matches-filter"/);
  assert.match(res.body, /<label for="f-game">Game<\/label>/);
  assert.match(res.body, /30 matches, page 1 of 2\./);
  assert.equal((res.body.match(/<tr data-match=/g) ?? []).length, 25);
  assert.match(res.body, /<a rel="next" href="\/matches\?page=2">/);
  assert.match(res.body, /<span class="seat seat-0" aria-hidden="true"><\/span>/);
  const gates = await page('/matches?kind=gate&player=TOP&game=moria');
  assert.match(gates.body, /1 match with these filters\./);
  assert.match(gates.body, new RegExp(`<tr data-match="${gate.id}">`));
  assert.match((await page('/matches?kind=gate')).body, new RegExp(`<tr data-match="${failed.id}">[^]*<span class="badge failed">failed</span>`));
  assert.match(gates.body, /<option value="gate" selected>gate<\/option>/);
  assert.match(gates.body, /id="f-player" name="player" type="search" value="TOP"/);
  const dummy = await page('/matches?player=dummy');
  assert.match(dummy.body, /1 match with these filters/);
  const ranked2 = await page('/matches?kind=ranked&page=2');
  assert.match(ranked2.body, /28 matches with these filters, page 2 of 2/);
  assert.match(ranked2.body, /<a rel="prev" href="\/matches\?kind=ranked">/);
  const any = await page('/matches?game=&player=&kind=');
  assert.equal(any.statusCode, 200, 'the empty values the form sends for "any"');
  for (const [q, msg] of [
    ['kind=friendly', /Unknown kind of match &quot;friendly&quot;/],
    ['game=chess', /Unknown game &quot;chess&quot;/],
    ['player=nobody', /There is no player named &quot;nobody&quot;/],
    ['page=0', /page must be &gt;= 1/],
    ['colour=red', /additional properties/],
  ] as const) {
    const r = await page(`/matches?${q}`);
    assert.equal(r.statusCode, 400, q);
    assert.match(r.body, msg, q);
  }
});

test("match page: the limits shown are the match's own (recorded when it was created), the game's defaults for older rows", async () => {
  const before = await page(`/matches/${ranked.id}`);
  assert.match(before.body, /<dt>Limits<\/dt><dd id="match-limits">10 s of CPU and 128 MiB of memory per bot<\/dd>/);
  await db.match.update({ where: { id: ranked.id }, data: { limits: { cpuBudgetMs: 2500, memoryMb: 64 } } });
  try {
    const after = await page(`/matches/${ranked.id}`);
    assert.match(after.body, /<dt>Limits<\/dt><dd id="match-limits">2\.5 s of CPU and 64 MiB of memory per bot<\/dd>/);
    assert.match(
      after.body,
      /<tr data-seat="0">[^]*?<td data-label="CPU ms" class="num">13<\/td>\s*<td data-label="% of budget" class="num">0\.5%<\/td>/,
      "the share of the budget is of the match's budget",
    );
  } finally {
    await db.match.update({ where: { id: ranked.id }, data: { limits: Prisma.DbNull } });
  }
});

test('match page: title, viewer, result table (owner, CPU, out), replay download, gate link; queued and failed say so; 404', async () => {
  const res = await page(`/matches/${ranked.id}`);
  assert.equal(res.statusCode, 200);
  assert.match(res.body, new RegExp(`<h1>Moria ranked match #${ranked.id}</h1>`));
  assert.match(res.body, /<dt>Seed<\/dt><dd>42<\/dd>/);
  assert.match(res.body, new RegExp(`<div class="viewer" data-viewer data-replay="/api/matches/${ranked.id}/replay"></div>`));
  assert.match(res.body, /<link rel="stylesheet" href="\/assets\/viewer.css">/);
  assert.match(res.body, /<script type="module" src="\/assets\/js\/viewer.js"><\/script>/);
  assert.match(res.body, /<table id="match-result" class="stacks">/);
  assert.match(
    res.body,
    /<tr data-seat="0">\s*<td data-label="Seat"><span class="seat seat-0" aria-hidden="true"><\/span>0<\/td>\s*<td data-label="Player"><a href="\/players\/Top\?game=moria">Top<\/a><\/td>\s*<td data-label="Owner">bob<\/td>\s*<td data-label="Score" class="num">90<\/td>\s*<td data-label="Rank" class="num">1<\/td>\s*<td data-label="CPU ms" class="num">13<\/td>\s*<td data-label="% of budget" class="num">0\.1%<\/td>/,
  );
  // Stored round 17 (the play() that made rounds[17]) is shown as the bot's round() saw it: 16.
  assert.match(res.body, /<span class="badge failed">out<\/span> cpu in round 16: <code>CPU budget &lt;exceeded&gt;<\/code>/);
  assert.match(res.body, new RegExp(`<a class="button" id="download-replay" href="/api/matches/${ranked.id}/replay" download>`));
  assert.doesNotMatch(res.body, /download-log-/, 'no log links for a visitor');
  const gatePage = await page(`/matches/${gate.id}`);
  assert.match(gatePage.body, new RegExp(`<a id="gate-submission" href="/submissions/${top.submissionId}">`));
  assert.match(gatePage.body, /Dummy <span class="muted">\(built-in\)<\/span>/);
  assert.match(gatePage.body, /This match has no replay/);
  const q = await page(`/matches/${queued.id}`);
  assert.match(q.body, /id="match-status" role="status"><span class="badge queued">queued<\/span>/);
  assert.doesNotMatch(q.body, /data-viewer/);
  const f = await page(`/matches/${failed.id}`);
  assert.match(f.body, /could not be played: <code>worker &lt;lost&gt;<\/code>/);
  assert.equal((await page('/matches/999999')).statusCode, 404);
  assert.equal((await page('/matches/abc')).statusCode, 400);
});

test('bot logs: a download for the seats the user owns only (an admin: all); others 401/403', async () => {
  const asAna = await page(`/matches/${ranked.id}`, { cookie: ana.cookie });
  assert.match(asAna.body, new RegExp(`id="download-log-1" href="/matches/${ranked.id}/log/1" download`));
  assert.match(asAna.body, /id="download-log-2"/);
  assert.doesNotMatch(asAna.body, /id="download-log-0"|id="download-log-3"/);
  const log = await app.inject({ url: `/matches/${ranked.id}/log/1`, headers: { cookie: ana.cookie } });
  assert.equal(log.statusCode, 200);
  assert.match(String(log.headers['content-type']), /^text\/plain/);
  assert.match(String(log.headers['content-disposition']), new RegExp(`^attachment; filename="moria-${ranked.id}-seat1\\.log\\.txt"$`));
  assert.equal(log.body, 'mid log');
  const theirs = await page(`/matches/${ranked.id}/log/0`, { cookie: ana.cookie });
  assert.equal(theirs.statusCode, 403);
  assert.match(theirs.body, /Only the owner of a bot/);
  const anon = await page(`/matches/${ranked.id}/log/0`);
  assert.equal(anon.statusCode, 401);
  assert.match(anon.body, /href="\/login\?next=/);
  assert.equal((await app.inject({ url: `/matches/${ranked.id}/log/0`, headers: { cookie: bob.cookie } })).body, 'top says hi\n');
  assert.equal((await page(`/matches/${ranked.id}/log/9`, { cookie: bob.cookie })).statusCode, 400);
  assert.equal((await page(`/matches/999999/log/0`, { cookie: bob.cookie })).statusCode, 404);
});

test('/queue and /api/queue: waiting and running by kind, workers, throughput, gate latency, expected wait', async () => {
  await fq.queues.redis().set(workerKey(fq.prefix, 'w1'), JSON.stringify({ name: 'w1', concurrency: 2, host: 'box', pid: 1 }), 'PX', 15000);
  const json = await app.inject({ url: '/api/queue' });
  assert.equal(json.statusCode, 200);
  const q = json.json();
  assert.equal(q.redis.ok, true);
  assert.deepEqual(
    q.matches.find((m: { kind: string }) => m.kind === 'ranked'),
    { kind: 'ranked', waiting: 1, running: 0 },
  );
  assert.equal(q.waiting, 1);
  assert.deepEqual(q.workers, [{ name: 'w1', host: 'box', concurrency: 2 }]);
  assert.equal(q.workerSlots, 2);
  assert.equal(q.throughput.perMinute.length, 10);
  assert.equal(q.throughput.perMinute.at(-1), 28, 'the 27 ranked matches and the gate match finished just now');
  assert.equal(q.matchSeconds, 1.2);
  assert.equal(q.gate.samples, 4);
  assert.ok(q.gate.workSeconds >= 29 && q.gate.workSeconds <= 31, String(q.gate.workSeconds));
  assert.equal(typeof q.expectedWait.seconds, 'number');
  assert.match(q.expectedWait.explanation, /Gate jobs go before ranked/);
  const res = await page('/queue');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<strong id="queue-waiting">1<\/strong> waiting/);
  assert.match(res.body, /<tr data-kind="ranked"><th scope="row">ranked<\/th><td class="num">1<\/td><td class="num">0<\/td><\/tr>/);
  assert.match(res.body, /<table id="queue-workers">[^]*<td>w1<\/td><td>box<\/td><td class="num">2<\/td>/);
  assert.match(res.body, /id="expected-wait-value">about \d+ s</);
  assert.match(res.body, /<svg class="bars" id="queue-throughput-chart"/);
  assert.match(res.body, /id="queue-gate"/);

  // Without Redis the page says so instead of failing, and still shows the database's figures.
  const bare = await buildApp({ config: api.config, db, queues: null, logger: false });
  try {
    const r = await bare.inject({ url: '/queue', headers: { accept: 'text/html' } });
    assert.equal(r.statusCode, 200);
    assert.match(r.body, /id="queue-unavailable"/);
    assert.match(r.body, /<strong id="queue-waiting">1<\/strong>/);
    assert.match(r.body, /No estimate/);
    const j = (await bare.inject({ url: '/api/queue' })).json();
    assert.equal(j.redis.ok, false);
    assert.equal(j.expectedWait.seconds, null);
  } finally {
    await bare.close();
  }
});
