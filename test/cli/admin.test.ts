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

test('grant and revoke on the embedded database under DATA_DIR, each in the audit with no actor; a bad command exits 2', async () => {
  // The user signed up while the server ran (then the server was stopped: PGlite serves one process).
  let db = await createDb({ dataDir });
  await migrate(db);
  await db.user.create({ data: { username: 'Teacher', usernameLower: 'teacher', passwordHash: 'x' } });
  await closeDb(db);

  const usage = arbiter('make', 'teacher');
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: arbiter admin grant <username>/);
  const grant = arbiter('grant', 'teacher');
  assert.equal(grant.status, 0, grant.stderr);
  assert.equal(grant.stdout.trim(), 'Teacher is now an admin');
  const revoke = arbiter('revoke', 'TEACHER');
  assert.equal(revoke.status, 0, revoke.stderr);
  assert.equal(revoke.stdout.trim(), 'Teacher is no longer an admin');

  db = await createDb({ dataDir });
  try {
    // While a process holds the embedded database, the command refuses rather than write a copy the holder would overwrite.
    const busy = arbiter('grant', 'teacher');
    assert.equal(busy.status, 1);
    assert.match(busy.stderr, new RegExp(`the embedded database in .* is open in process ${process.pid}`));
    await assert.rejects(createDb({ dataDir }), /is open in process/);
    assert.equal((await db.user.findUniqueOrThrow({ where: { usernameLower: 'teacher' } })).isAdmin, false);
    const lines = await db.auditEntry.findMany({ orderBy: { id: 'asc' } });
    assert.deepEqual(
      lines.map((l) => [l.action, l.actorId, l.targetType, (l.detail as { wasAdmin: boolean }).wasAdmin]),
      [
        ['admin.grant', null, 'user', false],
        ['admin.revoke', null, 'user', true],
      ],
      'the revoke found the grant done',
    );
  } finally {
    await closeDb(db);
  }
});
