// The system clang, confined by the OS: a student's file is text that clang
// reads, and any #include, #embed or __has_include that names a path opens
// that path. No reading of the text decides which of them are safe (clang's
// lexer is the only one that knows what it lexes); instead the compiler runs
// where it can open nothing else. Two ways, the same plan of what it may open
// (worked out once from the toolchain itself: `clang -###` names the compiler,
// the linker, the resource directory and the sysroot's directories; ldd names
// the libraries):
//
// - namespaces: new user, mount and network namespaces (util-linux's unshare,
//   as an unprivileged user), a fresh tmpfs as its root into which only the
//   toolchain's own files are bind-mounted read-only (the clang and lld
//   binaries, the shared libraries they load, the clang installation with its
//   resource directory, the wasm32 sysroot's include and library directories)
//   and the compile's work directory (the student's file and the game's
//   headers, writable for the module), the game's precompiled header if the
//   compile uses one (read-only), then a chroot into it. No /etc, /proc, /dev,
//   /home, /tmp of the host, no DATA_DIR, no project tree: a path outside the
//   root does not exist.
// - landlock: where namespaces are refused (Docker's and containerd's default
//   seccomp profiles refuse unshare and mount; they allow the landlock_* calls),
//   the kernel's Landlock (Linux 5.13+, unprivileged, no capability) through
//   landlock/arbiter-landlock.c, built here with the system clang: clang and
//   every process it starts may open the same toolchain paths (read and
//   execute), the compile's work directory (read and write) and the
//   precompiled header (read), nothing else: /proc/<pid>/environ, /etc, the
//   data and the project are refused (EACCES), TCP is refused (Landlock ABI 4),
//   and signals leave no compile (ABI 6). A path's existence may show (the
//   error says "Permission denied", not "not found"); no byte of it does.
//
// CPP_CONFINEMENT (src/config.ts) picks one or, auto, the first that works.
// Either way the compile's environment holds nothing of this process's. Where
// neither works, confinementFor says why, and the system clang is not used.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../../../config.ts';

/** One compile's place: where its files go, and how clang runs confined there. */
export interface ConfinedRun {
  /** The compile's work directory on this machine: the file and headers are written here, the output read from here. */
  work: string;
  /** Argv prefix: clang's own argv (its path, then its arguments, relative to the work directory) follows. */
  argv: string[];
  cwd: string;
  /** The whole environment of the run: nothing of this process's. */
  env: Record<string, string>;
  /** Removes the compile's directories. */
  close(): void;
}

export type ConfinementKind = 'namespaces' | 'landlock';

export interface Confinement {
  kind: ConfinementKind;
  /** The clang to call (the same path inside the confinement as outside). */
  clang: string;
  /** A fresh compile's place, reading the precompiled header `pch` (a file on this machine) if given. */
  open(pch?: string): ConfinedRun;
  /** The path under which a compile of open(pch) sees the precompiled header. */
  pchAt(pch: string): string;
}

