// Preloaded into each test file's process by scripts/run-tests.js: when the file's process exits, appends one JSON
// line to ARBITER_TEST_TIMES_FILE with the file, its wall time from process start (loading
// tsx and the imports included, which the runner's per-test durations leave out) and its CPU
// time, its own and that of the child processes it waited for (workers, sandboxes, servers),
// read from /proc/self/stat. CPU time is what ranks files on a loaded machine: wall time there
// says more about the neighbours than about the file.
import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const out = process.env.ARBITER_TEST_TIMES_FILE;
// Only a test file's own process (ARBITER_TEST_TIMES_OF names its file): not a worker a test spawns with this environment.
if (out && process.argv[1] && process.argv[1] === process.env.ARBITER_TEST_TIMES_OF) {
  process.on('exit', () => {
    let cpuMs = null;
    let childCpuMs = null;
    try {
      // Fields after the command name (which may hold spaces, so split after its closing paren):
      // utime, stime, cutime, cstime are the 12th to 15th, in clock ticks (USER_HZ, 100 on Linux).
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const f = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      cpuMs = (f[11] + f[12]) * 10;
      childCpuMs = (f[13] + f[14]) * 10;
    } catch {
      const u = process.cpuUsage();
      cpuMs = (u.user + u.system) / 1000;
    }
    try {
      appendFileSync(out, `${JSON.stringify({ file: process.argv[1], wallMs: Math.round(performance.now()), cpuMs, childCpuMs })}\n`);
    } catch {
      // the runner's temporary folder is gone: nothing to report to
    }
  });
}
