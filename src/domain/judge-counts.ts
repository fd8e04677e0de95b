// What the judge has recorded, counted in the database (the /metrics
// counters): submissions by game and language, verdicts, finished and failed
// matches, frozen bots by reason, submissions by status, and the latest
// gates' times to a verdict. Counted from the rows at each call, not kept in
// memory, so every API process answers the same totals (src/http/metrics.ts says why).

import type { Db } from '../db/client.ts';
import { statusOut, VERDICTS } from '../statuses.ts';
import { languages } from '../sandbox/languages/index.ts';

export interface JudgeCounts {
  submissions: { game: string; language: string; n: number }[];
  verdicts: { game: string; verdict: string; n: number }[];
  matches: { game: string; kind: string; outcome: string; n: number }[];
  frozen: { game: string; reason: string; n: number }[];
  byStatus: { status: string; n: number }[];
  /** The latest 200 verdicts' seconds from upload to verdict, ascending. */
  gateLatencies: number[];
}

/** The language of a submitted file by its extension, in SQL (one group per language, not per file name; a language's other files, C++ headers, in its group). */
const LANGUAGE_SQL = `CASE
${languages.map((l) => `  WHEN filename ~* '\\.(${[...l.extensions, ...l.companionExtensions].map((e) => e.replace(/[+.]/g, '\\$&')).join('|')})$' THEN '${l.id}'`).join('\n')}
  ELSE 'other' END`;

export async function countJudgeEvents(db: Db): Promise<JudgeCounts> {
  const num = <T extends { n: bigint | number | string }>(rows: T[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));
  const [submissions, verdicts, matches, frozen, byStatus, latest] = await Promise.all([
    db.$queryRawUnsafe<{ game: string; language: string; n: bigint }[]>(
      `SELECT game, ${LANGUAGE_SQL} AS language, count(*) AS n FROM "Submission" GROUP BY 1, 2`,
    ),
    db.$queryRawUnsafe<{ game: string; verdict: string; n: bigint }[]>(
      `SELECT game, status::text AS verdict, count(*) AS n FROM "Submission" WHERE status IN ('qualified', 'rejected') GROUP BY 1, 2`,
    ),
    db.$queryRawUnsafe<{ game: string; kind: string; outcome: string; n: bigint }[]>(
      `SELECT game, kind::text AS kind, CASE status WHEN 'done' THEN 'finished' ELSE 'failed' END AS outcome, count(*) AS n FROM "Match" WHERE status IN ('done', 'failed') GROUP BY 1, 2, 3`,
    ),
    db.$queryRawUnsafe<{ game: string; reason: string; n: bigint }[]>(
      `SELECT m.game, p."frozenReason" AS reason, count(*) AS n FROM "Participant" p JOIN "Match" m ON m.id = p."matchId" WHERE p."frozenReason" IS NOT NULL AND m.status = 'done' GROUP BY 1, 2`,
    ),
    db.submission.groupBy({ by: ['status'], _count: { _all: true } }),
    db.submission.findMany({
      where: { status: { in: VERDICTS }, finishedAt: { not: null } },
      orderBy: { finishedAt: 'desc' },
      take: 200,
      select: { createdAt: true, finishedAt: true },
    }),
  ]);
  return {
    submissions: num(submissions),
    verdicts: num(verdicts),
    matches: num(matches),
    frozen: num(frozen),
    byStatus: byStatus.map((r) => ({ status: statusOut(r.status), n: r._count._all })),
    // Clamped at 0: the verdict time comes from the recorder's clock, the creation time from the database's.
    gateLatencies: latest.map((v) => Math.max(0, (v.finishedAt!.getTime() - v.createdAt.getTime()) / 1000)).sort((a, b) => a - b),
  };
}
