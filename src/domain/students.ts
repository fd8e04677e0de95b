// The teacher's view of students and grades: one student's whole
// record (identity, every submission with its gate, ratings and ranks,
// tournament results, similarity pairs, last activity), the list of all
// submissions with filters, and the grades: one row per registered student
// (admins are not students) and game, those who never submitted or never
// qualified included. The API, the admin's pages and the CSV exports all
// read through here.
//
// Decisions:
// - A similarity "flag" is a pair of the game's stored report that involves
//   one of the student's submissions: the report keeps only pairs above its
//   threshold (enough fingerprints in common, the top REPORT_PAIRS), so being
//   listed there is the flag; the highest score is the grade sheet's column.
// - Ranks are the leaderboard's (src/domain/ratings/leaderboard.ts): a player of a
//   disabled user or a disabled submission has a rating but no rank.
// - The qualified player of a game is the one the student chose to
//   represent them (Representative), else their latest qualified one, as the
//   tournaments take it.
// - A student id and full name (the roster import's columns) are read only
//   when the generated client has them.

import type { Db } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';
import { SubmissionStatus } from '../db/generated/enums.ts';
import { loadGames } from '../games/registry.ts';
import { readLeaderboard, type LeaderboardEntry } from './ratings/leaderboard.ts';
import { parseCourseInput } from './course-time.ts';
import { invalid, notFound } from './errors.ts';
import { gateProgress, type GateStepState } from './gate-progress.ts';
import { matchInclude, matchOut, submissionSummarySelect, type AccountSummary } from './serialize.ts';
import { FINAL_STATUSES, SELF_PLAY, statusOut, type SubmissionStatusOut } from '../statuses.ts';
import { toCsv } from './exports.ts';
import type { StoredPair } from './similarity/report.ts';
import { languageById, languageOfFile as languageOfStoredFile, languages, type LanguageId } from '../sandbox/languages/index.ts';

// ---------------------------------------------------------------- languages

export const SUBMISSION_LANGUAGES: readonly LanguageId[] = languages.map((l) => l.id);
export type SubmissionLanguage = LanguageId;

/** A submission's language, by its file name (as the judge took it). */
export function languageOfFile(filename: string): SubmissionLanguage {
  return languageOfStoredFile(filename).id;
}

/** Submission statuses as the API spells them (self-play, not self_play). */
export const SUBMISSION_STATUSES_OUT: readonly SubmissionStatusOut[] = Object.values(SubmissionStatus).map(statusOut);
const statusIn = (s: string): SubmissionStatus => (s === SELF_PLAY ? SubmissionStatus.self_play : (s as SubmissionStatus));

// ---------------------------------------------------------------- roster columns

/** The roster's columns of User that the generated client has (another part of Arbiter may add them). */
export const ROSTER_FIELDS = (['studentId', 'fullName'] as const).filter((f) => Object.hasOwn(Prisma.UserScalarFieldEnum, f));
type Roster = { studentId?: string | null; fullName?: string | null };

async function rosterOf(db: Db, ids: number[]): Promise<Map<number, Roster>> {
  if (ROSTER_FIELDS.length === 0 || ids.length === 0) return new Map();
  const select = Object.fromEntries([['id', true], ...ROSTER_FIELDS.map((f) => [f, true])]) as Prisma.UserSelect;
  const rows = (await db.user.findMany({ where: { id: { in: ids } }, select })) as unknown as (Roster & { id: number })[];
  return new Map(rows.map((r) => [r.id, { studentId: r.studentId ?? null, fullName: r.fullName ?? null }]));
}

// ---------------------------------------------------------------- shared reads

/** Leaderboard entries of a game by player name (lower case). */
async function ranksOf(db: Db, game: string): Promise<Map<string, LeaderboardEntry>> {
  const { players } = await readLeaderboard(db, game, 100_000, 0);
  return new Map(players.map((p) => [p.player.toLowerCase(), p]));
}

interface StoredReport {
  game: string;
  createdAt: Date;
  pairs: StoredPair[];
}

async function reportOf(db: Db, game: string): Promise<StoredReport | null> {
  const row = await db.similarityReport.findUnique({ where: { game } });
  return row ? { game, createdAt: row.createdAt, pairs: Array.isArray(row.pairs) ? (row.pairs as unknown as StoredPair[]) : [] } : null;
}

