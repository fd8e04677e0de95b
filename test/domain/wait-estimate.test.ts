// The wait estimate counts the gate work still to come as the recent gates
// really were (a gate stops at its first loss, most play fewer than four Dummy
// matches; some never compile or fail self-play), not four Dummy matches for
// every gate: the 2.1x too long estimate of issue 35. And it learns a match's
// run time as the queue ahead will see it: in a deadline's burst the uploads'
// compile checks (which go first) slow the first matches several times over,
// and an estimate learned from those said 3.8x the real wait.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  besideACheck,
  dummiesStillToPlay,
  expectedWait,
  freeRunSeconds,
  GATE_LENGTH_PRIOR,
  GATE_PRIOR,
  gateLengthsOf,
  projectedMatchSeconds,
  coldMatchSeconds,
  COLD_MATCH_SECONDS,
  WALL_PER_CPU_PRIOR,
} from '../../src/domain/queue-overview.ts';

const work = {
  compiling: 2,
  inSelfPlay: 1,
  selfplay: { queued: 1, running: 0 },
  dummy: { queued: 2, running: 1 },
  otherRunning: [],
  submissions: 4,
};
const durations = { selfplay: 8, dummy: 10, ranked: null, tournament: null, challenge: null };

test("the gates' lengths from the verdicts: who compiled, who passed self-play, the Dummy matches they needed", () => {
  const four = [
    { status: 'rejected', reasonDetail: { step: 'compile', code: 'compile-error' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'selfplay', code: 'selfplay-frozen' }, dummies: 0 },
    { status: 'rejected', reasonDetail: { step: 'dummy', code: 'lost' }, dummies: 1 },
    { status: 'qualified', reasonDetail: null, dummies: 4 },
  ];
  // Many verdicts: the shares are what the gates did (3 of 4 compiled, 2 of 4 played Dummy matches, 2.5 each), the prior's
  // GATE_LENGTH_PRIOR typical gates weigh little.
  const many = gateLengthsOf(Array.from({ length: 50 }, () => four).flat());
  assert.deepEqual(many, { samples: 200, selfplayShare: 0.76, dummyShare: 0.51, dummiesPerGate: 2.5, dummyCounts: [0.49, 0.01, 0.01, 0.49] });
  // A few verdicts are drawn towards the typical gate (it compiles, passes self-play, plays 2.5 Dummy matches):
  // (3 + 5) / (4 + 5) compiled, (2 + 5) / 9 played Dummies.
  assert.equal(GATE_LENGTH_PRIOR, 5);
  assert.deepEqual(GATE_PRIOR, { selfplayShare: 1, dummyShare: 1, dummiesPerGate: 2.5, dummyCounts: [0.25, 0.25, 0.25, 0.25] });
  assert.deepEqual(gateLengthsOf(four), { samples: 4, selfplayShare: 0.89, dummyShare: 0.78, dummiesPerGate: 2.5, dummyCounts: [0.32, 0.18, 0.18, 0.32] });
  // A deadline's first verdicts are the files that do not compile: not a promise that no gate will play a match.
  const broken = gateLengthsOf([four[0]!, four[0]!]);
  assert.ok(broken!.selfplayShare >= 0.7 && broken!.dummyShare >= 0.7, JSON.stringify(broken));
  // Gates lost at their first Dummy match needed one each: a match a runner played beside it, ahead of need, took a runner
  // no needed gate work waited for (GATE_LOOKAHEAD_PRIORITY), and is not counted. (1 x 100 + 2.5 x 5) / 105.
  const lostFirst = Array.from({ length: 100 }, () => four[2]!);
  assert.equal(gateLengthsOf(lostFirst)!.dummiesPerGate, 1.07);
  assert.equal(gateLengthsOf(Array.from({ length: 100 }, () => four[3]!))!.dummiesPerGate, 3.93, 'qualified gates: four each');
  assert.equal(gateLengthsOf([]), null);
});

