// `arbiter similarity report <game>` computes and stores a game's similarity
// report (what the admin's page shows) and prints its top pairs;
// `arbiter similarity import <dir> --term <term> --game <game>` imports a
// previous term's submissions laid out by user, from a folder or a zip
// (<author>/<file>.ts, .js or .cc, or <author>.cc; a zip's wrapping folder is taken off)
// so that they join the comparison (they never play).

import { resolve } from 'node:path';
import { computeReport, importArchive } from '../domain/similarity/report.ts';
import { parseCommandArgs, UsageError } from './args.ts';
import { withServerDb } from './server-db.ts';
import type { Env } from '../config.ts';

const USAGE = 'arbiter similarity report <game> [--top N] | arbiter similarity import <folder or .zip> --term <term> --game <game>';

const percent = (x: number) => `${Math.round(x * 100)}%`;

export async function similarityCommand(args: string[], env?: Env): Promise<number> {
  const { positionals, values } = parseCommandArgs(args, { term: { type: 'string' }, game: { type: 'string' }, top: { type: 'string' } });
  const [action, target, ...extra] = positionals;
  if (!target || extra.length > 0) throw new UsageError(`usage: ${USAGE}`);
  if (action === 'report') {
    const top = values.top === undefined ? 20 : Number(values.top);
    if (!Number.isInteger(top) || top < 0) throw new UsageError('--top: a whole number');
    return withServerDb('similarity', args, env, async (db, io) => {
      const report = await computeReport(db, target);
      io.out(`${report.game}: ${report.documents} documents, ${report.pairs.length} pairs stored, in ${report.durationMs} ms`);
      for (const p of report.pairs.slice(0, top)) {
        io.out(
          `${percent(p.score).padStart(4)}  ${p.labelA.author} (${p.labelA.title}, ${percent(p.fractionA)})  ~  ${p.labelB.author} (${p.labelB.title}, ${percent(p.fractionB)})  ${p.shared} fingerprints`,
        );
      }
      return 0;
    });
  }
  if (action === 'import') {
    if (!values.term || !values.game) throw new UsageError(`usage: ${USAGE}`);
    const { term, game } = values;
    // Absolute: a running server may read it, from its own working folder.
    const from = resolve(target);
    return withServerDb('similarity', ['import', from, '--term', term, '--game', game], env, async (db, io) => {
      const r = await importArchive(db, from, term, game);
      for (const s of r.skipped) io.err(`skipped ${s}`);
      io.out(`${game}, term ${term}: ${r.imported} file(s) imported, ${r.replaced} replaced, ${r.skipped.length} skipped`);
      return 0;
    });
  }
  throw new UsageError(`usage: ${USAGE}`);
}
