import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { decodeReplay, readReplayFile } from '../match/replay-io.ts';
import { verifyReplay } from '../match/replay-verify.ts';
import { isZip, verifyTournamentBundle } from '../domain/verify-tournament.ts';
import { reportVerification } from '../http/starter-kit/shared-commands.ts';
import { UsageError } from './args.ts';

export async function verifyCommand(args: string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length) throw new UsageError('usage: arbiter verify <match.json[.gz] | replays.zip>');
  if (isZip(head(file))) return verifyBundleCommand(readFileSync(file));
  // Capped before reading and while inflating: a replay past the limit, or a gzip bomb, is refused in bounded memory (a bundle has its own caps).
  const replay = decodeReplay(readReplayFile(file));
  return reportVerification(replay, await verifyReplay(replay));
}

/** A file's first four bytes (what tells a zip). */
function head(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.alloc(4);
    return out.subarray(0, readSync(fd, out, 0, 4, 0));
  } finally {
    closeSync(fd);
  }
}

/** A tournament's archive (GET /api/tournaments/:id/replays.zip): every match re-run, the bracket and the standings redone. */
async function verifyBundleCommand(zip: Buffer): Promise<number> {
  let result;
  try {
    result = await verifyTournamentBundle(zip);
  } catch (err) {
    if ((err as Error).name !== 'BundleFormatError') throw err;
    console.error(`arbiter verify: ${(err as Error).message}`);
    return 2;
  }
  if (result.ok) {
    console.log(result.summary);
    return 0;
  }
  if (result.otherEngine) {
    console.error(`cannot verify: ${result.message}`);
    return 3;
  }
  console.error(`mismatch: ${result.message}`);
  return 1;
}
