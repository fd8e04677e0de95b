// Submissions over HTTP: multipart and JSON uploads answer 202 at once (and
// call the gate), refusals with a reason (too large, unknown game, game
// mismatch, no name), privacy of sources and logs, status with gate
// matches, SSE, bad input → 4xx.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { slow } from '../../helpers/slow.ts';
import { startTestApi, registerUser, bot, multipart, submitJson, insertMatch } from '../../helpers/app.ts';
import { freshQueues } from '../../helpers/queue.ts';
import { checkJobId } from '../../../src/queue/index.ts';
import { QUEUE_SNAPSHOT_MS } from '../../../src/domain/queue-overview.ts';

/**
 * The queue's inputs are read at most once a second per server (QUEUE_SNAPSHOT_MS): a wait asked for right after the
 * database changed may still be the read before (the previous test's rows: one more gate ahead). Waited out first.
 */
const afterQueueSnapshot = () => new Promise((r) => setTimeout(r, QUEUE_SNAPSHOT_MS + 50));

// Real Redis with a private prefix, and the gate's real startGate behind the API.
const fq = await freshQueues();
const api = await startTestApi({ SUBMISSION_MAX_BYTES: '4096' }, { queues: fq.queues });
after(() => fq.cleanup());
const { app, db } = api;
const ana = await registerUser(app, 'ana');
const bob = await registerUser(app, 'bob');
/** The app on a port (once for the file): SSE needs a real socket. */
let listeningAt: Promise<string> | null = null;
const listening = () => (listeningAt ??= app.listen({ port: 0, host: '127.0.0.1' }));

test('multipart (game + file), as a form or curl sends it: 202 with id at once, the gate started (compile job queued)', async () => {
  const form = multipart({ game: 'moria' }, { filename: 'gimli.ts', content: bot('Gimli') });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...form.headers }, payload: form.payload });
  assert.equal(res.statusCode, 202, res.body);
  const body = res.json();
  assert.equal(body.status, 'queued', 'startGate queued the compile check; no worker runs it yet');
  assert.equal(body.player, 'Gimli');
  assert.equal(body.filename, 'gimli.ts');
  assert.equal(body.version, 1);
  const row = await db.submission.findUniqueOrThrow({ where: { id: body.id } });
  assert.equal(row.source, bot('Gimli'));
  assert.equal(row.status, 'queued');
  const jobs = await fq.queues.checks.getJobs(['prioritized', 'waiting']);
  assert.ok(
    jobs.some((j) => j.data.submissionId === String(body.id)),
    'its compile check is on the checks lane',
  );
});

test('JSON {game, source} with a session cookie: 202', async () => {
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { cookie: ana.cookie }, payload: { game: 'moria', source: bot('Thorin') } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().filename, 'Thorin.ts');
});

test('no "game" field: the file\'s GAME names it; 202 with a Location to the submission', async () => {
  const form = multipart({}, { filename: 'Oin.ts', content: bot('Oin', 'bola-de-drac') });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...form.headers }, payload: form.payload });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().game, 'bola-de-drac');
  assert.equal(res.headers.location, `/api/submissions/${res.json().id}`);
  assert.equal((await app.inject({ url: res.headers.location as string })).json().game, 'bola-de-drac');
  const json = await app.inject({ method: 'POST', url: '/api/submissions', headers: ana.auth, payload: { source: bot('Gloin', 'walking-dead') } });
  assert.equal(json.statusCode, 202, json.body);
  assert.equal(json.json().game, 'walking-dead');
  // An Idempotency-Key retry without the field finds the first upload.
  const key = { ...ana.auth, 'idempotency-key': 'oin-once' };
  const first = await app.inject({ method: 'POST', url: '/api/submissions', headers: key, payload: { source: bot('Ori2', 'moria') } });
  const retry = await app.inject({ method: 'POST', url: '/api/submissions', headers: key, payload: { source: bot('Ori2', 'moria') } });
  assert.equal(retry.statusCode, 202);
  assert.equal(retry.json().id, first.json().id);
});