test('the work ahead counts the matches still to come as the recent gates played them', () => {
  const lengths = { samples: 4, selfplayShare: 0.75, dummyShare: 0.5, dummiesPerGate: 2.5, dummyCounts: [0.5, 0, 0, 0.5] };
  const learned = expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work, lengths });
  // Self-plays: 2 unchecked x 0.75 to come + 1 queued = 2.5, x 8 s = 20. Dummy matches: 2 unchecked x 0.5 x 2.5 + 1 in self-play
  // x (0.5 / 0.75) x 2.5 = 4.17 to come + 2 queued, x 10 s = 61.7, + 1 running x 10 / 2 = 66.7: 86.7 runner-seconds for 4
  // gates. A gate's matches are played one after another, so it starts once all but one runner's worth are done:
  // (86.7 - 86.7 / 4) / 2 runners = 32.5 s. Then, if it compiles, a check (1 s) and its self-play (8 s): 41.5 s; a copy froze
  // (a third of those that compiled), or it plays one Dummy match (a third) or four (a third), one after another with
  // needed work waiting, each 10 s and a quarter of one for a free runner: 41.5, 54 or 91.5 s; in proportion, 59 s.
  assert.equal(learned.seconds, 59);
  assert.deepEqual(learned.ahead, { submissions: 4, checks: 2, selfplays: 3, dummies: 7, otherRunning: 0 });
  // Before any verdict: every gate the typical one (it compiles, passes self-play, 1 to 4 Dummy matches alike): 3 self-plays x 8
  // + (7.5 to come + 2 queued) x 10 + 10 / 2 = 124 runner-seconds, (124 - 31) / 2 = 46.5 s; then 55.5 s plus 1 to 4 x 12.5.
  const assumed = expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work, lengths: null });
  assert.equal(assumed.seconds, 86);
  assert.equal(assumed.ahead.dummies, 11);
  // Nothing ahead: its Dummy matches side by side, two at a time: 1 + 8 + 10 (one or two needed) or + 20 (three or four).
  const idle = { compiling: 0, inSelfPlay: 0, selfplay: { queued: 0, running: 0 }, dummy: { queued: 0, running: 0 }, otherRunning: [], submissions: 0 };
  assert.equal(expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work: idle, lengths: null }).seconds, 23);
  // One gate ahead on two runners: the other runner takes this one at once.
  const one = { ...idle, inSelfPlay: 1, selfplay: { queued: 0, running: 1 }, submissions: 1 };
  assert.equal(expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 9, work: one, lengths: null }).seconds, 23);
});

test("a gate's queued Dummy matches count as many as the recent gates went on to play, not all four", () => {
  const row = (submissionId: number, status: string, n: number) => ({ submissionId, gateStep: 'dummy', status, _count: { _all: n } });
  const lengths = { samples: 50, selfplayShare: 0.9, dummyShare: 0.8, dummiesPerGate: 2.2, dummyCounts: [0.6, 0, 0, 0.4] };
  const rows = [
    // Just started: four queued, 2.2 of them expected.
    row(1, 'queued', 4),
    // Two on the runners, two queued: 0.2 more expected.
    row(2, 'running', 2),
    row(2, 'queued', 2),
    // One won, one running, two queued: 0.2 more expected too.
    row(3, 'done', 1),
    row(3, 'running', 1),
    row(3, 'queued', 2),
    // A self-play row is not a Dummy match.
    { submissionId: 4, gateStep: 'selfplay', status: 'queued', _count: { _all: 1 } },
  ];
  assert.equal(dummiesStillToPlay(rows, lengths), 2.6);
  // A gate past the recent length expects none more (never below zero).
  assert.equal(dummiesStillToPlay([row(5, 'done', 3), row(5, 'queued', 1)], lengths), 0);
  // Before any verdict, as many as the typical gate (2.5): 2.5 + 0.5 + 0.5.
  assert.equal(dummiesStillToPlay(rows, null), 3.5);
});

