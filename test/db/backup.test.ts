// Backups: a database with users, players, submissions (with a qualified
// player pointing back at its submission), matches, replays, ratings and an
// audit line is backed up by `arbiter backup`, restored by `arbiter restore`
// into a fresh Postgres database and into an embedded PGlite, and every
// table's rows (replay bytes included) come back identical; ids continue
// after the restored ones. A non-empty target is refused without --force.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '../helpers/db.ts';
import { closeDb, createDb, rawSession, type Db } from '../../src/db/client.ts';
import { restoreBackup, tableCounts, writeBackup } from '../../src/db/backup.ts';
import { backupCommand, restoreCommand } from '../../src/cli/backup.ts';
import { bot, insertMatch } from '../helpers/app.ts';
import { slow } from '../helpers/slow.ts';

const source = await freshDatabase();
const target = await freshDatabase({ migrated: false });
const dir = mkdtempSync(join(tmpdir(), 'arbiter-backup-test-'));
after(async () => {
  await source.drop();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A term in miniature, written as the API and the recorder write it. */
async function fill(db: Db) {
  const replays: Buffer[] = [];
  for (let u = 0; u < 3; u++) {
    const user = await db.user.create({ data: { username: `Student${u}`, usernameLower: `student${u}`, passwordHash: 'scrypt$x', isAdmin: u === 0 } });
    const player = await db.playerName.create({
      data: { game: 'moria', name: `Bot${u}`, nameLower: `bot${u}`, ownerId: user.id, locked: true, lockedAt: new Date() },
    });
    const s = await db.submission.create({
      data: {
        playerId: player.id,
        userId: user.id,
        game: 'moria',
        version: 1,
        source: bot(`Bot${u}`) + `// é ✓ "quotes" \\ back\n`,
        filename: 'bot.ts',
        sizeBytes: 100,
        status: 'qualified',
        reasonDetail: { seat: u, nested: [1, 'two'] },
      },
    });
    await db.playerName.update({ where: { id: player.id }, data: { qualifiedSubmissionId: s.id } });
    await db.rating.create({ data: { playerId: player.id, game: 'moria', mu: 25 + u, sigma: 8.333, ordinal: 0.1 * u } });
    const replay = randomBytes(3000 + u);
    replays.push(replay);
    const m = await insertMatch(db, {
      kind: 'ranked',
      seats: [0, 1, 2, 3].map((seat) => ({
        name: seat === 0 ? `Bot${u}` : 'Dummy',
        playerId: seat === 0 ? player.id : null,
        submissionId: seat === 0 ? s.id : null,
        builtinName: seat === 0 ? null : 'Dummy',
        score: seat,
        rank: seat + 1,
        log: 'line one\nline "two"',
      })),
      replay,
    });
    await db.ratingHistory.create({ data: { playerId: player.id, game: 'moria', matchId: m.id, mu: 25, sigma: 8, ordinal: 1 } });
  }
  await db.auditEntry.create({ data: { actorId: null, action: 'admin.grant', targetType: 'user', targetId: '1', detail: { reason: 'test' } } });
  // More rows than one read of the backup takes (200 rows, 16 of a table with bytes): the keyset paging must go on.
  await db.auditEntry.createMany({ data: Array.from({ length: 450 }, (_, i) => ({ action: 'bulk', targetId: String(i) })) });
  for (let i = 0; i < 20; i++) {
    const replay = randomBytes(100 + i);
    replays.push(replay);
    await insertMatch(db, {
      kind: 'challenge',
      seats: [0, 1, 2, 3].map((seat) => ({ name: 'Dummy', builtinName: 'Dummy', score: seat, rank: seat + 1 })),
      replay,
    });
  }
  return replays;
}

/** Every table's rows as JSON, in a stable order (what must come back identical). */
async function contents(db: Db): Promise<Record<string, string[]>> {
  return rawSession(db, async (s) => {
    const tables = await s.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY table_name`,
    );
    const out: Record<string, string[]> = {};
    for (const { table_name } of tables) {
      const rows = await s.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
      out[table_name] = rows.map((r) => r.row).sort();
    }
    return out;
  });
}

const quiet = async (fn: () => Promise<number>) => {
  const out: string[] = [];
  const [log, err] = [console.log, console.error];
  console.log = (s: string) => out.push(s);
  console.error = (s: string) => out.push(s);
  try {
    return { code: await fn(), out: out.join('\n') };
  } finally {
    console.log = log;
    console.error = err;
  }
};

const replays = await fill(source.db);
const file = join(dir, 'term.gz');

test('arbiter backup writes one archive; arbiter restore brings every row and every replay byte back into a fresh Postgres database', async () => {
  const umask = process.umask(0);
  const backup = await quiet(() => backupCommand([file], { DATABASE_URL: source.url })).finally(() => process.umask(umask));
  assert.equal(backup.code, 0, backup.out);
  assert.match(backup.out, /\(Match 23, Replay 23, Submission 3, User 3\)/);
  assert.ok(existsSync(file) && !existsSync(`${file}.partial`));
  // It holds password hashes, e-mails and sources: readable by its owner only, whatever the umask.
  assert.equal(statSync(file).mode & 0o777, 0o600);

  const restore = await quiet(() => restoreCommand([file], { DATABASE_URL: target.url }));
  assert.equal(restore.code, 0, restore.out);
  assert.deepEqual(await tableCounts(target.db), await tableCounts(source.db));
  assert.deepEqual(await contents(target.db), await contents(source.db));
  const back = await target.db.replay.findMany({ orderBy: { matchId: 'asc' } });
  assert.deepEqual(
    back.map((r) => Buffer.from(r.data)),
    replays,
  );

  // The ids go on after the restored ones, and the foreign keys hold again.
  const user = await target.db.user.create({ data: { username: 'late', usernameLower: 'late', passwordHash: 'x' } });
  assert.equal(user.id, 4);
  await assert.rejects(
    target.db.submission.create({ data: { playerId: 999, userId: user.id, game: 'moria', version: 1, source: 'x', filename: 'x.ts', sizeBytes: 1 } }),
  );
});

test('a file that is not a backup is refused before anything is written', async () => {
  const bogus = join(dir, 'bogus.gz');
  writeFileSync(bogus, 'not gzip');
  const before = await tableCounts(target.db);
  await assert.rejects(restoreBackup(target.db, bogus), /not an Arbiter backup|incorrect header check/);
  assert.deepEqual(await tableCounts(target.db), before);
});

test('a non-empty target is refused without --force and changes nothing; --force replaces it', async () => {
  const before = await tableCounts(target.db);
  const refused = await quiet(() => restoreCommand([file], { DATABASE_URL: target.url }));
  assert.equal(refused.code, 1);
  assert.match(refused.out, /not empty .*--force/);
  assert.deepEqual(await tableCounts(target.db), before);

  const forced = await quiet(() => restoreCommand([file, '--force'], { DATABASE_URL: target.url }));
  assert.equal(forced.code, 0, forced.out);
  assert.deepEqual(await contents(target.db), await contents(source.db));
});

// Starting PGlite alone takes seconds on a loaded machine: slow (CI runs it).
test('the same archive restores into the embedded PGlite', slow, async () => {
  const lite = await createDb({ dataDir: 'memory://' });
  try {
    await restoreBackup(lite, file);
    assert.deepEqual(await contents(lite), await contents(source.db));
  } finally {
    await closeDb(lite);
  }
});

test('a backup is one snapshot: rows committed while it runs, after the first table was read, are in none of its tables', async () => {
  const snapshotFile = join(dir, 'snapshot.gz');
  const before = await tableCounts(source.db);
  let wrote = false;
  const summary = await writeBackup(source.db, snapshotFile, {
    afterTable: async () => {
      if (wrote) return;
      wrote = true;
      // Committed by another connection between two tables of the backup: a user, their player and submission, a match.
      const u = await source.db.user.create({ data: { username: 'during', usernameLower: 'during', passwordHash: 'x' } });
      const p = await source.db.playerName.create({ data: { game: 'moria', name: 'During', nameLower: 'during', ownerId: u.id } });
      await source.db.submission.create({ data: { playerId: p.id, userId: u.id, game: 'moria', version: 1, source: 'x', filename: 'x.ts', sizeBytes: 1 } });
      await source.db.auditEntry.create({ data: { action: 'during.backup' } });
    },
  });
  assert.ok(wrote);
  for (const t of ['User', 'PlayerName', 'Submission', 'AuditEntry']) assert.equal(summary.counts[t], before[t], t);
  assert.equal((await tableCounts(source.db)).User, before.User! + 1);
  // And what it wrote restores (the same rows as before the writes).
  const again = await freshDatabase({ migrated: false });
  try {
    await restoreBackup(again.db, snapshotFile);
    assert.deepEqual(await tableCounts(again.db), before);
  } finally {
    await again.drop();
  }
});
