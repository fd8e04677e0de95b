// The system clang, confined by the OS: a student's file is text that clang
// reads, and any #include, #embed or __has_include that names a path opens
// that path. No reading of the text decides which of them are safe (clang's
// lexer is the only one that knows what it lexes); instead the compiler runs
// where nothing else exists: new user, mount and network namespaces
// (util-linux's unshare, as an unprivileged user), a fresh tmpfs as its root
// into which only the toolchain's own files are bind-mounted read-only (the
// clang and lld binaries, the shared libraries they load as ldd lists them,
// the clang installation with its resource directory, the wasm32 sysroot's
// include and library directories) and the compile's work directory (the
// student's file and the game's headers, writable for the module), the
// game's precompiled header if the compile uses one (read-only: built from
// the same headers and the sysroot, nothing more), then a chroot into it. No /etc, /proc, /dev, /home, /tmp of the host, no DATA_DIR,
// no project tree: a path outside the root does not exist.
//
// The plan (which paths to mount where) is worked out once from the
// toolchain itself: `clang -###` names the compiler, the linker, the resource
// directory and the sysroot's directories; ldd names the libraries. Where the
// OS cannot do it (no user namespaces, no unshare), confinementFor says why,
// and the system clang is not used.

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

export interface Confinement {
  /** Argv prefix: the compile's argv (clang's, inside the root) follows. Run with cwd anywhere; ROOT and WORK come from the environment. */
  argv: string[];
  /** The clang to call inside the root (the same path as outside). */
  clang: string;
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

/**
 * The confinement for `clang` (a clang++ on PATH), or the reason there is none.
 * Checked by running it: a compile and link in the confined root must work.
 */
export function confinementFor(clang: string): Confinement | { error: string } {
  if (process.platform !== 'linux') return { error: `confining the compiler needs Linux namespaces (this is ${process.platform})` };
  const unshare = which('unshare');
  if (!unshare) return { error: 'util-linux unshare is not installed' };
  try {
    const { binaries, dirs } = toolchainPaths(clang);
    if (binaries.length < 2) return { error: `clang -### named no compiler and linker` };
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
    const confinement: Confinement = {
      argv: [unshare, '--user', '--map-root-user', '--mount', '--net', '--ipc', '--uts', '--fork', '--kill-child', 'sh', '-c', script, 'arbiter-cpp'],
      clang,
    };
    const check = checkConfinement(confinement);
    return check ? { error: check } : confinement;
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** A compile and link in the confined root, and no host file seen from it: null when it works, else why not. */
function checkConfinement(c: Confinement): string | null {
  const base = mkdtempSync(join(tmpdir(), 'arbiter-cpp-check-'));
  try {
    const { root, work } = workDirs(base);
    writeFileSync(
      join(work, 'probe.cc'),
      '#include <vector>\n#if __has_include("/etc/passwd") || __has_include("/proc/self/environ")\n#error the host is visible\n#endif\nstd::vector<int> v(3);\nextern "C" int probe() { return v.size(); }\n',
    );
    const r = spawnSync(
      c.argv[0]!,
      [...c.argv.slice(1), c.clang, '--target=wasm32-wasi', '-O2', '-flto', '-mexec-model=reactor', '-Wl,--export=probe', 'probe.cc', '-o', 'probe.wasm'],
      {
        env: { PATH: process.env['PATH'] ?? '', R: root, W: work },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    if (r.status !== 0 || !existsSync(join(work, 'probe.wasm')))
      return `a confined compile failed (${r.signal ?? `exit ${r.status}`}): ${(r.stderr || r.error?.message || '').trim().slice(0, 400)}`;
    return null;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** A compile's two directories under `base`: the empty mount point of its root, and its work directory. */
export function workDirs(base: string): { root: string; work: string } {
  const root = join(base, 'root');
  const work = join(base, 'work');
  mkdirSync(root, { recursive: true });
  mkdirSync(work, { recursive: true });
  return { root, work };
}
