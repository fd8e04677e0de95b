import { readFileSync } from 'node:fs';
import { decodeReplay } from '../match/replay-io.ts';
import { verifyReplay } from '../match/replay-verify.ts';
import { isZip, verifyTournamentBundle } from '../domain/verify-tournament.ts';
import { UsageError } from './args.ts';

export async function verifyCommand(args: string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length) throw new UsageError('usage: arbiter verify <match.json[.gz] | replays.zip>');
  const data = readFileSync(file);
  if (isZip(data)) return verifyBundleCommand(data);
  const replay = decodeReplay(data);
  const result = await verifyReplay(replay);
  if (result.ok) {
    console.log(`ok: ${replay.game}, seed ${replay.seed}, ${result.rounds} rounds replayed, every state matches (scores ${replay.result.scores.join(' ')})`);
    return 0;
  }
  if (result.otherEngine) {
    console.error(`cannot verify: ${result.message}`);
    return 3;
  }
  console.error(`mismatch in round ${result.round}: ${result.message}`);
  return 1;
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
