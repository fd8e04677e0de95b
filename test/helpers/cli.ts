// Running the `arbiter` command as a student does, from the tests: at once
// (spawnSync) or without waiting, so independent cases run side by side.

import { execFile, spawnSync } from 'node:child_process';

export const ARBITER_BIN = new URL('../../bin/arbiter.js', import.meta.url).pathname;

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export function arbiter(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ARBITER_BIN, ...args], { encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export function arbiterAsync(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--no-node-snapshot', ARBITER_BIN, ...args], { encoding: 'utf8', timeout: 240_000 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, out, err: errOut });
    });
  });
}