test('a file that does not parse: 400 compile-error with its line and column, as the form says it; nothing stored, no name claimed', async () => {
  const before = await db.submission.count();
  const source = bot('Broken', 'moria', '\n    const x = ;\n  ');
  const line = source.split('\n').findIndex((l) => l.includes('const x = ;')) + 1;
  const form = multipart({ game: 'moria' }, { filename: 'Broken.ts', content: source });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...form.headers }, payload: form.payload });
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.code, 'compile-error');
  assert.equal(body.line, line);
  assert.equal(body.column, source.split('\n')[line - 1]!.indexOf(';') + 1);
  assert.match(body.message, new RegExp(`^compile error: Broken\\.ts:${line}:${body.column}: `));
  assert.equal((await submitJson(app, ana, source)).json().line, line, 'JSON too');
  assert.equal(await db.submission.count(), before, 'nothing stored');
  assert.equal(await db.playerName.count({ where: { nameLower: 'broken' } }), 0, 'no name claimed');
  // So another user may take the name at once.
  const cara = await registerUser(app, 'cara');
  assert.equal((await submitJson(app, cara, bot('Broken'))).statusCode, 202);
});

test('OpenAPI: the upload documents a multipart body with the file as binary, the JSON body, 202 with Location and 400 with line and column', async () => {
  const spec = (await app.inject({ url: '/docs/json' })).json();
  const post = spec.paths['/api/submissions'].post;
  const multi = post.requestBody.content['multipart/form-data'].schema;
  assert.deepEqual(multi.required, ['file']);
  assert.deepEqual(multi.properties.file, { type: 'string', format: 'binary', description: multi.properties.file.description });
  assert.equal(post.requestBody.content['application/json'].schema.properties.source.type, 'string');
  assert.ok(post.responses['202'].headers.location, 'Location documented');
  assert.equal(post.responses['202'].content['application/json'].schema.properties.id.type, 'integer');
  assert.equal(post.responses['400'].content['application/json'].schema.properties.line.type, 'integer');
  // Every database id the API documents is a number (a game's id is its name: moria, walking-dead...; a
  // studentId is the university's, as the roster gives it, not the database's).
  const stringIds: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (/^(id|\w+Id)$/.test(k) && k !== 'studentId' && v && typeof v === 'object' && 'type' in v && !path.startsWith('paths./api/games.')) {
        const t = (v as { type: unknown }).type;
        if (!(Array.isArray(t) ? t : [t]).every((x) => x === 'integer' || x === 'null')) stringIds.push(`${path}.${k}`);
      }
      walk(v, `${path}.${k}`);
    }
  };
  walk(spec.paths, 'paths');
  assert.deepEqual(stringIds, []);
});

test('a file over SUBMISSION_MAX_BYTES is refused at once with 413, multipart or JSON, and nothing is stored', async () => {
  const before = await db.submission.count();
  const big = bot('Big') + '//' + 'x'.repeat(5000) + '\n';
  const form = multipart({ game: 'moria' }, { filename: 'big.ts', content: big });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...form.headers }, payload: form.payload });
  assert.equal(res.statusCode, 413);
  assert.equal(res.json().code, 'too-large');
  assert.equal(res.json().message, `file too large: ${Buffer.byteLength(big)} bytes, at most 4096`, "the file's size and the limit");
  const json = await submitJson(app, ana, big);
  assert.equal(json.statusCode, 413);
  assert.match(json.json().message, /file too large/);
  assert.equal(await db.submission.count(), before);
});

