// The judge's rules: CPU is counted per bot as CPU time, not wall time. Here three
// matches run at once on top of a busy-looping process, so the machine's two
// cores are heavily oversubscribed and every bot waits for a core most of the
// time; bots that do about half their budget's worth of work must never be
// frozen, and the CPU recorded for them must be about what they did.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { playMatchWithGame } from '../../src/sandbox/entries/play-match.ts';
import tally from '../fixtures/tally/index.ts';
import { availableParallelism } from 'node:os';
import { adder, bot } from './helpers.ts';
import { processCpuMs, SandboxInfraError, sharedPool, watchdogSettings } from '../../src/sandbox/match-process/match-pool.ts';

after(() => sharedPool.shutdown());

const BUDGET_MS = 1500;
const ROUNDS = 10;

function spin(n: number): number {
  let x = 1;
  for (let i = 0; i < n; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  return x;
}

/** Iterations of spin() per CPU millisecond on this machine, measured unloaded. */
function calibrate(): number {
  spin(2e6);
  const start = process.cpuUsage();
  const n = 2e7;
  spin(n);
  const d = process.cpuUsage(start);
  return n / ((d.user + d.system) / 1000);
}

test('bots using half their CPU budget are never frozen when the machine is oversubscribed', async () => {
  const perMs = calibrate();
  const perRound = Math.round((0.5 * BUDGET_MS * perMs) / ROUNDS);
  const worker = bot('Half', `play() { let x = 1; for (let i = 0; i < ${perRound}; i++) x = (Math.imul(x, 1103515245) + 12345) | 0; add(x === 0.5 ? 3 : 1); }`);
  const burner = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
  try {
    const started = Date.now();
    const matches = await Promise.all(
      [1, 2, 3].map((seed) =>
        playMatchWithGame(tally, {
          game: 'tally',
          seed,
          config: { nb_rounds: ROUNDS },
          limits: { cpuBudgetMs: BUDGET_MS },
          seats: [worker, worker, worker, worker],
        }),
      ),
    );
    const wall = Date.now() - started;
    for (const { replay } of matches) {
      for (const p of replay.players) {
        assert.equal(p.frozenReason, null, `frozen: ${p.frozenMessage} after ${p.cpuMs} ms`);
        assert.ok(p.cpuMs > 0.25 * BUDGET_MS && p.cpuMs < 0.85 * BUDGET_MS, `recorded ${p.cpuMs} ms of CPU for ~${0.5 * BUDGET_MS} ms of work`);
      }
      assert.deepEqual(replay.result.scores, [ROUNDS, ROUNDS, ROUNDS, ROUNDS]);
    }
    // The point of the test: wall time per bot far exceeded its budget.
    const cpuTotal = matches.flatMap((m) => m.replay.players.map((p) => p.cpuMs)).reduce((a, b) => a + b, 0);
    assert.ok(wall > BUDGET_MS, `the load was real: ${wall} ms of wall time for ${Math.round(cpuTotal)} ms of bot CPU`);
  } finally {
    burner.kill('SIGKILL');
  }
});

test('on a machine loaded to twice its cores, a bot within its budget is never frozen and an endless loop is frozen by the CPU meter', async () => {
  const budget = 400;
  const perMs = calibrate();
  // About 70% of the budget over the match, spread over its rounds.
  const perRound = Math.round((0.7 * budget * perMs) / 5);
  const busy = bot('Busy', `play() { let x = 1; for (let i = 0; i < ${perRound}; i++) x = (Math.imul(x, 1103515245) + 12345) | 0; add(x === 0.5 ? 3 : 1); }`);
  const loop = bot('Loop', `play() { add(1); if (round() === 2) for (;;) {} }`);
  const burners = Array.from({ length: 2 * availableParallelism() }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    const { replay } = await playMatchWithGame(tally, {
      game: 'tally',
      seed: 5,
      config: { nb_rounds: 5 },
      limits: { cpuBudgetMs: budget },
      seats: [busy, loop, busy, busy],
    });
    for (const p of [0, 2, 3]) {
      const player = replay.players[p]!;
      assert.equal(player.frozenReason, null, `frozen: ${player.frozenMessage} after ${player.cpuMs} ms`);
      assert.ok(player.cpuMs > 0.4 * budget && player.cpuMs < budget, `recorded ${player.cpuMs} ms`);
    }
    assert.equal(replay.players[1]!.frozenReason, 'cpu', `${replay.players[1]!.frozenReason}: ${replay.players[1]!.frozenMessage}`);
    assert.equal(replay.players[1]!.frozenRound, 3);
  } finally {
    for (const b of burners) b.kill('SIGKILL');
  }
});

test("a match process that gets no CPU at all is the machine's failure: the match throws, nobody is frozen", async () => {
  // A stopped process gets no CPU at all: the extreme of a busy machine.
  const startMs = watchdogSettings.startMs;
  watchdogSettings.startMs = 300;
  let stopped: number | undefined;
  // No idle process left from the tests before: the one process is the match's.
  sharedPool.shutdown();
  try {
    const started = Date.now();
    await assert.rejects(
      playMatchWithGame(
        tally,
        { game: 'tally', seed: 5, config: { nb_rounds: 3000 }, limits: { cpuBudgetMs: 100 }, seats: [adder, adder, adder, adder] },
        {
          onRound: () => {
            if (stopped !== undefined) return;
            stopped = sharedPool.pids[0];
            if (stopped) process.kill(stopped, 'SIGSTOP');
          },
        },
      ),
      (err: Error) => err instanceof SandboxInfraError && /too busy/.test(err.message),
    );
    assert.ok(stopped !== undefined, 'the match process was stopped');
    assert.ok(Date.now() - started < 5000, 'the watchdog is sized from its start allowance');
  } finally {
    watchdogSettings.startMs = startMs;
  }
});

/** CPU (ms) the pool's match processes have used so far, by pid. */
function poolCpu(): Map<number, number> {
  return new Map(sharedPool.pids.map((pid) => [pid, processCpuMs(pid) ?? NaN]));
}

test('on a machine loaded to twice its cores, two matches at once (one per core): bots using 80% of their budget are never frozen, and the CPU charged is within 5% of the CPU their processes used', async (t) => {
  const cores = availableParallelism();
  const budget = 1500;
  const rounds = 10;
  const perMs = calibrate();
  const perRound = Math.round((0.8 * budget * perMs) / rounds);
  const busy = bot('Busy', `play() { let x = 1; for (let i = 0; i < ${perRound}; i++) x = (Math.imul(x, 1103515245) + 12345) | 0; add(x === 0.5 ? 3 : 1); }`);
  const spec = (seed: number, nb_rounds: number) => ({
    game: 'tally',
    seed,
    config: { nb_rounds },
    limits: { cpuBudgetMs: budget },
    seats: [busy, busy, busy, busy],
  });
  // Warm processes (one per core), so what they use next is the matches' alone.
  sharedPool.shutdown();
  await Promise.all(Array.from({ length: cores }, (_, i) => playMatchWithGame(tally, { ...spec(i, 1), seats: [adder, adder, adder, adder] })));
  const before = poolCpu();
  assert.equal(before.size, cores, 'one warm match process per core');
  const burners = Array.from({ length: 2 * cores }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  await new Promise((r) => setTimeout(r, 300)); // the burners are up and spinning before the matches start
  let outcomes;
  const started = Date.now();
  try {
    outcomes = await Promise.all(Array.from({ length: cores }, (_, i) => playMatchWithGame(tally, spec(20 + i, rounds))));
  } finally {
    for (const b of burners) b.kill('SIGKILL');
  }
  const wall = Date.now() - started;
  const after = poolCpu();
  let charged = 0;
  for (const { replay } of outcomes) {
    for (const p of replay.players) {
      assert.equal(p.frozenReason, null, `frozen: ${p.frozenMessage} after ${p.cpuMs} ms`);
      charged += p.cpuMs;
    }
    assert.deepEqual(replay.result.scores, [rounds, rounds, rounds, rounds]);
  }
  let used = 0;
  for (const [pid, cpu] of before) {
    assert.ok(after.has(pid), 'the same processes played the matches');
    used += after.get(pid)! - cpu;
  }
  const runs = outcomes.map((o) => o.runs ?? 1);
  t.diagnostic(`charged ${charged.toFixed(0)} ms, used ${used} ms (ratio ${(charged / used).toFixed(3)}), runs ${runs.join(', ')}, wall ${wall} ms`);
  // The processes also compiled the prelude and created 8 isolates, and ran the engine: a few tens of ms over ~10 s of bot CPU.
  if (runs.every((r) => r === 1))
    assert.ok(
      charged <= used * 1.01 + 20 && charged >= used * 0.95,
      `charged ${charged.toFixed(0)} ms of CPU, the processes used ${used} ms (runs ${runs.join(', ')})`,
    );
  else assert.ok(charged <= used * 1.01 + 20, `charged ${charged.toFixed(0)} ms of CPU, the processes used ${used} ms over ${runs.join(', ')} runs`);
  assert.ok(wall > (1.3 * charged) / cores, `the load was real: ${wall} ms of wall time for ${Math.round(charged)} ms of bot CPU on ${cores} cores`);
});
