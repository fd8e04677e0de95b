// `arbiter backup <file>` writes one consistent archive of the server's
// database (src/db/backup.ts: users, submissions and their sources, matches,
// replays, ratings, tournaments, the audit); `arbiter restore <file>
// [--force]` loads one into an empty database (DATABASE_URL, or the
// embedded PGlite under DATA_DIR). A backup of the embedded database while
// `npm start` runs is written by the server itself (server-db.ts); a restore
// needs the server stopped.

import { resolve } from 'node:path';
import { parseCommandArgs, UsageError } from './args.ts';
import { withServerDb, type CommandOutput } from './server-db.ts';
import type { Env } from '../config.ts';

// The database modules load only when a command needs them (arbiter play never does).
const backupModule = () => import('../db/backup.ts');

const refusal = async (command: string, io: CommandOutput, fn: () => Promise<number>) => {
  const { BackupError } = await backupModule();
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    io.err(`arbiter ${command}: ${err.message}`);
    return 1;
  }
};

export async function backupCommand(args: string[], env?: Env): Promise<number> {
  const { positionals } = parseCommandArgs(args, {});
  const [given, ...extra] = positionals;
  if (!given || extra.length > 0) throw new UsageError('usage: arbiter backup <file>   (e.g. arbiter backup /backups/arbiter-$(date +%F).gz)');
  // Absolute: a running server may write it, from its own working folder.
  const file = resolve(given);
  return withServerDb('backup', [file], env, (db, io) =>
    refusal('backup', io, async () => {
      const r = await (await backupModule()).writeBackup(db, file);
      io.out(
        `${given}: ${r.rows} rows of ${r.tables} tables (${Object.entries(r.counts)
          .filter(([t]) => ['User', 'Submission', 'Match', 'Replay'].includes(t))
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')})`,
      );
      return 0;
    }),
  );
}

export async function restoreCommand(args: string[], env?: Env): Promise<number> {
  const { positionals, values } = parseCommandArgs(args, { force: { type: 'boolean' } });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('usage: arbiter restore <file> [--force]');
  // restoreBackup migrates to the backup's own schema first.
  return withServerDb(
    'restore',
    args,
    env,
    (db, io) =>
      refusal('restore', io, async () => {
        const r = await (await backupModule()).restoreBackup(db, file, { force: values.force === true });
        io.out(
          `restored ${r.rows} rows of ${r.tables} tables from ${file}${r.upgraded.length ? `; then applied ${r.upgraded.length} newer migration(s)` : ''}`,
        );
        return 0;
      }),
    { migrate: false, create: true, viaServer: false },
  );
}
