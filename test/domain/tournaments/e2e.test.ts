// A 64-player official tournament of Coins on real workers, the recorder and
// the scheduler, twice with the same seed: once undisturbed, once with every
// part restarted in the middle (a worker SIGKILLed, the recorder and the
// scheduler stopped and started again). Both give the same matches and the
// same standings; the dominant bot wins; the standings follow from the
// matches; the replay archive holds every match and its manifest.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScheduler, type Scheduler } from '../../../src/jobs/scheduler/index.ts';
import { createTournament, tournamentDetail, type TournamentDetail } from '../../../src/domain/tournaments.ts';
import { roundEliminations } from '../../../src/domain/tournament-rules.ts';
import { startTestJudge, type TestJudge } from '../../helpers/judge.ts';
import { waitFor } from '../../helpers/queue.ts';
import { coinsBot, qualifiedPlayer, TEST_GAMES } from '../../helpers/tournaments.ts';

process.env.ARBITER_GAMES_PATH = TEST_GAMES;

const PLAYERS = 64;
const SEED = 20261204;
const CONFIG = { nb_rounds: 30 };
/** Short locks so a killed worker's match is taken up again within seconds. */
const FAST_WORKER = { lockMs: 2000, stalledMs: 1000 };

let judge: TestJudge;
let scheduler: Scheduler | null = null;
const startSched = () =>
  startScheduler({ db: judge.db, queues: judge.queues, rankedEnabled: false, sweepIntervalMs: 500, sweepOlderThanMs: 3000, tournamentIntervalMs: 300 });

before(async () => {
  judge = await startTestJudge({ workers: 0 });
  await judge.addWorker({ concurrency: 2, ...FAST_WORKER });
  // One dominant bot (moves every round), the others move one round in 2..6.
  for (let i = 0; i < PLAYERS; i++) {
    const name = i === 0 ? 'Strong' : `Bot${String(i).padStart(2, '0')}`;
    await qualifiedPlayer(judge.db, { username: `user${i}`, name, source: i === 0 ? coinsBot(name, 1) : coinsBot(name, 2 + (i % 5), i % 3) });
  }
  scheduler = startSched();
});

after(async () => {
  await scheduler?.close();
  await judge?.close();
});

async function runTournament(name: string, disturb?: (id: number) => Promise<void>): Promise<{ detail: TournamentDetail; ms: number }> {
  const started = Date.now();
  const t = await createTournament(judge.db, null, { game: 'coins', name, freezeAt: new Date(), config: CONFIG, seed: SEED });
  if (disturb) await disturb(t.id);
  await waitFor(
    `tournament ${name} to finish`,
    async () => (await judge.db.tournament.findUnique({ where: { id: t.id } }))?.status === 'finished',
    240_000,
    200,
  );
  return { detail: await tournamentDetail(judge.db, t.id), ms: Date.now() - started };
}

/** What must not depend on restarts: every group's seats, seed and result, and the standings. */
function outcome(d: TournamentDetail) {
  return {
    rounds: d.rounds.map((r) => ({
      round: r.round,
      final: r.final,
      groups: r.groups.map((g) => ({ seed: g.seed, seats: g.seats.map((s) => [s.name, s.rank, s.score]) })),
    })),
    standings: d.standings.map((s) => [s.place, s.name, s.eliminatedRound, s.lastRank, s.lastScore]),
  };
}

let calm: TournamentDetail;

