// The public read side: games, leaderboard order from ratings in the DB,
// player pages, matches list (filters, pagination), match detail, replay
// download; /health, /metrics and /docs with real Redis.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, gunzipSync } from 'node:zlib';
import { startTestApi, registerUser, insertMatch } from '../../helpers/app.ts';
import { freshQueues } from '../../helpers/queue.ts';

const fq = await freshQueues();
const api = await startTestApi({}, { queues: fq.queues });
after(() => fq.cleanup());
const { app, db } = api;
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');

/** A qualified player with a rating, as the recorder leaves it. */
async function qualified(ownerId: number, name: string, mu: number, sigma: number, matchesPlayed: number, game = 'moria') {
  const p = await db.playerName.create({ data: { game, name, nameLower: name.toLowerCase(), ownerId, locked: true, lockedAt: new Date() } });
  const s = await db.submission.create({
    data: { playerId: p.id, userId: ownerId, game, version: 1, source: 'x', filename: 'x.ts', sizeBytes: 1, status: 'qualified', finishedAt: new Date() },
  });
  await db.playerName.update({ where: { id: p.id }, data: { qualifiedSubmissionId: s.id } });
  await db.rating.create({ data: { playerId: p.id, game, mu, sigma, ordinal: mu - 3 * sigma, matchesPlayed } });
  return { playerId: p.id, submissionId: s.id, name };
}

const players = {
  low: await qualified(ana.id, 'Low', 20, 5, 3),
  top: await qualified(bob.id, 'Top', 30, 2, 40),
  mid: await qualified(ana.id, 'Mid', 28, 3, 12), // ordinal 19: more mu than TieA, less ordinal
  tieA: await qualified(bob.id, 'TieA', 25, 1, 9), // ordinal 22, mu 25
  tieB: await qualified(ana.id, 'TieB', 28, 2, 9), // ordinal 22, mu 28: above TieA
};
// Rated but not qualified (name not locked): not on the leaderboard.
const p = await db.playerName.create({ data: { game: 'moria', name: 'Ghost', nameLower: 'ghost', ownerId: ana.id } });
await db.rating.create({ data: { playerId: p.id, game: 'moria', mu: 99, sigma: 1, ordinal: 96, matchesPlayed: 1 } });

