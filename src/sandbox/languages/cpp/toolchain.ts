// Compiles a student's C++ player (AIName.cc, unchanged) to a wasm32-wasip1
// reactor module against the game's C++ headers (headers.ts).
//
// Two toolchains, the same flags (-flto on both: the same module layout, so
// the same verdict on static data):
// - a system clang with a wasm32 sysroot (Debian: clang lld wasi-libc
//   libc++-dev-wasm32 libclang-rt-dev-wasm32), fast, used when present and
//   when the OS can confine it (confine.ts: namespaces and a root holding
//   nothing but the toolchain, the headers and the file, or where namespaces
//   are refused, as in a container under Docker's default seccomp profile,
//   Landlock: nothing else may be opened);
// - @yowasp/clang (clang and lld built as WebAssembly, installed by npm), in
//   a compile server process kept between compiles (clang-server.mjs), whose
//   file system is the in-memory tree of the headers and the file alone.
// ARBITER_CPP_CLANG=npm|system forces one.
//
// Two lanes: 'judge' (the gate, rejudges, matches) and 'play' (the play
// page), each with its own capacity (npm compile server, system slots); the
// play lane's compilers run at nice 19 with a bounded queue, so judging never
// waits for the play page.
//
// Each compile is bounded in wall time, CPU time and memory
// (CPP_COMPILE_TIMEOUT_MS, CPP_COMPILE_CPU_SECONDS, CPP_COMPILE_MEMORY_MB)
// and runs with none of this process's environment. Only results the file is
// to blame for are cached: a module, or diagnostics that point at the file or
// the game's headers (never a driver's or a linker's failure), by a hash of
// the source, its name, the headers and the toolchain, in memory and on disk
// (CPP_CACHE_DIR), both bounded in bytes.

import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameHeaders, shippedCppPlayer } from './headers.ts';
import { confinementFor, type Confinement } from './confine.ts';
import { dataSegmentBytes, readMemoryImport, trimZeroData, WASM_PAGE } from './wasm-module.ts';
import { Slots } from '../../system/slots.ts';
import { cpuMs, groupCpuMs, rssBytes } from '../../system/proc.ts';
import { partLog, type Log } from '../../../log.ts';
import { readSettings } from '../../../config.ts';

export type Lane = 'judge' | 'play';

export interface CppCompileSettings {
  /** CPU time allowed to one compile, ms (the play lane's may be less: the client's budget); the wall time allowed is three times it. */
  timeoutMs: number;
  /** CPU time allowed to one compile, seconds, if not timeoutMs. */
  cpuSeconds?: number;
  memoryMb: number;
  /** A fresh npm compile server's warm-up (it compiles the toolchain's own module). */
  warmupMs: number;
  cacheDir: string;
  /** Bytes of results kept in memory, and on disk. */
  memoryCacheBytes: number;
  diskCacheBytes: number;
  /** The largest module a compile may give, bytes (initialized global data makes it big). */
  maxModuleBytes: number;
  /** 'npm' or 'system' forces a toolchain; 'auto' prefers a working, confined system clang. */
  toolchain: 'auto' | 'npm' | 'system';
  /** System compiles at once in each lane. */
  judgeSlots: number;
  playSlots: number;
  /** Play compiles waiting for the lane beyond which the next is refused ('busy'). */
  playQueue: number;
  /** Flags added to every compile (tests: a linker that is not there). */
  extraFlags: string[];
  /** Where the games' precompiled headers are kept (named by the toolchain, the flags and the headers: any process may share them). */
  pchDir: string;
  /** Precompiled headers on: a file that starts with #include "Player.hh" skips parsing it (CPP_PCH=0 turns them off). */
  pch: boolean;
  /** How the system clang is confined (CPP_CONFINEMENT): namespaces, Landlock, or auto (the first that works). */
  confinement: 'auto' | 'namespaces' | 'landlock';
}

let settings: CppCompileSettings | null = null;

export function cppCompileSettings(): CppCompileSettings {
  if (!settings) {
    // The declarations in src/config.ts: a bad value is refused there, naming its variable.
    const c = readSettings([
      'cppToolchain',
      'cppCompileTimeoutMs',
      'cppCompileCpuSeconds',
      'cppCompileMemoryMb',
      'cppCompileWarmupMs',
      'cacheDir',
      'cppCacheDir',
      'cppMemoryCacheMb',
      'cppDiskCacheMb',
      'cppMaxModuleMb',
      'cppJudgeCompiles',
      'cppPlayCompiles',
      'cppPlayQueue',
      'cppPchDir',
      'cppPch',
      'cppConfinement',
    ]);
    settings = {
      timeoutMs: c.cppCompileTimeoutMs,
      ...(c.cppCompileCpuSeconds !== null ? { cpuSeconds: c.cppCompileCpuSeconds } : {}),
      memoryMb: c.cppCompileMemoryMb,
      warmupMs: c.cppCompileWarmupMs,
      // Under this instance's CACHE_DIR, unless named apart.
      cacheDir: c.cppCacheDir ?? join(c.cacheDir, 'cpp'),
      memoryCacheBytes: c.cppMemoryCacheMb * 1024 * 1024,
      diskCacheBytes: c.cppDiskCacheMb * 1024 * 1024,
      maxModuleBytes: c.cppMaxModuleMb * 1024 * 1024,
      toolchain: c.cppToolchain,
      judgeSlots: c.cppJudgeCompiles,
      playSlots: c.cppPlayCompiles,
      playQueue: c.cppPlayQueue,
      extraFlags: [],
      pchDir: c.cppPchDir ?? join(c.cacheDir, 'pch'),
      pch: c.cppPch,
      confinement: c.cppConfinement,
    };
  }
  return settings;
}

/** Tests change the settings; the next compile reads them again. */
export function resetCppCompileSettings(next?: Partial<CppCompileSettings>): void {
  settings = { ...cppCompileSettings(), ...next };
  systemClang = undefined;
  memory.clear();
  memoryBytes = 0;
  systemSlots = {};
  pchBuilds.clear();
}

/** The linear memory's stack, at its start (--stack-first): an overflow traps instead of overwriting data. */
export const STACK_BYTES = 8 * 1024 * 1024;

