// The benches' build step: a checkout's judge (dist/) built when its sources
// changed (`scripts/build.js --if-stale`), before anything is measured, so the
// build is in no figure.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds the judge in `checkout` if its build is stale, the build's output on
 * this process's terminal; throws if the build fails. A checkout without
 * scripts/build.js (a judge from before the build existed, run from its
 * sources) has nothing to build: false, else true.
 */
export function buildIfStale(checkout: string): boolean {
  const script = join(checkout, 'scripts/build.js');
  if (!existsSync(script)) return false;
  const built = spawnSync(process.execPath, [script, '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`${checkout}: the build failed (scripts/build.js --if-stale, ${built.status ?? built.signal})`);
  return true;
}
