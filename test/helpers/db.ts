// A fresh Postgres database per test file (real Postgres, never mocks):
// created on 127.0.0.1:5432 (user postgres, trust; TEST_DATABASE_URL
// overrides the admin connection), migrated, and dropped by drop().

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrate, closeDb, isAlive, type Db } from '../../src/db/client.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface FreshDatabase {
  /** Connection URL of the new database. */
  url: string;
  name: string;
  /** A migrated client on it. */
  db: Db;
  /** Closes the client and drops the database. */
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops test databases left behind by test processes that were killed (their pid is gone). */
async function dropOrphans(c: pg.Client) {
  const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'arbiter\\_test\\_%'`);
  for (const { datname } of rows) {
    const pid = Number(/^arbiter_test_(\d+)_/.exec(datname)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
  }
}

/** Creates an empty database; `migrated: false` leaves it without tables. */
export async function freshDatabase(opts: { migrated?: boolean } = {}): Promise<FreshDatabase> {
  const name = `arbiter_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(async (c) => {
    await dropOrphans(c);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = '/' + name;
  const db = await createDb({ databaseUrl: url.toString() });
  if (opts.migrated !== false) await migrate(db);
  let dropped = false;
  return {
    url: url.toString(),
    name,
    db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await closeDb(db).catch(() => {});
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
