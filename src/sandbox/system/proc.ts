// Reading a process's figures from /proc (Linux): what the pools and the
// match process need to watch memory. Elsewhere these answer null.

import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** A line of a process's /proc status (VmRSS, VmData...), bytes; null where that is not available (not Linux, or the process is gone). */
export function procStatusBytes(pid: number | 'self', field: 'VmRSS' | 'VmData'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process's RSS, bytes, from /proc; null where that is not available. */
export const rssBytes = (pid: number): number | null => procStatusBytes(pid, 'VmRSS');

/** Clock ticks per second of /proc's CPU figures (USER_HZ: 100 on every Linux the judge runs on). */
const TICKS_PER_SECOND = 100;

/** The CPU time (user + system) of one process, ms, from /proc; null when it is gone or this is not Linux. */
export function cpuMs(pid: number): number | null {
  const f = statFields(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND : null;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses): [0] is the state. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * The CPU time of each living process of a process group, ms, by pid; null when this is not Linux. The
 * group is found from its leader down, through each process's children lists: a few reads, where
 * reading every process of a busy machine cost a C++ compile's watch 5-10 ms of the worker's CPU a
 * poll (a fifth of the compile's own CPU under load). A member its parent left (reparented out of the
 * leader's tree) is seen only where the kernel keeps no children lists and every process is read.
 */
export function groupCpuMs(pgid: number): Map<number, number> | null {
  if (hasChildrenLists()) return groupCpuFromLeader(pgid);
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
  const out = new Map<number, number>();
  for (const n of names) {
    const f = statFields(n);
    if (f && Number(f[2]) === pgid) out.set(Number(n), ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** Whether this kernel lists each thread's children (/proc/<pid>/task/<tid>/children, CONFIG_PROC_CHILDREN). */
function hasChildrenLists(): boolean {
  childrenLists ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenLists;
}
let childrenLists: boolean | undefined;

/** groupCpuMs from the group's leader and its descendants (those in the group). */
function groupCpuFromLeader(pgid: number): Map<number, number> {
  const out = new Map<number, number>();
  const stack = [pgid];
  const visited = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (visited.has(pid)) continue;
    visited.add(pid);
    const f = statFields(pid);
    if (!f) continue; // gone
    if (Number(f[2]) === pgid) out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch {
        continue; // the thread or the process is gone
      }
      for (const child of children.split(' ')) if (child) stack.push(Number(child));
    }
  }
  return out;
}