/** Flags shared by both toolchains (the target's spelling differs: clang 14 knows only wasm32-wasi). */
function flags(target: string, source: string, output: string, extra: string[] = []): string[] {
  return [
    `--target=${target}`,
    '-std=c++17',
    // -O3: about 8% less CPU than -O2 on the stress players (bench cpp cpu); -msimd128, -mbulk-memory,
    // -mnontrapping-fptoint and -msign-ext measured no better, so the module keeps the default features.
    '-O3',
    // Link-time optimization: the object file is bitcode. Without it, a wasm object file holds a large
    // global array as that many zero bytes (wasm objects have no bss): the WebAssembly clang took 50 s
    // for a 32 MiB array, and the two toolchains laid out static data differently.
    '-flto',
    ...extra,
    // No exceptions in the module: a throw is a compile error, a failed allocation calls arbiter's handler.
    '-fno-exceptions',
    '-w',
    '-ferror-limit=20',
    '-fno-color-diagnostics',
    '-mexec-model=reactor',
    '-Iinclude',
    '-Wl,--import-memory',
    `-Wl,-z,stack-size=${STACK_BYTES}`,
    '-Wl,--stack-first',
    '-Wl,--strip-all',
    source,
    '-o',
    output,
  ];
}

export type CppCompileResult =
  | { ok: true; wasm: Uint8Array; toolchain: string }
  /** The file's own diagnostics (they point at it or at the game's headers). */
  | { ok: false; kind: 'rejected'; stderr: string; uncached?: true }
  /** The file's doing, said without the compiler's words (a module too large). */
  | { ok: false; kind: 'refused'; message: string }
  /** The file's doing if it happens again. */
  | { ok: false; kind: 'timeout' | 'memory' | 'crash'; detail: string }
  /** The judge's: the toolchain could not run, or failed in a way that is not the file's. */
  | { ok: false; kind: 'infra'; detail: string }
  /** The play lane's bounds, not the file's: its queue is full, or the client's CPU budget ran out. */
  | { ok: false; kind: 'busy' | 'budget'; detail: string };

export interface CompileOptions {
  lane?: Lane;
  /** CPU seconds this compile may use, if fewer than the lane's (the play client's budget); over it: 'budget'. */
  budgetSeconds?: number;
  /** The game's memory limit, MiB: a module whose static data needs more is refused. */
  memoryMb?: number;
  /** Told the CPU time the compile used, ms (cache hits use none). */
  onCpu?: (ms: number) => void;
}

let logger: Log | null = null;
const log: Log = (m, f) => (logger ??= partLog('cpp'))(m, f);

// --- system clang ----------------------------------------------------------

let systemClang: { clang: string; confinement: Confinement } | { error: string } | undefined;

/**
 * What a clang++ that passed the probe read: its own binary and every file the probe's compile opened (its
 * depfile), each with its size and modification time. Kept in CACHE_DIR, beside the compile cache, so a process that
 * finds the same files unchanged skips the probe (a compile of <vector> and <iostream>, about a second of CPU that
 * every `arbiter play` or `eval` of a C++ bot and every worker start paid). Any change, a file gone or another
 * clang++ first on PATH, probes again; a failed probe is never remembered.
 */
interface ClangProbeRecord {
  clang: string;
  files: [path: string, size: number, mtimeMs: number][];
}

const PROBE_SOURCE = '#include <vector>\n#include <iostream>\nint probe() { std::vector<int> v(3); std::cerr << v.size(); return 0; }\n';

function fileStamp(path: string): [string, number, number] | null {
  try {
    const st = statSync(path);
    return [path, st.size, st.mtimeMs];
  } catch {
    return null;
  }
}

/** In this instance's CACHE_DIR, beside (not among) the compile cache's modules. */
function probeRecordPath(): string {
  return join(readSettings(['cacheDir']).cacheDir, 'clang-probe.json');
}

/** The remembered probe, when it was of this clang++ and none of the files it read has changed. */
function rememberedProbe(clang: string): boolean {
  try {
    const record = JSON.parse(readFileSync(probeRecordPath(), 'utf8')) as ClangProbeRecord;
    if (record.clang !== clang || !Array.isArray(record.files) || record.files.length < 2) return false;
    return record.files.every(([path, size, mtimeMs]) => {
      const now = fileStamp(path);
      return now !== null && now[1] === size && now[2] === mtimeMs;
    });
  } catch {
    return false;
  }
}

function rememberProbe(clang: string, depfile: string): void {
  try {
    // A depfile: "probe.o: probe.cc \\\n /usr/include/...": every path after the target.
    const paths = readFileSync(depfile, 'utf8')
      .replace(/\\\n/g, ' ')
      .split(/\s+/)
      .slice(1)
      .filter((p) => p.startsWith('/'));
    const files = [realpathSync(clang), ...paths].map(fileStamp);
    if (files.some((f) => f === null)) return;
    const record: ClangProbeRecord = { clang, files: files as ClangProbeRecord['files'] };
    const path = probeRecordPath();
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, path);
  } catch {
    // Not remembered: the next process probes again.
  }
}

