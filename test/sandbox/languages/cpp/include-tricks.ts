// The ways we know for a C++ file to make clang open a path that is not the
// file, its headers or the sysroot: each a file to compile that would quote a
// planted secret back (in an error or in the module) if clang could read it.
// Shared by the confinement tests (compile-confinement*.test.ts).

import { join } from 'node:path';

/** The relative path from a compile's work directory up to the root. */
const up = '../'.repeat(20);

export function includeTricks(p: { secret: string; dataDir: string; projectEnv: string; marker: string }): [string, string][] {
  const { secret, dataDir, projectEnv, marker } = p;
  return [
    ['an absolute path', `#include "${secret}"\n`],
    ['an absolute path in <>', `#include <${secret}>\n`],
    ["a ' after a hex digit read as a digit separator, hiding lines up to */", `#define Q A'/*'\n#include "${secret}"\n// */\n`],
    ['a backslash, spaces and a newline (a line splice for clang)', `// a comment \\   \n#include "${secret}"\n`],
    ['a lone \\r as a line end', `// a comment\r#include "${secret}"\r`],
    ['__has_embed then #include', `#if defined(__has_embed)\n#if __has_embed("${secret}")\n#endif\n#endif\n#include "${secret}"\n`],
    ['#embed', `const char s[] = {\n#embed "${secret}"\n, 0};\n`],
    [
      '__has_include with an #error that would tell',
      `#if __has_include("${secret}") || __has_include("/etc/passwd") || __has_include("/proc/self/environ")\n#error ${marker} the host is visible\n#endif\n`,
    ],
    ['../.. to the root', `#include "${up}${secret.slice(1)}"\n`],
    ['../.. from the headers', `#include "include/${up}${secret.slice(1)}"\n`],
    ['#include_next', `#include_next "${secret}"\n#include_next <${secret}>\n`],
    ['#pragma clang system_header', `#pragma clang system_header\n#include "${secret}"\n`],
    ['#line and #include __FILE__', `#line 1 "${secret}"\n#include __FILE__\n`],
    ['a macro', `#define P "${secret}"\n#include P\n`],
    ['#import', `#import "${secret}"\n`],
    ['#pragma GCC dependency', `#pragma GCC dependency "${secret}"\n`],
    ['_Pragma dependency', `_Pragma("GCC dependency \\"${secret}\\"")\n`],
    ['digraph %:include', `%:include "${secret}"\n`],
    [
      'symlink-ish paths',
      `#include "/proc/self/root${secret}"\n#include "/proc/self/cwd/${up}${secret.slice(1)}"\n#include "//${secret.slice(1)}"\n#include "/./${secret.slice(1)}"\n`,
    ],
    ['/proc/self/environ', `#include "/proc/self/environ"\n`],
    ['/proc/1/environ and /dev/fd', `#include "/proc/1/environ"\n#include "/dev/fd/0"\n#include "/dev/stdin"\n`],
    ['a file in DATA_DIR', `#include "${join(dataDir, 'arbiter.db')}"\n`],
    ["the project's .env", `#include "${projectEnv}"\n`],
    ['/etc/passwd, read as a string', `const char* s =\n#include "/etc/passwd"\n;\n`],
  ];
}

/** The tricks that reach another process through /proc: the judge's own (pid), its parent's, each one's open files and working directory. */
export function procTricks(pids: number[]): [string, string][] {
  return pids.flatMap((pid): [string, string][] => [
    [`/proc/${pid}/environ`, `#include "/proc/${pid}/environ"\n`],
    [`/proc/${pid}/environ as a string`, `const char* s =\n#include "/proc/${pid}/environ"\n;\n`],
    [`/proc/${pid}/cmdline`, `#include "/proc/${pid}/cmdline"\n`],
    [`/proc/${pid}/root/proc/${pid}/environ`, `#include "/proc/${pid}/root/proc/${pid}/environ"\n`],
    [
      `/proc/${pid}/fd/*`,
      Array.from({ length: 24 }, (_, fd) => `#if __has_include("/proc/${pid}/fd/${fd}")\n#include "/proc/${pid}/fd/${fd}"\n#endif\n`).join(''),
    ],
    [`/proc/${pid}/mem`, `#include "/proc/${pid}/mem"\n`],
  ]);
}
