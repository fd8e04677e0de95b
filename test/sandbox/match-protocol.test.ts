// The worker <-> match child protocol (src/sandbox/match-process/match-protocol.ts) on a real
// child process: a match and a gate load round-trip; a message the child does
// not know is refused with a clear error, not guessed at; and a child killed
// from outside is the judge's failure, thrown once as SandboxInfraError with
// no process started again below the worker pool (which alone plays a match
// again).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tally from '../fixtures/tally/index.ts';
import { MatchProcessPool, runSandboxedMatch, loadInSandbox, SandboxInfraError } from '../../src/sandbox/match-process/match-pool.ts';
import { ProtocolError, readChildMessage, readParentMessage, type ChildMessage } from '../../src/sandbox/match-process/match-protocol.ts';
import { resolveSpec } from '../../src/sandbox/entries/play-match.ts';
import { adder, bot, tallyLoad } from './helpers.ts';

const pools: MatchProcessPool[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const p of pools) p.shutdown();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function privatePool(): MatchProcessPool {
  const pool = new MatchProcessPool();
  pools.push(pool);
  return pool;
}

test('a match round-trips through the child: progress, the replay under the limits it was sent, the child reused', async () => {
  const pool = privatePool();
  const spec = resolveSpec(tally, { game: 'tally', seed: 4, config: { nb_rounds: 6 }, limits: { cpuBudgetMs: 1500 }, seats: [adder, adder, adder, adder] });
  assert.deepEqual(spec.limits, { cpuBudgetMs: 1500, memoryMb: tally.defaultLimits.memoryMb });
  const rounds: number[] = [];
  const out = await runSandboxedMatch(tally, spec, { onRound: (r) => rounds.push(r) }, pool);
  assert.deepEqual(out.replay.result.scores, [6, 6, 6, 6]);
  assert.deepEqual(out.replay.limits, spec.limits, 'the child played under the limits it was sent, not merged again');
  assert.equal(out.replay.rounds.length, 7, 'the rounds came back encoded and were decoded');
  assert.equal(rounds.at(-1), 6, `progress messages reached the parent: ${rounds.join(',')}`);
  assert.equal(out.runs, 1);
  assert.ok(typeof out.processCpuMs === 'number' && out.processCpuMs > 0);
  // The gate's load on the same process: a second job type, the same channel.
  const reply = await loadInSandbox(await tallyLoad(adder), pool);
  assert.equal(reply.ok, true, JSON.stringify(reply));
  assert.equal(pool.started, 1, 'one process served both jobs');
});

/** The match child started by hand, as match-pool.ts starts it, with its messages collected. */
async function bareChild(): Promise<{ child: ChildProcess; next: () => Promise<ChildMessage> }> {
  const childPath = fileURLToPath(new URL('../../src/sandbox/match-process/match-child.ts', import.meta.url));
  const note = join(tmpdir(), `arbiter-protocol-test-${process.pid}`);
  const child = fork(childPath, [note], {
    execArgv: ['--no-node-snapshot', '--import', import.meta.resolve('tsx')],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  children.push(child);
  child.once('exit', () => rmSync(note, { force: true }));
  const queue: ChildMessage[] = [];
  const waiting: ((m: ChildMessage) => void)[] = [];
  child.on('message', (raw) => {
    const msg = readChildMessage(raw);
    const w = waiting.shift();
    if (w) w(msg);
    else queue.push(msg);
  });
  const next = () => {
    const m = queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise<ChildMessage>((resolve, reject) => {
      waiting.push(resolve);
      setTimeout(() => reject(new Error('no message from the child within 20 s')), 20_000).unref();
    });
  };
  assert.deepEqual(await next(), { t: 'ready' });
  return { child, next };
}

test('a message type the child does not know is refused with a clear error, and the child stays usable', async () => {
  const { child, next } = await bareChild();
  child.send({ t: 'play-faster', id: 7 });
  const refused = await next();
  assert.equal(refused.t, 'refused');
  assert.ok(refused.t === 'refused');
  assert.equal(refused.id, 7);
  assert.match(refused.message, /unknown message type "play-faster" \(the match process takes match, check\)/);
  child.send({ t: 'match' });
  const noId = await next();
  assert.ok(noId.t === 'refused' && noId.id === null && /"match" message without a job id/.test(noId.message), JSON.stringify(noId));
  child.send('hello');
  const untyped = await next();
  assert.ok(untyped.t === 'refused' && /without a type/.test(untyped.message), JSON.stringify(untyped));
  // Still answers a real job after the refusals.
  child.send({ t: 'check', id: 8, req: await tallyLoad(adder) });
  const checked = await next();
  assert.ok(checked.t === 'checked' && checked.id === 8 && checked.reply.ok, JSON.stringify(checked));
  child.kill('SIGKILL');
  await once(child, 'exit');
});

test("each side reads only the other side's messages (the parent refuses an unknown one too)", () => {
  assert.throws(
    () => readChildMessage({ t: 'match', id: 1 }),
    (e: Error) => e instanceof ProtocolError && /unknown message type "match" from the match process/.test(e.message),
  );
  assert.throws(() => readChildMessage({ t: 'played' }), /"played" message without a job id/);
  assert.throws(() => readParentMessage({ t: 'played', id: 1 }), /unknown message type "played"/);
  assert.equal(readChildMessage({ t: 'progress', id: 2, round: 1, totalRounds: 3 }).t, 'progress');
});

test("a child killed from outside is the judge's failure: one SandboxInfraError, no process started again below the pool, nobody frozen", async () => {
  const pool = privatePool();
  const victim = bot('Victim', `play() { add(1); if (round() === 2) { const t = Date.now(); while (Date.now() - t < 3000) {} } }`);
  const spec = resolveSpec(tally, { game: 'tally', seed: 7, config: { nb_rounds: 10 }, limits: { cpuBudgetMs: 20_000 }, seats: [adder, victim, adder, adder] });
  let killed = false;
  let roundsAfterKill = 0;
  const settled: unknown[] = [];
  const match = runSandboxedMatch(
    tally,
    spec,
    {
      onRound: (round) => {
        if (killed) roundsAfterKill++;
        if (round === 1)
          setTimeout(() => {
            killed = true;
            pool.pids.forEach((pid) => process.kill(pid, 'SIGKILL'));
          }, 500);
      },
    },
    pool,
  );
  match.then(
    (v) => settled.push(v),
    (e: unknown) => settled.push(e),
  );
  await assert.rejects(match, (err: Error) => err instanceof SandboxInfraError && /SIGKILL/.test(err.message) && /without a bot causing it/.test(err.message));
  // Time for a retry to show itself if anything below the pool tried one.
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(settled.length, 1, 'the match settled once');
  assert.equal(pool.started, 1, 'no second match process: the match is not played again here');
  assert.equal(pool.size, 0, 'nothing left running');
  assert.equal(roundsAfterKill, 0);
});
