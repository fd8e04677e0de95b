// Compiles a student's C++ player (AIName.cc, unchanged) to a wasm32-wasip1
// reactor module against the game's C++ headers (headers.ts).
//
// Two toolchains, the same flags:
// - a system clang with a wasm32 sysroot (Debian: clang lld wasi-libc
//   libc++-dev-wasm32 libclang-rt-dev-wasm32), fast, used when present;
// - @yowasp/clang (clang and lld built as WebAssembly, installed by npm), in
//   a compile server process kept between compiles (clang-server.mjs).
// ARBITER_CPP_CLANG=npm|system forces one.
//
// Each compile is bounded in wall time and memory (CPP_COMPILE_TIMEOUT_MS,
// CPP_COMPILE_MEMORY_MB) and runs in a child process with none of this
// process's environment. Results, compile errors included, are cached by a
// hash of the source, its name, the headers and the toolchain, in memory and
// on disk (CPP_CACHE_DIR), so a rejudge or a re-run does not compile again.

import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { gameHeaders } from './headers.ts';
import { Slots } from '../sandbox-host.ts';
import { rssBytes } from '../proc.ts';

export interface CppCompileSettings {
  timeoutMs: number;
  memoryMb: number;
  /** The first job of a fresh npm compile server also waits for the toolchain's own module to compile. */
  warmupMs: number;
  cacheDir: string;
  /** 'npm' or 'system' forces a toolchain; 'auto' prefers a working system clang. */
  toolchain: 'auto' | 'npm' | 'system';
}

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

let settings: CppCompileSettings | null = null;

export function cppCompileSettings(): CppCompileSettings {
  if (!settings) {
    const forced = process.env['ARBITER_CPP_CLANG'];
    settings = {
      timeoutMs: intEnv('CPP_COMPILE_TIMEOUT_MS', 60_000),
      memoryMb: intEnv('CPP_COMPILE_MEMORY_MB', 2048),
      warmupMs: intEnv('CPP_COMPILE_WARMUP_MS', 120_000),
      cacheDir: process.env['CPP_CACHE_DIR'] || join(tmpdir(), 'arbiter-cpp-cache'),
      toolchain: forced === 'npm' || forced === 'system' ? forced : 'auto',
    };
  }
  return settings;
}

/** Tests change the settings; the next compile reads them again. */
export function resetCppCompileSettings(next?: Partial<CppCompileSettings>): void {
  settings = { ...cppCompileSettings(), ...next };
  systemClang = undefined;
  memory.clear();
}

/** The linear memory's stack, at its start (--stack-first): an overflow traps instead of overwriting data. */
export const STACK_BYTES = 8 * 1024 * 1024;

