// The database: a Prisma 7 client over Postgres (DATABASE_URL, through
// @prisma/adapter-pg) or, with no DATABASE_URL, PGlite in this process with
// its data under DATA_DIR/pglite (one connection, so transactions stay
// isolated). `migrate(db)` applies prisma/migrations/*/migration.sql and
// records them in `_prisma_migrations` exactly as `prisma migrate deploy`
// does, so either tool sees the other's work as applied.
//
// Used by the API, the recorder and the scheduler. Workers never
// open the database.

import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient, type Prisma } from './generated/client.ts';

export { PrismaClient };
export type Db = PrismaClient;
/** A transaction's client: what a function that runs inside `db.$transaction` is handed. */
export type Tx = Prisma.TransactionClient;
export * from './generated/enums.ts';
export type * as Models from './generated/models.ts';

export interface DbConfig {
  /** postgres:// or postgresql:// URL; empty/undefined means embedded PGlite. */
  databaseUrl?: string | null | undefined;
  /** PGlite data lives in `${dataDir}/pglite`; 'memory://' keeps it in memory. */
  dataDir?: string;
}

/** Raw access used by migrate() and tests: one session, multi-statement exec. */
interface RawSql {
  kind: 'pg' | 'pglite';
  /** Runs `fn` on one session (a dedicated connection for pg). */
  session<T>(fn: (s: RawSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
export interface RawSession {
  exec(sql: string): Promise<void>;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

const raw = new WeakMap<object, RawSql>();

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

export function isPostgresUrl(url: string | null | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * Interactive transactions wait up to 10 s for a connection and run up to 15 s (Prisma's defaults, 2 s and
 * 5 s, turned a deadline's burst of uploads into 500s: "Unable to start a transaction in the given time",
 * the judge's fault shown to a student as an internal error). Long writers (the recorder, tournaments) set
 * their own.
 */
const TRANSACTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

export async function createDb(config: DbConfig = {}): Promise<Db> {
  if (isPostgresUrl(config.databaseUrl)) {
    const url = config.databaseUrl;
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), transactionOptions: TRANSACTIONS });
    raw.set(db, {
      kind: 'pg',
      async session(fn) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return await fn({
            async exec(sql) {
              await client.query(sql);
            },
            async query(sql, params) {
              return (await client.query(sql, params as unknown[])).rows;
            },
          });
        } finally {
          await client.end();
        }
      },
      async close() {},
    });
    return db;
  }
  const dataDir = config.dataDir ?? './data';
  let dir: string;
  if (dataDir === 'memory://') dir = 'memory://';
  else {
    dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const releaseLock = dir === 'memory://' ? () => {} : lockEmbedded(dir);
  const lite = new PGlite(dir);
  try {
    await lite.waitReady;
  } catch (e) {
    releaseLock();
    throw e;
  }
  const db = new PrismaClient({ adapter: new PrismaPGlite(lite), transactionOptions: TRANSACTIONS });
  raw.set(db, {
    kind: 'pglite',
    async session(fn) {
      return fn({
        async exec(sql) {
          await lite.exec(sql);
        },
        async query(sql, params) {
          return (await lite.query(sql, params as unknown[])).rows as never[];
        },
      });
    },
    async close() {
      await lite.close();
      releaseLock();
    },
  });
  return db;
}

/** The lock files this process holds. */
const heldHere = new Set<string>();

export class EmbeddedDbBusyError extends Error {
  override name = 'EmbeddedDbBusyError';
}

/**
 * PGlite keeps the database in the memory of the one process that opened it
 * and writes it back to disk: a second process on the same folder would read
 * a stale copy and overwrite the first one's writes. So the folder holds a
 * lock file with the owner's pid; nobody else (not even a second client in
 * the same process) opens it while that pid is alive (a lock left by a killed
 * process is taken over; one with this process's own pid counts only if this
 * process holds it now, since a container restarted with the same pid finds
 * its old lock).
 */
function lockEmbedded(dir: string): () => void {
  const path = join(dir, 'arbiter.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      heldHere.add(path);
      const release = () => {
        process.off('exit', release);
        heldHere.delete(path);
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && (owner === process.pid ? heldHere.has(path) : isAlive(owner))) {
        throw new EmbeddedDbBusyError(
          `the embedded database in ${dir} is open in process ${owner} (npm start?): stop that process first, or point both at PostgreSQL with DATABASE_URL`,
        );
      }
      unlinkSync(path); // left by a process that is gone
    }
  }
  throw new EmbeddedDbBusyError(`could not lock the embedded database in ${dir}`);
}

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Disconnects the client (and closes PGlite). */
export async function closeDb(db: Db): Promise<void> {
  await db.$disconnect();
  await raw.get(db)?.close();
}

/** Runs `fn` on one raw session of the database (tests, migrations). */
export function rawSession<T>(db: Db, fn: (s: RawSession) => Promise<T>): Promise<T> {
  const r = raw.get(db);
  if (!r) throw new Error('rawSession: not a database made by createDb()');
  return r.session(fn);
}

export interface LocalMigration {
  name: string;
  sql: string;
  /** sha256 hex of the migration.sql bytes, as Prisma computes it. */
  checksum: string;
}

export function localMigrations(dir = MIGRATIONS_DIR): LocalMigration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

// Prisma's own table, column for column (schema-engine's sql-migration-connector).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

// The advisory lock key prisma migrate takes, so Arbiter and Prisma never migrate at once.
const LOCK_KEY = 72707369;

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies every migration not yet applied, in name order, each in its own
 * transaction. Refuses to start over a migration that failed earlier and was
 * not resolved (as `prisma migrate deploy` does). Returns the names applied.
 */
export async function migrate(db: Db, opts: { dir?: string; log?: (msg: string) => void } = {}): Promise<string[]> {
  const migrations = localMigrations(opts.dir);
  return rawSession(db, async (s) => {
    await s.exec(CREATE_MIGRATIONS_TABLE);
    await s.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      const rows = await s.query<MigrationRow>(
        'SELECT id, checksum, migration_name, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
      );
      const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
      if (failed) {
        throw new MigrationError(
          `migration ${failed.migration_name} failed earlier and was not resolved; fix the database, then mark it with \`prisma migrate resolve\``,
        );
      }
      const applied = new Map(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]));
      const done: string[] = [];
      for (const m of migrations) {
        const row = applied.get(m.name);
        if (row) {
          if (row.checksum !== m.checksum) opts.log?.(`warning: migration ${m.name} was modified after it was applied`);
          continue;
        }
        const id = randomUUID();
        await s.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)', [
          id,
          m.checksum,
          m.name,
        ]);
        try {
          await s.exec(`BEGIN;\n${m.sql}\n;COMMIT;`);
        } catch (err) {
          await s.exec('ROLLBACK').catch(() => {});
          const message = err instanceof Error ? err.message : String(err);
          // The transaction rolled the script back, so the row says so.
          await s.query('UPDATE "_prisma_migrations" SET logs = $2, rolled_back_at = now() WHERE id = $1', [id, message]);
          throw new MigrationError(`migration ${m.name} failed: ${message}`);
        }
        await s.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        opts.log?.(`applied migration ${m.name}`);
        done.push(m.name);
      }
      return done;
    } finally {
      await s.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}
