// Backups of the whole database, for Postgres and the embedded PGlite alike
// (pg_dump need not be installed, and PGlite has none). Everything a term
// keeps is in the database: users, submissions with their sources, matches,
// replays (Replay.data), ratings, tournaments, the audit; Redis holds only
// the queues, which the sweep rebuilds from the database.
//
// The archive is gzip'd JSON lines: a header (format, the migrations the
// schema is at, every table with its columns), then each table's name and
// its rows (row_to_json, bytea as hex), then a trailer with every table's row
// count. All of it is read in one REPEATABLE READ, READ ONLY transaction, so
// it is one consistent snapshot even while the server writes. It is written
// to <file>.partial and renamed at the end: a file with the final name is
// complete. The archive holds secrets (password and token hashes, e-mails,
// every source): it is written mode 0600, readable by its owner only.
//
// Restoring migrates the target to this version's schema, refuses a target
// that holds any row (unless forced, which empties it), then loads every
// table in one transaction with the foreign keys dropped and re-added (the
// re-adding checks them all; PlayerName and Submission point at each other,
// so no table order would do), sets every id sequence past the largest id,
// and compares the row counts with the trailer's.

import { chmodSync, cpSync, createReadStream, createWriteStream, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import { once } from 'node:events';
import { localMigrations, migrate, MIGRATIONS_DIR, rawSession, type Db, type RawSession } from './client.ts';

export const BACKUP_FORMAT = 'arbiter-backup';
export const BACKUP_VERSION = 1;
/** Prisma's bookkeeping: rebuilt by migrate() on the target, never copied. */
const SKIPPED_TABLES = new Set(['_prisma_migrations']);
const ROWS_PER_READ = 200;
/** Tables with a bytea column (replays, hundreds of KiB each as hex) are read a few rows at a time. */
const BYTEA_ROWS_PER_READ = 16;
/** A batch of rows sent in one INSERT stays under this many characters of JSON. */
const INSERT_BATCH_CHARS = 4 * 1024 * 1024;

export class BackupError extends Error {
  override name = 'BackupError';
}

interface TableInfo {
  name: string;
  columns: string[];
  /** Has a bytea column (not in the archive's header: a reading hint only). */
  bytes?: boolean;
}
interface Header {
  format: string;
  version: number;
  createdAt: string;
  migrations: string[];
  tables: TableInfo[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function userTables(s: RawSession): Promise<TableInfo[]> {
  const rows = await s.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, TableInfo>();
  for (const r of rows) {
    if (SKIPPED_TABLES.has(r.table_name)) continue;
    let t = tables.get(r.table_name);
    if (!t) tables.set(r.table_name, (t = { name: r.table_name, columns: [] }));
    t.columns.push(r.column_name);
    if (r.data_type === 'bytea') t.bytes = true;
  }
  return [...tables.values()];
}

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  counts: Record<string, number>;
}

/** Writes one consistent archive of the database to `file` (`afterTable` runs after each table is read: the tests write meanwhile). */
export async function writeBackup(db: Db, file: string, opts: { afterTable?: (table: string) => Promise<void> } = {}): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  // Owner-only from its first byte: it holds password and token hashes, e-mails and every source.
  rmSync(partial, { force: true });
  const out = createWriteStream(partial, { mode: 0o600 });
  gzip.pipe(out);
  const write = async (line: string) => {
    if (!gzip.write(line + '\n')) await once(gzip, 'drain');
  };
  try {
    const counts = await rawSession(db, async (s) => {
      await s.exec('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const applied = await s.query<{ migration_name: string }>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
        );
        const tables = await userTables(s);
        const header: Header = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          migrations: applied.map((r) => r.migration_name),
          tables: tables.map(({ name, columns }) => ({ name, columns })),
        };
        await write(JSON.stringify(header));
        const counts: Record<string, number> = {};
        for (const t of tables) {
          await write(JSON.stringify({ table: t.name }));
          let n = 0;
          // Keyset on the physical row id: stable within the snapshot, and no OFFSET to rescan.
          let after = '(0,0)';
          const limit = t.bytes ? BYTEA_ROWS_PER_READ : ROWS_PER_READ;
          for (;;) {
            // ORDER BY t.ctid, the column: a bare "ctid" would name the text output column and sort (0,10) before (0,2).
            const rows = await s.query<{ position: string; row: string }>(
              `SELECT t.ctid::text AS position, row_to_json(t)::text AS row FROM ${q(t.name)} t WHERE t.ctid > $1::tid ORDER BY t.ctid LIMIT ${limit}`,
              [after],
            );
            for (const r of rows) await write(r.row);
            n += rows.length;
            if (rows.length < limit) break;
            after = rows[rows.length - 1]!.position;
          }
          counts[t.name] = n;
          await opts.afterTable?.(t.name);
        }
        await write(JSON.stringify({ end: true, counts }));
        return counts;
      } finally {
        await s.exec('ROLLBACK');
      }
    });
    gzip.end();
    await once(out, 'close');
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    return { file, tables: Object.keys(counts).length, rows: Object.values(counts).reduce((a, b) => a + b, 0), counts };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
}