/** A clang++ on PATH that compiles <vector> for wasm32-wasi, or why none does (null: no clang++ on PATH at all). */
function probeClang(): string | { failures: string[] } | null {
  const failures: string[] = [];
  const names = ['clang++', ...[21, 20, 19, 18, 17, 16, 15, 14].map((v) => `clang++-${v}`)];
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    const path = dirs.map((d) => join(d, name)).find((p) => existsSync(p));
    if (!path) continue;
    if (rememberedProbe(path)) return path;
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-probe-'));
    try {
      writeFileSync(join(dir, 'probe.cc'), PROBE_SOURCE);
      const r = spawnSync(path, ['--target=wasm32-wasi', '-c', 'probe.cc', '-o', 'probe.o', '-MD', '-MF', 'probe.d'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: PROBE_TIMEOUT_MS,
        env: { PATH: process.env['PATH'] ?? '' },
      });
      if (r.status === 0) {
        rememberProbe(path, join(dir, 'probe.d'));
        return path;
      }
      // Said in the log (systemToolchain): a judge that falls back to the npm toolchain, 2-5x the CPU a compile, says why.
      const why = r.error
        ? (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
          ? `the probe compile took more than ${PROBE_TIMEOUT_MS / 1000} s`
          : r.error.message
        : r.signal
          ? `killed by ${r.signal}`
          : `exit ${r.status}: ${String(r.stderr ?? '')
              .trim()
              .split('\n')
              .slice(0, 3)
              .join(' / ')
              .slice(0, 300)}`;
      failures.push(`${path}: ${why}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return failures.length > 0 ? { failures } : null;
}

/** How long the probe compile (<vector>, about 0.2 s of CPU) may take: generous, since a loaded host is slow to start. */
const PROBE_TIMEOUT_MS = 30_000;

/** The system toolchain, confined, or why there is none. Probed once (about a second), logged once when it cannot be used. */
function systemToolchain(): { clang: string; confinement: Confinement } | { error: string } {
  if (systemClang !== undefined) return systemClang;
  const clang = probeClang();
  if (clang === null)
    systemClang = { error: 'no clang++ here compiles for wasm32-wasi (apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32)' };
  else if (typeof clang !== 'string') {
    systemClang = { error: `no clang++ here compiles for wasm32-wasi: ${clang.failures.join('; ')}` };
    log('the system clang failed its probe compile: C++ compiles use the npm toolchain', { level: 'warn', reasons: clang.failures });
  } else {
    const c = confinementFor(clang, cppCompileSettings().confinement);
    if ('error' in c) {
      systemClang = {
        error: `${clang} is not used: the OS cannot confine it (${c.error}); it needs unprivileged user namespaces (unshare --user --mount) or Landlock (Linux 5.13+)`,
      };
      log('the system clang cannot be confined: C++ compiles use the npm toolchain', { level: 'warn', clang, reason: c.error });
    } else {
      systemClang = { clang, confinement: c };
      log(`C++ compiles use the system clang, confined by ${c.kind}`, { clang });
    }
  }
  return systemClang;
}

/** How the system clang is confined here (confine.ts), or null when it is not used. */
export function systemConfinement(): Confinement['kind'] | null {
  const t = systemToolchain();
  return 'clang' in t ? t.confinement.kind : null;
}

/** A confined clang++ that compiles for wasm32-wasi here, or null. */
export function findSystemClang(): string | null {
  const t = systemToolchain();
  return 'clang' in t ? t.clang : null;
}

/** A Linux tool on the PATH, or undefined (elsewhere, or not installed). */
const linuxTool = (name: string) =>
  process.platform === 'linux'
    ? (process.env['PATH'] ?? '')
        .split(delimiter)
        .map((d) => join(d, name))
        .find((p) => existsSync(p))
    : undefined;
const PRLIMIT = linuxTool('prlimit');
const NICE = linuxTool('nice');

/**
 * Does stderr hold the compiler's diagnostics of the file's text: `path:line:col: error:`? The student's
 * file is the only input, so such a line comes from it, its headers or a #line it wrote. A driver's or a
 * linker's failure (`clang++: error: unable to execute command...`, `wasm-ld: error: ...`) has no position.
 */
function ownDiagnostics(stderr: string): boolean {
  return /^[^\n]+:\d+:\d+: (?:fatal )?error: /m.test(stderr);
}

/** The linker's one complaint about the file: a function it declares and never defines. Said as the file's, but not cached (a linker's word). */
function undefinedSymbols(stderr: string): boolean {
  return /^wasm-ld(?:-\d+)?: error: .*undefined symbol: /m.test(stderr) && !/^\S*clang\S*: error: (?!linker command failed)/m.test(stderr);
}

const SELF_INFLICTED = new Set<string>(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGSYS']);
const OUT_OF_MEMORY = /out of memory|Allocation failed|bad_alloc|Cannot allocate memory/i;

/** The wall time a compile may take: its CPU time thrice (a loaded machine, a nice 19 play compile), at least 30 s more. */
const wallMs = (cpuLimitMs: number): number => Math.max(cpuLimitMs * 3, cpuLimitMs + 30_000);

/** A compile stopped by the wall clock: the file's doing if it had used most of its CPU time, else the machine was too busy. */
function wallTimeout(cpuMs: number, cpuLimitMs: number): CppCompileResult {
  if (cpuMs >= cpuLimitMs / 2) return { ok: false, kind: 'timeout', detail: `killed after ${wallMs(cpuLimitMs)} ms (${cpuMs} ms of CPU)` };
  return { ok: false, kind: 'infra', detail: `the machine was too busy: ${cpuMs} ms of CPU in ${wallMs(cpuLimitMs)} ms` };
}

/** Watches a compile's CPU time: over `limitMs` it is killed. */
function cpuWatch(read: () => number | null, limitMs: number, kill: () => void): { stop: () => number; over: () => boolean } {
  const start = read() ?? 0;
  // (A group's sum starts at 0; a server's CPU counts from this job.)
  let last = start;
  let over = false;
  const poll = setInterval(() => {
    const now = read();
    if (now === null) return;
    last = now;
    if (now - start > limitMs && !over) {
      over = true;
      kill();
    }
  }, 200);
  return {
    stop: () => {
      clearInterval(poll);
      const now = read();
      if (now !== null) last = now;
      return Math.max(0, last - start);
    },
    over: () => over,
  };
}

/** One run of clang: its arguments (after the program's name), the file it writes, and the precompiled header it reads, if any (a path on this machine). */
interface ClangJob {
  args: string[];
  output: string;
  pch?: string;
}

function compileWithSystem(
  t: { clang: string; confinement: Confinement },
  files: Record<string, string>,
  job: ClangJob,
  s: CppCompileSettings,
  lane: Lane,
  cpuLimitMs: number,
  memoryMb: number,
): Promise<CppCompileResult & { cpuMs: number }> {
  const place = t.confinement.open(job.pch);
  const { work } = place;
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, name)), { recursive: true });
    writeFileSync(join(work, name), text);
  }
  const args = [t.clang, ...job.args];
  let argv = [...place.argv, ...args];
  // Address space and CPU time, inherited by the driver's children (wasm-ld); a file at most as large as the module may be.
  // The CPU limit is a backstop, above the watch's: the kernel's clock runs ahead of /proc's sampled figures (about 10% here).
  // wasm-ld 14 writes a zero-initialized array into the module as that many zero bytes (trimmed afterwards): a file up to
  // four times the memory limit is let through, so the refusal says how much the program needs, as the npm toolchain's does.
  const fsize = Math.max(s.maxModuleBytes, memoryMb * 1024 * 1024) * 4;
  if (PRLIMIT) argv = [PRLIMIT, `--as=${s.memoryMb * 1024 * 1024}`, `--cpu=${Math.ceil((cpuLimitMs * 1.25) / 1000) + 2}`, `--fsize=${fsize}`, '--', ...argv];
  if (lane === 'play' && NICE) argv = [NICE, '-n', '19', ...argv];
  // A shell that says, when the compile ends, the CPU time of all its processes (waited for, so counted): `times`.
  argv = ['/bin/sh', '-c', '"$@"; s=$?; times >&2; exit $s', 'arbiter-cpp', ...argv];
  return new Promise((resolve) => {
    let cpu = 0;
    const done = (r: CppCompileResult) => {
      place.close();
      resolve({ ...r, cpuMs: cpu });
    };
    let child: ChildProcess;
    try {
      // The confinement's own environment (confine.ts): nothing of this process's.
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: place.cwd,
        env: place.env,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
    } catch (err) {
      return done({ ok: false, kind: 'infra', detail: `clang could not start: ${(err as Error).message}` });
    }
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, wallMs(cpuLimitMs));
    // Each process's CPU as last seen (cc1 and wasm-ld come and go): their sum, until `times` says it exactly.
    const seen = new Map<number, number>();
    const watch = cpuWatch(
      () => {
        const now = child.pid ? groupCpuMs(child.pid) : null;
        if (!now) return null;
        for (const [pid, ms] of now) seen.set(pid, Math.max(ms, seen.get(pid) ?? 0));
        let sum = 0;
        for (const ms of seen.values()) sum += ms;
        return sum;
      },
      cpuLimitMs,
      killGroup,
    );
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (c: string) => {
      if (stderr.length < 64 * 1024) stderr += c;
    });
    let spawnError: Error | null = null;
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      cpu = watch.stop();
      // `times`: the shell's own line, then its children's (user and system time).
      const times = /(?:^|\n)\d+m[\d.]+s \d+m[\d.]+s\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\n?$/.exec(stderr);
      if (times) {
        stderr = stderr.slice(0, times.index + (times[0].startsWith('\n') ? 1 : 0));
        cpu = Math.round((Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000);
      }
      if (spawnError) return done({ ok: false, kind: 'infra', detail: `clang could not start: ${(spawnError as Error).message}` });
      if (timedOut) return done(wallTimeout(cpu, cpuLimitMs));
      // SIGXCPU (prlimit's soft limit), or the watch's kill.
      const rlimit = /unable to execute command: (?:Killed|CPU time limit exceeded)|CPU time limit exceeded/.test(stderr) && cpu >= cpuLimitMs * 0.75;
      if (watch.over() || rlimit || signal === 'SIGXCPU') {
        cpu = Math.max(cpu, cpuLimitMs);
        return done({ ok: false, kind: 'timeout', detail: `killed after ${cpuLimitMs} ms of CPU` });
      }
      if (code === 0) {
        try {
          return done({ ok: true, wasm: new Uint8Array(readFileSync(join(work, job.output))), toolchain: 'system' });
        } catch (err) {
          return done({ ok: false, kind: 'infra', detail: `clang wrote no module: ${(err as Error).message}` });
        }
      }
      // The output reached the file size limit (the linker is stopped by SIGXFSZ, or crashes writing its mapped output).
      let written = 0;
      try {
        written = statSync(join(work, job.output)).size;
      } catch {
        /* none */
      }
      if (signal === 'SIGXFSZ' || /File size limit exceeded/.test(stderr) || written >= fsize - 1024 * 1024) {
        return done({
          ok: false,
          kind: 'refused',
          message: `the program needs more than ${Math.floor(fsize / (1024 * 1024))} MiB of memory at start (large global arrays?), more than the memory limit of ${memoryMb} MiB`,
        });
      }
      if (OUT_OF_MEMORY.test(stderr)) return done({ ok: false, kind: 'memory', detail: `more than ${s.memoryMb} MiB` });
      if (ownDiagnostics(stderr)) return done({ ok: false, kind: 'rejected', stderr });
      if (undefinedSymbols(stderr)) return done({ ok: false, kind: 'rejected', stderr, uncached: true });
      if (signal !== null) {
        if (SELF_INFLICTED.has(signal)) return done({ ok: false, kind: 'crash', detail: `clang killed by ${signal}: ${stderr.slice(0, 300)}` });
        return done({ ok: false, kind: 'infra', detail: `clang was killed by ${signal}, which the judge did not send` });
      }
      // clang's own crash report ("PLEASE submit a bug report") for a signal in the compiler: the file's if it comes back.
      if (/PLEASE submit a bug report|Stack dump:/.test(stderr)) return done({ ok: false, kind: 'crash', detail: `clang crashed: ${stderr.slice(0, 300)}` });
      // The driver, the linker, the confinement: the judge's.
      return done({ ok: false, kind: 'infra', detail: `clang exited with ${code}: ${stderr.slice(0, 400)}` });
    });
  });
}

// --- npm clang (@yowasp/clang) ------------------------------------------------

const serverPath = fileURLToPath(new URL('./clang-server.mjs', import.meta.url));

interface ServerReply {
  id: number;
  code: number;
  stderr: string;
  wasm: Uint8Array | null;
}

interface Server {
  child: ChildProcess;
  /** Resolves once the server has compiled a first file (the toolchain's own module is then compiled). */
  ready: Promise<void>;
}

const servers: Partial<Record<Lane, Server>> = {};
let nextJob = 1;
/** One compile at a time in each lane's server: its memory cap is that of one compile. */
const queues: Record<Lane, Promise<unknown>> = { judge: Promise.resolve(), play: Promise.resolve() };

function startServer(lane: Lane, s: CppCompileSettings): Server {
  const options = {
    serialization: 'advanced' as const,
    // Nothing of this process's environment (credentials) is passed on.
    env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
    cwd: dirname(serverPath),
  };
  // The play lane's server at the lowest priority, all its threads (nice before it starts).
  // --single-threaded: V8 compiles clang's module on the thread that runs it, not on helper threads that take
  // the other core (the bench file: a warm compile 4.6-4.8 s wall with 5.2-5.6 s of CPU before, 4.4 s with 4.6 s
  // after; the first compile of a new server 7.9 s before, 5.9 s after; the PCH 10.1 s before, 8.5 s after).
  const v8 = ['--single-threaded'];
  const child =
    lane === 'play' && NICE ? spawn(NICE, ['-n', '19', process.execPath, ...v8, serverPath], options) : fork(serverPath, [], { ...options, execArgv: v8 });
  child.stderr?.resume();
  // Idle, the server does not keep this process alive (arbiter play ends when its match does).
  idle(child);
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the compile server did not warm up in ${s.warmupMs} ms`));
    }, s.warmupMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the compile server exited (${signal ?? code}) before it was ready`));
    });
    child.on('message', function first(m: { ready?: true; id?: number; code?: number; stderr?: string }) {
      if (m.ready) {
        busy(child);
        // A first compile of an empty file: clang's own module is compiled now, not in a student's compile.
        child.send({
          id: 0,
          args: ['clang++', ...flags('wasm32-wasip1', 'warm.cc', 'warm.wasm')],
          files: { 'warm.cc': 'extern "C" int warm() { return 0; }\n' },
          output: 'warm.wasm',
        });
      } else if (m.id === 0) {
        child.off('message', first);
        clearTimeout(timer);
        idle(child);
        if (m.code === 0) resolve();
        else {
          child.kill('SIGKILL');
          reject(new Error(`the compile server could not compile an empty file: ${(m.stderr ?? '').slice(0, 400)}`));
        }
      }
    });
  });
  ready.catch(() => {});
  const entry = { child, ready };
  child.on('exit', () => {
    if (servers[lane] === entry) delete servers[lane];
  });
  return entry;
}

function idle(child: ChildProcess): void {
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
}

function busy(child: ChildProcess): void {
  child.ref();
  (child.channel as { ref?: () => void } | undefined)?.ref?.();
}

/** Stops the npm compile servers (tests, shutdown). */
export function stopCompileServer(): void {
  for (const lane of ['judge', 'play'] as const) {
    servers[lane]?.child.kill('SIGKILL');
    delete servers[lane];
  }
}

/** Jobs sent to or waiting for each lane's npm server. */
const npmPending: Record<Lane, number> = { judge: 0, play: 0 };

function compileWithNpm(
  files: Record<string, string>,
  job: ClangJob,
  s: CppCompileSettings,
  lane: Lane,
  cpuLimitMs: number,
): Promise<CppCompileResult & { cpuMs: number }> {
  npmPending[lane]++;
  const run = queues[lane].then(() => compileWithNpmNow(files, job, s, lane, cpuLimitMs)).finally(() => npmPending[lane]--);
  queues[lane] = run.catch(() => {});
  return run;
}

async function compileWithNpmNow(
  files: Record<string, string>,
  job: ClangJob,
  s: CppCompileSettings,
  lane: Lane,
  cpuLimitMs: number,
): Promise<CppCompileResult & { cpuMs: number }> {
  const current = (servers[lane] ??= startServer(lane, s));
  try {
    busy(current.child);
    await current.ready;
  } catch (err) {
    idle(current.child);
    return { ok: false, kind: 'infra', detail: (err as Error).message, cpuMs: 0 };
  }
  type Tree = { [name: string]: string | Tree };
  const tree: Tree = {};
  for (const [name, text] of Object.entries(files)) {
    const parts = name.split('/');
    let dir = tree;
    for (const part of parts.slice(0, -1)) dir = (dir[part] ??= {}) as Tree;
    dir[parts[parts.length - 1]!] = text;
  }
  const id = nextJob++;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: CppCompileResult, kill: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      const cpu = watch.stop();
      current.child.off('message', onMessage);
      current.child.off('exit', onExit);
      idle(current.child);
      if (kill) {
        current.child.kill('SIGKILL');
        if (servers[lane] === current) delete servers[lane];
      }
      resolve({ ...r, cpuMs: r.ok === false && r.kind === 'timeout' && watch.over() ? Math.max(cpu, cpuLimitMs) : cpu });
    };
    const onMessage = (m: ServerReply | { ready: true }) => {
      if (!('id' in m) || m.id !== id) return;
      if (m.code === 0 && m.wasm) finish({ ok: true, wasm: new Uint8Array(m.wasm), toolchain: 'npm' }, false);
      else if (m.code > 0 && OUT_OF_MEMORY.test(m.stderr)) finish({ ok: false, kind: 'memory', detail: m.stderr.slice(0, 300) }, true);
      else if (m.code > 0 && ownDiagnostics(m.stderr)) finish({ ok: false, kind: 'rejected', stderr: m.stderr }, false);
      else if (m.code > 0 && undefinedSymbols(m.stderr)) finish({ ok: false, kind: 'rejected', stderr: m.stderr, uncached: true }, false);
      else if (m.code > 0) finish({ ok: false, kind: 'infra', detail: `clang exited with ${m.code}: ${m.stderr.slice(0, 400)}` }, false);
      else
        finish(
          {
            ok: false,
            kind: /out of memory|memory access out of bounds|Allocation failed/i.test(m.stderr) ? 'memory' : 'crash',
            detail: m.stderr.slice(0, 300),
          },
          true,
        );
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish({ ok: false, kind: 'infra', detail: `the compile server exited (${signal ?? code})` }, false);
    const timer = setTimeout(() => finish(wallTimeout(watch.stop(), cpuLimitMs), true), wallMs(cpuLimitMs));
    const watch = cpuWatch(
      () => (current.child.pid ? cpuMs(current.child.pid) : null),
      cpuLimitMs,
      () => finish({ ok: false, kind: 'timeout', detail: `killed after ${cpuLimitMs} ms of CPU` }, true),
    );
    const poll = setInterval(() => {
      const rss = current.child.pid ? rssBytes(current.child.pid) : null;
      if (rss !== null && rss > s.memoryMb * 1024 * 1024) finish({ ok: false, kind: 'memory', detail: `killed at more than ${s.memoryMb} MiB of RSS` }, true);
    }, 100);
    busy(current.child);
    current.child.on('message', onMessage);
    current.child.once('exit', onExit);
    // The precompiled header is read by the server from this machine's disk (kept in its memory), not sent with every job.
    current.child.send({ id, args: ['clang++', ...job.args], files: tree, output: job.output, ...(job.pch ? { pch: { path: job.pch, name: PCH_FILE } } : {}) });
  });
}

// --- precompiled headers -----------------------------------------------------
//
// Most of a compile is parsing the game's Player.hh and the standard headers
// it includes (iostream, vector, map...): seconds with the npm toolchain. They
// are parsed once per game, toolchain and flags into a precompiled header
// (clang -emit-pch), kept on disk (pchDir, named by all three, so processes
// share it), and given to each compile of a file that begins with
// #include "Player.hh": -include-pch stands for exactly that line (the
// header's guard makes the file's own #include a no-op), so the file means
// what it meant without it. A file that begins otherwise (a #define first,
// another header) compiles without it. The PCH is built by the same confined
// toolchain and read inside the same confinement (bound read-only into the
// system clang's root, a file of the npm clang's in-memory tree); its sources
// are the headers the file may include anyway.

const PCH_HEADER = 'arbiter-pch.hh';
const PCH_TEXT = '#include "Player.hh"\n';
const PCH_FILE = 'arbiter.pch';
/** Another build's PCH of the same game and toolchain in the folder is removed once this old. */
const PCH_KEEP_MS = 24 * 3600_000;
/** After a PCH could not be built, compiles go without it this long before it is tried again. */
const PCH_RETRY_MS = 10 * 60_000;

/** Blank lines and comments, then #include "Player.hh" alone on its line? (CRLF lines are fine; anything unusual, a line splice, a lone \r: no.) */
export function beginsWithPlayerInclude(source: string): boolean {
  const lead = /(?:[ \t\f\v\n]+|\r\n|\/\/[^\r\n\\]*(?=\r?\n)|\/\*(?:[^*]|\*(?!\/))*\*\/)*/y;
  lead.lastIndex = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  lead.exec(source);
  const directive = /#[ \t]*include[ \t]*"Player\.hh"[ \t]*(?:\/\/[^\r\n\\]*)?(?:\r?\n|$)/y;
  directive.lastIndex = lead.lastIndex;
  return directive.test(source);
}

const toolchainIds: Partial<Record<'system' | 'npm', string>> = {};

/** What names a toolchain's build: the npm package's version and file, the system clang's binary. */
function toolchainId(which: 'system' | 'npm', clang?: string): string {
  const known = toolchainIds[which];
  if (known) return known;
  let id: string;
  try {
    const file = which === 'npm' ? createRequire(import.meta.url).resolve('@yowasp/clang') : realpathSync(clang!);
    const st = statSync(file);
    id = `${file}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    id = `${which}-unknown`;
  }
  return (toolchainIds[which] = id);
}