const pairHref = (game: string, a: string, b: string) =>
  `/admin/similarity/${encodeURIComponent(game)}/pair?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;

/** How a tournament ended for an entry: champion, the round it fell in, or still in. */
export type TournamentOutcome = 'champion' | 'fell' | 'in';
const outcomeOf = (e: { eliminatedRound: number | null; place: number | null }, finished: boolean): TournamentOutcome =>
  e.place === 1 && finished ? 'champion' : e.eliminatedRound !== null ? 'fell' : finished ? 'champion' : 'in';

// ---------------------------------------------------------------- one student

export interface StudentGateStep {
  key: string;
  label: string;
  state: GateStepState;
  matchId: number | null;
}

export interface StudentSubmission {
  id: number;
  game: string;
  player: string;
  version: number;
  filename: string;
  language: SubmissionLanguage;
  sizeBytes: number;
  status: SubmissionStatusOut;
  /** The compile step's state (passed, failed, running, pending). */
  compile: GateStepState;
  /** The gate's steps after the compile one, each with its match. */
  steps: StudentGateStep[];
  /** qualified or rejected once judged, null while judging. */
  verdict: SubmissionStatusOut | null;
  reason: string | null;
  reasonLine: number | null;
  /** The reason's code and parameters (reasons.ts), for the pages' languages; null on older rows. */
  reasonDetail: unknown;
  createdAt: Date;
  finishedAt: Date | null;
  disabledAt: Date | null;
}

export interface StudentDetail {
  user: AccountSummary & {
    studentId?: string | null;
    fullName?: string | null;
  };
  /** Per game: how many submissions, the first one, the first qualification and the time between. */
  games: {
    game: string;
    submissions: number;
    firstSubmittedAt: Date | null;
    firstQualifiedAt: Date | null;
    /** Seconds from the first submission of the game to the first qualification, or null. */
    secondsToQualify: number | null;
    qualifiedPlayers: string[];
    representative: string | null;
  }[];
  submissions: StudentSubmission[];
  ratings: { game: string; player: string; rating: number; mu: number; sigma: number; matchesPlayed: number; rank: number | null; provisional: boolean }[];
  tournaments: {
    tournamentId: number;
    name: string;
    game: string;
    status: string;
    player: string;
    entries: number;
    eliminatedRound: number | null;
    place: number | null;
    outcome: TournamentOutcome;
  }[];
  similarity: {
    game: string;
    score: number;
    shared: number;
    mine: { key: string; title: string };
    other: { key: string; author: string; title: string; kind: string };
    computedAt: Date;
    href: string;
  }[];
  lastActivity: { submission: Date | null; session: Date | null; token: Date | null; latest: Date | null };
}

const latestOf = (...dates: (Date | null)[]) => dates.reduce<Date | null>((a, d) => (d && (!a || d > a) ? d : a), null);

/** A student's whole record, for the teacher. */
export async function studentDetail(db: Db, userId: number): Promise<StudentDetail> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, email: true, isAdmin: true, createdAt: true, disabledAt: true },
  });
  if (!user) throw notFound(`no user ${userId}`);
  const [subs, players, entries, session, token, reps, roster] = await Promise.all([
    db.submission.findMany({
      where: { userId },
      orderBy: { id: 'asc' },
      select: { ...submissionSummarySelect, player: { select: { name: true } } },
    }),
    db.playerName.findMany({
      where: { ownerId: userId, releasedAt: null },
      orderBy: { id: 'asc' },
      select: {
        id: true,
        game: true,
        name: true,
        locked: true,
        lockedAt: true,
        qualifiedSubmission: { select: { finishedAt: true } },
        ratings: { select: { game: true, mu: true, sigma: true, ordinal: true, matchesPlayed: true } },
      },
    }),
    db.tournamentEntry.findMany({
      where: { userId },
      orderBy: { tournamentId: 'desc' },
      select: {
        name: true,
        eliminatedRound: true,
        place: true,
        tournament: { select: { id: true, name: true, game: true, status: true, _count: { select: { entries: true } } } },
      },
    }),
    db.session.findFirst({ where: { userId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } }),
    db.apiToken.findFirst({ where: { userId, lastUsedAt: { not: null } }, orderBy: { lastUsedAt: 'desc' }, select: { lastUsedAt: true } }),
    db.representative.findMany({ where: { userId }, select: { game: true, player: { select: { name: true } } } }),
    rosterOf(db, [userId]),
  ]);

  // Every submission's gate, from its gate matches.
  const gateMatches = subs.length
    ? await db.match.findMany({ where: { kind: 'gate', submissionId: { in: subs.map((s) => s.id) } }, include: matchInclude, orderBy: { id: 'asc' } })
    : [];
  const bySubmission = new Map<number, ReturnType<typeof matchOut>[]>();
  for (const m of gateMatches) {
    const list = bySubmission.get(m.submissionId!) ?? [];
    list.push(matchOut(m));
    bySubmission.set(m.submissionId!, list);
  }
  const submissions: StudentSubmission[] = subs.map((s) => {
    const status = statusOut(s.status);
    const gate = gateProgress({ id: s.id, status, reasonDetail: s.reasonDetail }, bySubmission.get(s.id) ?? []);
    return {
      id: s.id,
      game: s.game,
      player: s.player.name,
      version: s.version,
      filename: s.filename,
      language: languageOfFile(s.filename),
      sizeBytes: s.sizeBytes,
      status,
      compile: gate.steps[0]!.state,
      steps: gate.steps.slice(1).map((st) => ({ key: st.key, label: st.label, state: st.state, matchId: st.matchId })),
      verdict: FINAL_STATUSES.has(status) ? status : null,
      reason: s.reason,
      reasonLine: s.reasonLine,
      reasonDetail: s.reasonDetail,
      createdAt: s.createdAt,
      finishedAt: s.finishedAt,
      disabledAt: s.disabledAt,
    };
  });

  const gameIds = [...new Set([...subs.map((s) => s.game), ...players.map((p) => p.game)])].sort();
  const qualifiedAt = (p: (typeof players)[number]) => p.lockedAt ?? p.qualifiedSubmission?.finishedAt ?? null;
  const games = gameIds.map((game) => {
    const mine = subs.filter((s) => s.game === game);
    const first = mine[0]?.createdAt ?? null;
    const qualified = players.filter((p) => p.game === game && p.locked);
    const firstQualified = qualified.map(qualifiedAt).reduce<Date | null>((a, d) => (d && (!a || d < a) ? d : a), null);
    return {
      game,
      submissions: mine.length,
      firstSubmittedAt: first,
      firstQualifiedAt: firstQualified,
      secondsToQualify: first && firstQualified ? Math.max(0, Math.round((firstQualified.getTime() - first.getTime()) / 1000)) : null,
      qualifiedPlayers: qualified.map((p) => p.name),
      representative: reps.find((r) => r.game === game)?.player.name ?? null,
    };
  });

  const ratedGames = [...new Set(players.flatMap((p) => p.ratings.map((r) => r.game)))];
  const boards = new Map(await Promise.all(ratedGames.map(async (g) => [g, await ranksOf(db, g)] as const)));
  const ratings = players.flatMap((p) =>
    p.ratings.map((r) => {
      const entry = p.locked ? boards.get(r.game)?.get(p.name.toLowerCase()) : undefined;
      return {
        game: r.game,
        player: p.name,
        rating: r.ordinal,
        mu: r.mu,
        sigma: r.sigma,
        matchesPlayed: r.matchesPlayed,
        rank: entry && entry.owner === user.username ? entry.rank : null,
        provisional: entry?.provisional ?? r.sigma > 4,
      };
    }),
  );

  const tournaments = entries.map((e) => ({
    tournamentId: e.tournament.id,
    name: e.tournament.name,
    game: e.tournament.game,
    status: e.tournament.status,
    player: e.name,
    entries: e.tournament._count.entries,
    eliminatedRound: e.eliminatedRound,
    place: e.place,
    outcome: outcomeOf(e, e.tournament.status === 'finished'),
  }));

  const keys = new Set(subs.map((s) => `s:${s.id}`));
  const reports = (await Promise.all([...new Set(subs.map((s) => s.game))].map((g) => reportOf(db, g)))).filter((r) => r !== null);
  const similarity = reports
    .flatMap((r) =>
      r.pairs
        .filter((p) => keys.has(p.a) || keys.has(p.b))
        .map((p) => {
          const mineIsA = keys.has(p.a);
          const mine = mineIsA ? p.labelA : p.labelB;
          const other = mineIsA ? p.labelB : p.labelA;
          return {
            game: r.game,
            score: p.score,
            shared: p.shared,
            mine: { key: mine.key, title: mine.title },
            other: { key: other.key, author: other.author, title: other.title, kind: other.kind },
            computedAt: r.createdAt,
            href: pairHref(r.game, p.a, p.b),
          };
        }),
    )
    .sort((x, y) => y.score - x.score);

  const lastSubmission = subs.length ? subs[subs.length - 1]!.createdAt : null;
  const lastActivity = {
    submission: lastSubmission,
    session: session?.createdAt ?? null,
    token: token?.lastUsedAt ?? null,
    latest: latestOf(lastSubmission, session?.createdAt ?? null, token?.lastUsedAt ?? null),
  };
  return { user: { ...user, ...(roster.get(userId) ?? {}) }, games, submissions, ratings, tournaments, similarity, lastActivity };
}

// ---------------------------------------------------------------- all submissions

export interface SubmissionFilterInput {
  game?: string | undefined;
  status?: string | undefined;
  language?: string | undefined;
  user?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface SubmissionFilters {
  game?: string;
  status?: SubmissionStatusOut;
  language?: SubmissionLanguage;
  /** Part of a username (any case). */
  user?: string;
  /** Submitted at or after. */
  from?: Date;
  /** Submitted before (a date without a time: the whole of that day is in). */
  to?: Date;
}

/** The filters as typed (a query string): empty values are no filter; a bad one is refused with its code. */
export function parseSubmissionFilters(q: SubmissionFilterInput): SubmissionFilters {
  const out: SubmissionFilters = {};
  const s = (v: string | undefined) => (typeof v === 'string' ? v.trim() : '');
  if (s(q.game)) out.game = s(q.game);
  if (s(q.status)) {
    if (!(SUBMISSION_STATUSES_OUT as readonly string[]).includes(s(q.status)))
      throw invalid(`unknown status "${s(q.status)}" (known: ${SUBMISSION_STATUSES_OUT.join(', ')})`, 'bad-status');
    out.status = s(q.status) as SubmissionStatusOut;
  }
  if (s(q.language)) {
    if (!(SUBMISSION_LANGUAGES as readonly string[]).includes(s(q.language)))
      throw invalid(`unknown language "${s(q.language)}" (known: ${SUBMISSION_LANGUAGES.join(', ')})`, 'bad-language');
    out.language = s(q.language) as SubmissionLanguage;
  }
  if (s(q.user)) out.user = s(q.user).toLowerCase();
  const date = (text: string, field: 'from' | 'to') => {
    const d = parseCourseInput(text);
    if (!d) throw invalid(`${field}: "${text}" is not a date (2026-12-20, or 2026-12-20T23:59 in the course's time zone, or with an offset)`, 'bad-date');
    // A day alone: "to" takes that whole day in (up to the next day's midnight in the course's zone).
    if (field !== 'to' || !/^\d{4}-\d\d-\d\d$/.test(text)) return d;
    const next = new Date(Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)) + 1)).toISOString().slice(0, 10);
    return parseCourseInput(next) ?? d;
  };
  if (s(q.from)) out.from = date(s(q.from), 'from');
  if (s(q.to)) out.to = date(s(q.to), 'to');
  if (out.from && out.to && out.from >= out.to) throw invalid('the date range is empty: "from" must come before "to"', 'bad-range');
  return out;
}

