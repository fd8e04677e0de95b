// Opens the database the server uses (DATABASE_URL, or the embedded PGlite
// under DATA_DIR) for a command run on the server, migrated, and closes it
// after. A busy embedded database (`npm start` holds it) or a refusal of the
// domain is one line on stderr and exit 1.

import { loadConfig } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import type { Db } from '../db/client.ts';

export async function withServerDb(command: string, env: NodeJS.ProcessEnv, fn: (db: Db) => Promise<number>, opts: { migrate?: boolean } = {}): Promise<number> {
  const config = loadConfig(env);
  const { createDb, migrate, closeDb, EmbeddedDbBusyError } = await import('../db/client.ts');
  let db: Db;
  try {
    db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    if (!(err instanceof EmbeddedDbBusyError)) throw err;
    console.error(`arbiter ${command}: ${err.message}`);
    return 1;
  }
  try {
    if (opts.migrate !== false) await migrate(db);
    return await fn(db);
  } catch (err) {
    if (err instanceof DomainError) {
      console.error(`arbiter ${command}: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await closeDb(db);
  }
}