/** Builds of a PCH in this process, by its path: the path once it is on disk, null if it could not be built (compiles go without). */
const pchBuilds = new Map<string, Promise<string | null>>();

function pchPlan(
  which: 'system' | 'npm',
  game: string,
  headers: Record<string, string>,
  s: CppCompileSettings,
  clang?: string,
): { path: string; args: string[] } {
  // The compile's own flags (the PCH must match them), less the linker's, for a header.
  const args = flags(which === 'system' ? 'wasm32-wasi' : 'wasm32-wasip1', PCH_HEADER, PCH_FILE).filter(
    (a) => !a.startsWith('-Wl,') && !a.startsWith('-mexec-model='),
  );
  // No timestamps: the headers are written anew for every compile; their sizes are still checked.
  // -fpch-instantiate-templates: the templates the headers use are instantiated once, in the PCH, not in
  // every compile (the 554-line bench file: clang's front end 1.4 -> 0.95 s, the compile 6.2 -> 5.0 s).
  args.splice(args.length - 3, 0, '-Xclang', '-fno-pch-timestamp', '-fpch-instantiate-templates', '-x', 'c++-header');
  // The system clang's headers are read from each compile's own work directory, whose path differs from the build's
  // under Landlock (a temporary directory; namespaces show every compile the same /work): the headers' text is kept in
  // the PCH, so no compile looks for the build's files (which are gone).
  if (which === 'system') args.splice(args.length - 3, 0, '-Xclang', '-fmodules-embed-all-files');
  const hash = createHash('sha256').update(`pch1\0${which}\0${toolchainId(which, clang)}\0${args.join('\0')}\0`);
  for (const name of Object.keys(headers).sort()) hash.update(`${name}\0${headers[name]}\0`);
  return { path: join(s.pchDir, `${game}-${which}-${hash.digest('hex').slice(0, 24)}.pch`), args };
}

