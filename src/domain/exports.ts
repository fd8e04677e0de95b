// CSV exports for the teacher: a game's leaderboard, and the qualified
// players of every user (for marking). `toCsv` is the one CSV writer of every
// export (these, the grades and submissions, a tournament's standings, the
// roster's links): RFC 4180, every field quoted, CRLF line ends; a text field
// that a spreadsheet would read as a formula (= + - @, a tab or CR first) gets
// a leading apostrophe, so it shows as text and never runs.

import type { Db } from '../db/client.ts';
import { readLeaderboard } from './ratings/leaderboard.ts';

export type CsvValue = string | number | Date | null | undefined | boolean;

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(v: CsvValue): string {
  if (v === null || v === undefined) return '""';
  if (v instanceof Date) return `"${v.toISOString()}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return `"${String(v)}"`;
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: string[], rows: CsvValue[][]): string {
  return [header.map(cell), ...rows.map((r) => r.map(cell))].map((r) => r.join(',')).join('\r\n') + '\r\n';
}

/** A text cell as toCsv was given it (its formula guard taken off), for a reader that checks an export. */
export function csvCellValue(cellText: string): string {
  return cellText.startsWith("'") && FORMULA_START.test(cellText.slice(1)) ? cellText.slice(1) : cellText;
}

/** The whole leaderboard of a game, as the leaderboard page orders it. */
export async function leaderboardCsv(db: Db, game: string): Promise<string> {
  const { players } = await readLeaderboard(db, game, 100_000, 0);
  return toCsv(
    ['rank', 'player', 'owner', 'rating', 'mu', 'sigma', 'matches'],
    players.map((p) => [p.rank, p.player, p.owner, p.rating, p.mu, p.sigma, p.matchesPlayed]),
  );
}

/** Every qualified player, by owner then game: who qualified what, when, with which submission. */
export async function qualifiedCsv(db: Db): Promise<string> {
  const rows = await db.playerName.findMany({
    where: { locked: true, qualifiedSubmissionId: { not: null } },
    orderBy: [{ owner: { usernameLower: 'asc' } }, { game: 'asc' }, { nameLower: 'asc' }],
    select: {
      game: true,
      name: true,
      lockedAt: true,
      qualifiedSubmissionId: true,
      owner: { select: { username: true, email: true, disabledAt: true } },
      qualifiedSubmission: { select: { version: true, disabledAt: true } },
      ratings: { select: { game: true, ordinal: true, matchesPlayed: true } },
    },
  });
  return toCsv(
    ['user', 'email', 'game', 'player', 'version', 'submission', 'qualified_at', 'rating', 'ranked_matches', 'user_disabled', 'submission_disabled'],
    rows.map((p) => {
      const r = p.ratings.find((x) => x.game === p.game);
      return [
        p.owner.username,
        p.owner.email,
        p.game,
        p.name,
        p.qualifiedSubmission?.version ?? null,
        p.qualifiedSubmissionId,
        p.lockedAt,
        r?.ordinal ?? null,
        r?.matchesPlayed ?? null,
        p.owner.disabledAt !== null,
        p.qualifiedSubmission?.disabledAt != null,
      ];
    }),
  );
}
