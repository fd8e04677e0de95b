// `arbiter admin grant|revoke <username>`: makes a registered user an admin,
// or no longer one. Run on the server: it opens the database the server uses
// (DATABASE_URL, or the embedded PGlite under DATA_DIR; while `npm start`
// holds that one, the running server does it: server-db.ts), and records the
// change in the admin audit with no actor (the command line). Nothing a
// visitor can do over the web makes an admin.

import { setAdmin } from '../domain/admin.ts';
import type { Db } from '../db/client.ts';
import { parseCommandArgs, UsageError } from './args.ts';
import { withServerDb } from './server-db.ts';
import type { Env } from '../config.ts';

const USAGE = 'arbiter admin grant <username> | arbiter admin revoke <username>';

/** The grant or revoke itself, on an open database (the command and the tests call it). */
export async function adminGrant(db: Db, action: 'grant' | 'revoke', username: string): Promise<string> {
  const user = await setAdmin(db, null, username, action === 'grant');
  return action === 'grant' ? `${user.username} is now an admin` : `${user.username} is no longer an admin`;
}

export async function adminCommand(args: string[], env?: Env): Promise<number> {
  const { positionals } = parseCommandArgs(args, {});
  const [action, username, ...extra] = positionals;
  if ((action !== 'grant' && action !== 'revoke') || !username || extra.length > 0) throw new UsageError(`usage: ${USAGE}`);
  return withServerDb('admin', args, env, async (db, io) => {
    io.out(await adminGrant(db, action, username));
    return 0;
  });
}
