// `arbiter admin grant|revoke` as the teacher runs it on a laptop server: the
// real command in its own process, on the embedded PGlite database under
// DATA_DIR (no DATABASE_URL), recorded in the audit with no actor.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, migrate, closeDb } from '../../src/db/client.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-admin-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function arbiter(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, ['--no-node-snapshot', 'bin/arbiter.js', 'admin', ...args], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
}

test('grant and revoke on the embedded database under DATA_DIR, each in the audit with no actor; an unknown user or a bad command exits non-zero', async () => {
  // The user signed up while the server ran (then the server was stopped: PGlite serves one process).
  let db = await createDb({ dataDir });
  await migrate(db);
  await db.user.create({ data: { username: 'Teacher', usernameLower: 'teacher', passwordHash: 'x' } });
  await closeDb(db);

  const grant = arbiter('grant', 'teacher');
  assert.equal(grant.status, 0, grant.stderr);
  assert.equal(grant.stdout.trim(), 'Teacher is now an admin');
  const unknown = arbiter('grant', 'nobody');
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /no user "nobody": they must sign up first/);
  const usage = arbiter('make', 'teacher');
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: arbiter admin grant <username>/);

  db = await createDb({ dataDir });
  try {
    assert.equal((await db.user.findUniqueOrThrow({ where: { usernameLower: 'teacher' } })).isAdmin, true);
    const lines = await db.auditEntry.findMany({ orderBy: { id: 'asc' } });
    assert.deepEqual(lines.map((l) => [l.action, l.actorId, l.targetType]), [['admin.grant', null, 'user']]);
  } finally {
    await closeDb(db);
  }
  const revoke = arbiter('revoke', 'Teacher');
  assert.equal(revoke.status, 0, revoke.stderr);
  db = await createDb({ dataDir });
  try {
    assert.equal((await db.user.findUniqueOrThrow({ where: { usernameLower: 'teacher' } })).isAdmin, false);
    assert.equal(await db.auditEntry.count({ where: { action: 'admin.revoke', actorId: null } }), 1);
  } finally {
    await closeDb(db);
  }
});
