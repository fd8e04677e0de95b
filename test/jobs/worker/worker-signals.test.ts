// The judge's failures are never a bot's, on real processes: Ctrl-C on a
// worker (SIGINT to its whole process group) lets it finish the running match
// with its bots alive, and a match process killed from outside makes the worker
// abandon the match and play it again; neither records a frozen seat.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMatch, enqueueMatch } from '../../../src/domain/match-setup.ts';
import { matchJobId } from '../../../src/queue/index.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startTestJudge, type TestJudge } from '../../helpers/judge.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let judge: TestJudge;
const started: ChildProcess[] = [];

before(async () => {
  judge = await startTestJudge({ workers: 0 });
});
after(async () => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await judge?.close();
});

/** `npm run worker` as a terminal starts it: the leader of its own process group. */
async function groupWorker(): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: judge.redisUrl, QUEUE_PREFIX: judge.prefix, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'worker'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  await waitFor('the worker to be ready', async () => /worker pool: /.test(out) || child.exitCode !== null, 30_000, 50);
  assert.equal(child.exitCode, null, out);
  return { child, output: () => out };
}

async function builtinMatch(rounds: number, seed: number) {
  const id = await createMatch(judge.db, {
    game: 'moria',
    kind: 'challenge',
    seed,
    config: { nb_rounds: rounds },
    seats: ['Demo', 'Null', 'Demo', 'Null'].map((builtinName) => ({ builtinName })),
  });
  await enqueueMatch(judge.db, judge.queues, id);
  const jobId = matchJobId(id, (await judge.db.match.findUniqueOrThrow({ where: { id } })).createdAt);
  return { id, jobId };
}

/** The match processes a worker started. */
function matchProcessesOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('match-child');
      } catch {
        return false;
      }
    })
    .map(Number);
}

const lines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);

test('Ctrl-C on a worker (SIGINT to its process group) mid-match: the match finishes, no seat frozen, recorded once', async () => {
  const worker = await groupWorker();
  const { id, jobId } = await builtinMatch(200, 11);
  await waitFor('the match to run', async () => (await judge.queues.matches.getJob(jobId))?.progress && true, 60_000, 50);
  process.kill(-worker.child.pid!, 'SIGINT');
  const [code] = await once(worker.child, 'exit');
  assert.equal(code, 0, worker.output());
  const done = await waitFor('the match to be recorded', async () => {
    const m = await judge.db.match.findUniqueOrThrow({ where: { id } });
    return m.status === 'done' ? m : null;
  });
  assert.equal(done.attempts, 1, 'played once: it finished under the signal');
  const seats = await judge.db.participant.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
  assert.deepEqual(
    seats.map((p) => p.frozenReason),
    [null, null, null, null],
  );
  assert.equal(await judge.db.replay.count({ where: { matchId: id } }), 1);
  // One line at the start and one at the end, with what an admin needs.
  const mine = lines(worker.output()).filter((l) => l.matchId === String(id));
  const start = mine.find((l) => l.msg === 'match start');
  const end = mine.find((l) => l.msg === 'match end');
  assert.ok(start && end, worker.output());
  assert.deepEqual(end.seats, ['Demo', 'Null', 'Demo', 'Null']);
  assert.equal(end.kind, 'challenge');
  assert.equal(end.seed, 11);
  assert.equal(end.attempt, 1);
  assert.deepEqual(end.frozen, []);
  assert.ok(end.durationMs > 0 && typeof end.worker === 'string');
});

test('a match process killed from outside mid-match: the worker abandons the match (a warning) and plays it again; no seat frozen', async () => {
  const worker = await groupWorker();
  const { id, jobId } = await builtinMatch(200, 12);
  await waitFor('the match to run', async () => (await judge.queues.matches.getJob(jobId))?.progress && true, 60_000, 50);
  // The worker keeps one match process per runner warm besides the busy one: all go.
  const procs = matchProcessesOf(worker.child.pid!);
  assert.ok(procs.length >= 1, `match processes: ${procs.join(' ')}`);
  for (const pid of procs) process.kill(pid, 'SIGKILL');
  const done = await waitFor('the re-run to be recorded', async () => {
    const m = await judge.db.match.findUniqueOrThrow({ where: { id } });
    return m.status === 'done' ? m : null;
  });
  assert.ok(done.attempts >= 2, `played again (attempts ${done.attempts})`);
  const seats = await judge.db.participant.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
  assert.deepEqual(
    seats.map((p) => p.frozenReason),
    [null, null, null, null],
  );
  const warn = lines(worker.output()).find((l) => l.matchId === String(id) && l.infra === true);
  assert.ok(warn, worker.output());
  assert.equal(warn.level, 40, 'a warning');
  worker.child.kill('SIGTERM');
  await once(worker.child, 'exit');
});