function submissionWhere(f: SubmissionFilters): Prisma.SubmissionWhereInput {
  return {
    ...(f.game ? { game: f.game } : {}),
    ...(f.status ? { status: statusIn(f.status) } : {}),
    ...(f.language ? { OR: languageById(f.language).uploadExtensions.map((e) => ({ filename: { endsWith: `.${e}`, mode: 'insensitive' as const } })) } : {}),
    ...(f.user ? { user: { usernameLower: { contains: f.user } } } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
  };
}

/** A row of the list of all submissions: a student's submission without its gate steps, with whose it is. */
export interface SubmissionListRow
  extends Pick<
    StudentSubmission,
    | 'id'
    | 'game'
    | 'player'
    | 'version'
    | 'filename'
    | 'language'
    | 'sizeBytes'
    | 'status'
    | 'reason'
    | 'reasonDetail'
    | 'createdAt'
    | 'finishedAt'
    | 'disabledAt'
  > {
  user: { id: number; username: string; email: string | null };
}

/** Submissions matching the filters, newest first. */
export async function listSubmissions(
  db: Db,
  f: SubmissionFilters,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: SubmissionListRow[] }> {
  const where = submissionWhere(f);
  const [total, rows] = await Promise.all([
    db.submission.count({ where }),
    db.submission.findMany({
      where,
      orderBy: { id: 'desc' },
      take: page.limit,
      skip: page.offset,
      select: { ...submissionSummarySelect, user: { select: { id: true, username: true, email: true } }, player: { select: { name: true } } },
    }),
  ]);
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      game: r.game,
      user: r.user,
      player: r.player.name,
      version: r.version,
      filename: r.filename,
      language: languageOfFile(r.filename),
      sizeBytes: r.sizeBytes,
      status: statusOut(r.status),
      reason: r.reason,
      reasonDetail: r.reasonDetail,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      disabledAt: r.disabledAt,
    })),
  };
}