/** The game's PCH for this toolchain, built if it is not on disk yet; null if it cannot be. */
function ensurePch(
  which: 'system' | 'npm',
  game: string,
  headers: Record<string, string>,
  s: CppCompileSettings,
  lane: Lane,
  cpuLimitMs: number,
): Promise<string | null> {
  const t = which === 'system' ? systemToolchain() : null;
  if (t && !('clang' in t)) return Promise.resolve(null);
  const { path, args } = pchPlan(which, game, headers, s, t?.clang);
  let build = pchBuilds.get(path);
  if (build) return build;
  build = (async () => {
    if (existsSync(path)) return path;
    const files: Record<string, string> = { [PCH_HEADER]: PCH_TEXT };
    for (const [name, text] of Object.entries(headers)) files[`include/${name}`] = text;
    const job: ClangJob = { args, output: PCH_FILE };
    const started = Date.now();
    let r: CppCompileResult & { cpuMs: number };
    if (t) {
      const slots = (systemSlots[lane] ??= new Slots(lane === 'play' ? s.playSlots : s.judgeSlots));
      await slots.acquire();
      try {
        r = await compileWithSystem(t, files, job, s, lane, cpuLimitMs, s.memoryMb);
      } finally {
        slots.release();
      }
    } else r = await compileWithNpm(files, job, s, lane, cpuLimitMs);
    if (!r.ok) {
      log('a precompiled header could not be built: compiles go without it', {
        level: 'warn',
        game,
        toolchain: which,
        detail: JSON.stringify(r).slice(0, 400),
      });
      // Tried again later (a machine too busy for its wall time now may not be then), not by every compile.
      setTimeout(() => pchBuilds.delete(path), PCH_RETRY_MS).unref();
      return null;
    }
    try {
      mkdirSync(s.pchDir, { recursive: true });
      const tmp = tmpPath(path);
      writeFileSync(tmp, r.wasm);
      renameSync(tmp, path);
      // Older builds of the same game and toolchain (other headers, flags or version) go once nothing
      // has built them for a day: a process sharing the folder on purpose may still be using its own.
      const prefix = `${game}-${which}-`;
      for (const f of readdirSync(s.pchDir)) {
        const other = join(s.pchDir, f);
        if (f.startsWith(prefix) && f.endsWith('.pch') && other !== path && Date.now() - statSync(other).mtimeMs > PCH_KEEP_MS) rmSync(other, { force: true });
      }
    } catch (err) {
      log('a precompiled header could not be written: compiles go without it', { level: 'warn', game, error: (err as Error).message });
      return null;
    }
    log('precompiled header built', { game, toolchain: which, ms: Date.now() - started, cpuMs: r.cpuMs, bytes: r.wasm.byteLength });
    return path;
  })();
  pchBuilds.set(path, build);
  build.catch(() => pchBuilds.delete(path));
  return build;
}

