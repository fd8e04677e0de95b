// Matches the admin and the challenges change, played by real workers and
// recorded by the recorder: a private Dummy is judged before it is installed,
// plays every Dummy seat of the gate (its console output is in those seats'
// logs) and never shows its source; a challenge is played against the chosen
// seats and changes no rating.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { adminGrant } from '../../src/cli/admin.ts';
import { matchSpecFromDb } from '../../src/domain/match-setup.ts';
import { waitFor } from '../helpers/queue.ts';
import { botAs, MORIA_BOTS, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../helpers/judge.ts';

const MARKER = 'private-dummy-7f3a';
/** Null under the name Dummy, saying so in its log every round: what the shipped Dummy never writes. */
const PRIVATE_DUMMY = botAs('Null', 'Dummy', (s) => s.replace('play(): void {', `play(): void {\n    console.log('${MARKER} ' + round());`));

let judge: TestJudge;
let admin: { authorization: string };
let alice: string;

before(async () => {
  // The production gate: against Dummy (whichever Dummy the deployment has).
  judge = await startTestJudge({ gate: { config: TEST_GATE_CONFIG }, concurrency: 4 });
  const token = await judge.user('teacher');
  await adminGrant(judge.db, 'grant', 'teacher');
  admin = { authorization: `Bearer ${token}` };
  alice = await judge.user('alice');
});
after(async () => {
  await judge?.close();
});

const install = (source: string) =>
  judge.app.inject({ method: 'PUT', url: '/api/admin/games/moria/dummy', headers: admin, payload: { source, filename: 'mine.ts' } });

test('a private Dummy is judged first: a wrong name or a bot that freezes in self-play is refused, and nothing is installed', async () => {
  const named = await install(botAs('Null', 'Dumbo'));
  assert.equal(named.statusCode, 400);
  assert.match(named.json().message, /PLAYER_NAME = "Dummy"/);
  const crashing = await install(botAs('Null', 'Dummy', (s) => s.replace('play(): void {', 'play(): void {\n    if (round() >= 2) throw new Error("no");')));
  assert.equal(crashing.statusCode, 422, crashing.body);
  assert.match(crashing.json().message, /self-play .*froze in round \d+ \(exception\)/);
  const broken = await install(botAs('Null', 'Dummy', (s) => s.replace('play(): void {', 'play(): void {\n    const x = ;')));
  assert.equal(broken.statusCode, 422);
  assert.match(broken.json().message, /compile error/);
  assert.equal(await judge.db.privateDummy.count(), 0);
});

test('the gate plays the private Dummy in every Dummy seat; matches still call it Dummy; its source appears nowhere', async () => {
  const res = await install(PRIVATE_DUMMY);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().installed, true);
  const line = await judge.db.auditEntry.findFirstOrThrow({ where: { action: 'dummy.install' } });
  assert.equal(line.targetId, 'moria');

  const sub = await judge.submit(alice, botAs('Walker', 'Walker'));
  assert.equal(sub.statusCode, 202);
  const v = await judge.verdict(sub.body.id);
  // Walker (a test player) surely beats three idle Nulls: with the shipped Dummy this would not be certain.
  assert.equal(v.status, 'qualified', v.reason);
  const dummyMatches = v.gateMatches.filter((m: { gateStep: string }) => m.gateStep === 'dummy');
  assert.equal(dummyMatches.length, 4);
  for (const m of dummyMatches) {
    const seats = await judge.db.participant.findMany({ where: { matchId: m.id }, orderBy: { seat: 'asc' } });
    for (const p of seats.filter((x) => x.submissionId === null)) {
      assert.equal(p.name, 'Dummy');
      assert.equal(p.builtinName, 'Dummy');
      assert.ok(p.log?.includes(`${MARKER} 1`), `seat ${p.seat} of match ${m.id} ran the private Dummy: ${p.log?.slice(0, 80)}`);
    }
    // The job is built with its source.
    const { spec } = await matchSpecFromDb(judge.db, m.id);
    assert.equal(spec.seats.filter((s) => s.source === PRIVATE_DUMMY).length, 3);
  }
  const m = dummyMatches[0].id as number;
  const looks = [
    await judge.app.inject({ url: `/api/matches/${m}` }),
    await judge.app.inject({ url: `/matches/${m}` }),
    await judge.app.inject({ url: `/api/submissions/${sub.body.id}` }),
    await judge.app.inject({ url: '/api/admin/games/moria', headers: admin }),
    await judge.app.inject({ url: '/api/admin/audit', headers: admin }),
    await judge.app.inject({ url: '/admin', headers: admin }),
    await judge.app.inject({ url: '/games/moria' }),
    await judge.app.inject({ url: '/games/moria/starter-kit.zip' }),
    await judge.app.inject({ url: '/api/games' }),
  ];
  for (const r of looks) {
    assert.ok(r.statusCode < 400, `${r.statusCode} ${r.body.slice(0, 200)}`);
    assert.ok(!r.body.includes(MARKER) && !r.rawPayload.includes(Buffer.from(MARKER)), 'the private source never shows');
  }
  // A replay names it Dummy too.
  const replay = await judge.app.inject({ url: `/api/matches/${m}/replay` });
  assert.equal(replay.statusCode, 200);
});