test('unknown game, game mismatch, no name, no game in the file, empty or binary file: 400 with the reason', async () => {
  const cases: [string, { game?: string; source: string }, RegExp][] = [
    ['unknown game', { game: 'chess', source: bot('Kasparov', 'chess') }, /unknown game "chess"/],
    ['mismatch', { game: 'moria', source: bot('Frodo', 'bola-de-drac') }, /game mismatch.*bola-de-drac.*moria/],
    ['no name', { game: 'moria', source: "export const GAME = 'moria';\nexport default class extends Player { play() {} }\n" }, /no player name/],
    [
      'no game in file',
      { game: 'moria', source: "export const PLAYER_NAME = 'Sam';\nexport default class extends Player { play() {} }\n" },
      /no game in the file/,
    ],
    [
      'no game anywhere',
      { source: "export const PLAYER_NAME = 'Pippin';\nexport default class extends Player { play() {} }\n" },
      /no game: send the field "game" .* or declare it in the file/,
    ],
    ['unknown game in the file', { source: bot('Pippin', 'chess') }, /unknown game "chess" \(from the file's GAME\)/],
    ['empty', { game: 'moria', source: '   ' }, /empty/],
  ];
  for (const [what, payload, re] of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: ana.auth, payload });
    assert.equal(res.statusCode, 400, what);
    assert.match(res.json().message, re, what);
  }
  const binary = multipart({ game: 'moria' }, { filename: 'bot.ts', content: Buffer.from([0xff, 0xfe, 0x00, 0x80]) });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...binary.headers }, payload: binary.payload });
  assert.equal(res.statusCode, 400);
  assert.match(res.json().message, /not UTF-8/);
  const noFile = multipart({ game: 'moria' });
  const res2 = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...noFile.headers }, payload: noFile.payload });
  assert.equal(res2.statusCode, 400);
  assert.match(res2.json().message, /no file/);
  const exe = multipart({ game: 'moria' }, { filename: 'bot.exe', content: bot('Merry') });
  const res3 = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...ana.auth, ...exe.headers }, payload: exe.payload });
  assert.equal(res3.statusCode, 400);
  assert.match(res3.json().message, /\.ts, \.js or \.cc/);
});

test('status: the gate matches with their results; bad or unknown ids are 4xx', async () => {
  const res = await submitJson(app, ana, bot('Dwalin'));
  const id = res.json().id as number;
  const sub = await db.submission.findUniqueOrThrow({ where: { id } });
  await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'lost to Dummy in gate match 2', finishedAt: new Date() } });
  await insertMatch(db, {
    kind: 'gate',
    submissionId: id,
    seats: [
      { name: 'Dwalin', playerId: sub.playerId, submissionId: id, score: 10, rank: 2 },
      { name: 'Dummy', builtinName: 'Dummy', score: 20, rank: 1 },
      { name: 'Dummy', builtinName: 'Dummy', score: 5, rank: 3 },
      { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 4 },
    ],
  });
  const status = await app.inject({ url: `/api/submissions/${id}` });
  assert.equal(status.statusCode, 200);
  const body = status.json();
  assert.equal(body.status, 'rejected');
  assert.match(body.reason, /lost to Dummy/);
  assert.equal(body.gateMatches.length, 1);
  assert.deepEqual(
    body.gateMatches[0].participants.map((p: { name: string; rank: number }) => `${p.name}:${p.rank}`),
    ['Dwalin:2', 'Dummy:1', 'Dummy:3', 'Dummy:4'],
  );
  assert.ok(!JSON.stringify(body).includes('play(): void'), 'no source in the status');
  for (const [url, code] of [
    ['/api/submissions/999999', 404],
    ['/api/submissions/abc', 400],
    ['/api/submissions/-1', 400],
    ['/api/submissions/1.5', 400],
    ['/api/submissions/99999999999999', 400],
  ] as const) {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, code, url);
    assert.ok(r.json().message, url);
  }
});

test("one user cannot read another's source or logs; the owner can", async () => {
  const res = await submitJson(app, ana, bot('Oin', 'moria', ' /* secret plan */ '));
  const id = res.json().id as number;
  const own = await app.inject({ url: `/api/submissions/${id}/source`, headers: ana.auth });
  assert.equal(own.statusCode, 200);
  assert.match(own.body, /secret plan/);
  const other = await app.inject({ url: `/api/submissions/${id}/source`, headers: bob.auth });
  assert.equal(other.statusCode, 403);
  assert.ok(!other.body.includes('secret plan'));
  assert.equal((await app.inject({ url: `/api/submissions/${id}/source` })).statusCode, 401);

  const sub = await db.submission.findUniqueOrThrow({ where: { id } });
  const m = await insertMatch(db, {
    kind: 'gate',
    submissionId: id,
    seats: [
      { name: 'Oin', playerId: sub.playerId, submissionId: id, score: 1, rank: 1, log: 'ana debug output' },
      { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 2, log: 'dummy says hi' },
      { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 2 },
      { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 2 },
    ],
  });
  const log = await app.inject({ url: `/api/matches/${m.id}/log`, headers: ana.auth });
  assert.equal(log.statusCode, 200);
  assert.deepEqual(log.json().logs, [{ seat: 0, name: 'Oin', log: 'ana debug output' }]);
  assert.equal((await app.inject({ url: `/api/matches/${m.id}/log?seat=1`, headers: ana.auth })).statusCode, 403);
  const bobs = await app.inject({ url: `/api/matches/${m.id}/log`, headers: bob.auth });
  assert.equal(bobs.statusCode, 403);
  assert.ok(!bobs.body.includes('ana debug'));
  assert.equal((await app.inject({ url: `/api/matches/${m.id}/log?seat=0`, headers: bob.auth })).statusCode, 403);
  assert.equal((await app.inject({ url: `/api/matches/${m.id}/log?seat=9`, headers: ana.auth })).statusCode, 400);
  assert.equal((await app.inject({ url: `/api/matches/${m.id}/log` })).statusCode, 401);
  // The match detail never carries logs.
  const detail = await app.inject({ url: `/api/matches/${m.id}` });
  assert.equal(detail.statusCode, 200);
  assert.ok(!detail.body.includes('ana debug output'));
});