/** A failure that may be the PCH's (missing, stale, unreadable): the compile is tried again without it. */
function pchTrouble(r: CppCompileResult): boolean {
  if (r.ok) return false;
  const text = r.kind === 'rejected' ? r.stderr : r.kind === 'refused' ? r.message : r.detail;
  return /precompiled header|AST file|\.pch\b/i.test(text);
}

/**
 * Starts the judge lane's npm compile server (warmed by a first compile),
 * builds the games' PCHs and then compiles the first game's shipped Demo in
 * the judge's lane and in the play lane, in the background, so that the
 * first student's compile after a start is a warm one in either: V8 compiles
 * the parts of clang that optimize and link code only when they first run
 * (the bench file: 9.7 s at its first compile, 6.2 s at its second). Errors
 * are logged by the compiles that meet them; nothing here keeps the process
 * alive.
 */
export function prewarmCpp(games: readonly string[]): Promise<void> {
  const s = cppCompileSettings();
  const which = activeToolchain();
  const lane: Lane = 'judge';
  if (which === 'npm') (servers[lane] ??= startServer(lane, s)).ready.catch(() => {});
  const laneLimitMs = s.cpuSeconds !== undefined ? s.cpuSeconds * 1000 : s.timeoutMs;
  return (async () => {
    for (const game of games) {
      // One build at a time, each when the lane is idle: a student's compile waits for one build at most, not for all the games'.
      while (which === 'npm' && npmPending[lane] > 0) await sleep(500, undefined, { ref: false });
      try {
        const headers = await gameHeaders(game);
        if ('Player.hh' in headers) await ensurePch(which, game, headers, s, lane, laneLimitMs);
      } catch {
        /* a game without C++ headers */
      }
    }
    if (which !== 'npm') return;
    for (const game of games) {
      const demo = shippedCppPlayer(game, 'AIDemo.cc');
      if (demo === null) continue;
      while (npmPending[lane] > 0) await sleep(500, undefined, { ref: false });
      // The judge's lane: a real compile, cached as any other (the Demo's module is ready when a student plays it).
      await compileCpp(demo, 'AIDemo.cc', game).catch(() => {});
      // The play page's and the kit's lane, at its low priority: the same file again, uncached (a cache hit warms nothing).
      while (npmPending.play > 0) await sleep(500, undefined, { ref: false });
      await warmCompile('play', game, demo, s, laneLimitMs).catch(() => {});
      return;
    }
  })();
}

