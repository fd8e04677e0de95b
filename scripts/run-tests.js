#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner, each file in a process
// of its own (node:test's reporters in it), in three kinds so the suite fits the machine's cores:
//   1. files that only compute (engines, bots in process, the statement and
//      zip writers) or only talk to Postgres and Redis through app.inject, and
//   2. files that start workers, sandbox processes or servers but measure no
//      time run side by side, both kinds at once from one pool of slots (runPool):
//      their matches are judged by CPU, not by the clock, so sharing the cores changes no result;
//   3. then files that load the machine on purpose or watch wall time (the
//      sandbox's fairness and signal tests, the browser, the fault tests
//      with their short locks) run one at a time, after the others; the browser's, one per
//      core from when the pool has started its last file (ONE_PER_CORE).
// It closes with the slowest files ranked by CPU time (their own and their
// children's; --times[=N] lists N of them), each phase's wall time and one line
// for all phases. Pass paths or substrings to run a subset:
//   node scripts/run-tests.js moria sandbox
// The long tests are left to `--slow-only` (npm run test:slow, which CI runs
// too), so npm test stays under five minutes: statistical tests marked slow
// (test/helpers/slow.ts, skipped unless ARBITER_SLOW_TESTS=1: bot strength,
// C++ compiles), and the LONG files below (loads, faults, restarts, the play
// page's whole matches, a whole tournament's archive verified and tampered
// with). Naming a LONG file runs it anyway.
// The test files run as one esbuild bundle of them and the judge, made at the start of the run (scripts/build.js's
// buildTests: a few seconds), not through tsx, which costs each file's process a second of CPU more to load its
// modules; the commands and servers the tests start with ARBITER_FROM_SOURCE=1 run that bundle too (bin/entry.js,
// ARBITER_TEST_BUNDLE). The report still names the sources (scripts/test-reporter.mjs, and source maps).
// With --checks (npm test) the typecheck, the import check and Biome run beside
// the tests instead of before them (they take a core for a quarter of a minute
// while the first files wait on Postgres and child processes): their output is
// printed at the end when they fail, and a failure of any of them fails the run as a failing
// test would.
import { readdirSync, statSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Files that run nothing but this process's own computation, or only queries through app.inject. */
const COMPUTE_ONLY = [
  /^test\/deploy\//,
  /^test\/games\//,
  /^test\/sdk\//,
  /^test\/sandbox\/languages\/cpp\/cpp-parts\.test\.ts$/,
  /^test\/http\/(render\/statement|starter-kit\/zip|pages\/account-pages|pages\/read-pages|i18n\/i18n)\.test\.ts$/,
  /^test\/http\/api\//,
  /^test\/http\/(auth|bad-input|metrics|route-access|security)\.test\.ts$/,
  /^test\/db\//,
  /^test\/config\.test\.ts$/,
  /^test\/domain\/similarity\//,
  /^test\/domain\/(builtin-copies|course-time|gate-seeds|names)\.test\.ts$/,
  /^test\/domain\/tournaments\/rules\.test\.ts$/,
  /^test\/jobs\/scheduler\/retention\.test\.ts$/,
  /^test\/queue\/redis\.test\.ts$/,
];
/** Files that load the machine on purpose or watch the clock: alone. */
const ALONE = [
  /^test\/sandbox\/fairness\.test\.ts$/,
  // Its memory bounds are read while an RSS watcher polls: on a loaded machine the poll came late and a bot's
  // process grew past the bound before it was stopped (410 MiB against 280).
  /^test\/sandbox\/hostile\.test\.ts$/,
  /^test\/jobs\/worker\/worker-signals\.test\.ts$/,
  /^test\/http\/client\/browser-/,
  /^test\/jobs\/recovery\.test\.ts$/,
  /^test\/domain\/tournaments\/e2e\.test\.ts$/,
];
/**
 * Files that run for a minute or more between them, test:slow's with the statistical ones: faults and
 * loads, and the play page's whole matches of every game (in Chromium, then again in the sandbox).
 */
const LONG = [
  // Whole-process CLI runs (admin on an embedded PGlite, a scaffolded game played and verified) and the
  // queue's faults and waits (Redis down, backoffs): a minute and a half of CPU between them.
  /^test\/cli\/(admin|new-game)\.test\.ts$/,
  /^test\/jobs\/queue-honesty\.test\.ts$/,
  /^test\/sandbox\/fairness\.test\.ts$/,
  /^test\/jobs\/worker\/worker-signals\.test\.ts$/,
  /^test\/jobs\/recovery\.test\.ts$/,
  /^test\/domain\/tournaments\/(e2e|verify)\.test\.ts$/,
  /^test\/http\/client\/browser-play\.test\.ts$/,
  // A scheduler and a recorder SIGKILLed under their leases with real processes (a minute): the lease's
  // own rules are proven in process by test/http/replicas-limits and the recorder's restart in recovery.
  /^test\/deploy\/lease\.test\.ts$/,
  // Whole matches of the rewritten Dummies against their previous versions, decision by decision (20 s of
  // CPU): npm test keeps the golden Dummy traces, which compare the same decisions with the original's.
  /^test\/games\/[a-z-]+\/dummy-reference\.test\.ts$/,
];

const slowOnly = process.argv.includes('--slow-only');
const withChecks = process.argv.includes('--checks');
// --times[=N]: the closing list of the slowest files is N long (10 without the flag, 20 with it alone).
const timesArg = process.argv.find((a) => a === '--times' || a.startsWith('--times='));
const timesShown = timesArg ? Number(timesArg.split('=')[1] ?? 20) || 20 : 10;
const filters = process.argv.slice(2).filter((a) => a !== '--slow-only' && a !== '--checks' && a !== timesArg);
if (slowOnly) process.env.ARBITER_SLOW_TESTS = '1';
// Passwords hash at scrypt's N = 2^10 rather than 2^15 (PASSWORD_HASH_COST): the suite registers hundreds of users, and
// a hash's cost is not what those tests prove; test/http/auth.test.ts checks the production default.
process.env.PASSWORD_HASH_COST ??= '10';
// The servers tests start do not warm a C++ compile server each (clang's own module is a minute of CPU); the C++ tests start theirs.
process.env.CPP_PREWARM ??= '0';
const files = walk('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => {
    const long = LONG.some((re) => re.test(f));
    if (slowOnly) return long || readFileSync(f, 'utf8').includes('helpers/slow.ts');
    return !long || filters.length > 0;
  })
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Each file's CPU time in earlier runs of this checkout (in the temp dir, so npm ci keeps it; a fresh machine has none): a phase
// starts its heaviest files first, so the last file to finish is a short one rather than the longest starting
// last (longest first packs a phase's files onto its slots best). A file never timed counts as the heaviest.
const CPU_TIMES = join(tmpdir(), `arbiter-test-cpu-ms-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}.json`);
let knownCpuMs = {};
try {
  knownCpuMs = JSON.parse(readFileSync(CPU_TIMES, 'utf8'));
} catch {
  // first run here: alphabetical order
}
const heaviestFirst = (list) => list.sort((a, b) => (knownCpuMs[b] ?? Number.MAX_VALUE) - (knownCpuMs[a] ?? Number.MAX_VALUE) || a.localeCompare(b));
const computeOnly = files.filter((f) => COMPUTE_ONLY.some((re) => re.test(f)));
const alone = files.filter((f) => !computeOnly.includes(f) && ALONE.some((re) => re.test(f)));
const shared = files.filter((f) => !computeOnly.includes(f) && !alone.includes(f));