test('a 64-player tournament runs to the end on real workers: the dominant bot wins, the standings follow from the matches', async () => {
  const { detail, ms } = await runTournament('calm');
  calm = detail;
  console.log(
    `# 64-player tournament: ${detail.rounds.length} rounds, ${detail.rounds.reduce((n, r) => n + r.groups.length, 0)} matches, ${(ms / 1000).toFixed(1)} s`,
  );
  assert.equal(detail.status, 'finished');
  assert.equal(detail.seed, SEED, 'the seed is published once started');
  assert.equal(detail.entries.length, PLAYERS);
  assert.equal(detail.standings[0]!.name, 'Strong', 'the dominant bot is the champion');
  assert.equal(detail.standings[0]!.eliminatedRound, null);
  assert.deepEqual(
    detail.standings.map((s) => s.place),
    detail.standings.map((_, i) => i + 1),
  );
  // Round 1: 16 full groups, no Dummy.
  assert.equal(detail.rounds[0]!.groups.length, 16);
  assert.ok(detail.rounds[0]!.groups.every((g) => g.seats.every((s) => !s.builtin)));
  // Each round: the players are exactly those still in, the fallen are those the rules say, and they fell there.
  const fell = new Map(detail.entries.map((e) => [e.entry, e.eliminatedRound]));
  let still = new Set(detail.entries.map((e) => e.entry));
  for (const r of detail.rounds) {
    const seated = r.groups.flatMap((g) => g.seats.filter((s) => s.entry !== null).map((s) => s.entry!));
    assert.deepEqual(
      [...seated].sort((a, b) => a - b),
      [...still].sort((a, b) => a - b),
      `round ${r.round} seats everyone still in`,
    );
    assert.equal(r.final, still.size <= 4);
    for (const g of r.groups) {
      assert.equal(g.match?.status, 'done');
      assert.equal(g.match?.attempt, 0);
      assert.equal(g.seats.filter((s) => s.builtin).length, 4 - g.seats.filter((s) => !s.builtin).length);
    }
    const out = roundEliminations(
      r.final,
      r.groups.map((g) => g.seats.map((s) => ({ entry: s.entry, rank: s.rank, score: s.score }))),
    );
    for (const e of out) assert.equal(fell.get(e), r.round, `entry ${e} fell in round ${r.round}`);
    still = new Set([...still].filter((e) => !out.includes(e)));
  }
  assert.deepEqual([...still], [detail.entries.find((e) => e.name === 'Strong')!.entry], 'only the champion is left');
  // Standings: later rounds first.
  const rounds = detail.standings.slice(1).map((s) => s.eliminatedRound!);
  assert.deepEqual(
    rounds,
    [...rounds].sort((a, b) => b - a),
  );
  // Each match: one replay, one row per group and attempt.
  const groups = await judge.db.tournamentGroup.count({ where: { tournamentId: detail.id } });
  assert.equal(await judge.db.match.count({ where: { tournamentId: detail.id } }), groups, 'one match per group');
  assert.equal(await judge.db.replay.count({ where: { match: { tournamentId: detail.id } } }), groups);
});

