// /metrics through prom-client: the counters count what the recorder wrote
// (a challenge match finished with a bot frozen for CPU, another failed on
// the infrastructure, both through recordResult as the recorder process
// does; submissions and verdicts as the API and the gate leave them), the
// default process metrics are there, no series is the sum of others
// (matches_per_minute is gone), and a second scrape after more events only
// grows.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, bot } from '../helpers/app.ts';
import { freshQueues } from '../helpers/queue.ts';
import { recordResult } from '../../src/jobs/recorder/record.ts';
import { encodeReplay } from '../../src/match/replay-io.ts';
import { matchJobId } from '../../src/queue/index.ts';

const fq = await freshQueues();
after(() => fq.cleanup());
const api = await startTestApi({}, { queues: fq.queues });
const { app, db } = api;
const ana = await registerUser(app, 'ana');

const player = await db.playerName.create({ data: { game: 'moria', name: 'Ana', nameLower: 'ana', ownerId: ana.id } });
let version = 0;
const submit = (filename: string, status: 'qualified' | 'rejected' | 'queued', game = 'moria') =>
  db.submission.create({ data: { playerId: player.id, userId: ana.id, game, version: ++version, source: bot('Ana'), filename, sizeBytes: 10, status } });

async function playChallenge(outcome: 'frozen' | 'failed') {
  const m = await db.match.create({
    data: {
      game: 'moria',
      seed: 7,
      kind: 'challenge',
      status: 'running',
      participants: { create: [0, 1, 2, 3].map((seat) => ({ seat, name: seat === 0 ? 'Demo' : 'Dummy', builtinName: seat === 0 ? 'Demo' : 'Dummy' })) },
    },
  });
  const jobId = matchJobId(m.id, m.createdAt);
  if (outcome === 'failed') {
    await recordResult({ db, queues: fq.queues }, { type: 'match', matchId: String(m.id), jobId, ok: false, error: 'worker lost', worker: 'w', attempt: 3 });
    return;
  }
  const players = [0, 1, 2, 3].map((seat) => ({
    name: seat === 0 ? 'Demo' : 'Dummy',
    cpuMs: 5,
    frozenRound: seat === 1 ? 3 : null,
    frozenReason: seat === 1 ? ('cpu' as const) : null,
    frozenMessage: seat === 1 ? 'out of CPU' : null,
  }));
  const replay = encodeReplay({ game: 'moria', players, rounds: [] } as never);
  const result = await recordResult(
    { db, queues: fq.queues },
    {
      type: 'match',
      matchId: String(m.id),
      jobId,
      ok: true,
      replayGz: replay.toString('base64'),
      logs: ['', '', '', ''],
      players,
      scores: [4, 3, 2, 1],
      ranks: [1, 2, 3, 4],
      winner: 0,
      startedAt: new Date().toISOString(),
      durationMs: 10,
      worker: 'w',
      attempt: 1,
    },
  );
  assert.equal(result, 'recorded');
}

const scrape = async () => {
  const res = await app.inject({ url: '/metrics' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
};
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('the counters count what was recorded, by their labels, and only grow', async () => {
  await submit('ana.ts', 'qualified');
  await submit('ana.js', 'rejected');
  await submit('ana2.ts', 'queued');
  await playChallenge('frozen');
  await playChallenge('failed');

  const text = await scrape();
  assert.match(text, /^# TYPE arbiter_submissions_total counter$/m);
  assert.equal(sample(text, 'arbiter_submissions_total{game="moria",language="typescript"}'), 2);
  assert.equal(sample(text, 'arbiter_submissions_total{game="moria",language="javascript"}'), 1);
  assert.equal(sample(text, 'arbiter_verdicts_total{game="moria",verdict="qualified"}'), 1);
  assert.equal(sample(text, 'arbiter_verdicts_total{game="moria",verdict="rejected"}'), 1);
  assert.equal(sample(text, 'arbiter_matches_total{game="moria",kind="challenge",outcome="finished"}'), 1);
  assert.equal(sample(text, 'arbiter_matches_total{game="moria",kind="challenge",outcome="failed"}'), 1);
  assert.equal(sample(text, 'arbiter_frozen_bots_total{game="moria",reason="cpu"}'), 1);
  // The default process metrics, and the queue gauges.
  assert.match(text, /^process_cpu_user_seconds_total \d/m);
  assert.match(text, /^nodejs_heap_size_used_bytes \d/m);
  assert.match(text, /^arbiter_up\{dep="redis"\} 1$/m);
  assert.match(text, /^arbiter_gate_latency_seconds_count \d+$/m);
  // No total beside its parts: every arbiter series has all its labels.
  assert.doesNotMatch(text, /matches_per_minute/);
  for (const name of ['arbiter_submissions_total', 'arbiter_verdicts_total', 'arbiter_matches_total', 'arbiter_frozen_bots_total']) {
    assert.doesNotMatch(text, new RegExp(`^${name} `, 'm'), `${name} has no unlabelled sum`);
  }

  await playChallenge('frozen');
  await submit('ana3.ts', 'rejected');
  const again = await scrape();
  assert.equal(sample(again, 'arbiter_matches_total{game="moria",kind="challenge",outcome="finished"}'), 2);
  assert.equal(sample(again, 'arbiter_frozen_bots_total{game="moria",reason="cpu"}'), 2);
  assert.equal(sample(again, 'arbiter_verdicts_total{game="moria",verdict="rejected"}'), 2);
  assert.equal(sample(again, 'arbiter_submissions_total{game="moria",language="typescript"}'), 3);
});

test('concurrent scrapes answer the same counts', async () => {
  const [a, b] = await Promise.all([scrape(), scrape()]);
  for (const text of [a, b]) assert.equal(sample(text, 'arbiter_matches_total{game="moria",kind="challenge",outcome="finished"}'), 2);
});

test('arbiter_queue_jobs counts the gate jobs BullMQ keeps prioritized, and the checks lane', async () => {
  // Nothing consumes these queues here: the jobs stay where BullMQ put them.
  await fq.queues.matches.add('match', { matchId: 'x1' } as never, { jobId: 'metrics-prioritized', priority: 5 });
  await fq.queues.matches.add('match', { matchId: 'x2' } as never, { jobId: 'metrics-waiting' });
  await fq.queues.checks.add('check', { submissionId: 'x3' } as never, { jobId: 'metrics-check', priority: 5 });
  const text = await scrape();
  assert.equal(sample(text, 'arbiter_queue_jobs{queue="matches",state="prioritized"}'), 1);
  assert.equal(sample(text, 'arbiter_queue_jobs{queue="matches",state="waiting"}'), 1);
  // The checks' waiting count includes their prioritized ones (every gate check is).
  assert.equal(sample(text, 'arbiter_queue_jobs{queue="checks",state="waiting"}'), 1);
  assert.equal(sample(text, 'arbiter_queue_jobs{queue="checks",state="active"}'), 0);
  await Promise.all([fq.queues.matches.obliterate({ force: true }), fq.queues.checks.obliterate({ force: true })]);
});