const tmp = mkdtempSync(join(tmpdir(), 'arbiter-tests-'));
// The test files and the judge bundled once (esbuild, a few seconds of CPU) instead of each file's process
// loading its few hundred modules through tsx (a second of CPU more per file); in the checkout, where the
// bundles' packages resolve from node_modules, and gone at the end.
const bundleDir = join(process.cwd(), 'node_modules', '.cache', `arbiter-tests-${process.pid}`);
// A run that was killed left its bundle: gone once its process is.
for (const name of (() => {
  try {
    return readdirSync(dirname(bundleDir));
  } catch {
    return [];
  }
})()) {
  const pid = Number(/^arbiter-tests-(\d+)$/.exec(name)?.[1]);
  if (!pid || pid === process.pid) continue;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'ESRCH') rmSync(join(dirname(bundleDir), name), { recursive: true, force: true });
  }
}
const bundled = new Map();
const sourceOf = new Map();
{
  const started = performance.now();
  const { buildTests } = await import('./build.js');
  for (const [source, out] of await buildTests({ outdir: bundleDir, tests: files })) {
    bundled.set(source, out);
    sourceOf.set(out, source);
  }
  console.log(`bundled ${files.length} test files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const totals = { pass: 0, fail: 0, skipped: 0, cancelled: 0, todo: 0 };
/** Each file's wall and CPU time (scripts/test-process-times.mjs in its process), for the closing list of the slowest. */
const fileTimes = [];
/** Each phase's wall time. */
const phaseWall = [];
let status = 0;
const perCore = Math.max(1, Math.min(2, availableParallelism()));
heaviestFirst(computeOnly);
heaviestFirst(shared);
heaviestFirst(alone);

/** The options every test file's process starts with. */
const NODE_ARGS = [
  '--no-node-snapshot',
  // Stacks name the sources' lines (esbuild's maps beside the bundles; no measurable cost to load them).
  '--enable-source-maps',
  '--import',
  pathToFileURL(join(bundleDir, 'modules.js')).href,
  '--import',
  new URL('./test-process-times.mjs', import.meta.url).href,
];
let fileCount = 0;

/**
 * Runs one test file in a process of its own, `node <bundle>` with node:test's reporters (no `node --test`
 * process above it: a tenth of a second of CPU less per file), and prints its report when it ends, whole, so
 * the reports of files running side by side do not interleave. `phase` numbers its kind in the closing list.
 */
function runFile(file, phase) {
  const n = ++fileCount;
  const tap = join(tmp, `${n}.tap`);
  const spec = join(tmp, `${n}.spec`);
  const times = join(tmp, `${n}.times`);
  const bundle = bundled.get(file);
  const args = [
    ...NODE_ARGS,
    `--test-reporter=${new URL('./test-reporter.mjs?spec', import.meta.url).href}`,
    `--test-reporter-destination=${spec}`,
    `--test-reporter=${new URL('./test-reporter.mjs?tap', import.meta.url).href}`,
    `--test-reporter-destination=${tap}`,
    bundle,
  ];
  return new Promise((done) => {
    // The suite runs the sources (bundled above; bin/arbiter.js runs the same bundle), not a build that may be older;
    // test/cli/built.test.ts builds and runs dist/.
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ARBITER_FROM_SOURCE: '1',
        ARBITER_TEST_TIMES_FILE: times,
        ARBITER_TEST_TIMES_OF: bundle,
        ARBITER_TEST_BUNDLE: bundleDir,
      },
    });
    let output = '';
    child.stdout.on('data', (b) => (output += b));
    child.stderr.on('data', (b) => (output += b));
    child.on('close', (code, signal) => {
      let report = '';
      let text = '';
      try {
        report = readFileSync(spec, 'utf8');
        text = readFileSync(tap, 'utf8');
      } catch {
        // no report: the file failed before its tests ran (its output says why)
      }
      const counts = {};
      for (const key of Object.keys(totals)) {
        const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(text);
        counts[key] = m ? Number(m[1]) : 0;
        totals[key] += counts[key];
      }
      const failed = code !== 0 || signal !== null;
      // A file that failed outside a test (an error as it loaded, after its tests) is a failure of its own.
      if (failed && counts.fail + counts.cancelled === 0) totals.fail += 1;
      if (failed) status ||= code || 1;
      process.stdout.write(`${output}${report}`);
      if (failed) process.stdout.write(`✖ ${file}: its process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}\n`);
      try {
        for (const line of readFileSync(times, 'utf8').split('\n').filter(Boolean)) {
          const { wallMs, cpuMs, childCpuMs } = JSON.parse(line);
          fileTimes.push({ file, wallMs, cpuMs: cpuMs + (childCpuMs ?? 0), phase });
        }
      } catch {
        // no times: the process ended before its exit handler
      }
      done();
    });
  });
}

/**
 * Compute-only and shared files spend much of their time waiting (Postgres, Redis, child processes starting),
 * and neither kind watches the clock (matches are judged by CPU): they run side by side, twice as many as cores
 * and two more (a file waits far longer than it computes), heaviest first, each slot taking the next file as
 * soon as its file ends, so the cores stay busy to the last file: one more compute-only file than cores at most,
 * and of the files that start servers and workers, one more than cores while compute-only files remain (twice
 * as many as cores after). Files that watch the clock run after them (runOnePerCore, runAlone).
 */
async function runPool(onTail) {
  const started = performance.now();
  // test:slow's files are compiles and loads that time themselves against budgets: as many at once as before the
  // pool (one more compute-only file than cores, as many shared files as cores); at twice that, its budget tests
  // failed in CI now and then.
  const slots = slowOnly ? 2 * perCore + 1 : 2 * perCore + 2;
  const running = { compute: 0, shared: 0 };
  const queue = { compute: [...computeOnly], shared: [...shared] };
  await new Promise((finished) => {
    const next = () => {
      while (running.compute + running.shared < slots) {
        const sharedCap = slowOnly ? perCore : queue.compute.length > 0 ? perCore + 1 : 2 * perCore;
        const kind =
          queue.compute.length > 0 && running.compute < perCore + 1 ? 'compute' : queue.shared.length > 0 && running.shared < sharedCap ? 'shared' : null;
        if (!kind) break;
        const file = queue[kind].shift();
        running[kind]++;
        runFile(file, kind === 'compute' ? 1 : 2).then(() => {
          running[kind]--;
          next();
        });
      }
      const queued = queue.compute.length + queue.shared.length;
      if (queued === 0) onTail();
      if (running.compute + running.shared === 0 && queued === 0) finished();
    };
    next();
  });
  phaseWall[0] = performance.now() - started;
}

/**
 * The browser's files watch the clock (a viewer's round within seconds) but keep less than a core busy each (a
 * Chromium and a judge, mostly waiting on each other): as many at once as cores, from when the pool has started
 * its last file (its files judge by CPU), so the cores the pool's last files leave idle are theirs. Not
 * test:slow's browser-play, whose whole matches time an endless loop's stop: alone, as before.
 */
const ONE_PER_CORE = [/^test\/http\/client\/browser-(?!play\.test)/];

/** The browser's files, one per core (ONE_PER_CORE). */
async function runOnePerCore() {
  const started = performance.now();
  const files = alone.filter((f) => ONE_PER_CORE.some((re) => re.test(f)));
  const lane = async () => {
    for (let file = files.shift(); file; file = files.shift()) await runFile(file, 3);
  };
  await Promise.all(Array.from({ length: perCore }, lane));
  phaseWall[1] = performance.now() - started;
}

/** The other files that watch the clock, after everything else: one at a time. */
async function runAlone() {
  const started = performance.now();
  for (const file of alone.filter((f) => !ONE_PER_CORE.some((re) => re.test(f)))) await runFile(file, 3);
  phaseWall[2] = performance.now() - started;
}

/** The checks npm test runs beside the tests, one after another (the typecheck runs a tsc per core itself). */
const CHECKS = [
  ['typecheck', process.execPath, ['scripts/typecheck.js']],
  ['check-imports', process.execPath, ['scripts/check-imports.js']],
  ['biome', join('node_modules', '.bin', 'biome'), ['ci', '--error-on-warnings', '--colors=off', '.']],
];
/** Each check's name, exit code and output (stdout and stderr in order), once it ended. */
async function runChecks() {
  const results = [];
  for (const [name, command, args] of CHECKS) {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (b) => (output += b));
    child.stderr.on('data', (b) => (output += b));
    const code = await new Promise((done) => {
      child.on('error', (err) => {
        output += `${err.message}\n`;
        done(1);
      });
      child.on('close', (c, signal) => done(signal ? 1 : c));
    });
    results.push({ name, code, output, wallMs: performance.now() - started });
  }
  return results;
}
const checks = withChecks ? runChecks() : null;

{
  const started = performance.now();
  let tail;
  const tailReached = new Promise((reached) => (tail = reached));
  await Promise.all([
    computeOnly.length + shared.length > 0 ? runPool(tail) : tail(),
    tailReached.then(() => (alone.some((f) => ONE_PER_CORE.some((re) => re.test(f))) ? runOnePerCore() : undefined)),
  ]);
  if (alone.some((f) => !ONE_PER_CORE.some((re) => re.test(f)))) await runAlone();
  phaseWall[3] = performance.now() - started;
}
rmSync(tmp, { recursive: true, force: true });
rmSync(bundleDir, { recursive: true, force: true });
try {
  for (const t of fileTimes) knownCpuMs[t.file] = t.cpuMs;
  writeFileSync(CPU_TIMES, `${JSON.stringify(knownCpuMs, null, 1)}\n`);
} catch {
  // no temp dir to keep them in: the next run starts alphabetically
}
if (totals.pass + totals.fail === 0) status ||= 1;
const checkResults = checks ? await checks : [];
for (const check of checkResults) {
  console.log(`\n${check.name}: ${check.code === 0 ? 'passed' : `FAILED (exit ${check.code})`} in ${(check.wallMs / 1000).toFixed(1)} s`);
  if (check.code !== 0) {
    console.log(check.output.trimEnd());
    status ||= 1;
  }
}
if (fileTimes.length > 1) {
  // Ranked by CPU time (the file's process and the children it waited for): on a shared machine the wall time
  // says as much about the neighbours as about the file.
  const s = (ms) => (ms / 1000).toFixed(1).padStart(6);
  console.log(
    `\nslowest files by CPU (phase, CPU s, wall s; ${fileTimes.length} files, ${s(fileTimes.reduce((a, t) => a + t.cpuMs, 0)).trim()} s CPU in all):`,
  );
  for (const t of fileTimes.sort((a, b) => b.cpuMs - a.cpuMs).slice(0, timesShown)) console.log(`  ${t.phase}  ${s(t.cpuMs)}  ${s(t.wallMs)}  ${t.file}`);
}
const PHASE_NAMES = ['compute-only and shared files (1, 2)', "the browser's files (3, from the pool's last files on)", 'files alone (3)', 'all files'];
for (const [i, ms] of phaseWall.entries()) if (ms !== undefined) console.log(`${PHASE_NAMES[i]}: ${(ms / 1000).toFixed(1)} s wall`);
console.log(`\ntests: ${totals.pass} passed, ${totals.fail + totals.cancelled} failed, ${totals.skipped} skipped`);
const failedChecks = checkResults.filter((c) => c.code !== 0).map((c) => c.name);
if (failedChecks.length > 0) console.log(`checks failed: ${failedChecks.join(', ')}`);
process.exit(status);