test('the replay archive holds every match, its manifest and the standings', async () => {
  const res = await judge.app.inject({ url: `/api/tournaments/${calm.id}/replays.zip` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/zip');
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-tournament-'));
  try {
    const path = join(dir, 'all.zip');
    writeFileSync(path, res.rawPayload);
    assert.match(execFileSync('unzip', ['-t', path]).toString(), /No errors detected/);
    const listing = execFileSync('python3', [
      '-c',
      'import sys, json, zipfile, gzip; z = zipfile.ZipFile(sys.argv[1]); m = json.loads(z.read("manifest.json")); print(json.dumps({"names": z.namelist(), "manifest": m, "sizes": {f["file"]: len(gzip.decompress(z.read(f["file"]))) for f in m["matches"]}}))',
      path,
    ]);
    const { names, manifest, sizes } = JSON.parse(listing.toString()) as { names: string[]; manifest: any; sizes: Record<string, number> };
    const matches = calm.rounds.flatMap((r) => r.groups.map((g) => g.match!.id));
    assert.deepEqual(
      manifest.matches.map((m: any) => m.id).sort((a: number, b: number) => a - b),
      [...matches].sort((a, b) => a - b),
    );
    assert.equal(manifest.tournament.seed, SEED);
    for (const m of manifest.matches) {
      assert.ok(names.includes(m.file), `${m.file} is in the archive`);
      assert.ok(sizes[m.file]! > 100, 'a real replay');
      assert.equal(m.seats.length, 4);
      assert.equal(m.ranks.length, 4);
      assert.equal(m.scores.length, 4);
      assert.match(m.play, new RegExp(`^node arbiter\\.mjs play .+ --seed ${m.seed} --set nb_rounds=30$`));
    }
    assert.ok(names.includes('standings.csv'));
    assert.equal(names.filter((n) => n.startsWith('replays/')).length, matches.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const csv = await judge.app.inject({ url: `/api/tournaments/${calm.id}/standings.csv` });
  const lines = csv.body.trim().split('\r\n');
  assert.equal(lines.length, PLAYERS + 1);
  assert.match(lines[1]!, /^"1","Strong","user0","champion",/);
});

test('restarting the worker, the recorder and the scheduler in the middle changes nothing: same matches, same standings', async () => {
  const { detail } = await runTournament('disturbed', async (id) => {
    // Round 2 drawn: restart everything.
    await waitFor('round 2', async () => ((await judge.db.tournament.findUnique({ where: { id } }))?.round ?? 0) >= 2, 120_000, 100);
    await judge.workers[0]!.kill();
    await judge.stopRecorder();
    assert.equal((await judge.db.tournament.findUnique({ where: { id } }))?.status, 'running', 'the restart happens in the middle');
    await scheduler!.close();
    await judge.addWorker({ concurrency: 2, ...FAST_WORKER });
    await new Promise((r) => setTimeout(r, 500));
    await judge.startRecorder();
    scheduler = startSched();
    // And again a round later.
    await waitFor('round 3', async () => ((await judge.db.tournament.findUnique({ where: { id } }))?.round ?? 0) >= 3, 120_000, 100);
    await judge.stopRecorder();
    await scheduler.close();
    await judge.startRecorder();
    scheduler = startSched();
  });
  assert.equal(detail.status, 'finished');
  assert.deepEqual(outcome(detail), outcome(calm));
  for (const r of detail.rounds) for (const g of r.groups) assert.equal(g.match?.attempt, 0, 'no rerun was needed');
  const groups = await judge.db.tournamentGroup.count({ where: { tournamentId: detail.id } });
  assert.equal(await judge.db.match.count({ where: { tournamentId: detail.id } }), groups, 'one match per group: none played twice, none lost');
});

test('pause holds the queued matches back (the sweep leaves them), a match the judge lost is rerun with its seed, and the result is the same', async () => {
  const token = await judge.user('admin');
  const admin = await judge.db.user.findFirstOrThrow({ where: { usernameLower: 'admin' } });
  await judge.db.user.update({ where: { id: admin.id }, data: { isAdmin: true } });
  const api = (url: string) => judge.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });
  const created = await judge.app.inject({
    method: 'POST',
    url: '/api/tournaments',
    headers: { authorization: `Bearer ${token}` },
    payload: { game: 'coins', name: 'held', freezeAt: new Date(Date.now() + 86_400_000).toISOString(), config: CONFIG, seed: SEED },
  });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id as number;
  // Start and pause while the runners take nothing (the queue itself paused), so all of round 1 is still waiting.
  await judge.queues.matches.pause();
  assert.equal((await api(`/api/tournaments/${id}/start`)).statusCode, 200);
  assert.equal((await api(`/api/tournaments/${id}/pause`)).statusCode, 200);
  await judge.queues.matches.resume();
  // The waiting matches lost their jobs (one a runner had already taken would be played as usual).
  const queued = await judge.db.match.findMany({ where: { tournamentId: id, status: 'queued' }, select: { id: true, createdAt: true } });
  const held = [];
  for (const m of queued) if (!(await judge.queues.matches.getJob(`m-${m.id}-${m.createdAt.getTime()}`))) held.push(m);
  assert.equal(held.length, 16, `all of round 1 held back (${held.length} of ${queued.length} queued)`);
  // Longer than the sweep's age threshold: it must not queue them again.
  await new Promise((r) => setTimeout(r, 4500));
  for (const m of held)
    assert.equal(await judge.queues.matches.getJob(`m-${m.id}-${m.createdAt.getTime()}`), undefined, `match ${m.id} has no job while paused`);
  assert.equal(await judge.db.match.count({ where: { id: { in: held.map((m) => m.id) }, status: { not: 'queued' } } }), 0, 'none played while paused');
  // The judge loses one of them (as when workers die on it twice): recorded as failed.
  const lost = held[0]!;
  await judge.queues.addResult({
    type: 'match',
    matchId: String(lost.id),
    jobId: `m-${lost.id}-${lost.createdAt.getTime()}`,
    ok: false,
    error: 'injected: the workers died on it',
    worker: 'test',
    attempt: 2,
  });
  await waitFor('the failure recorded', async () => (await judge.db.match.findUnique({ where: { id: lost.id } }))?.status === 'failed', 20_000);
  assert.equal((await api(`/api/tournaments/${id}/resume`)).statusCode, 200);
  // Round 1 plays out but cannot finish without the lost match.
  await waitFor(
    'the rest of round 1',
    async () => (await judge.db.match.count({ where: { tournamentId: id, status: { in: ['queued', 'running'] } } })) === 0,
    120_000,
  );
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal((await judge.db.tournament.findUniqueOrThrow({ where: { id } })).round, 1, 'the round waits for the failed match');
  const page = await judge.app.inject({ url: `/tournaments/${id}` });
  assert.match(page.body, /waiting for an admin(?:'|&#39;|&#x27;)s rerun/);
  const played = await judge.db.match.findFirstOrThrow({ where: { tournamentId: id, status: 'done' } });
  assert.equal((await api(`/api/tournaments/${id}/matches/${played.id}/rerun`)).statusCode, 409, 'a played match is a result');
  const rerun = await api(`/api/tournaments/${id}/matches/${lost.id}/rerun`);
  assert.equal(rerun.statusCode, 201, rerun.body);
  await waitFor('the tournament to finish', async () => (await judge.db.tournament.findUnique({ where: { id } }))?.status === 'finished', 240_000, 200);
  const detail = await tournamentDetail(judge.db, id);
  assert.deepEqual(outcome(detail), outcome(calm), 'same seeds, same matches, same standings');
  assert.equal(detail.rounds[0]!.groups.find((g) => g.failedAttempts.some((f) => f.id === lost.id))?.match?.attempt, 1);
});