/** At most this many rows in a submissions CSV. */
export const SUBMISSIONS_CSV_MAX = 100_000;

/** The filtered submissions as CSV, newest first. */
export async function submissionsCsv(db: Db, f: SubmissionFilters): Promise<string> {
  const { rows } = await listSubmissions(db, f, { limit: SUBMISSIONS_CSV_MAX, offset: 0 });
  return toCsv(
    [
      'submission',
      'user',
      'email',
      'game',
      'player',
      'version',
      'language',
      'filename',
      'size_bytes',
      'status',
      'reason',
      'submitted_at',
      'finished_at',
      'disabled',
    ],
    rows.map((r) => [
      r.id,
      r.user.username,
      r.user.email,
      r.game,
      r.player,
      r.version,
      r.language,
      r.filename,
      r.sizeBytes,
      r.status,
      r.reason,
      r.createdAt,
      r.finishedAt,
      r.disabledAt !== null,
    ]),
  );
}

// ---------------------------------------------------------------- grades

export interface GradeRow {
  userId: number;
  username: string;
  email: string | null;
  studentId?: string | null;
  fullName?: string | null;
  disabled: boolean;
  game: string;
  submissions: number;
  firstSubmittedAt: Date | null;
  firstQualifiedAt: Date | null;
  qualifiedPlayer: string | null;
  bestRank: number | null;
  rating: number | null;
  /** The latest finished tournament of the game, and how it ended for the student (null: not entered). */
  tournament: string | null;
  tournamentOutcome: TournamentOutcome | 'absent' | null;
  tournamentRound: number | null;
  tournamentPlace: number | null;
  /** The highest score of a stored similarity pair involving the student's submissions, and the other side's author. */
  similarity: number | null;
  similarTo: string | null;
}