test('an admin (made by arbiter admin grant) reads any source', async () => {
  const res = await submitJson(app, ana, bot('Gloin'));
  const id = res.json().id as number;
  assert.equal((await app.inject({ url: `/api/submissions/${id}/source`, headers: bob.auth })).statusCode, 403);
  const { adminGrant } = await import('../../../src/cli/admin.ts');
  await adminGrant(db, 'grant', bob.username);
  try {
    assert.equal((await app.inject({ url: `/api/submissions/${id}/source`, headers: bob.auth })).statusCode, 200);
  } finally {
    await adminGrant(db, 'revoke', bob.username);
  }
});

test('rate limit on submissions: past RATE_LIMIT_SUBMIT a minute per user, 429; another user is not affected', async () => {
  const { buildApp } = await import('../../../src/http/app.ts');
  const { loadConfig } = await import('../../../src/config.ts');
  const limited = await buildApp({ config: loadConfig({ RATE_LIMIT_SUBMIT: '2' }), db, queues: null, logger: false });
  try {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await limited.inject({ method: 'POST', url: '/api/submissions', headers: ana.auth, payload: { game: 'chess', source: 'x' } })).statusCode);
    }
    assert.deepEqual(codes, [400, 400, 429]);
    const other = await limited.inject({ method: 'POST', url: '/api/submissions', headers: bob.auth, payload: { game: 'chess', source: 'x' } });
    assert.equal(other.statusCode, 400, 'counted per user');
  } finally {
    await limited.close();
  }
});

test('my submissions: newest first, only mine, paginated; bad query is 400', async () => {
  const mine = await app.inject({ url: '/api/me/submissions?limit=2', headers: ana.auth });
  assert.equal(mine.statusCode, 200);
  const body = mine.json();
  assert.equal(body.submissions.length, 2);
  assert.ok(body.total >= 5);
  assert.ok(body.submissions[0].id > body.submissions[1].id);
  const bobs = await app.inject({ url: '/api/me/submissions', headers: bob.auth });
  assert.equal(bobs.json().total, 0);
  for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'nope=1']) {
    assert.equal((await app.inject({ url: `/api/me/submissions?${q}`, headers: ana.auth })).statusCode, 400, q);
  }
});

