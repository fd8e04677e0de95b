// The stop switch (stop-switch.ts) in this process, as a match process has it:
// a bot loaded through load() gets a slot, its calls run without a timeout,
// and the watcher ends an endless loop at its CPU budget by having the switch
// dispose of its isolate. Were the switch not to work, the watcher would kill
// this process after its grace, and the test with it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMeter, IDLE_POLLS, installCallMeter, POLL_MS, readNote, STOP, TRUSTED_POLL_MS } from '../../src/sandbox/hosts/call-meter.ts';
import { disposeSpares, IsolateBotHost, spareCount } from '../../src/sandbox/hosts/isolate-host.ts';
import { bot, tallyLoad, tallyPlay } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-stop-switch-'));
installCallMeter(join(dir, 'note'));
after(() => {
  disposeSpares();
  callMeter().close();
  rmSync(dir, { recursive: true, force: true });
});

test('an endless loop is ended at its CPU budget by the stop switch, and the process and the next bots carry on', async () => {
  disposeSpares();
  const budget = 300;
  const looper = new IsolateBotHost();
  const loaded = await looper.load(
    await tallyLoad(bot('Looper', `play() { this.calls = (this.calls ?? 0) + 1; if (this.calls === 2) for (;;) {} add(1); }`), { cpuBudgetMs: budget }),
  );
  assert.ok(loaded.ok);
  assert.equal((await looper.play(tallyPlay())).ok, true);
  const reply = await looper.play(tallyPlay());
  assert.equal(reply.ok, false);
  assert.equal(!reply.ok && reply.reason, 'cpu');
  // The watcher polls every POLL_MS (5 ms); the switch ends the call within a few more.
  assert.ok(reply.cpuMs >= budget - 1 && reply.cpuMs < budget + 100, `stopped after ${reply.cpuMs} ms of CPU`);
  assert.equal((await looper.play(tallyPlay())).ok, false, 'frozen: its isolate is gone');
  await looper.close();
  assert.equal(spareCount(), 0, 'a stopped bot leaves no spare');

  // The slot is given back and taken again; the switch still works for the next ones.
  for (let i = 0; i < 3; i++) {
    const calm = new IsolateBotHost();
    assert.ok((await calm.load(await tallyLoad(bot('Calm', `play() { add(1); }`), { cpuBudgetMs: budget }))).ok);
    assert.equal((await calm.play(tallyPlay())).ok, true);
    await calm.close();
  }
  const again = new IsolateBotHost();
  assert.ok((await again.load(await tallyLoad(bot('Again', `play() { for (;;) {} }`), { cpuBudgetMs: 100 }))).ok);
  const second = await again.play(tallyPlay());
  assert.equal(!second.ok && second.reason, 'cpu');
  await again.close();
});

test('the watcher sleeps while no call runs, and the next call wakes it: an endless loop is still ended at its budget', async () => {
  disposeSpares();
  const looper = new IsolateBotHost();
  assert.ok((await looper.load(await tallyLoad(bot('Sleeper', `play() { for (;;) {} }`), { cpuBudgetMs: 200 }))).ok);
  // Idle for IDLE_POLLS polls of POLL_MS, the watcher stops polling (a match of built-ins alone never wakes it).
  const until = Date.now() + 10_000;
  while (!callMeter().watcherAsleep && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, IDLE_POLLS * POLL_MS));
  assert.equal(callMeter().watcherAsleep, true, 'the watcher went to sleep');
  const reply = await looper.play(tallyPlay());
  assert.equal(!reply.ok && reply.reason, 'cpu');
  assert.ok(reply.cpuMs >= 199 && reply.cpuMs < 300, `stopped after ${reply.cpuMs} ms of CPU`);
  assert.equal(callMeter().watcherAsleep, false, 'the call woke it');
  await looper.close();
});

test('a match process whose parent goes away exits, its stop switch running', async () => {
  // A parent that plays a match (its match process registers the bots with the switch) and exits without a word.
  const script = `
    import { playMatchWithGame } from ${JSON.stringify(new URL('../../src/sandbox/entries/play-match.ts', import.meta.url).href)};
    import { sharedPool } from ${JSON.stringify(new URL('../../src/sandbox/match-process/match-pool.ts', import.meta.url).href)};
    import tally from ${JSON.stringify(new URL('../fixtures/tally/index.ts', import.meta.url).href)};
    import { adder } from ${JSON.stringify(new URL('./helpers.ts', import.meta.url).href)};
    await playMatchWithGame(tally, { game: 'tally', seed: 1, config: { nb_rounds: 3 }, seats: [adder, adder, adder, adder] });
    console.log(JSON.stringify(sharedPool.pids));
    process.exit(0);
  `;
  const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const pids = JSON.parse(run.stdout.trim().split('\n').pop()!) as number[];
  assert.ok(pids.length > 0, 'a match process played the match');
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const left = pids.filter(alive);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  assert.deepEqual(left, [], 'match processes left behind');
});

test("a built-in's call (the judge's own code, timed by the wall clock, never metered per call) that runs on is still stopped past its CPU, charged to its seat and round", () => {
  // In a process of its own, as a match process runs it: the watcher kills the process and the note says whose call it was.
  const note = join(dir, 'trusted-note');
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  const script = `
    import { installCallMeter } from ${url('../../src/sandbox/hosts/call-meter.ts')};
    import { WarmBuiltinHost } from ${url('../../src/sandbox/hosts/inprocess-host.ts')};
    import { bot, tallyLoad, tallyPlay } from ${url('./helpers.ts')};
    const meter = installCallMeter(${JSON.stringify(note)});
    const host = new WarmBuiltinHost(meter);
    const loaded = await host.load(await tallyLoad(bot('Looper', 'n = 0; play() { if (++this.n === 2) for (;;) {} }'), { cpuBudgetMs: 300 }));
    if (!loaded.ok) throw new Error(loaded.message);
    await host.play(tallyPlay());
    console.log('first call back');
    await host.play(tallyPlay());
    console.log('the endless call came back');
  `;
  // A file, not -e: the watcher's worker would inherit --input-type=module and fail on its require().
  const file = join(dir, 'trusted-call.mts');
  writeFileSync(file, script);
  const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.signal, 'SIGKILL', `${run.status} ${run.stdout} ${run.stderr}`);
  assert.match(run.stdout, /first call back/);
  const got = readNote(note);
  assert.ok(got);
  assert.deepEqual({ inCall: got.inCall, seat: got.seat, round: got.round, reason: got.reason }, { inCall: true, seat: 1, round: 2, reason: STOP.cpu });
  // The endless call's limit is what the budget has left after the load and the first call (a few ms at most).
  assert.ok(got.cpuMs > 300 - 50 && got.cpuMs < 300 + 4 * TRUSTED_POLL_MS + 500, `stopped after ${got.cpuMs} ms of CPU`);
});
