import { readFileSync } from 'node:fs';
import { decodeReplay } from '../replay/io.ts';
import { verifyReplay } from '../replay/verify.ts';
import { UsageError } from './args.ts';

export async function verifyCommand(args: string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length) throw new UsageError('usage: arbiter verify <match.json[.gz]>');
  const replay = decodeReplay(readFileSync(file));
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