test('bad bodies: unknown fields, wrong types, wrong content type, broken JSON are 4xx, never 5xx', async () => {
  const bodies: [unknown, string][] = [
    [{ game: 'moria', source: 42 }, 'application/json'],
    [{ game: 7, source: 'x' }, 'application/json'],
    [{ game: 'moria', source: 'x', hack: true }, 'application/json'],
    [[1, 2], 'application/json'],
    ['{"game": "moria", "sou', 'application/json'],
    ['game=moria', 'text/plain'],
    ['', 'application/json'],
    [{ game: 'moria', source: bot('Nul') + '\u0000' }, 'application/json'],
  ];
  for (const [payload, type] of bodies) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...ana.auth, 'content-type': type },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${JSON.stringify(payload)} → ${res.statusCode}`);
    assert.ok(res.json().message, JSON.stringify(payload));
  }
});

test('SSE: the current status first, then every event published for it, closed at the verdict', async () => {
  const res = await submitJson(app, ana, bot('Nori'));
  const id = res.json().id as number;
  const address = await listening();
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(`${address}/api/submissions/${id}/events`, (r) => {
      assert.equal(r.headers['content-type'], 'text/event-stream; charset=utf-8');
      let data = '';
      let sent = false;
      r.setEncoding('utf8');
      r.on('data', (c: string) => {
        data += c;
        if (!sent && data.includes('"current":true')) {
          sent = true;
          void (async () => {
            // No sleep: the stream subscribes before it sends the current status, so nothing published after is lost.
            const q = fq.queues;
            await q.publish({ submissionId: String(id + 1000), status: 'qualified' }); // someone else's: not forwarded
            await q.publish({ submissionId: String(id), status: 'self-play' });
            await q.publish({ submissionId: String(id), matchId: '77', status: 'running', round: 10, totalRounds: 200 });
            await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'self-play: copy 2 froze (cpu)' } });
            await q.publish({ submissionId: String(id), status: 'rejected', reason: 'self-play: copy 2 froze (cpu)' });
          })().catch(reject);
        }
      });
      r.on('end', () => resolve(data));
    });
    req.on('error', reject);
    req.end();
  });
  const blocks = parseSse(text);
  const events = blocks.map((b) => b.data as { status: string; submissionId: number; matchId?: number; reason?: string; round?: number });
  assert.equal(events[0]!.status, 'queued', 'the current status first (no worker took its check)');
  assert.deepEqual(
    events.slice(1).map((e) => `${e.matchId ?? '-'}:${e.status}`),
    ['-:self-play', '77:running', '-:rejected'],
  );
  assert.deepEqual(
    blocks.map((b) => b.event),
    ['status', 'status', 'match', 'verdict'],
  );
  // Ids are numbers that grow along the gate: the status's place (queued 1, self-play 3, verdict 5) times a million, then a count.
  assert.deepEqual(
    blocks.map((b) => b.id),
    [1_000_000, 3_000_000, 3_000_001, 5_000_000],
  );
  assert.ok(
    events.every((e) => e.submissionId === id),
    'ids are numbers',
  );
  assert.equal(events[2]!.matchId, 77);
  assert.equal(events[2]!.round, 10, 'progress forwarded as published');
  assert.match(events.at(-1)!.reason!, /froze/);
});

/** Server-sent events as blocks of id, event and data (JSON). */
function parseSse(text: string) {
  return text
    .split('\n\n')
    .filter((b) => /^data: /m.test(b))
    .map((b) => {
      const field = (name: string) =>
        b
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data')!) as Record<string, unknown> };
    });
}

test('SSE: a reconnect with Last-Event-ID resumes after it: a step the client saw is not sent again, a later one is; after the verdict, 204', async () => {
  const res = await submitJson(app, ana, bot('Bifur'));
  const id = res.json().id as number;
  await db.submission.update({ where: { id }, data: { status: 'self_play' } });
  const url = `/api/submissions/${id}/events`;
  // Fresh: the current status. Then the submission is rejected while the client is away.
  await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'self-play: copy 1 froze' } });
  const missed = await app.inject({ url, headers: { 'last-event-id': '3000004' } });
  assert.equal(missed.statusCode, 200);
  assert.deepEqual(
    parseSse(missed.body).map((b) => [b.id, b.event, b.data.status]),
    [[5_000_000, 'verdict', 'rejected']],
  );
  const again = await app.inject({ url, headers: { 'last-event-id': '5000000' } });
  assert.equal(again.statusCode, 204, 'the verdict was seen: EventSource stops on 204');
  const fresh = await app.inject({ url });
  assert.deepEqual(
    parseSse(fresh.body).map((b) => b.id),
    [5_000_000],
  );
  const bad = await app.inject({ url, headers: { 'last-event-id': 'yesterday' } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 'bad-last-event-id');
});

test('SSE: a live stream resumed with Last-Event-ID sends no step the client had, then events numbered after it', async () => {
  const res = await submitJson(app, ana, bot('Nain'));
  const id = res.json().id as number;
  await db.submission.update({ where: { id }, data: { status: 'self_play' } });
  const address = await listening();
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(`${address}/api/submissions/${id}/events`, { headers: { 'last-event-id': '3000004' } }, (r) => {
      assert.equal(r.statusCode, 200);
      let data = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (data += c));
      r.on('end', () => resolve(data));
      // Connected (the headers came first): whatever is published now reaches the stream.
      void (async () => {
        const q = fq.queues;
        await q.publish({ submissionId: String(id), matchId: '78', status: 'running', round: 3, totalRounds: 200 });
        await db.submission.update({ where: { id }, data: { status: 'rejected', reason: 'self-play: copy 4 froze (cpu)' } });
        await q.publish({ submissionId: String(id), status: 'rejected', reason: 'self-play: copy 4 froze (cpu)' });
      })().catch(reject);
    });
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(
    parseSse(text).map((b) => [b.id, b.event, b.data.status]),
    [
      [3_000_005, 'match', 'running'],
      [5_000_000, 'verdict', 'rejected'],
    ],
  );
});

test('SSE: a submission already judged gets its status and the stream ends; an unknown id is 404', async () => {
  const res = await submitJson(app, ana, bot('Ori'));
  const id = res.json().id as number;
  await db.submission.update({ where: { id }, data: { status: 'qualified' } });
  const done = await app.inject({ url: `/api/submissions/${id}/events` });
  assert.equal(done.statusCode, 200);
  assert.match(done.body, /"status":"qualified"/);
  assert.equal((await app.inject({ url: '/api/submissions/424242/events' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/submissions/x/events' })).statusCode, 400);
});

const balin = `#include "Player.hh"\n\n#define PLAYER_NAME Balin\n\nstruct PLAYER_NAME : public Player {\n  static Player* factory () { return new PLAYER_NAME; }\n  virtual void play () { }\n};\n\nRegisterPlayer(PLAYER_NAME);\n`;

// A good .cc is compiled at upload (seconds with the npm toolchain): a slow test, which CI runs.
test('a C++ file (AIName.cc, as the course writes it): 202, the name from #define PLAYER_NAME, the game from the upload', slow, async () => {
  const form = multipart({ game: 'moria' }, { filename: 'AIBalin.cc', content: balin });
  const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...bob.auth, ...form.headers }, payload: form.payload });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().player, 'Balin');
  assert.equal(res.json().filename, 'AIBalin.cc');
  const json = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { cookie: bob.cookie },
    payload: { game: 'moria', source: balin.replace('Balin', 'CcNori') },
  });
  assert.equal(json.statusCode, 202, json.body);
  assert.equal(json.json().filename, 'AICcNori.cc', 'a C++ upload without a file name is named as the course names it');
});

