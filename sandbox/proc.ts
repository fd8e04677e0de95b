// Reading a process's figures from /proc (Linux): what the pools and the
// match process need to watch memory. Elsewhere these answer null.

import { readFileSync } from 'node:fs';

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