function which(name: string): string | undefined {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A path as an fstab field: whitespace and backslashes as octal escapes. */
const fstabField = (path: string): string => path.replace(/[\\\s]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/** What the root is built of: directories, symlinks as the host has them, and read-only binds. */
class Plan {
  readonly dirs = new Set<string>();
  readonly links = new Map<string, string>();
  readonly binds = new Map<string, 'file' | 'dir'>();

  private covered(path: string): boolean {
    for (const [p, kind] of this.binds) if (kind === 'dir' && (path === p || path.startsWith(p + '/'))) return true;
    return false;
  }

  /** Makes `path` (absolute, on the host) resolve inside the root to the host's file or directory, symlinks included. */
  place(path: string, depth = 0): void {
    if (depth > 40 || !existsSync(path)) return;
    const parts = path.split('/').filter(Boolean);
    let cur = '';
    for (let i = 0; i < parts.length; i++) {
      const next = `${cur}/${parts[i]}`;
      const st = lstatSync(next);
      if (st.isSymbolicLink()) {
        const target = readlinkSync(next);
        if (!this.covered(next)) {
          this.dirs.add(cur || '/');
          this.links.set(next, target);
        }
        const rest = parts.slice(i + 1).join('/');
        const resolved = resolve(cur || '/', target);
        this.place(rest ? `${resolved}/${rest}` : resolved, depth + 1);
        return;
      }
      if (i === parts.length - 1) {
        if (!this.covered(next)) this.binds.set(next, st.isDirectory() ? 'dir' : 'file');
      } else if (!this.covered(next)) this.dirs.add(next);
      cur = next;
    }
  }

  /** Shell lines that build the plan under "$R". */
  script(): string[] {
    const lines: string[] = [];
    const dirs = [...this.dirs].filter((d) => d !== '/' && !this.binds.has(d));
    const dirBinds = [...this.binds].filter(([, k]) => k === 'dir').map(([p]) => p);
    const fileBinds = [...this.binds].filter(([, k]) => k === 'file').map(([p]) => p);
    const all = [...dirs, ...dirBinds, ...fileBinds.map((f) => dirname(f)), ...[...this.links.keys()].map((l) => dirname(l))].filter((d) => d !== '/');
    if (all.length) lines.push(`mkdir -p ${[...new Set(all)].map((d) => `"$R"${q(d)}`).join(' ')}`);
    for (const [link, target] of this.links) lines.push(`ln -s ${q(target)} "$R"${q(link)}`);
    if (fileBinds.length) lines.push(`touch ${fileBinds.map((f) => `"$R"${q(f)}`).join(' ')}`);
    // Parents before children (a directory bound inside another is bound after it). One mount(8) for them all, an
    // fstab of the binds read with --fstab -a in its order, targets relative to the root: a mount process per bind
    // took about 0.16 s of every compile (22 binds for Debian's clang 14).
    const binds = [...dirBinds, ...fileBinds].sort((a, b) => a.length - b.length);
    if (binds.length) {
      const entries = binds.map((p) => q(`${fstabField(p)} .${fstabField(p)} none bind,ro 0 0`));
      lines.push('cd "$R"', `printf '%s\\n' ${entries.join(' ')} > .arbiter-binds`, 'mount --fstab ./.arbiter-binds -a', 'rm .arbiter-binds');
    }
    return lines;
  }
}

/** The paths `clang -###` names for a compile and link of one file: the compiler, the linker, its resource and sysroot directories. */
function toolchainPaths(clang: string): { binaries: string[]; dirs: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-cpp-plan-'));
  try {
    writeFileSync(join(dir, 'probe.cc'), 'int probe() { return 0; }\n');
    const r = spawnSync(clang, ['--target=wasm32-wasi', '-###', '-O2', '-flto', '-mexec-model=reactor', 'probe.cc', '-o', 'probe.wasm'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env['PATH'] ?? '' },
    });
    const text = `${r.stderr ?? ''}`;
    const commands = text
      .split('\n')
      .filter((l) => l.startsWith(' "'))
      .map((l) => [...l.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1')));
    const binaries = commands.map((c) => c[0]!).filter((b) => b.startsWith('/'));
    const dirs = new Set<string>();
    for (const c of commands) {
      for (let i = 1; i < c.length; i++) {
        const a = c[i]!;
        if ((a === '-resource-dir' || a === '-internal-isystem' || a === '-internal-externc-isystem' || a === '-isysroot') && c[i + 1]?.startsWith('/'))
          dirs.add(c[++i]!);
        else if (a.startsWith('-L/')) dirs.add(a.slice(2));
        else if (/^\/.*\.(o|a)$/.test(a) && !a.startsWith(tmpdir())) dirs.add(dirname(a));
      }
    }
    return { binaries, dirs: [...dirs] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The shared libraries (and the dynamic loader) a binary loads, as ldd finds them. */
function libraries(binary: string): string[] {
  const r = spawnSync('ldd', [binary], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env['PATH'] ?? '' } });
  if (r.status !== 0) throw new Error(`ldd ${binary}: ${(r.stderr || r.stdout || '').trim()}`);
  const out: string[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** What the compile may open: the toolchain's files and directories, as a Plan (symlinks followed). */
function toolchainPlan(clang: string): Plan {
  const { binaries, dirs } = toolchainPaths(clang);
  if (binaries.length < 2) throw new Error('clang -### named no compiler and linker');
  const plan = new Plan();
  // The installation the compiler came from (bin/, lib/clang/<version>/): its own files, nothing of the host's.
  const install = dirname(dirname(realpathSync(binaries[0]!)));
  plan.place(install);
  // The sysroot's and resource directory's include and library directories: the host's own headers (/usr/include, /usr/local/include) are not the sysroot.
  for (const d of dirs) if (existsSync(d) && (realpathSync(d).startsWith(install + '/') || /wasm|wasi/.test(d))) plan.place(d);
  const exes = new Set([clang, ...binaries]);
  for (const b of exes) {
    plan.place(b);
    for (const lib of libraries(realpathSync(b))) plan.place(lib);
  }
  return plan;
}

/** A compile's base and work directories in the temp dir, removed by close(). */
function tempRun(): { base: string; work: string; close(): void } {
  const base = mkdtempSync(join(tmpdir(), 'arbiter-cpp-'));
  const work = join(base, 'work');
  mkdirSync(work);
  return { base, work, close: () => rmSync(base, { recursive: true, force: true }) };
}

function namespaceConfinement(clang: string, plan: Plan): Confinement | { error: string } {
  if (process.platform !== 'linux') return { error: `namespaces are Linux's (this is ${process.platform})` };
  const unshare = which('unshare');
  if (!unshare) return { error: 'util-linux unshare is not installed' };
  const script = [
    'set -e',
    // A fresh tmpfs, owned by this user namespace, is the root.
    'mount -t tmpfs -o size=1m,mode=755,nosuid,nodev arbiter-cpp "$R"',
    ...plan.script(),
    'mkdir -p "$R/work"',
    'mount --bind "$W" "$R/work"',
    // The game's precompiled header when the compile uses one (P, a file on the host), read-only at /arbiter.pch.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script's own ${P:-}, not a template
    'if [ -n "${P:-}" ]; then touch "$R/arbiter.pch"; mount --bind -o ro "$P" "$R/arbiter.pch"; fi',
    'mount -o remount,ro,bind "$R"',
    'export PATH=/nonexistent TMPDIR=/work',
    `exec ${q(unshare)} --root="$R" --wd=/work "$@"`,
  ].join('\n');
  const argv = [unshare, '--user', '--map-root-user', '--mount', '--net', '--ipc', '--uts', '--fork', '--kill-child', 'sh', '-c', script, 'arbiter-cpp'];
  return {
    kind: 'namespaces',
    clang,
    open(pch) {
      const t = tempRun();
      const root = join(t.base, 'root');
      mkdirSync(root);
      return { work: t.work, argv, cwd: t.base, env: { PATH: process.env['PATH'] ?? '', R: root, W: t.work, ...(pch ? { P: pch } : {}) }, close: t.close };
    },
    pchAt: () => '/arbiter.pch',
  };
}

const LANDLOCK_SOURCE = fileURLToPath(new URL('./landlock/arbiter-landlock.c', import.meta.url));

/**
 * landlock/arbiter-landlock.c built with the system clang (for this machine, not wasm32), kept under
 * CACHE_DIR by a hash of its source and the compiler: built once per machine and version.
 */
function landlockHelper(clang: string): string {
  const source = readFileSync(LANDLOCK_SOURCE);
  const id = createHash('sha256').update(source).update(realpathSync(clang)).digest('hex').slice(0, 16);
  let dir = join(cacheDir(), 'landlock');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A program this process runs: only from a folder and a file that no one else could have written (a CACHE_DIR
  // under a shared /tmp could have been made by another user first), else built afresh in a private folder.
  if (!ownOnly(cacheDir()) || !ownOnly(dir)) dir = mkdtempSync(join(tmpdir(), 'arbiter-landlock-'));
  const helper = join(dir, `arbiter-landlock-${id}`);
  if (existsSync(helper) && ownOnly(helper)) return helper;
  const tmp = `${helper}.${process.pid}.tmp`;
  const r = spawnSync(clang, ['-x', 'c', '-O2', '-Wall', '-o', tmp, LANDLOCK_SOURCE], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(`the Landlock helper could not be built: ${(r.stderr || r.error?.message || '').trim().slice(0, 300)}`);
  }
  renameSync(tmp, helper);
  return helper;
}

/** Is `path` (not a symlink) this user's, and writable by no one else? */
function ownOnly(path: string): boolean {
  const st = lstatSync(path);
  return !st.isSymbolicLink() && (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
}

function landlockConfinement(clang: string, plan: Plan): Confinement | { error: string } {
  if (process.platform !== 'linux') return { error: `Landlock is Linux's (this is ${process.platform})` };
  let helper: string;
  try {
    helper = landlockHelper(clang);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const abi = spawnSync(helper, ['--abi'], { encoding: 'utf8', timeout: 10_000, env: {} });
  if (abi.status !== 0) return { error: (abi.stderr || abi.error?.message || `exit ${abi.status}`).trim() };
  // Every file and directory of the plan, resolved: Landlock checks the file opened, not the symlinks walked to it.
  const reads = [...plan.binds.keys()].flatMap((p) => ['--read', p]);
  return {
    kind: 'landlock',
    clang,
    open(pch) {
      const t = tempRun();
      return {
        work: t.work,
        argv: [helper, ...reads, '--write', t.work, ...(pch ? ['--read', pch] : []), '--'],
        cwd: t.work,
        env: { PATH: '/nonexistent', TMPDIR: t.work },
        close: t.close,
      };
    },
    pchAt: (pch) => pch,
  };
}

/**
 * The confinement for `clang` (a clang++ on PATH) of the kind asked for (auto: namespaces, else
 * Landlock), or why there is none. Checked by running it: a compile and link confined must work,
 * and a host file must not be readable from it.
 */
export function confinementFor(clang: string, kind: ConfinementKind | 'auto' = 'auto'): Confinement | { error: string } {
  let plan: Plan;
  try {
    plan = toolchainPlan(clang);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const reasons: string[] = [];
  for (const k of kind === 'auto' ? (['namespaces', 'landlock'] as const) : [kind]) {
    try {
      const c = k === 'namespaces' ? namespaceConfinement(clang, plan) : landlockConfinement(clang, plan);
      const why = 'error' in c ? c.error : checkConfinement(c);
      if (!why) return c as Confinement;
      reasons.push(`${k}: ${why}`);
    } catch (err) {
      reasons.push(`${k}: ${(err as Error).message}`);
    }
  }
  return { error: reasons.join('; ') };
}

/** A compile and link confined, and no host file seen from it: null when it works, else why not. */
function checkConfinement(c: Confinement): string | null {
  const run = (source: string): { ok: boolean; said: string } => {
    const r = c.open();
    try {
      writeFileSync(join(r.work, 'probe.cc'), source);
      const p = spawnSync(
        r.argv[0]!,
        [...r.argv.slice(1), c.clang, '--target=wasm32-wasi', '-O2', '-flto', '-mexec-model=reactor', '-Wl,--export=probe', 'probe.cc', '-o', 'probe.wasm'],
        { cwd: r.cwd, env: r.env, encoding: 'utf8', timeout: 60_000 },
      );
      const ok = p.status === 0 && existsSync(join(r.work, 'probe.wasm'));
      return { ok, said: `${p.signal ?? `exit ${p.status}`}: ${(p.stderr || p.error?.message || '').trim().slice(0, 400)}` };
    } finally {
      r.close();
    }
  };
  const fine = run('#include <vector>\nstd::vector<int> v(3);\nextern "C" int probe() { return v.size(); }\n');
  if (!fine.ok) return `a confined compile failed (${fine.said})`;
  // A host file that is valid C++: the compile must fail to read it (namespaces: it does not exist; Landlock: EACCES).
  const outside = mkdtempSync(join(tmpdir(), 'arbiter-cpp-outside-'));
  try {
    writeFileSync(join(outside, 'host.hh'), 'extern "C" int probe() { return 7; }\n');
    const peek = run(`#include "${join(outside, 'host.hh')}"\n`);
    if (peek.ok) return 'a confined compile read a file of the host';
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
  return null;
}