test('a challenge is played against the chosen seats and changes no rating', async () => {
  const walker = await judge.db.playerName.findFirstOrThrow({ where: { nameLower: 'walker' }, include: { ratings: true } });
  const before = walker.ratings[0]!;
  const res = await judge.app.inject({
    method: 'POST',
    url: '/api/challenges',
    headers: { authorization: `Bearer ${alice}` },
    payload: { submissionId: walker.qualifiedSubmissionId, opponents: ['Demo', 'Null'], seed: 4242 },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().matchId as number;
  const done = await waitFor(
    `challenge ${id} played`,
    async () => {
      const m = await judge.db.match.findUniqueOrThrow({
        where: { id },
        include: { participants: { orderBy: { seat: 'asc' } }, replay: { select: { sizeBytes: true } } },
      });
      return m.status === 'done' || m.status === 'failed' ? m : null;
    },
    120_000,
    200,
  );
  assert.equal(done.status, 'done', done.error ?? '');
  assert.equal(done.kind, 'challenge');
  assert.equal(done.seed, 4242);
  assert.deepEqual(
    done.participants.map((p) => p.name),
    ['Walker', 'Demo', 'Null', 'Dummy'],
  );
  assert.ok(
    done.participants.every((p) => p.score !== null),
    'every seat played',
  );
  assert.ok(done.replay, 'stored with its replay');
  const after = await judge.db.rating.findUniqueOrThrow({ where: { id: before.id } });
  assert.deepEqual([after.mu, after.sigma, after.matchesPlayed], [before.mu, before.sigma, before.matchesPlayed]);
  assert.equal(await judge.db.ratingHistory.count({ where: { matchId: id } }), 0);
});

test('removing the private Dummy brings back the shipped one for matches built from then on', async () => {
  const res = await judge.app.inject({ method: 'DELETE', url: '/api/admin/games/moria/dummy', headers: admin });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().installed, false);
  assert.equal((await judge.db.auditEntry.findFirstOrThrow({ orderBy: { id: 'desc' } })).action, 'dummy.remove');
  const m = await judge.db.match.create({
    data: { game: 'moria', seed: 1, kind: 'challenge', participants: { create: [{ seat: 0, name: 'Dummy', builtinName: 'Dummy' }] } },
  });
  const { spec } = await matchSpecFromDb(judge.db, m.id);
  assert.equal(spec.seats[0]!.source, readFileSync(MORIA_BOTS + 'Dummy.ts', 'utf8'));
  assert.equal((await judge.app.inject({ method: 'DELETE', url: '/api/admin/games/moria/dummy', headers: admin })).statusCode, 404);
});