test('a C++ file for another game or without a player name is refused before it is compiled', async () => {
  const mismatch = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { cookie: bob.cookie },
    payload: { game: 'moria', source: `// GAME: walking-dead\n${balin}` },
  });
  assert.equal(mismatch.statusCode, 400);
  assert.match(mismatch.json().message, /game mismatch/);
  const unnamed = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { cookie: bob.cookie },
    payload: { game: 'moria', source: balin.replace('#define PLAYER_NAME Balin', '#define PLAYER_NAME'), filename: 'AIX.cc' },
  });
  assert.equal(unnamed.statusCode, 400);
  assert.match(unnamed.json().message, /#define PLAYER_NAME YourName/);
});

test('a waiting submission says it waits, how many gates are ahead of it, and no estimate without a runner', async () => {
  const first = await submitJson(app, bob, bot('Waiter1'));
  const second = await submitJson(app, bob, bot('Waiter2'));
  assert.equal(first.statusCode, 202, first.body);
  assert.equal(second.statusCode, 202, second.body);
  const id = second.json().id as number;
  const earlier = await db.submission.count({ where: { id: { lt: id }, status: { in: ['queued', 'compiling', 'self_play', 'qualifying'] } } });
  assert.ok(earlier >= 1, 'the first one is still waiting (no worker here)');
  await afterQueueSnapshot();
  const s = (await app.inject({ url: `/api/submissions/${id}`, headers: bob.auth })).json();
  assert.equal(s.status, 'queued', 'no worker took its check: waiting, not compiling');
  assert.equal(s.gate.steps[0].state, 'pending');
  assert.deepEqual(s.wait, { ahead: earlier, seconds: null });
  const mine = (await app.inject({ url: `/api/submissions/${first.json().id}`, headers: bob.auth })).json();
  assert.equal(mine.wait.ahead, earlier - 1, 'the second is not ahead of the first');
  // The page says it too, in its language.
  for (const [lang, text] of [
    ['en', `${earlier} earlier submission${earlier === 1 ? ' is' : 's are'} ahead of it`],
    ['es', `Tiene ${earlier} envío`],
    ['ca', `Té ${earlier} enviament`],
  ] as const) {
    const page = await app.inject({ url: `/submissions/${id}?lang=${lang}`, headers: { cookie: bob.cookie } });
    assert.equal(page.statusCode, 200);
    const wait = /<span id="gate-wait" data-ahead="(\d+)">([^<]*)<\/span>/.exec(page.body) ?? assert.fail(`no wait on the ${lang} page`);
    assert.equal(Number(wait[1]), earlier);
    assert.ok(wait[2]!.startsWith(text), `${lang}: ${wait[2]}`);
  }
});

