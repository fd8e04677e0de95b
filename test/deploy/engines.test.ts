// `npm install` warns EBADENGINE for every installed package whose `engines.node` the running Node does not
// satisfy: a student's or a course's first command should print no such warning. The lock file records each
// package's engines; this reads them against this Node (CI runs it on Node 20 and on 24). package.json's overrides
// hold the version a dependency pins otherwise (@prisma/dev 0.20.0: prisma 7.10's own pin pulls
// @prisma/streams-local, which wants Node 22, for `prisma dev`, a command Arbiter never runs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import semver from 'semver';

interface Lock {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[]; optional?: boolean; os?: string[]; cpu?: string[] }>;
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lock;

/** Whether npm installs this entry here (optional packages for another system are skipped, and never checked). */
const installedHere = (entry: Lock['packages'][string]) =>
  !(entry.os && !entry.os.includes(process.platform)) && !(entry.cpu && !entry.cpu.includes(process.arch));

test(`every locked package's engines.node admits this Node (${process.version}): npm install warns no EBADENGINE`, () => {
  const refused: string[] = [];
  let checked = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = !Array.isArray(entry.engines) ? entry.engines?.['node'] : undefined;
    if (!range || !installedHere(entry)) continue;
    // A package of this Node's other line (isolated-vm 5 or 6): npm keeps whichever builds here, optional both.
    if (entry.optional && /(^|\/)isolated-vm(-6)?$/.test(path)) continue;
    checked++;
    if (!semver.satisfies(process.version, range, { includePrerelease: true })) refused.push(`${path}@${entry.version}: node ${range}`);
  }
  assert.ok(checked > 100, `only ${checked} packages declare engines: is this the lock file?`);
  assert.deepEqual(refused, []);
});
