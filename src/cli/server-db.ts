// Opens the database the server uses (DATABASE_URL, or the embedded PGlite
// under DATA_DIR) for a command run on the server, migrated, and closes it
// after. A refusal of the domain is one line on stderr and exit 1.
//
// The embedded database serves one process: while `npm start` holds it, the
// command is handed to that process through its control socket (control.ts),
// which runs the same command on its open database and sends back what it
// printed. A DATA_DIR with no database is refused rather than created empty,
// naming the folder looked at (only `arbiter restore` starts one).

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type Env } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import type { Db } from '../db/client.ts';
import { askRunningServer, serverCommandContext, type CommandOutput } from './control.ts';

export type { CommandOutput };
export const consoleOutput: CommandOutput = { out: (l) => console.log(l), err: (l) => console.error(l) };

export interface ServerDbOptions {
  /** Apply migrations first (default true; restore migrates to the backup's own schema). */
  migrate?: boolean;
  /** The command may start a new embedded database (restore); any other refuses an empty DATA_DIR. */
  create?: boolean;
  /** The command may run in a running server's process through its control socket (default true). */
  viaServer?: boolean;
}

/**
 * Runs `fn` on the server's database. `args` are the command's own arguments, as a running server
 * would be given them (paths made absolute by the command: the server's working folder is not the caller's).
 */
export async function withServerDb(
  command: string,
  args: string[],
  env: Env | undefined,
  fn: (db: Db, io: CommandOutput) => Promise<number>,
  opts: ServerDbOptions = {},
): Promise<number> {
  const inServer = serverCommandContext.getStore();
  if (inServer) return refusalsAsExit(command, inServer.io, () => fn(inServer.db, inServer.io));
  const io = consoleOutput;
  const config = loadConfig(env);
  const { createDb, migrate, closeDb, EmbeddedDbBusyError } = await import('../db/client.ts');
  if (!config.databaseUrl && config.dataDir !== 'memory://' && !opts.create) {
    const dir = resolve(config.dataDir, 'pglite');
    if (!existsSync(join(dir, 'PG_VERSION'))) {
      io.err(
        `arbiter ${command}: no embedded database in ${dir} (DATA_DIR=${config.dataDir}): ` +
          'run the command in the folder the server runs in, or set DATA_DIR to its data folder, or DATABASE_URL',
      );
      return 1;
    }
  }
  let db: Db;
  try {
    db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    if (!(err instanceof EmbeddedDbBusyError)) throw err;
    if (opts.viaServer !== false) {
      const reply = await askRunningServer(config.dataDir, { command, args });
      if (reply) {
        if (reply.stdout) io.out(reply.stdout.replace(/\n$/, ''));
        if (reply.stderr) io.err(reply.stderr.replace(/\n$/, ''));
        return reply.code;
      }
    }
    io.err(`arbiter ${command}: ${err.message}`);
    return 1;
  }
  try {
    if (opts.migrate !== false) await migrate(db);
    return await refusalsAsExit(command, io, () => fn(db, io));
  } finally {
    await closeDb(db);
  }
}

async function refusalsAsExit(command: string, io: CommandOutput, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DomainError) {
      io.err(`arbiter ${command}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}