/** One row per registered student (not an admin) and game, by username then game. */
export async function gradeRows(db: Db, game: string | null): Promise<GradeRow[]> {
  const known = await loadGames();
  if (game !== null && !known.has(game)) throw notFound(`no game "${game}"`);
  const games = game !== null ? [game] : [...known.keys()].sort();
  const users = await db.user.findMany({
    where: { isAdmin: false },
    orderBy: { usernameLower: 'asc' },
    select: { id: true, username: true, email: true, disabledAt: true },
  });
  const roster = await rosterOf(
    db,
    users.map((u) => u.id),
  );
  const perGame = await Promise.all(games.map((g) => gameGrades(db, g)));
  const out: GradeRow[] = [];
  for (const u of users) {
    for (const [i, g] of games.entries()) {
      const x = perGame[i]!;
      const qualified = x.qualified.get(u.id) ?? [];
      const rep = x.representatives.get(u.id);
      const chosen =
        qualified.find((p) => p.id === rep) ??
        qualified.reduce<(typeof qualified)[number] | undefined>((a, p) => (!a || (p.at?.getTime() ?? 0) > (a.at?.getTime() ?? 0) ? p : a), undefined);
      const ranked = qualified.map((p) => x.board.get(p.name.toLowerCase())).filter((e) => e !== undefined && e.owner === u.username);
      const best = ranked.reduce<LeaderboardEntry | undefined>((a, e) => (!a || e!.rank < a.rank ? e : a), undefined);
      const entry = x.tournament?.entries.get(u.id);
      const flag = x.similarity.get(u.id);
      const subs = x.submissions.get(u.id);
      out.push({
        userId: u.id,
        username: u.username,
        email: u.email,
        ...(ROSTER_FIELDS.length ? { studentId: roster.get(u.id)?.studentId ?? null, fullName: roster.get(u.id)?.fullName ?? null } : {}),
        disabled: u.disabledAt !== null,
        game: g,
        submissions: subs?.count ?? 0,
        firstSubmittedAt: subs?.first ?? null,
        firstQualifiedAt: qualified.reduce<Date | null>((a, p) => (p.at && (!a || p.at < a) ? p.at : a), null),
        qualifiedPlayer: chosen?.name ?? null,
        bestRank: best?.rank ?? null,
        rating: best?.rating ?? null,
        tournament: x.tournament?.name ?? null,
        tournamentOutcome: x.tournament ? (entry ? outcomeOf(entry, true) : 'absent') : null,
        tournamentRound: entry?.eliminatedRound ?? null,
        tournamentPlace: entry?.place ?? null,
        similarity: flag?.score ?? null,
        similarTo: flag?.other ?? null,
      });
    }
  }
  return out;
}