/** The Demo compiled in a lane's npm server as a student's file is, the result thrown away: the server's warm-up. */
async function warmCompile(lane: Lane, game: string, source: string, s: CppCompileSettings, cpuLimitMs: number): Promise<void> {
  const headers = await gameHeaders(game);
  const pch = s.pch ? await ensurePch('npm', game, headers, s, lane, cpuLimitMs) : null;
  const { inputs, job } = compileJob('npm', 'AIDemo.cc', source, headers, pch, s);
  await compileWithNpm(inputs, job, s, lane, cpuLimitMs);
}

/** What clang is given to compile and link a player: the file, the game's headers and, with a PCH (its path here), the header it was built from. */
function compileJob(
  which: 'system' | 'npm',
  filename: string,
  source: string,
  headers: Record<string, string>,
  pch: string | null,
  s: CppCompileSettings,
): { inputs: Record<string, string>; job: ClangJob } {
  const inputs: Record<string, string> = { [filename]: source };
  for (const [name, text] of Object.entries(headers)) inputs[`include/${name}`] = text;
  const target = which === 'system' ? 'wasm32-wasi' : 'wasm32-wasip1';
  if (!pch) return { inputs, job: { args: flags(target, filename, 'bot.wasm', s.extraFlags), output: 'bot.wasm' } };
  // The header the PCH was built from is one of its inputs: clang checks it is there, unchanged.
  inputs[PCH_HEADER] = PCH_TEXT;
  // The system clang sees the PCH where its confinement puts it (confine.ts), the npm one in its tree's root.
  const t = which === 'system' ? systemToolchain() : null;
  const at = t && 'clang' in t ? t.confinement.pchAt(pch) : PCH_FILE;
  return { inputs, job: { args: flags(target, filename, 'bot.wasm', [...s.extraFlags, '-include-pch', at]), output: 'bot.wasm', pch } };
}

// --- the cache and the entry point ----------------------------------------------

/** Results by key, oldest first (a Map keeps insertion order: a hit moves to the end). */
const memory = new Map<string, CppCompileResult>();
let memoryBytes = 0;
/** Compiles under way, by key: the four seats of a self-play match compile their file once. */
const inFlight = new Map<string, Promise<CppCompileResult & { cpuMs?: number }>>();
/** System compiles at once in this process, per lane (each is one clang process). */
let systemSlots: Partial<Record<Lane, Slots>> = {};
/** Play compiles started or waiting. */
let playPending = 0;

const resultBytes = (r: CppCompileResult): number =>
  (r.ok ? r.wasm.byteLength : r.kind === 'rejected' ? r.stderr.length : r.kind === 'refused' ? r.message.length : 0) + 200;

function remember(key: string, r: CppCompileResult, s: CppCompileSettings): void {
  const size = resultBytes(r);
  if (size > s.memoryCacheBytes / 4) return;
  const old = memory.get(key);
  if (old) {
    memory.delete(key);
    memoryBytes -= resultBytes(old);
  }
  memory.set(key, r);
  memoryBytes += size;
  for (const [k, v] of memory) {
    if (memoryBytes <= s.memoryCacheBytes) break;
    memory.delete(k);
    memoryBytes -= resultBytes(v);
  }
}

/** Which toolchain a compile would use now. */
export function activeToolchain(): 'system' | 'npm' {
  const s = cppCompileSettings();
  if (s.toolchain === 'npm') return 'npm';
  if (s.toolchain === 'system') return 'system';
  return 'clang' in systemToolchain() ? 'system' : 'npm';
}

/** Why a module is refused (its static data does not fit the memory limit, or it is too large to pass around), or null. */
export function moduleRefusal(wasm: Uint8Array, memoryMb: number, maxModuleBytes: number): string | null {
  const MiB = 1024 * 1024;
  const size = (n: number) => (n >= MiB ? `${Math.ceil(n / MiB)} MiB` : `${n} bytes`);
  if (wasm.byteLength > maxModuleBytes)
    return `the compiled module is ${size(wasm.byteLength)}, more than ${size(maxModuleBytes)} (large initialized global arrays?)`;
  const mem = readMemoryImport(wasm);
  if (!mem) return null;
  const start = mem.initial * WASM_PAGE;
  const data = dataSegmentBytes(wasm);
  // The initialized data is held twice while the program runs: in the module and in its memory.
  if (start + data > memoryMb * MiB) {
    const why = data > MiB ? ` (${Math.ceil(data / MiB)} MiB of it initialized global data, which the module holds too)` : '';
    return `the program needs ${Math.ceil((start + data) / MiB)} MiB of memory at start${why}, more than the memory limit of ${memoryMb} MiB (large global arrays?)`;
  }
  return null;
}

/**
 * Compiles `source` (named `filename`, the name the student's errors carry)
 * for `game`. Results the file is to blame for (a module, its own compile
 * errors, a refusal of its size) are cached; the judge's failures are not.
 */