test('a compiling submission shows its place and wait on the API and on the page alike (showsWait)', async () => {
  const res = await submitJson(app, bob, bot('Compiler'));
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as number;
  // A worker took its check: the row says compiling, and the check's job is no longer waiting in the queue.
  const row = await db.submission.update({ where: { id }, data: { status: 'compiling' } });
  await (await fq.queues.checks.getJob(checkJobId(id, row.createdAt)))?.remove();
  const earlier = await db.submission.count({ where: { id: { lt: id }, status: { in: ['queued', 'compiling', 'self_play', 'qualifying'] } } });
  await afterQueueSnapshot();
  const s = (await app.inject({ url: `/api/submissions/${id}`, headers: bob.auth })).json();
  assert.equal(s.status, 'compiling');
  assert.equal(s.gate.steps[0].state, 'running');
  assert.deepEqual(s.wait, { ahead: earlier, seconds: null });
  const page = await app.inject({ url: `/submissions/${id}?lang=en`, headers: { cookie: bob.cookie } });
  const wait = /<span id="gate-wait" data-ahead="(\d+)">/.exec(page.body) ?? assert.fail('the page shows no place while it compiles');
  assert.equal(Number(wait[1]), earlier, 'the place the API gives');
  assert.doesNotMatch(page.body, /Waiting for a worker/, 'a worker runs its check');
  await db.submission.update({ where: { id }, data: { status: 'rejected', finishedAt: new Date() } });
});

test('a submission whose self-play waits for a runner keeps its place and its wait; once the match runs, no wait', async () => {
  const res = await submitJson(app, bob, bot('SelfWaiter'));
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as number;
  // Its check passed (as the recorder records it) and its self-play match is queued behind earlier gates.
  await db.submission.update({ where: { id }, data: { status: 'self_play', startedAt: new Date() } });
  const match = await db.match.create({ data: { game: 'moria', seed: 1, kind: 'gate', submissionId: id, gateStep: 'selfplay', status: 'queued' } });
  const earlier = await db.submission.count({ where: { id: { lt: id }, status: { in: ['queued', 'compiling', 'self_play', 'qualifying'] } } });
  await afterQueueSnapshot();
  const waiting = (await app.inject({ url: `/api/submissions/${id}`, headers: bob.auth })).json();
  assert.equal(waiting.status, 'self-play');
  assert.equal(waiting.gate.steps[1].state, 'pending');
  assert.deepEqual(waiting.wait, { ahead: earlier, seconds: null });
  const page = await app.inject({ url: `/submissions/${id}?lang=en`, headers: { cookie: bob.cookie } });
  assert.match(page.body, /<span id="gate-wait" data-ahead="\d+">/, 'the page says its place too');
  await db.match.update({ where: { id: match.id }, data: { status: 'running', startedAt: new Date() } });
  const running = (await app.inject({ url: `/api/submissions/${id}`, headers: bob.auth })).json();
  assert.equal(running.gate.steps[1].state, 'running');
  assert.equal(running.wait, null, 'a runner plays its self-play: nothing to wait for');
  const runningPage = await app.inject({ url: `/submissions/${id}?lang=en`, headers: { cookie: bob.cookie } });
  assert.doesNotMatch(runningPage.body, /id="gate-wait"/);
});