test('leaderboard: qualified players only, by ordinal (then mu), with rank, owner, rating and matches played', async () => {
  const res = await app.inject({ url: '/api/games/moria/leaderboard' });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.total, 5);
  assert.deepEqual(
    body.players.map((r: { rank: number; player: string }) => `${r.rank}.${r.player}`),
    ['1.Top', '2.TieB', '3.TieA', '4.Mid', '5.Low'],
  );
  assert.deepEqual(body.players[0], { rank: 1, player: 'Top', owner: 'bob', rating: 24, mu: 30, sigma: 2, matchesPlayed: 40, provisional: false });
  const page2 = await app.inject({ url: '/api/games/moria/leaderboard?limit=2&offset=2' });
  assert.deepEqual(
    page2.json().players.map((r: { rank: number; player: string }) => `${r.rank}.${r.player}`),
    ['3.TieA', '4.Mid'],
  );
  // Ratings change (ranked matches recorded): the order follows.
  await db.rating.update({ where: { playerId_game: { playerId: players.low.playerId, game: 'moria' } }, data: { mu: 40, sigma: 1, ordinal: 37 } });
  const after2 = await app.inject({ url: '/api/games/moria/leaderboard?limit=1' });
  assert.equal(after2.json().players[0].player, 'Low');
  await db.rating.update({ where: { playerId_game: { playerId: players.low.playerId, game: 'moria' } }, data: { mu: 20, sigma: 5, ordinal: 5 } });
  // Another game's board is separate; an unknown game is 404; bad paging 400.
  const other = (await app.inject({ url: '/api/games' })).json().find((g: { id: string }) => g.id !== 'moria');
  if (other) assert.equal((await app.inject({ url: `/api/games/${other.id}/leaderboard` })).json().total, 0);
  assert.equal((await app.inject({ url: '/api/games/chess/leaderboard' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/games/moria/leaderboard?limit=-3' })).statusCode, 400);
});

test('games: every registered game with its built-in players and qualified count', async () => {
  const games = (await app.inject({ url: '/api/games' })).json() as { id: string; builtinPlayers: string[]; qualifiedPlayers: number }[];
  const moria = games.find((g) => g.id === 'moria')!;
  assert.ok(moria.builtinPlayers.includes('Dummy'));
  assert.equal(moria.qualifiedPlayers, 5);
});

let matchIds: number[] = [];
test('matches: list newest first with filters (game, player, kind) and pagination; detail; bad filters 400', async () => {
  const seatsOf = (names: (typeof players)[keyof typeof players][]) =>
    names.map((x, i) => ({ name: x.name, playerId: x.playerId, submissionId: x.submissionId, score: 10 - i, rank: i + 1 }));
  const replay = gzipSync(Buffer.from(JSON.stringify({ format: 'arbiter-replay', version: 1, game: 'moria' })));
  const m1 = await insertMatch(db, { kind: 'ranked', seats: seatsOf([players.top, players.mid, players.low, players.tieA]), replay });
  const m2 = await insertMatch(db, { kind: 'ranked', seats: seatsOf([players.tieB, players.mid, players.low, players.tieA]) });
  const m3 = await insertMatch(db, {
    kind: 'gate',
    submissionId: players.top.submissionId,
    seats: [
      { name: 'Top', playerId: players.top.playerId, submissionId: players.top.submissionId, score: 5, rank: 1 },
      { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 2 },
      { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 2 },
      { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 4 },
    ],
  });
  matchIds = [m1.id, m2.id, m3.id];
  const all = (await app.inject({ url: '/api/matches' })).json();
  assert.equal(all.total, 3);
  assert.deepEqual(
    all.matches.map((m: { id: number }) => m.id),
    [m3.id, m2.id, m1.id],
  );
  const ids = async (q: string) => (await app.inject({ url: `/api/matches?${q}` })).json().matches.map((m: { id: number }) => m.id);
  assert.deepEqual(await ids('player=top'), [m3.id, m1.id], 'player, any case');
  assert.deepEqual(await ids('player=TieB'), [m2.id]);
  assert.deepEqual(await ids('player=Dummy'), [m3.id], 'built-ins too');
  assert.deepEqual(await ids('kind=ranked'), [m2.id, m1.id]);
  assert.deepEqual(await ids('kind=gate&player=Top'), [m3.id]);
  assert.deepEqual(await ids('game=moria&limit=1&offset=1'), [m2.id]);
  assert.deepEqual(await ids(`before=${m2.id}`), [m1.id]);
  assert.deepEqual(await ids('player=nobody'), []);
  assert.deepEqual(await ids('game=chess'), []);
  for (const q of ['kind=friendly', 'limit=1000', 'offset=x', 'submission=0', 'colour=red']) {
    const r = await app.inject({ url: `/api/matches?${q}` });
    assert.equal(r.statusCode, 400, q);
    assert.ok(r.json().message, q);
  }
  const detail = (await app.inject({ url: `/api/matches/${m1.id}` })).json();
  assert.equal(detail.kind, 'ranked');
  assert.deepEqual(
    detail.participants.map((x: { seat: number; name: string; owner: string; rank: number }) => `${x.seat}:${x.name}:${x.owner}:${x.rank}`),
    ['0:Top:bob:1', '1:Mid:ana:2', '2:Low:ana:3', '3:TieA:bob:4'],
  );
  assert.equal(detail.replay.url, `/api/matches/${m1.id}/replay`);
  // The list (one SQL query) and the detail (Prisma) describe a match the same way.
  const { config: _config, ...rest } = detail;
  const listed = all.matches.find((m: { id: number }) => m.id === m1.id);
  assert.deepEqual(listed, { ...rest, participants: rest.participants.map(({ owner: _o, ...p2 }: { owner: string }) => p2) });
  assert.equal((await app.inject({ url: `/api/matches/${m2.id}` })).json().replay, null);
});

test('replay: a gzip download (Content-Disposition: attachment); none yet is 404, a pruned ranked one 410', async () => {
  const res = await app.inject({ url: `/api/matches/${matchIds[0]}/replay` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/gzip');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="moria-\d+\.replay\.json\.gz"$/);
  assert.equal(JSON.parse(gunzipSync(res.rawPayload).toString()).format, 'arbiter-replay');
  // A gate match without a replay has none (404); a done ranked one without it was pruned (410).
  const none = await app.inject({ url: `/api/matches/${matchIds[2]}/replay` });
  assert.equal(none.statusCode, 404);
  assert.match(none.json().message, /no replay/);
  const pruned = await app.inject({ url: `/api/matches/${matchIds[1]}/replay` });
  assert.equal(pruned.statusCode, 410);
  assert.match(pruned.json().message, /retention/);
  assert.equal((await app.inject({ url: '/api/matches/99999/replay' })).statusCode, 404);
});

test('player page: versions, rating and rank, rating history, recent matches; unknown player 404', async () => {
  await db.ratingHistory.create({ data: { playerId: players.top.playerId, game: 'moria', matchId: matchIds[0]!, mu: 30, sigma: 2, ordinal: 24 } });
  const res = await app.inject({ url: '/api/players/TOP' });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.name, 'Top');
  assert.equal(body.owner, 'bob');
  const g = body.games[0];
  assert.equal(g.game, 'moria');
  assert.equal(g.qualified, true);
  assert.equal(g.rating.rank, 1);
  assert.equal(g.versions.length, 1);
  assert.equal(g.versions[0].status, 'qualified');
  assert.deepEqual(
    g.ratingHistory.map((h: { matchId: number }) => h.matchId),
    [matchIds[0]],
  );
  assert.deepEqual(
    g.recentMatches.map((m: { id: number }) => m.id),
    [matchIds[2], matchIds[0]],
  );
  assert.equal((await app.inject({ url: '/api/players/nobody' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/players/Top?matches=0' })).statusCode, 400);
});

test('/health: database, Redis, queue depth and workers seen', async () => {
  await fq.queues.matches.add('check', { type: 'check', submissionId: '1', game: 'moria', source: '', filename: 'a.ts' } as never, { jobId: 'health-probe' });
  const res = await app.inject({ url: '/health' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.db.ok, true);
  assert.equal(body.redis.ok, true);
  assert.equal(body.queue.depth, 1);
  assert.equal(body.workers.seen, 0);
});

test('/metrics: Prometheus text with queue depth, matches by kind and gate latency', async () => {
  const res = await app.inject({ url: '/metrics' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = res.body;
  assert.match(text, /^# TYPE arbiter_queue_depth gauge$/m);
  assert.match(text, /^arbiter_queue_depth 1$/m);
  assert.match(text, /^arbiter_matches_total\{game="moria",kind="ranked",outcome="finished"\} \d+$/m);
  assert.match(text, /^arbiter_gate_latency_seconds_count 5$/m);
  assert.match(text, /^arbiter_gate_latency_seconds\{quantile="0\.99"\} [0-9.]+$/m);
  assert.match(text, /^arbiter_submissions\{status="qualified"\} 5$/m);
  // Every sample line is "name{labels} value".
  for (const line of text.trim().split('\n'))
    if (line !== '' && !line.startsWith('#')) assert.match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/, line);
});

test('/docs serves the OpenAPI description of every route', async () => {
  const spec = (await app.inject({ url: '/docs/json' })).json();
  for (const path of ['/api/submissions', '/api/submissions/{id}', '/api/games/{game}/leaderboard', '/api/matches/{id}/replay', '/health']) {
    assert.ok(spec.paths[path], path);
  }
  // Real status codes and bodies: what an answer holds, and the refusals with the error body.
  const one = spec.paths['/api/submissions/{id}'].get.responses;
  assert.deepEqual(Object.keys(one).sort(), ['200', '400', '404']);
  const body = one['200'].content['application/json'].schema;
  assert.ok(body.properties.gate.properties.steps, 'the gate steps are documented');
  assert.deepEqual(body.properties.status.enum, ['queued', 'compiling', 'self-play', 'qualifying', 'qualified', 'rejected']);
  assert.deepEqual(one['404'].content['application/json'].schema.required, ['statusCode', 'error', 'message']);
  assert.ok(
    spec.paths['/api/submissions'].post.responses['202'] && spec.paths['/api/submissions'].post.responses['413'],
    'the upload documents 202 and its refusals',
  );
  assert.equal((await app.inject({ url: '/docs' })).statusCode < 400, true);
  // Input Postgres cannot hold (NUL) is a 400 too, not a database error.
  for (const url of ['/api/players/%00', '/api/matches?game=%00', '/api/games/%00/leaderboard']) {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 400, url);
    assert.match(r.json().message, /NUL/);
  }
  const nf = await app.inject({ url: '/api/nothing-here' });
  assert.equal(nf.statusCode, 404);
  assert.match(nf.json().message, /no route GET \/api\/nothing-here/);
});