export async function compileCpp(
  source: string,
  filename: string,
  game: string,
  options: CompileOptions = {},
): Promise<CppCompileResult & { cached?: boolean }> {
  const s = cppCompileSettings();
  const lane = options.lane ?? 'judge';
  const headers = await gameHeaders(game);
  const which = activeToolchain();
  const hash = createHash('sha256').update(`cpp3\0${which}\0${filename}\0${options.memoryMb ?? 0}\0${s.maxModuleBytes}\0`);
  for (const name of Object.keys(headers).sort()) hash.update(`${name}\0${headers[name]}\0`);
  const key = hash.update(source).digest('hex');
  const hit = memory.get(key) ?? readDisk(s.cacheDir, key);
  if (hit) {
    remember(key, hit, s);
    return { ...hit, cached: true };
  }
  // Per lane: a judge's compile never waits for the same file's compile in the play lane.
  const flight = `${lane}:${key}`;
  const running = inFlight.get(flight);
  if (running) {
    const r = await running;
    // A play compile stopped for its client's budget says nothing to another caller: compile again.
    if (r.ok || (r.kind !== 'budget' && r.kind !== 'busy')) return r;
  }
  if (lane === 'play' && playPending >= s.playSlots + s.playQueue)
    return { ok: false, kind: 'busy', detail: `${playPending} play-page compiles are under way or waiting` };
  const laneLimitMs = s.cpuSeconds !== undefined ? s.cpuSeconds * 1000 : s.timeoutMs;
  const cpuLimitMs = options.budgetSeconds !== undefined ? Math.max(1000, Math.min(laneLimitMs, options.budgetSeconds * 1000)) : laneLimitMs;
  /** One compile and link, with the game's PCH (its path) or without. */
  const once = async (pch: string | null): Promise<CppCompileResult & { cpuMs: number }> => {
    const { inputs, job } = compileJob(which, filename, source, headers, pch, s);
    if (which === 'npm') return compileWithNpm(inputs, job, s, lane, cpuLimitMs);
    const t = systemToolchain();
    if (!('clang' in t)) return { ok: false, kind: 'infra', detail: `ARBITER_CPP_CLANG=system, but ${t.error}`, cpuMs: 0 };
    const slots = (systemSlots[lane] ??= new Slots(lane === 'play' ? s.playSlots : s.judgeSlots));
    await slots.acquire();
    try {
      return await compileWithSystem(t, inputs, job, s, lane, cpuLimitMs, options.memoryMb ?? 128);
    } finally {
      slots.release();
    }
  };
  const run = (async (): Promise<CppCompileResult & { cpuMs?: number }> => {
    const pch = s.pch && 'Player.hh' in headers && beginsWithPlayerInclude(source) ? await ensurePch(which, game, headers, s, lane, laneLimitMs) : null;
    let result = await once(pch);
    if (pch && pchTrouble(result)) {
      log('a compile with the precompiled header failed: compiled again without it', { level: 'warn', game, detail: JSON.stringify(result).slice(0, 400) });
      // Looked for again by the next compile: rebuilt if it is gone from the disk.
      pchBuilds.delete(pch);
      const spent = result.cpuMs;
      result = await once(null);
      result = { ...result, cpuMs: result.cpuMs + spent };
    }
    options.onCpu?.(result.cpuMs);
    // Stopped at the client's budget, below the lane's own bound: the client's limit, not the file's.
    if (!result.ok && result.kind === 'timeout' && cpuLimitMs < laneLimitMs && /of CPU/.test(result.detail))
      return { ok: false, kind: 'budget', detail: result.detail, cpuMs: result.cpuMs };
    // Zeros at the ends of data segments out (the memory starts zeroed): both toolchains' modules alike, a zero-initialized array costs no bytes.
    if (result.ok) result = { ...result, wasm: trimZeroData(result.wasm) };
    if (result.ok && options.memoryMb !== undefined) {
      const refusal = moduleRefusal(result.wasm, options.memoryMb, s.maxModuleBytes);
      if (refusal) result = { ok: false, kind: 'refused', message: refusal, cpuMs: result.cpuMs };
    }
    if (result.ok || (result.kind === 'rejected' && !result.uncached) || result.kind === 'refused') {
      const { cpuMs: _, ...kept } = result;
      remember(key, kept as CppCompileResult, s);
      writeDisk(s.cacheDir, key, kept as CppCompileResult, s);
    }
    return result;
  })();
  if (lane === 'play') playPending++;
  inFlight.set(flight, run);
  try {
    return await run;
  } finally {
    if (lane === 'play') playPending--;
    if (inFlight.get(flight) === run) inFlight.delete(flight);
  }
}

function readDisk(dir: string, key: string): CppCompileResult | null {
  try {
    const wasm = join(dir, `${key}.wasm`);
    if (existsSync(wasm)) return { ok: true, wasm: new Uint8Array(readFileSync(wasm)), toolchain: 'cache' };
    const err = join(dir, `${key}.err`);
    if (existsSync(err)) return { ok: false, kind: 'rejected', stderr: readFileSync(err, 'utf8') };
    const refused = join(dir, `${key}.refused`);
    if (existsSync(refused)) return { ok: false, kind: 'refused', message: readFileSync(refused, 'utf8') };
  } catch {
    /* a cache that cannot be read is a miss */
  }
  return null;
}

/**
 * Where a cache file is written before it is renamed into place (atomic: a reader sees the whole file
 * or none). Unique across processes sharing the folder, those of other containers (same pid) included.
 */
function tmpPath(file: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

/** Bytes written since the disk cache was last measured. */
let diskWritten = 0;

/** Keeps the disk cache under its bytes: the oldest files go first, down to four fifths of it. */
function pruneDisk(dir: string, limit: number): void {
  try {
    const files = readdirSync(dir)
      .filter((f) => /\.(wasm|err|refused)$/.test(f))
      .map((f) => {
        const st = statSync(join(dir, f));
        return { f, t: st.mtimeMs, size: st.size };
      });
    let total = files.reduce((a, b) => a + b.size, 0);
    if (total <= limit) return;
    files.sort((a, b) => a.t - b.t);
    for (const { f, size } of files) {
      if (total <= limit * 0.8) break;
      rmSync(join(dir, f), { force: true });
      total -= size;
    }
  } catch {
    /* another process pruned at the same time: nothing lost but compiles */
  }
}

function writeDisk(dir: string, key: string, r: CppCompileResult, s: CppCompileSettings): void {
  const data = r.ok ? r.wasm : r.kind === 'rejected' ? r.stderr : r.kind === 'refused' ? r.message : null;
  if (data === null) return;
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (size > s.diskCacheBytes / 4) return;
  diskWritten += size;
  // Measured every tenth of the limit written (and at the first write): other processes write there too.
  if (diskWritten >= s.diskCacheBytes / 10 || diskWritten === size) {
    pruneDisk(dir, s.diskCacheBytes);
    diskWritten = size;
  }
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = tmpPath(join(dir, key));
    writeFileSync(tmp, data);
    // Atomic: a reader in another worker sees the whole file or none.
    renameSync(tmp, join(dir, `${key}.${r.ok ? 'wasm' : r.kind === 'rejected' ? 'err' : 'refused'}`));
  } catch {
    /* a cache that cannot be written costs a compile later, nothing else */
  }
}
