// `arbiter admin grant|revoke` as the teacher runs it on a laptop server: the
// real command in its own process, on the embedded PGlite database under
// DATA_DIR (no DATABASE_URL), recorded in the audit with no actor; the
// control socket's limits (idle clients, clients at once, backup paths).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, migrate, closeDb } from '../../src/db/client.ts';
import { backupTarget, controlSocketPath, serveControl } from '../../src/cli/control.ts';
import { createConnection } from 'node:net';
import type { Db } from '../../src/db/client.ts';
import { commands, main } from '../../src/cli/main.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-admin-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function cliEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function arbiter(...args: string[]) {
  return spawnSync(process.execPath, ['--no-node-snapshot', 'bin/arbiter.js', 'admin', ...args], {
    cwd: root,
    env: cliEnv(dataDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/**
 * `arbiter <args>` in this process (main(), as bin/arbiter.js calls it) with DATA_DIR=dir, its output caught:
 * a process of its own costs seconds to start, and the embedded database's lock counts this process as
 * another client all the same (createDb refuses a second client in the process that holds it).
 */
async function arbiterHere(dir: string, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  // The commands print with console.log and console.error (the test runner's own output goes to process.stdout untouched).
  const saved = { log: console.log, error: console.error, dataDir: process.env.DATA_DIR, url: process.env.DATABASE_URL };
  console.log = (...a: unknown[]) => void (stdout += a.join(' ') + '\n');
  console.error = (...a: unknown[]) => void (stderr += a.join(' ') + '\n');
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  try {
    const status = await main(args);
    return { status, stdout, stderr };
  } finally {
    Object.assign(console, { log: saved.log, error: saved.error });
    if (saved.dataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved.dataDir;
    if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
  }
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

test('while the server holds the embedded database, admin, backup and similarity run in it through its control socket; restore is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-control-'));
  const db = await createDb({ dataDir: dir });
  const control = await serveControl(
    dir,
    db,
    (name, args) => commands[name]!.run(args),
    () => {},
  );
  try {
    await migrate(db);
    await db.user.create({ data: { username: 'Prof', usernameLower: 'prof', passwordHash: 'x' } });
    // The socket is the owner's only, in a folder that is the owner's only.
    assert.equal(statSync(join(dir, 'control')).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'control', 'arbiter.sock')).mode & 0o777, 0o600);

    const grant = await arbiterHere(dir, 'admin', 'grant', 'prof');
    assert.equal(grant.status, 0, grant.stderr);
    assert.equal(grant.stdout.trim(), 'Prof is now an admin');
    assert.equal((await db.user.findUniqueOrThrow({ where: { usernameLower: 'prof' } })).isAdmin, true, "written in the server's own database");
    const nobody = await arbiterHere(dir, 'admin', 'grant', 'nobody');
    assert.equal(nobody.status, 1);
    assert.match(nobody.stderr, /nobody/);

    // A relative path is the caller's, not the server's.
    const backup = await arbiterHere(dir, 'backup', join(dir, 'term.gz'));
    assert.equal(backup.status, 0, backup.stderr);
    assert.ok(existsSync(join(dir, 'term.gz')));
    assert.equal(statSync(join(dir, 'term.gz')).mode & 0o777, 0o600);

    const restore = await arbiterHere(dir, 'restore', join(dir, 'term.gz'));
    assert.equal(restore.status, 1);
    assert.match(restore.stderr, /is open in process/);
  } finally {
    await control.close();
    await closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a DATA_DIR with no database is refused, named, and left without one; --help on every command and subcommand', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'arbiter-empty-'));
  try {
    for (const args of [
      ['admin', 'grant', 'teacher'],
      ['backup', join(empty, 'x.gz')],
      ['similarity', 'report', 'moria'],
    ]) {
      const r = await arbiterHere(empty, ...args);
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`no embedded database in ${join(empty, 'pglite').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    assert.ok(!existsSync(join(empty, 'pglite')), 'no empty database was created');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  for (const args of [
    ['admin', '--help'],
    ['admin', 'grant', '--help'],
    ['backup', '-h'],
    ['restore', '--help'],
    ['similarity', 'import', '--help'],
    ['play', '--help'],
    ['verify', '--help'],
    ['submit', '--help'],
    ['view', '--help'],
  ]) {
    const r = await arbiterHere(dataDir, ...args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^usage: arbiter ${args[0]}`), args.join(' '));
  }
});

test('the control socket: an idle client is closed, at most so many are served at once (the others get a refusal), a relative backup path lands under DATA_DIR', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-control-limits-'));
  const seen: string[][] = [];
  const control = await serveControl(
    dir,
    null as unknown as Db,
    async (_name, args) => {
      seen.push(args);
      return 0;
    },
    () => {},
    { idleMs: 300, maxClients: 2 },
  );
  const path = controlSocketPath(dir);
  /** A connection: its data so far, and a promise of its close. */
  const connect = () => {
    const socket = createConnection(path);
    socket.setEncoding('utf8');
    const out = { data: '', closed: new Promise<number>((done) => socket.on('close', () => done(Date.now()))), socket };
    socket.on('data', (c: string) => (out.data += c));
    return out;
  };
  const ask = async (req: unknown) => {
    const c = connect();
    c.socket.write(JSON.stringify(req) + '\n');
    await c.closed;
    return JSON.parse(c.data) as { code: number; stderr: string };
  };
  try {
    const start = Date.now();
    const idle = [connect(), connect()];
    await new Promise((r) => setTimeout(r, 50));
    // Two idle clients hold both places: a third is refused at once, not queued.
    const third = connect();
    await third.closed;
    assert.match(JSON.parse(third.data).stderr, /running 2 other commands/);
    // The idle ones are closed after the idle time, which frees their places.
    for (const c of idle) {
      const closedAt = await c.closed;
      assert.ok(closedAt - start >= 250 && closedAt - start < 5000, `closed after ${closedAt - start} ms`);
      assert.equal(c.data, '');
    }
    assert.equal((await ask({ command: 'backup', args: ['term/one.gz'] })).code, 0);
    assert.equal((await ask({ command: 'backup', args: ['/somewhere/else.gz'] })).code, 0);
    assert.deepEqual(seen, [[join(dir, 'term', 'one.gz')], ['/somewhere/else.gz']]);
    const out = await ask({ command: 'backup', args: ['../escape.gz'] });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /written under DATA_DIR .*"\.\.\/escape\.gz" leads outside it/);
    assert.equal(backupTarget(dir, 'a.gz'), join(dir, 'a.gz'));
  } finally {
    await control.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
