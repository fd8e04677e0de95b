// Runs esbuild on one bot file in a process of its own, started for that file
// and gone after it. esbuild's shared service process dies on some inputs (a
// stack overflow on deeply nested code) and takes every later compile of the
// calling process with it; here each file gets a fresh process, bounded in
// time (killed after a timeout) and memory (a data limit through util-linux's
// prlimit, Go's soft limit, and a kill when its RSS passes the cap).
//
// What happens to the process is reported as it is; whether the file or the
// machine is to blame is decided by the caller (src/sandbox/languages/javascript/compile.ts).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { compilerLimits, readSettings } from '../../../config.ts';
import { Slots } from '../../system/slots.ts';
import { rssBytes } from '../../system/proc.ts';

/** How a run ended. */
export type EsbuildRun =
  | { kind: 'ok'; stdout: string }
  /** esbuild reported errors in the file (exit 1): its text output. */
  | { kind: 'rejected'; stderr: string }
  /** The file's doing if it happens again on a fresh process. */
  | { kind: 'crash' | 'memory' | 'timeout' | 'output'; detail: string }
  /** The machine's doing: could not start, or killed by a signal we did not send. */
  | { kind: 'infra'; detail: string };

export interface CompilerSettings {
  /** Wall time allowed to one run, ms. */
  timeoutMs: number;
  /** Memory allowed to one run, MiB. */
  memoryMb: number;
  /** The esbuild executable (tests point it at stand-ins). */
  command: string;
  /** Runs at once in this process; the others wait their turn. */
  concurrency: number;
}

/**
 * The esbuild binary bots are compiled with: ARBITER_ESBUILD when set (for the judge's compiles alone:
 * ESBUILD_BINARY_PATH also steers the esbuild that loads Arbiter's own TypeScript), else the platform's,
 * as the esbuild package itself would find it.
 */
function findEsbuild(): string {
  const { esbuildPath, esbuildBinaryPath } = readSettings(['esbuildPath', 'esbuildBinaryPath']);
  if (esbuildPath !== null) return esbuildPath;
  if (esbuildBinaryPath !== null) return esbuildBinaryPath;
  const esbuildPackage = createRequire(import.meta.url).resolve('esbuild/package.json');
  try {
    const inPlatformPackage = process.platform === 'win32' ? 'esbuild.exe' : 'bin/esbuild';
    return createRequire(esbuildPackage).resolve(`@esbuild/${process.platform}-${process.arch}/${inPlatformPackage}`);
  } catch {
    // Platforms whose package is named differently: the package's own launcher finds it.
    return join(dirname(esbuildPackage), 'bin', 'esbuild');
  }
}

let settings: CompilerSettings | null = null;

/** The limits in force (COMPILE_TIMEOUT_MS, COMPILE_MEMORY_MB); tests may change them. */
export function compilerSettings(): CompilerSettings {
  if (!settings) {
    const limits = compilerLimits();
    settings = {
      timeoutMs: limits.compileTimeoutMs,
      memoryMb: limits.compileMemoryMb,
      command: findEsbuild(),
      concurrency: Math.max(1, availableParallelism()),
    };
  }
  return settings;
}

const PRLIMIT =
  process.platform === 'linux'
    ? (process.env.PATH ?? '')
        .split(delimiter)
        .map((d) => join(d, 'prlimit'))
        .find((p) => existsSync(p))
    : undefined;