/** Flags shared by both toolchains (the target's spelling differs: clang 14 knows only wasm32-wasi). */
function flags(target: string, source: string, output: string, extra: string[] = []): string[] {
  return [
    `--target=${target}`,
    '-std=c++17',
    '-O2',
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

export type CppCompileResult = { ok: true; wasm: Uint8Array; toolchain: string } | { ok: false; kind: 'rejected'; stderr: string } | { ok: false; kind: 'timeout' | 'memory' | 'crash' | 'infra'; detail: string };

// --- system clang ----------------------------------------------------------

let systemClang: string | null | undefined;

/** A clang++ that compiles <vector> for wasm32-wasi here, or null. Probed once (a fraction of a second). */
export function findSystemClang(): string | null {
  if (systemClang !== undefined) return systemClang;
  systemClang = null;
  const names = ['clang++', ...[21, 20, 19, 18, 17, 16, 15, 14].map((v) => `clang++-${v}`)];
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    const path = dirs.map((d) => join(d, name)).find((p) => existsSync(p));
    if (!path) continue;
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-probe-'));
    try {
      writeFileSync(join(dir, 'probe.cc'), '#include <vector>\n#include <iostream>\nint probe() { std::vector<int> v(3); std::cerr << v.size(); return 0; }\n');
      const r = spawnSyncQuiet(path, ['--target=wasm32-wasi', '-c', 'probe.cc', '-o', 'probe.o'], dir);
      if (r === 0) {
        systemClang = path;
        break;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return systemClang;
}

function spawnSyncQuiet(command: string, args: string[], cwd: string): number | null {
  const r = spawnSync(command, args, { cwd, stdio: 'ignore', timeout: 30_000, env: { PATH: process.env['PATH'] ?? '' } });
  return r.status;
}

const PRLIMIT = process.platform === 'linux' ? (process.env['PATH'] ?? '').split(delimiter).map((d) => join(d, 'prlimit')).find((p) => existsSync(p)) : undefined;

function compileWithSystem(clang: string, files: Record<string, string>, source: string, s: CppCompileSettings): Promise<CppCompileResult> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const args = flags('wasm32-wasi', source, 'bot.wasm');
  // The address-space limit is inherited by the driver's children (cc1, wasm-ld).
  const [command, argv] = PRLIMIT ? [PRLIMIT, [`--as=${s.memoryMb * 1024 * 1024}`, '--', clang, ...args]] : [clang, args];
  return new Promise((resolve) => {
    const done = (r: CppCompileResult) => {
      rmSync(dir, { recursive: true, force: true });
      resolve(r);
    };
    let child: ChildProcess;
    try {
      child = spawn(command, argv, { cwd: dir, env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    } catch (err) {
      return done({ ok: false, kind: 'infra', detail: `clang could not start: ${(err as Error).message}` });
    }
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, s.timeoutMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (c: string) => {
      if (stderr.length < 64 * 1024) stderr += c;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ ok: false, kind: 'infra', detail: `clang could not start: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return done({ ok: false, kind: 'timeout', detail: `killed after ${s.timeoutMs} ms` });
      if (code === 0) {
        try {
          return done({ ok: true, wasm: new Uint8Array(readFileSync(join(dir, 'bot.wasm'))), toolchain: 'system' });
        } catch (err) {
          return done({ ok: false, kind: 'infra', detail: `clang wrote no module: ${(err as Error).message}` });
        }
      }
      if (/error:/.test(stderr) && !/out of memory|Allocation failed|std::bad_alloc/i.test(stderr)) return done({ ok: false, kind: 'rejected', stderr });
      if (/out of memory|Allocation failed|bad_alloc/i.test(stderr)) return done({ ok: false, kind: 'memory', detail: `more than ${s.memoryMb} MiB` });
      return done({ ok: false, kind: signal ? 'crash' : 'infra', detail: `clang ${signal ? `killed by ${signal}` : `exited with ${code}`}: ${stderr.slice(0, 300)}` });
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

let server: { child: ChildProcess; ready: Promise<void>; fresh: boolean } | null = null;
let nextJob = 1;
/** One compile at a time in the server: its memory cap is that of one compile. */
let queue: Promise<unknown> = Promise.resolve();

function startServer(): NonNullable<typeof server> {
  const child = fork(serverPath, [], {
    serialization: 'advanced',
    execArgv: [],
    // Nothing of this process's environment (credentials) is passed on.
    env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    cwd: dirname(serverPath),
  });
  child.stderr?.resume();
  // Idle, the server does not keep this process alive (arbiter play ends when its match does).
  idle(child);
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code, signal) => reject(new Error(`the compile server exited (${signal ?? code}) before it was ready`)));
  });
  ready.catch(() => {});
  const entry = { child, ready, fresh: true };
  child.on('exit', () => {
    if (server === entry) server = null;
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

/** Stops the npm compile server (tests, shutdown). */
export function stopCompileServer(): void {
  server?.child.kill('SIGKILL');
  server = null;
}

/**
 * Link-time optimization for the npm toolchain: the object file is then
 * bitcode. Without it, a wasm object file holds a large global array as that
 * many zero bytes (wasm objects have no bss), which the WebAssembly clang and
 * lld write and read through their in-memory file system: a 32 MiB array took
 * 50 s, a 200 MiB one more than three minutes; with it, 5 s.
 */
const NPM_EXTRA_FLAGS = ['-flto'];

function compileWithNpm(files: Record<string, string>, source: string, s: CppCompileSettings): Promise<CppCompileResult> {
  const run = queue.then(() => compileWithNpmNow(files, source, s));
  queue = run.catch(() => {});
  return run;
}

async function compileWithNpmNow(files: Record<string, string>, source: string, s: CppCompileSettings): Promise<CppCompileResult> {
  if (!server) server = startServer();
  const current = server;
  type Tree = { [name: string]: string | Tree };
  const tree: Tree = {};
  for (const [name, text] of Object.entries(files)) {
    const parts = name.split('/');
    let dir = tree;
    for (const part of parts.slice(0, -1)) dir = (dir[part] ??= {}) as Tree;
    dir[parts[parts.length - 1]!] = text;
  }
  const id = nextJob++;
  const allowance = s.timeoutMs + (current.fresh ? s.warmupMs : 0);
  current.fresh = false;
  return new Promise<CppCompileResult>((resolve) => {
    let settled = false;
    const finish = (r: CppCompileResult, kill: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      current.child.off('message', onMessage);
      current.child.off('exit', onExit);
      idle(current.child);
      if (kill) {
        current.child.kill('SIGKILL');
        if (server === current) server = null;
      }
      resolve(r);
    };
    const onMessage = (m: ServerReply | { ready: true }) => {
      if (!('id' in m) || m.id !== id) return;
      if (m.code === 0 && m.wasm) finish({ ok: true, wasm: new Uint8Array(m.wasm), toolchain: 'npm' }, false);
      else if (m.code > 0 && /error:/.test(m.stderr)) finish({ ok: false, kind: 'rejected', stderr: m.stderr }, false);
      else finish({ ok: false, kind: /out of memory|memory access out of bounds|Allocation failed/i.test(m.stderr) ? 'memory' : 'crash', detail: m.stderr.slice(0, 300) }, true);
    };
    const onExit = (code: number | null, signal: string | null) => finish({ ok: false, kind: 'infra', detail: `the compile server exited (${signal ?? code})` }, false);
    const timer = setTimeout(() => finish({ ok: false, kind: 'timeout', detail: `killed after ${allowance} ms` }, true), allowance);
    const poll = setInterval(() => {
      const rss = current.child.pid ? rssBytes(current.child.pid) : null;
      if (rss !== null && rss > s.memoryMb * 1024 * 1024) finish({ ok: false, kind: 'memory', detail: `killed at more than ${s.memoryMb} MiB of RSS` }, true);
    }, 100);
    busy(current.child);
    current.child.on('message', onMessage);
    current.child.once('exit', onExit);
    current.ready.then(
      () => current.child.send({ id, args: ['clang++', ...flags('wasm32-wasip1', source, 'bot.wasm', NPM_EXTRA_FLAGS)], files: tree, output: 'bot.wasm' }),
      (err: Error) => finish({ ok: false, kind: 'infra', detail: err.message }, false),
    );
  });
}

// --- the cache and the entry point ----------------------------------------------

const memory = new Map<string, CppCompileResult>();
/** Compiles under way, by key: the four seats of a self-play match compile their file once. */
const inFlight = new Map<string, Promise<CppCompileResult>>();
/** System compiles at once in this process (each is one clang process). */
let systemSlots: Slots | null = null;

/** Which toolchain a compile would use now. */
export function activeToolchain(): 'system' | 'npm' {
  const s = cppCompileSettings();
  if (s.toolchain === 'npm') return 'npm';
  if (s.toolchain === 'system') return 'system';
  return findSystemClang() ? 'system' : 'npm';
}

/**
 * Compiles `source` (named `filename`, the name the student's errors carry)
 * for `game`. Results the file is to blame for (a module or compile errors)
 * are cached; the judge's failures are not.
 */
export async function compileCpp(source: string, filename: string, game: string): Promise<CppCompileResult & { cached?: boolean }> {
  const s = cppCompileSettings();
  const headers = await gameHeaders(game);
  const which = activeToolchain();
  const hash = createHash('sha256').update(`cpp1\0${which}\0${filename}\0`);
  for (const name of Object.keys(headers).sort()) hash.update(`${name}\0${headers[name]}\0`);
  const key = hash.update(source).digest('hex');
  const hit = memory.get(key) ?? readDisk(s.cacheDir, key);
  if (hit) {
    memory.set(key, hit);
    return { ...hit, cached: true };
  }
  const running = inFlight.get(key);
  if (running) return running;
  const files: Record<string, string> = { [filename]: source };
  for (const [name, text] of Object.entries(headers)) files[`include/${name}`] = text;
  const run = (async (): Promise<CppCompileResult> => {
    let result: CppCompileResult;
    if (which === 'system') {
      const clang = findSystemClang();
      if (!clang) return { ok: false, kind: 'infra', detail: 'ARBITER_CPP_CLANG=system, but no clang++ here compiles for wasm32-wasi (apt-get install clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32)' };
      systemSlots ??= new Slots(Math.max(1, availableParallelism()));
      await systemSlots.acquire();
      try {
        result = await compileWithSystem(clang, files, filename, s);
      } finally {
        systemSlots.release();
      }
    } else result = await compileWithNpm(files, filename, s);
    if (result.ok || result.kind === 'rejected') {
      if (memory.size > 100) memory.clear();
      memory.set(key, result);
      writeDisk(s.cacheDir, key, result);
    }
    return result;
  })();
  inFlight.set(key, run);
  try {
    return await run;
  } finally {
    inFlight.delete(key);
  }
}

function readDisk(dir: string, key: string): CppCompileResult | null {
  try {
    const wasm = join(dir, `${key}.wasm`);
    if (existsSync(wasm)) return { ok: true, wasm: new Uint8Array(readFileSync(wasm)), toolchain: 'cache' };
    const err = join(dir, `${key}.err`);
    if (existsSync(err)) return { ok: false, kind: 'rejected', stderr: readFileSync(err, 'utf8') };
  } catch {
    /* a cache that cannot be read is a miss */
  }
  return null;
}

/** Compiled modules kept on disk (a few hundred KiB each); the oldest go first. */
const DISK_KEPT = 500;
let diskWrites = 0;

function pruneDisk(dir: string): void {
  try {
    const files = readdirSync(dir)
      .filter((f) => /\.(wasm|err)$/.test(f))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }));
    if (files.length <= DISK_KEPT) return;
    files.sort((a, b) => a.t - b.t);
    for (const { f } of files.slice(0, files.length - Math.floor(DISK_KEPT * 0.8))) rmSync(join(dir, f), { force: true });
  } catch {
    /* another process pruned at the same time: nothing lost but compiles */
  }
}

function writeDisk(dir: string, key: string, r: CppCompileResult): void {
  if (++diskWrites % 50 === 0) pruneDisk(dir);
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `${key}.${process.pid}.tmp`);
    writeFileSync(tmp, r.ok ? r.wasm : r.kind === 'rejected' ? r.stderr : '');
    // Atomic: a reader in another worker sees the whole file or none.
    renameSync(tmp, join(dir, `${key}.${r.ok ? 'wasm' : 'err'}`));
  } catch {
    /* a cache that cannot be written costs a compile later, nothing else */
  }
}