async function gameGrades(db: Db, game: string) {
  const [counts, names, reps, board, tournament, report] = await Promise.all([
    db.submission.groupBy({ by: ['userId'], where: { game }, _count: { _all: true }, _min: { createdAt: true } }),
    db.playerName.findMany({
      where: { game, locked: true, releasedAt: null },
      select: { id: true, name: true, ownerId: true, lockedAt: true, qualifiedSubmission: { select: { finishedAt: true } } },
    }),
    db.representative.findMany({ where: { game }, select: { userId: true, playerId: true } }),
    ranksOf(db, game),
    db.tournament.findFirst({
      where: { game, status: 'finished' },
      orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
      select: { name: true, entries: { select: { userId: true, eliminatedRound: true, place: true } } },
    }),
    reportOf(db, game),
  ]);
  const submissions = new Map(counts.map((c) => [c.userId, { count: c._count._all, first: c._min.createdAt }]));
  const qualified = new Map<number, { id: number; name: string; at: Date | null }[]>();
  for (const n of names) {
    const list = qualified.get(n.ownerId) ?? [];
    list.push({ id: n.id, name: n.name, at: n.lockedAt ?? n.qualifiedSubmission?.finishedAt ?? null });
    qualified.set(n.ownerId, list);
  }
  // Similarity: each side that is a submission of this term, by its owner: the highest score and who is on the other side.
  const similarity = new Map<number, { score: number; other: string }>();
  if (report?.pairs.length) {
    const ids = [
      ...new Set(
        report.pairs
          .flatMap((p) => [p.a, p.b])
          .filter((k) => k.startsWith('s:'))
          .map((k) => Number(k.slice(2))),
      ),
    ];
    const owners = new Map(
      (await db.submission.findMany({ where: { id: { in: ids } }, select: { id: true, userId: true } })).map((s) => [`s:${s.id}`, s.userId]),
    );
    for (const p of report.pairs) {
      for (const [mine, other] of [
        [p.a, p.labelB],
        [p.b, p.labelA],
      ] as const) {
        const owner = owners.get(mine);
        if (owner === undefined) continue;
        const had = similarity.get(owner);
        if (!had || p.score > had.score)
          similarity.set(owner, { score: p.score, other: other.kind === 'archive' ? `${other.author} (${other.title})` : other.author });
      }
    }
  }
  return {
    submissions,
    qualified,
    representatives: new Map(reps.map((r) => [r.userId, r.playerId])),
    board,
    tournament: tournament ? { name: tournament.name, entries: new Map(tournament.entries.map((e) => [e.userId, e])) } : null,
    similarity,
  };
}

/** The tournament column in words, in English (the CSV's language): champion, "fell in round 2", "not entered". */
function standingText(r: GradeRow): string {
  if (r.tournamentOutcome === null) return '';
  if (r.tournamentOutcome === 'absent') return 'not entered';
  if (r.tournamentOutcome === 'champion') return 'champion';
  if (r.tournamentOutcome === 'fell') return `fell in round ${r.tournamentRound}`;
  return 'still in';
}

/** The grades as CSV: one line per student and game (every game when `game` is null). */
export async function gradesCsv(db: Db, game: string | null): Promise<string> {
  const rows = await gradeRows(db, game);
  const roster = ROSTER_FIELDS.length > 0;
  return toCsv(
    [
      'username',
      'email',
      ...(roster ? ['student_id', 'full_name'] : []),
      'game',
      'submissions',
      'first_submitted_at',
      'first_qualified_at',
      'qualified_player',
      'best_rank',
      'rating',
      'tournament',
      'tournament_standing',
      'tournament_place',
      'similarity_max',
      'similar_to',
      'disabled',
    ],
    rows.map((r) => [
      r.username,
      r.email,
      ...(roster ? [r.studentId ?? null, r.fullName ?? null] : []),
      r.game,
      r.submissions,
      r.firstSubmittedAt,
      r.firstQualifiedAt,
      r.qualifiedPlayer,
      r.bestRank,
      r.rating === null ? null : Math.round(r.rating * 100) / 100,
      r.tournament,
      standingText(r),
      r.tournamentPlace,
      r.similarity === null ? null : Math.round(r.similarity * 1000) / 1000,
      r.similarTo,
      r.disabled,
    ]),
  );
}