/** How the estimate learns a match's run time in a simulated burst. */
type Learning =
  /** Told the true free run times (no contention to learn from). */
  | 'told'
  /** From the matches finished so far, as the overview reads them (freeRunSeconds). */
  | 'free'
  /** From the matches finished so far, the median of their run times as they ran (the estimate before issue 35's burst). */
  | 'median';

/**
 * A deadline's burst, played out: `n` submissions arrive one every `every`
 * seconds (each check instant for the queue), two runners serve the gate jobs
 * by priority (the submission's id; a Dummy match after the first, queued
 * ahead of need, behind every needed one, until the ones before them are
 * won), a self-play takes `selfSec`, a Dummy match `dummySec` of a runner to
 * itself. With `slowed`, the uploads' compile checks (each `checkSec` from
 * its arrival, on the checks' lane, which goes first) slow every match played
 * beside one `factor` times, and each runner's first match takes `coldSec`
 * more (its match process starting); a match's players use its free run time
 * over `wallPerCpu` of CPU. Each submission's page asks for the estimate as
 * it arrives, and every `tick` seconds for each submission whose gate has
 * not started, from the queue as it is then and the verdicts of an earlier
 * burst with the same mix; each answer is set against the wait the
 * simulation gives it to its verdict.
 */
function burst(
  n: number,
  every: number,
  mix: string[],
  o: {
    learning?: Learning;
    selfSec?: number;
    dummySec?: number;
    slowed?: { factor: number; checkSec: number; coldSec: number; wallPerCpu: number };
    tick?: number;
  } = {},
) {
  const slots = 2;
  const selfSec = o.selfSec ?? 8;
  const dummySec = o.dummySec ?? 10;
  const learning = o.learning ?? 'told';
  const LOOKAHEAD = 1e9;
  // A gate's fate: 'C' does not compile, 'F' freezes in self-play, 'L1'..'L4' loses Dummy match 1..4, 'Q' qualifies.
  const fate = (k: number) => mix[k % mix.length]!;
  const history = Array.from({ length: 50 }, (_, k) => {
    const f = fate(k);
    if (f === 'C') return { status: 'rejected', reasonDetail: { step: 'compile' }, dummies: 0 };
    if (f === 'F') return { status: 'rejected', reasonDetail: { step: 'selfplay' }, dummies: 0 };
    if (f === 'Q') return { status: 'qualified', reasonDetail: null, dummies: 4 };
    return { status: 'rejected', reasonDetail: { step: 'dummy' }, dummies: Number(f.slice(1)) };
  });
  const lengths = gateLengthsOf(history);
  type Job = {
    sub: number;
    index: number;
    priority: number;
    order: number;
    status: 'queued' | 'running' | 'done' | 'cancelled';
    start: number;
    end: number;
    runner: number;
  };
  const jobs: Job[] = [];
  const verdictAt = new Map<number, number>();
  let order = 0;
  let now = 0;
  // The uploads' checks slow the matches beside them until the last one is done.
  const slowedUntil = o.slowed ? (n - 1) * every + o.slowed.checkSec : 0;
  const checks = (at: number) =>
    o.slowed ? Array.from({ length: n }, (_, k) => ({ from: k * every, to: Math.min(at, k * every + o.slowed!.checkSec) })).filter((c) => c.from <= at) : [];
  const runnerUsed = new Set<number>();
  /** When a match of `work` free seconds started at `start` ends: `factor` times slower beside the checks. */
  const endOf = (start: number, work: number) => {
    const factor = o.slowed?.factor ?? 1;
    if (start >= slowedUntil) return start + work;
    if (start + work * factor <= slowedUntil) return start + work * factor;
    return slowedUntil + work - (slowedUntil - start) / factor;
  };
  const queue = (sub: number, index: number, lookahead: boolean) =>
    jobs.push({ sub, index, priority: lookahead ? LOOKAHEAD : sub, order: order++, status: 'queued', start: 0, end: 0, runner: -1 });
  const arrive = (sub: number) => {
    if (fate(sub) === 'C') verdictAt.set(sub, now);
    else queue(sub, -1, false);
  };
  const decide = (sub: number) => {
    const lost = fate(sub).startsWith('L') ? Number(fate(sub).slice(1)) - 1 : Number.POSITIVE_INFINITY;
    for (let i = 0; i < 4; i++) {
      const m = jobs.find((j) => j.sub === sub && j.index === i)!;
      if (m.status !== 'done') {
        if (m.status === 'queued') m.priority = sub;
        return;
      }
      if (i === lost) break;
    }
    verdictAt.set(sub, now);
    for (const j of jobs) if (j.sub === sub && j.status === 'queued') j.status = 'cancelled';
  };
  /** The run times the estimate works from: told, or learned from the last 50 matches of each kind finished by now. */
  const durationsNow = () => {
    if (learning === 'told') return { selfplay: selfSec, dummy: dummySec, ranked: null, tournament: null, challenge: null };
    const finished = jobs.filter((j) => j.status === 'done').sort((a, b) => b.end - a.end);
    const played = (self: boolean) =>
      finished
        .filter((j) => j.index < 0 === self)
        .slice(0, 50)
        .map((j) => ({
          startedAt: j.start * 1000,
          finishedAt: j.end * 1000,
          durationMs: (j.end - j.start) * 1000,
          cpuMs: ((j.index < 0 ? selfSec : dummySec) * 1000) / (o.slowed?.wallPerCpu ?? 1),
        }));
    const [selfplay, dummy] =
      learning === 'free'
        ? freeRunSeconds(
            [played(true), played(false)],
            checks(now).map((c) => ({ from: c.from * 1000, to: c.to * 1000 })),
          )
        : [played(true), played(false)].map((ms) => (ms.length ? median(ms.map((m) => m.durationMs / 1000)) : null));
    return { selfplay: selfplay ?? null, dummy: dummy ?? null, ranked: null, tournament: null, challenge: null };
  };
  /** The page's estimate for submission `sub`, from the queue as the database has it now: the earlier submissions' gates. */
  const estimate = (sub: number) => {
    const open = jobs.filter((j) => j.sub < sub && j.status !== 'cancelled' && !verdictAt.has(j.sub));
    const rows = open.filter((j) => j.index >= 0).map((j) => ({ submissionId: j.sub, gateStep: 'dummy', status: j.status, _count: { _all: 1 } }));
    const inSelfPlay = new Set(open.filter((j) => j.index < 0).map((j) => j.sub));
    return expectedWait({
      redisOk: true,
      slots,
      durations: durationsNow(),
      matchSeconds: null,
      lengths,
      work: {
        compiling: 0,
        inSelfPlay: inSelfPlay.size,
        selfplay: {
          queued: open.filter((j) => j.index < 0 && j.status === 'queued').length,
          running: open.filter((j) => j.index < 0 && j.status === 'running').length,
        },
        dummy: { queued: dummiesStillToPlay(rows, lengths), running: rows.filter((r) => r.status === 'running').length },
        otherRunning: [],
        submissions: new Set(open.map((j) => j.sub)).size,
      },
    }).seconds;
  };
  const samples: { sub: number; at: number; estimate: number; first: boolean }[] = [];
  const sample = (sub: number, first: boolean) => {
    const seconds = estimate(sub);
    if (seconds !== null) samples.push({ sub, at: now, estimate: seconds, first });
  };
  let nextTick = o.tick ?? Number.POSITIVE_INFINITY;
  for (let next = 0; verdictAt.size < n; ) {
    // Start what the free runners can take.
    for (;;) {
      const busy = new Set(jobs.filter((j) => j.status === 'running').map((j) => j.runner));
      if (busy.size >= slots) break;
      const waiting = jobs.filter((j) => j.status === 'queued').sort((a, b) => a.priority - b.priority || a.order - b.order);
      if (!waiting[0]) break;
      const runner = [...Array(slots).keys()].find((r) => !busy.has(r))!;
      const cold = o.slowed && !runnerUsed.has(runner) ? o.slowed.coldSec : 0;
      runnerUsed.add(runner);
      Object.assign(waiting[0], { status: 'running', runner, start: now, end: endOf(now, (waiting[0].index < 0 ? selfSec : dummySec) + cold) });
    }
    const running = jobs.filter((j) => j.status === 'running').sort((a, b) => a.end - b.end);
    const arrival = next < n ? next * every : Number.POSITIVE_INFINITY;
    const ended = running[0]?.end ?? Number.POSITIVE_INFINITY;
    if (nextTick <= arrival && nextTick <= ended) {
      now = nextTick;
      nextTick += o.tick!;
      // Every submission arrived whose gate has not started: its page asks again.
      for (let sub = 0; sub < next; sub++)
        if (!verdictAt.has(sub) && jobs.some((j) => j.sub === sub) && jobs.every((j) => j.sub !== sub || j.status === 'queued')) sample(sub, false);
      continue;
    }
    if (arrival <= ended) {
      now = arrival;
      sample(next, true);
      arrive(next++);
      continue;
    }
    const done = running[0]!;
    now = done.end;
    done.status = 'done';
    if (verdictAt.has(done.sub)) continue; // played beside the deciding match: not needed
    if (done.index < 0) {
      if (fate(done.sub) === 'F') {
        verdictAt.set(done.sub, now);
        continue;
      }
      for (let i = 0; i < 4; i++) queue(done.sub, i, i > 0);
    } else decide(done.sub);
  }
  // A file that does not compile is answered by its check in seconds: no estimate foresees which will not.
  return samples
    .filter((s) => fate(s.sub) !== 'C')
    .map((s) => ({ ...s, real: verdictAt.get(s.sub)! - s.at, ratio: s.estimate / (verdictAt.get(s.sub)! - s.at) }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1]!;

test("a burst played out: each submission's estimate on arrival within ±50% of the wait it really had", () => {
  // A course's mix (the burst bench's, roughly): a third qualify, most of the rest lose their first Dummy match.
  const mix = ['Q', 'L1', 'L1', 'Q', 'L2', 'L1', 'Q', 'L4', 'F', 'L1', 'Q', 'L1', 'C', 'Q', 'L1', 'L3', 'L1', 'Q', 'L1', 'L1'];
  for (const [n, every] of [
    [120, 0.25],
    [60, 1],
    [40, 6],
  ] as const) {
    const samples = burst(n, every, mix);
    const within = samples.filter((s) => s.ratio >= 0.5 && s.ratio <= 1.5).length;
    const ratios = samples.map((s) => s.ratio).sort((a, b) => a - b);
    const spread = `estimate/real ${ratios[0]!.toFixed(2)}..${ratios.at(-1)!.toFixed(2)}, median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}`;
    assert.ok(within / samples.length >= 0.9, `${n} in ${n * every} s: ${within} of ${samples.length} within ±50% (${spread})`);
    // And most within a quarter (a queue of a few gates is where an estimate that spread them over the runners as if
    // their matches could be played side by side was a third too long).
    const close = samples.filter((s) => s.ratio >= 0.75 && s.ratio <= 1.25).length;
    assert.ok(close / samples.length >= 0.8, `${n} in ${n * every} s: ${close} of ${samples.length} within ±25% (${spread})`);
    // The later a submission comes, the more gates ahead of it and the closer the estimate: past the first ten, all within.
    const late = samples.filter((s) => s.sub >= 10);
    assert.ok(
      late.every((s) => s.ratio >= 0.5 && s.ratio <= 1.5),
      `${n} in ${n * every} s, past the first ten: ${spread}`,
    );
  }
});

test("a deadline's burst whose uploads slow the first matches: the estimate learns the matches' free run time, within ±50% on arrival and while waiting", () => {
  // The burst bench's deadline (issue 35): 120 uploads in a minute, a self-play 1.3 s and a Dummy match 0.6 s on a runner to
  // itself, five times as long beside the uploads' compile checks (which go first), each runner's first match 4 s longer
  // (its match process starting), and a match's run time 1.5 times its players' CPU.
  const mix = ['Q', 'L1', 'L1', 'Q', 'L2', 'L1', 'Q', 'L4', 'F', 'L1', 'Q', 'L1', 'C', 'Q', 'L1', 'L3', 'L1', 'Q', 'L1', 'L1'];
  const slowed = { factor: 5, checkSec: 1, coldSec: 4, wallPerCpu: 1.5 };
  const run = (learning: Learning) => burst(120, 0.5, mix, { learning, selfSec: 1.3, dummySec: 0.6, slowed, tick: 5 });
  const within = (xs: { ratio: number }[]) => xs.filter((s) => s.ratio >= 0.5 && s.ratio <= 1.5).length / xs.length;
  const spread = (xs: { ratio: number }[]) => {
    const r = xs.map((s) => s.ratio).sort((a, b) => a - b);
    return `estimate/real ${r[0]!.toFixed(2)}..${r.at(-1)!.toFixed(2)}, median ${r[Math.floor(r.length / 2)]!.toFixed(2)} (${r.length})`;
  };
  // The median of the matches as they ran, the slowed first ones among them: the estimate several times too long, as in the
  // bench before (0% within ±50%, estimate/real 3.81 at the median).
  const before = run('median');
  assert.ok(within(before.filter((s) => s.first)) < 0.2, `the median as they ran, on arrival: ${spread(before.filter((s) => s.first))}`);
  // From their free run time: each one slowed counted by its players' CPU (the prior's run time per CPU second, none having
  // run free before the uploads stop), the ones after as they ran.
  const after = run('free');
  const firsts = after.filter((s) => s.first);
  const waiting = after.filter((s) => !s.first);
  assert.ok(waiting.length > firsts.length, `sampled while waiting too: ${waiting.length}`);
  assert.ok(within(firsts) >= 0.8, `on arrival: ${spread(firsts)}`);
  assert.ok(within(after) >= 0.9, `every sample: ${spread(after)}`);
});

test('the free run time: a match beside a compile check counts its CPU at the run time per CPU second of those that ran free', () => {
  const m = (startedAt: number, seconds: number, cpuSeconds: number | null) => ({
    startedAt: startedAt * 1000,
    finishedAt: (startedAt + seconds) * 1000,
    durationMs: seconds * 1000,
    cpuMs: cpuSeconds === null ? null : cpuSeconds * 1000,
  });
  const checks = [{ from: 0, to: 10_000 }];
  // Before any ran free: 20 s beside the checks with 0.5 s of CPU counts 0.5 x the prior.
  assert.equal(WALL_PER_CPU_PRIOR, 2);
  assert.deepEqual(freeRunSeconds([[m(0, 20, 0.5)], []], checks), [1, null]);
  // Three free ones (after the checks) at 1.5 s a CPU second: the slowed one counts 0.75 s; the mean of the kind's, 1.25 s.
  const free = [m(10, 1.5, 1), m(12, 1.5, 1), m(14, 1.5, 1)];
  assert.deepEqual(freeRunSeconds([[m(0, 20, 0.5), ...free], [m(5, 12, 0.2)]], checks), [1.3, 0.3]);
  // A slowed one without a CPU figure: left out when its kind has free ones, as it ran when it has none.
  assert.deepEqual(freeRunSeconds([[m(0, 20, null), ...free], [m(5, 12, null)]], checks), [1.5, 12]);
  // Touching a check's span only at its ends is not beside it; no checks at all: every match as it ran.
  assert.deepEqual(freeRunSeconds([[m(10, 4, 1)]], checks), [4]);
  assert.deepEqual(freeRunSeconds([[m(0, 4, 1), m(4, 2, 1)], []], []), [3, null]);
});

test('beside a check: the sorted sweep says what comparing every match with every check span says', () => {
  // A small deterministic generator (mulberry32), so a failure is the same on every run.
  let state = 35;
  const rnd = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const span = (scale: number) => {
    const from = Math.floor(rnd() * scale);
    return { from, to: from + Math.floor(rnd() * scale * 0.05) };
  };
  for (let round = 0; round < 300; round++) {
    const scale = [10, 1000, 600_000][round % 3]!;
    const checks = Array.from({ length: Math.floor(rnd() * 60) }, () => span(scale));
    const matches = Array.from({ length: 60 }, () => {
      const s = span(scale);
      return { startedAt: s.from, finishedAt: s.to };
    });
    const beside = besideACheck(checks);
    const wrong = matches.filter((m) => beside(m) !== checks.some((c) => c.from < m.finishedAt && c.to > m.startedAt));
    assert.deepEqual(wrong, [], `round ${round}, against ${JSON.stringify(checks)}`);
  }
  // The edges: a span touching the match only at an end is not beside it; one inside it, or around it, is.
  const beside = besideACheck([
    { from: 10, to: 20 },
    { from: 100, to: 200 },
  ]);
  assert.equal(beside({ startedAt: 20, finishedAt: 30 }), false);
  assert.equal(beside({ startedAt: 0, finishedAt: 10 }), false);
  assert.equal(beside({ startedAt: 19, finishedAt: 30 }), true);
  assert.equal(beside({ startedAt: 120, finishedAt: 130 }), true);
  assert.equal(beside({ startedAt: 50, finishedAt: 300 }), true);
  assert.equal(besideACheck([])({ startedAt: 0, finishedAt: 1e15 }), false);
});

test("before any match has finished, a match's length is projected from the ones being played", () => {
  const now = 1_000_000;
  const playing = [
    // 6 s for 40 of 200 rounds: 30 s. 9 s for 120 of 200: 15 s. 4 s for 50 of 200: 16 s. The median, 16 s.
    { processedOn: now - 6000, progress: { round: 40, totalRounds: 200 } },
    { processedOn: now - 9000, progress: { round: 120, totalRounds: 200 } },
    { processedOn: now - 4000, progress: { round: 50, totalRounds: 200 } },
    // Too early to say (a twentieth of its rounds), no progress yet, not started: left out.
    { processedOn: now - 1000, progress: { round: 10, totalRounds: 200 } },
    { processedOn: now - 1000, progress: 0 },
    { progress: { round: 100, totalRounds: 200 } },
  ];
  assert.equal(projectedMatchSeconds(playing, now), 16);
  assert.equal(projectedMatchSeconds(playing.slice(3), now), null);
  // With it, a deadline's first uploads get a figure instead of "nothing to estimate from".
  const none = { selfplay: null, dummy: null, ranked: null, tournament: null, challenge: null };
  const fresh = { compiling: 3, inSelfPlay: 0, selfplay: { queued: 0, running: 0 }, dummy: { queued: 0, running: 0 }, otherRunning: [], submissions: 3 };
  assert.equal(expectedWait({ redisOk: true, slots: 2, durations: none, matchSeconds: null, work: fresh }).why.code, 'no-data');
  const projected = expectedWait({ redisOk: true, slots: 2, durations: none, matchSeconds: projectedMatchSeconds(playing, now), work: fresh });
  assert.equal(projected.why.code, 'estimate');
  assert.ok(projected.seconds! > 60, String(projected.seconds));
});

test("while compile checks go first, a match's length before any finished is the cold start's figure, not a projection from crawling matches", () => {
  const now = 1_000_000;
  // A self-play starved by the checks: a tenth of its rounds in 16 s projects 160 s a match.
  const crawling = [{ processedOn: now - 16_000, progress: { round: 20, totalRounds: 200 } }];
  assert.equal(projectedMatchSeconds(crawling, now), 160);
  assert.equal(coldMatchSeconds(5, crawling, now), COLD_MATCH_SECONDS);
  // Once no check is ahead of the matches, the matches being played tell.
  assert.equal(coldMatchSeconds(0, crawling, now), 160);
  assert.equal(coldMatchSeconds(0, [], now), null);
});
