// A fresh Postgres database per test file (real Postgres, never mocks):
// created on 127.0.0.1:5432 (user postgres, trust; TEST_DATABASE_URL
// overrides the admin connection), migrated, and dropped by drop().
//
// A migrated database is cloned (CREATE DATABASE ... TEMPLATE) from a template
// that the first test process to need it migrates with migrate() itself, so the
// migrations run once per set of migrations rather than once per file (some
// fifty files). The template's name carries a hash of the migrations, so a
// changed or added migration builds a new one; test/db/migrations.test.ts still
// runs every migration on an empty database of its own.

import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrate, closeDb, isAlive, localMigrations, type Db } from '../../src/db/client.ts';

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

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = '/' + name;
  return url.toString();
}

// Taken exclusively to build or replace the template, shared while cloning it: Postgres refuses to clone a
// database someone is connected to, and a clone must not see a half-migrated template.
const TEMPLATE_LOCK = 72707370;
let template: Promise<string> | undefined;

/** The name of the migrated template, built (once for every test process) if it is not there yet. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const hash = createHash('sha256');
    for (const m of localMigrations()) hash.update(`${m.name}\0${m.checksum}\0`);
    const name = `arbiter_template_${hash.digest('hex').slice(0, 16)}`;
    await admin(async (c) => {
      await c.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      try {
        const { rows } = await c.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
        // datistemplate is set only once the migrations are in: without it, a process was killed while building.
        if (rows[0]?.datistemplate) return;
        if (rows[0]) await c.query(`DROP DATABASE "${name}" WITH (FORCE)`);
        await c.query(`CREATE DATABASE "${name}"`);
        const db = await createDb({ databaseUrl: databaseUrl(name) });
        try {
          await migrate(db);
        } finally {
          await closeDb(db);
        }
        await c.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      } finally {
        await c.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
      }
    });
    return name;
  })();
  return template;
}

/** Creates a migrated database (a clone of the template); `migrated: false` leaves it empty, without tables. */
export async function freshDatabase(opts: { migrated?: boolean } = {}): Promise<FreshDatabase> {
  const name = `arbiter_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const from = opts.migrated === false ? null : await migratedTemplate();
  await admin(async (c) => {
    await dropOrphans(c);
    if (from === null) return c.query(`CREATE DATABASE "${name}"`);
    await c.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK]);
    try {
      await c.query(`CREATE DATABASE "${name}" TEMPLATE "${from}"`);
    } finally {
      await c.query('SELECT pg_advisory_unlock_shared($1)', [TEMPLATE_LOCK]);
    }
  });
  const url = databaseUrl(name);
  const db = await createDb({ databaseUrl: url });
  let dropped = false;
  return {
    url,
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