/** Rows in every table of the database (the restore's emptiness check and the tests' comparison). */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  return rawSession(db, async (s) => {
    const counts: Record<string, number> = {};
    for (const t of await userTables(s)) counts[t.name] = Number((await s.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${q(t.name)}`))[0]!.n);
    return counts;
  });
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  counts: Record<string, number>;
  /** Migrations applied after the data was loaded (the backup came from an older version). */
  upgraded: string[];
}

/** Restores `file` into the database: an empty one, or any with `force` (which deletes every row first). */
export async function restoreBackup(db: Db, file: string, opts: { force?: boolean } = {}): Promise<RestoreSummary> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async (): Promise<string | undefined> => {
    const r = await lines.next();
    return r.done ? undefined : (r.value as string);
  };
  let header: Header;
  try {
    header = JSON.parse((await next()) ?? 'null') as Header;
  } catch (err) {
    throw new BackupError(`${file} is not an Arbiter backup (${(err as Error).message})`);
  }
  if (header?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not an Arbiter backup`);
  if (header.version !== BACKUP_VERSION)
    throw new BackupError(`${file} is a backup of format version ${header.version}; this Arbiter reads version ${BACKUP_VERSION}`);
  const local = localMigrations().map((m) => m.name);
  // The backup's schema must be this version's, or an earlier one (the later migrations run after the load).
  if (header.migrations.some((m, i) => local[i] !== m)) {
    throw new BackupError(
      `the backup's schema (${header.migrations.at(-1) ?? 'none'}) is not an earlier state of this Arbiter's (${local.at(-1)}): restore it with the Arbiter version that wrote it`,
    );
  }
  // Migrate to the backup's schema exactly: a folder of just its migrations.
  const onlyBackupMigrations = mkdtempSync(join(tmpdir(), 'arbiter-restore-'));
  for (const m of header.migrations) cpSync(join(MIGRATIONS_DIR, m), join(onlyBackupMigrations, m), { recursive: true });
  try {
    await migrate(db, { dir: onlyBackupMigrations });
  } finally {
    rmSync(onlyBackupMigrations, { recursive: true, force: true });
  }

  const counts = await rawSession(db, async (s) => {
    const present = await userTables(s);
    const presentNames = new Set(present.map((t) => t.name));
    for (const t of header.tables) if (!presentNames.has(t.name)) throw new BackupError(`the target has no table "${t.name}"`);
    await s.exec('BEGIN');
    try {
      const nonEmpty: string[] = [];
      for (const t of present) if ((await s.query(`SELECT 1 FROM ${q(t.name)} LIMIT 1`)).length > 0) nonEmpty.push(t.name);
      if (nonEmpty.length > 0 && !opts.force) {
        throw new BackupError(
          `the target database is not empty (${nonEmpty.slice(0, 5).join(', ')}${nonEmpty.length > 5 ? '...' : ''} hold rows): restore into an empty one, or add --force to replace everything in it`,
        );
      }
      const fks = await s.query<{ table_name: string; name: string; def: string }>(
        `SELECT cl.relname AS table_name, co.conname AS name, pg_get_constraintdef(co.oid) AS def
           FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace ns ON ns.oid = cl.relnamespace
          WHERE co.contype = 'f' AND ns.nspname = current_schema()`,
      );
      for (const fk of fks) await s.exec(`ALTER TABLE ${q(fk.table_name)} DROP CONSTRAINT ${q(fk.name)}`);
      if (nonEmpty.length > 0) await s.exec(`TRUNCATE ${present.map((t) => q(t.name)).join(', ')}`);

      const counts: Record<string, number> = {};
      let table: TableInfo | undefined;
      let batch: string[] = [];
      let batchChars = 0;
      const flush = async () => {
        if (!table || batch.length === 0) return;
        const cols = table.columns.map(q).join(', ');
        await s.query(`INSERT INTO ${q(table.name)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${q(table.name)}, $1::json)`, [
          `[${batch.join(',')}]`,
        ]);
        counts[table.name] = (counts[table.name] ?? 0) + batch.length;
        batch = [];
        batchChars = 0;
      };
      let trailer: { end: true; counts: Record<string, number> } | undefined;
      for (let line = await next(); line !== undefined; line = await next()) {
        if (line === '') continue;
        if (line.startsWith('{"table":')) {
          await flush();
          const name = (JSON.parse(line) as { table: string }).table;
          table = header.tables.find((t) => t.name === name);
          if (!table) throw new BackupError(`the backup names a table "${name}" its header does not list`);
          counts[name] = 0;
        } else if (line.startsWith('{"end":true')) {
          await flush();
          trailer = JSON.parse(line) as typeof trailer;
        } else {
          if (!table) throw new BackupError('the backup has rows before any table');
          batch.push(line);
          batchChars += line.length;
          if (batchChars >= INSERT_BATCH_CHARS) await flush();
        }
      }
      if (!trailer) throw new BackupError(`${file} is cut short (no trailer): the backup did not finish`);
      for (const [name, n] of Object.entries(trailer.counts)) {
        if ((counts[name] ?? 0) !== n) throw new BackupError(`table ${name}: ${counts[name] ?? 0} rows read, the backup says ${n}`);
      }
      // Re-adding the foreign keys checks every row against them.
      for (const fk of fks) await s.exec(`ALTER TABLE ${q(fk.table_name)} ADD CONSTRAINT ${q(fk.name)} ${fk.def}`);
      // Every serial column's sequence continues after the largest id restored.
      const serials = await s.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
      );
      for (const c of serials) {
        await s.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${q(c.column_name)}) FROM ${q(c.table_name)}), 1), (SELECT count(*) > 0 FROM ${q(c.table_name)}))`,
          [q(c.table_name), c.column_name],
        );
      }
      await s.exec('COMMIT');
      return counts;
    } catch (err) {
      await s.exec('ROLLBACK').catch(() => {});
      throw err;
    }
  });
  // A backup of an earlier version: its data now goes through the later migrations.
  const upgraded = await migrate(db);
  return { tables: Object.keys(counts).length, rows: Object.values(counts).reduce((a, b) => a + b, 0), counts, upgraded };
}
