// Checks go ahead of matches for the CPU (issue 35): a pool's match processes
// run at this process's niceness plus the pool's offset, every thread of them
// (the worker sets MATCH_NICE_OFFSET on the matches' pool), while the gate's
// loads run in a pool at this process's niceness and never wait for a match's
// slot. Niceness is read from /proc/<pid>/task/<tid>/stat, field 19, and
// /proc/<pid>/autogroup where the kernel groups processes by session.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import tally from '../fixtures/tally/index.ts';
import { checkPool, loadInSandbox, matchSlots, MatchProcessPool, runSandboxedMatch } from '../../src/sandbox/match-process/match-pool.ts';
import { resolveSpec } from '../../src/sandbox/entries/play-match.ts';
import { adder, tallyLoad } from './helpers.ts';

const pools: MatchProcessPool[] = [];
after(() => {
  for (const p of pools) p.shutdown();
  checkPool.shutdown();
});

/** The niceness of every thread of a process, from /proc (field 19 of stat). */
function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test("a pool's match processes run, every thread, at this process's niceness plus the pool's offset", async () => {
  const pool = new MatchProcessPool({ niceOffset: 3 });
  pools.push(pool);
  const expected = Math.min(19, getPriority() + 3);
  const spec = resolveSpec(tally, { game: 'tally', seed: 4, config: { nb_rounds: 6 }, limits: { cpuBudgetMs: 1500 }, seats: [adder, adder, adder, adder] });
  const seen: number[][] = [];
  const out = await runSandboxedMatch(tally, spec, { onRound: () => seen.push(...pool.pids.map(threadNiceness)) }, pool);
  assert.deepEqual(out.replay.result.scores, [6, 6, 6, 6], 'the niced process played the match as any other');
  assert.ok(seen.length > 0, 'the match process was read while it played');
  seen.push(...pool.pids.map(threadNiceness));
  // Where the kernel groups by session (autogroups), the match process's own group is niced too, or its niceness counts for nothing.
  for (const pid of pool.pids) {
    if (!existsSync(`/proc/${pid}/autogroup`)) continue;
    const group = readFileSync(`/proc/${pid}/autogroup`, 'utf8');
    assert.match(group, new RegExp(`nice ${expected}\\b`), `the match process's autogroup: ${group}`);
  }
  for (const threads of seen) {
    assert.ok(threads.length > 0);
    assert.deepEqual(
      threads,
      threads.map(() => expected),
      `every thread at nice ${expected} (ours ${getPriority()}): ${threads.join(',')}`,
    );
  }
});

test("the gate's load runs at this process's niceness and does not wait for a match's slot", async () => {
  // Every match slot taken, as on a worker whose runners are all playing.
  const cores = Math.max(1, availableParallelism());
  for (let i = 0; i < cores; i++) await matchSlots.acquire();
  try {
    const reply = await Promise.race([
      loadInSandbox(await tallyLoad(adder)),
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000).unref()),
    ]);
    assert.notEqual(reply, 'waited', 'the load waited for a match slot');
    assert.equal(reply !== 'waited' && reply.ok, true, JSON.stringify(reply));
    assert.ok(checkPool.pids.length > 0);
    for (const pid of checkPool.pids) {
      const threads = threadNiceness(pid);
      assert.deepEqual(
        threads,
        threads.map(() => getPriority()),
        `the check's process keeps our niceness: ${threads.join(',')}`,
      );
    }
  } finally {
    for (let i = 0; i < cores; i++) matchSlots.release();
  }
});