const RSS_POLL_MS = 25;
/** Enough of esbuild's stderr for its first errors and a crash's first lines (a Go crash prints megabytes of stack). */
const STDERR_KEPT = 16 * 1024;
/** Signals a process raises on itself when it faults: the input's doing if it reproduces. */
const SELF_INFLICTED = new Set<string>(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGSYS']);
const OUT_OF_MEMORY = /out of memory|cannot allocate memory|bad_alloc/i;

let slots: Slots | null = null;

/** Compiles `source` once in a fresh esbuild process with `args`. Never throws. */
export async function runEsbuild(source: string, args: string[]): Promise<EsbuildRun> {
  const s = compilerSettings();
  if (!slots || slots.limit !== s.concurrency) slots = new Slots(s.concurrency);
  const mine = slots;
  await mine.acquire();
  try {
    return await runOnce(source, args, s);
  } finally {
    mine.release();
  }
}

function runOnce(source: string, args: string[], s: CompilerSettings): Promise<EsbuildRun> {
  const capBytes = s.memoryMb * 1024 * 1024;
  const input = Buffer.from(source, 'utf8');
  // Compiled code is a few times its source at most (escaped non-ASCII, the source map).
  const outputCap = 32 * input.length + 1024 * 1024;
  const [command, argv] = PRLIMIT ? [PRLIMIT, [`--data=${capBytes}`, '--', s.command, ...args]] : [s.command, args];
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, argv, {
        cwd: tmpdir(),
        // Nothing of this process's environment (credentials) is passed on. Go's
        // soft limit makes it collect garbage hard well before the data limit.
        env: { PATH: process.env.PATH ?? '', GOMEMLIMIT: `${Math.max(1, Math.floor(s.memoryMb / 2))}MiB`, GOMAXPROCS: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: a Ctrl-C aimed at the judge's group does not cut a compile short.
        detached: true,
        windowsHide: true,
      });
    } catch (err) {
      resolve({ kind: 'infra', detail: `the compiler could not start: ${(err as Error).message}` });
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let killedFor: 'timeout' | 'memory' | 'output' | null = null;
    let spawnError: Error | null = null;
    const kill = (why: 'timeout' | 'memory' | 'output') => {
      if (killedFor || child.exitCode !== null || child.signalCode !== null) return;
      killedFor = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), s.timeoutMs);
    const poll = setInterval(() => {
      const rss = child.pid ? rssBytes(child.pid) : null;
      if (rss !== null && rss > capBytes) kill('memory');
    }, RSS_POLL_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > outputCap) return kill('output');
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.slice(0, STDERR_KEPT - stderr.length);
    });
    // A process that dies early closes its stdin under us: the exit says why.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      const said = firstLines(stderr);
      // No process ran (spawn failed: no binary, no permission): the machine's doing, whatever the exit looks like.
      if (spawnError) return resolve({ kind: 'infra', detail: `the compiler could not start: ${(spawnError as Error).message}` });
      if (killedFor === 'timeout') return resolve({ kind: 'timeout', detail: `killed after ${s.timeoutMs} ms` });
      if (killedFor === 'memory') return resolve({ kind: 'memory', detail: `killed at more than ${s.memoryMb} MiB of RSS` });
      if (killedFor === 'output') return resolve({ kind: 'output', detail: `more than ${outputCap} bytes of output` });
      if (signal !== null) {
        if (SELF_INFLICTED.has(signal))
          return resolve({ kind: OUT_OF_MEMORY.test(stderr) ? 'memory' : 'crash', detail: `${signal}${said ? `: ${said}` : ''}` });
        return resolve({ kind: 'infra', detail: `the compiler was killed by ${signal}, which the judge did not send` });
      }
      if (code === 0) return resolve({ kind: 'ok', stdout: Buffer.concat(stdout).toString('utf8') });
      if (code === 1 && /\[ERROR\]/.test(stderr)) return resolve({ kind: 'rejected', stderr });
      // prlimit's own failures (it could not run the compiler) are the machine's.
      if (PRLIMIT && /^prlimit: /m.test(stderr)) return resolve({ kind: 'infra', detail: said });
      return resolve({ kind: OUT_OF_MEMORY.test(stderr) ? 'memory' : 'crash', detail: `exit code ${code}${said ? `: ${said}` : ''}` });
    });
  });
}

/** The first lines of a crash report, without Go's goroutine dump. */
function firstLines(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 3)
    .join(' | ')
    .slice(0, 300);
}
