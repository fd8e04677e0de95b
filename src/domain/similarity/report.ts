// The similarity report of a game, on the database: which documents take
// part (the latest submission of every player name, whatever its verdict,
// and the previous terms' archive), the base code left out (the game's
// shipped bots and its C++ kit, which every student may start from), computing and storing
// the report, and one pair's side-by-side detail.
//
// Computed off the request path and stored (SimilarityReport): 300 students
// make ~45,000 candidate pairs, and although the inverted index keeps the
// work to the pairs that share fingerprints, it reads every source; the
// admin's page shows the stored report and when it was computed, and the
// admin asks for a new one (a button, or `arbiter similarity report <game>`)
// after a deadline rather than on every visit.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { gameDir, loadGames } from '../../games/registry.ts';
import { invalid, notFound } from '../errors.ts';
import { ZipReadError, zipEntries } from './unzip.ts';
import { BOT_FILE_KINDS, languages } from '../../sandbox/languages/index.ts';
import {
  baseHashes,
  comparePairs,
  languageOf,
  matchRegions,
  prepare,
  scorePair,
  type Language,
  type PairScore,
  type PreparedDoc,
  type Region,
  type SimilarityDoc,
} from './index.ts';

/** Pairs kept in a stored report. */
export const REPORT_PAIRS = 200;
/** An archived file larger than this is refused (submissions are capped lower). */
export const ARCHIVE_FILE_MAX_BYTES = 512 * 1024;

/** What the pages show of a document. */
export interface DocLabel {
  key: string;
  kind: 'submission' | 'archive';
  /** Submission or archived id. */
  id: number;
  /** The user's name (this term), or the author's (an archived term). */
  author: string;
  /** The player name and version, or the archived file's name and term. */
  title: string;
  filename: string;
}

interface LoadedDoc extends SimilarityDoc {
  label: DocLabel;
}

async function checkGame(game: string) {
  if (!(await loadGames()).has(game)) throw notFound(`no game "${game}"`);
}

/** The files of a folder the report reads (by their names), or none when there is no such folder. */
function folderSources(folder: string): { language: Language; source: string }[] {
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const language = languageOf(name);
    return language ? [{ language, source: readFileSync(join(folder, name), 'utf8') }] : [];
  });
}

/**
 * Code every student was given: the game's shipped bots (bots/: Demo, Dummy,
 * Null) and its C++ kit (cpp/: AIDemo.cc, AINull.cc and the API's headers,
 * and the headers every game shares, as the starter kit ships them).
 */
async function gameBase(game: string): Promise<Set<number>> {
  const [dir, loaded] = await Promise.all([gameDir(game), loadGames().then((games) => games.get(game))]);
  if (!dir || !loaded) return new Set();
  const sources = folderSources(join(dir, 'bots'));
  for (const language of languages) {
    const code = new Set([...language.extensions, ...language.companionExtensions]);
    try {
      // The kit's players and API in this language, as the starter kit ships them (not its README).
      for (const f of (await language.kitFiles?.(loaded)) ?? [])
        if (code.has(f.path.split('.').pop()!)) sources.push({ language: language.id, source: f.data });
    } catch {
      // A game without an API in this language: nothing to leave out.
    }
  }
  return baseHashes(sources);
}

/** The documents of a game: the latest submission of each player name, and every archived file. */
async function loadDocs(db: Db, game: string, keys?: string[]): Promise<LoadedDoc[]> {
  const submissionIds = keys?.filter((k) => k.startsWith('s:')).map((k) => Number(k.slice(2)));
  const archivedIds = keys?.filter((k) => k.startsWith('a:')).map((k) => Number(k.slice(2)));
  const [submissions, archived] = await Promise.all([
    db.submission.findMany({
      where: { game, ...(submissionIds ? { id: { in: submissionIds } } : {}) },
      // The latest version of each player name.
      ...(submissionIds ? {} : { distinct: ['playerId'] as const, orderBy: [{ playerId: 'asc' as const }, { version: 'desc' as const }] }),
      select: { id: true, userId: true, version: true, filename: true, source: true, user: { select: { username: true } }, player: { select: { name: true } } },
    }),
    db.archivedSubmission.findMany({ where: { game, ...(archivedIds ? { id: { in: archivedIds } } : {}) }, orderBy: { id: 'asc' } }),
  ]);
  const docs: LoadedDoc[] = [];
  for (const s of submissions) {
    const language = languageOf(s.filename);
    if (!language) continue;
    docs.push({
      key: `s:${s.id}`,
      owner: `u:${s.userId}`,
      language,
      source: s.source,
      label: { key: `s:${s.id}`, kind: 'submission', id: s.id, author: s.user.username, title: `${s.player.name} v${s.version}`, filename: s.filename },
    });
  }
  for (const a of archived) {
    const language = languageOf(a.filename);
    if (!language) continue;
    docs.push({
      key: `a:${a.id}`,
      owner: `t:${a.term}:${a.author}`,
      language,
      source: a.source,
      label: { key: `a:${a.id}`, kind: 'archive', id: a.id, author: a.author, title: `${a.term}: ${a.filename}`, filename: a.filename },
    });
  }
  return docs;
}

export interface StoredPair extends PairScore {
  labelA: DocLabel;
  labelB: DocLabel;
}

export interface SimilarityReportView {
  game: string;
  createdAt: Date;
  documents: number;
  durationMs: number;
  pairs: StoredPair[];
}

/** Computes a game's report and stores it (replacing the previous one). */
export async function computeReport(db: Db, game: string): Promise<SimilarityReportView> {
  await checkGame(game);
  const t0 = performance.now();
  const [docs, base] = await Promise.all([loadDocs(db, game), gameBase(game)]);
  const prepared = docs.map((d) => prepare(d, base));
  const labels = new Map(docs.map((d) => [d.key, d.label]));
  // Two archived files of one previous term are never a pair: that term was judged then.
  const pairs = comparePairs(prepared, { top: REPORT_PAIRS * 2 })
    .filter((p) => !(p.a.startsWith('a:') && p.b.startsWith('a:')))
    .slice(0, REPORT_PAIRS)
    .map((p): StoredPair => ({ ...p, labelA: labels.get(p.a)!, labelB: labels.get(p.b)! }));
  const durationMs = Math.round(performance.now() - t0);
  const row = await db.similarityReport.upsert({
    where: { game },
    create: { game, documents: docs.length, pairs: pairs as unknown as Prisma.InputJsonValue, durationMs },
    update: { createdAt: new Date(), documents: docs.length, pairs: pairs as unknown as Prisma.InputJsonValue, durationMs },
  });
  return { game, createdAt: row.createdAt, documents: docs.length, durationMs, pairs };
}

/** The stored report of a game, or null when none was computed. */
export async function readReport(db: Db, game: string): Promise<SimilarityReportView | null> {
  await checkGame(game);
  const row = await db.similarityReport.findUnique({ where: { game } });
  if (!row) return null;
  return { game, createdAt: row.createdAt, documents: row.documents, durationMs: row.durationMs, pairs: row.pairs as unknown as StoredPair[] };
}

export interface PairDetail {
  a: DocLabel & { source: string };
  b: DocLabel & { source: string };
  score: PairScore;
  regions: Region[];
  /** Share of each side's tokens inside a matching region (0..1). */
  coverA: number;
  coverB: number;
}

const DOC_KEY = /^[sa]:[1-9]\d{0,9}$/;

/** Two documents side by side: their sources, their score and the matching regions (computed now: two sources are cheap). */
export async function pairDetail(db: Db, game: string, keyA: string, keyB: string): Promise<PairDetail> {
  await checkGame(game);
  if (!DOC_KEY.test(keyA) || !DOC_KEY.test(keyB)) throw invalid('a document is "s:<submission id>" or "a:<archived id>"', 'bad-document');
  const [docs, base] = await Promise.all([loadDocs(db, game, [keyA, keyB]), gameBase(game)]);
  const a = docs.find((d) => d.key === keyA);
  const b = docs.find((d) => d.key === keyB);
  if (!a || !b) throw notFound(`no document ${!a ? keyA : keyB} in ${game}`);
  const pa: PreparedDoc = prepare(a, base);
  const pb: PreparedDoc = prepare(b, base);
  const score = scorePair(pa, pb);
  const match = matchRegions(pa, pb, base);
  return {
    a: { ...a.label, source: a.source },
    b: { ...b.label, source: b.source },
    score,
    regions: match.regions,
    coverA: match.tokensA ? match.matchedA / match.tokensA : 0,
    coverB: match.tokensB ? match.matchedB / match.tokensB : 0,
  };
}

export interface ImportResult {
  imported: number;
  replaced: number;
  skipped: string[];
}

interface ArchiveFile {
  /** Path inside the folder or the zip, split at '/'. */
  segments: string[];
  size: number;
  read(): Buffer;
}

const skipped = (segment: string) => segment.startsWith('.') || segment === '__MACOSX' || segment === 'node_modules';

/** Every file under a folder, recursively. */
function folderFiles(dir: string, prefix: string[] = []): ArchiveFile[] {
  return readdirSync(join(dir, ...prefix), { withFileTypes: true }).flatMap((entry): ArchiveFile[] => {
    if (skipped(entry.name)) return [];
    const segments = [...prefix, entry.name];
    const path = join(dir, ...segments);
    if (entry.isDirectory()) return folderFiles(dir, segments);
    if (!entry.isFile()) return [];
    return [{ segments, size: statSync(path).size, read: () => readFileSync(path) }];
  });
}

/** Every file of a zip; a folder that wraps everything (term/<author>/...) is taken off. */
function zipFiles(path: string): ArchiveFile[] {
  let files = zipEntries(readFileSync(path)).map(
    (e): ArchiveFile => ({ segments: e.name.split('/').filter((x) => x !== ''), size: e.size, read: () => e.read(ARCHIVE_FILE_MAX_BYTES) }),
  );
  files = files.filter((f) => f.segments.length > 0 && !f.segments.some(skipped));
  const top = files[0]?.segments[0];
  if (top !== undefined && files.every((f) => f.segments.length >= 3 && f.segments[0] === top))
    files = files.map((f) => ({ ...f, segments: f.segments.slice(1) }));
  return files;
}

/**
 * Imports a previous term's submissions of one game from a folder or a zip
 * laid out by user: `<author>/<file>.ts|js|cc` (every such file under the
 * author's folder) or `<author>.ts|js|cc` (C++ also .cpp, .cxx and headers
 * .hh, .hpp, .h). Files are stored for the report
 * only; importing the same term again replaces a file of the same author
 * and path.
 */
export async function importArchive(db: Db, path: string, term: string, game: string): Promise<ImportResult> {
  await checkGame(game);
  if (!/^[\w.-]{1,32}$/.test(term)) throw invalid('a term is 1 to 32 letters, digits, "-", "_" or "." (e.g. 2024-25)', 'bad-term');
  let files: ArchiveFile[];
  try {
    files = statSync(path).isDirectory() ? folderFiles(path) : zipFiles(path);
  } catch (err) {
    if (err instanceof ZipReadError) throw invalid(`${path}: ${err.message}`, 'bad-archive');
    throw err;
  }
  const result: ImportResult = { imported: 0, replaced: 0, skipped: [] };
  for (const file of files.sort((x, y) => (x.segments.join('/') < y.segments.join('/') ? -1 : 1))) {
    const shown = file.segments.join('/');
    const filename = file.segments.length === 1 ? file.segments[0]! : file.segments.slice(1).join('/');
    const author = file.segments.length === 1 ? filename.replace(/\.[^.]*$/, '') : file.segments[0]!;
    if (!languageOf(filename)) {
      result.skipped.push(`${shown}: not a ${BOT_FILE_KINDS} file`);
      continue;
    }
    if (file.size > ARCHIVE_FILE_MAX_BYTES) {
      result.skipped.push(`${shown}: ${file.size} bytes, at most ${ARCHIVE_FILE_MAX_BYTES}`);
      continue;
    }
    let source: string;
    try {
      source = file.read().toString('utf8');
    } catch (err) {
      if (!(err instanceof ZipReadError)) throw err;
      result.skipped.push(err.message);
      continue;
    }
    if (source.includes('\0') || source.trim() === '') {
      result.skipped.push(`${shown}: empty or not text`);
      continue;
    }
    const key = { term, game, author: author.slice(0, 64), filename: filename.slice(0, 200) };
    const earlier = await db.archivedSubmission.findUnique({ where: { term_game_author_filename: key }, select: { id: true } });
    await db.archivedSubmission.upsert({
      where: { term_game_author_filename: key },
      create: { ...key, source, sizeBytes: Buffer.byteLength(source, 'utf8') },
      update: { source, sizeBytes: Buffer.byteLength(source, 'utf8'), importedAt: new Date() },
    });
    if (earlier) result.replaced++;
    else result.imported++;
  }
  return result;
}

/** How many archived files each term holds for a game. */
export async function archiveTerms(db: Db, game: string): Promise<{ term: string; files: number }[]> {
  const rows = await db.archivedSubmission.groupBy({ by: ['term'], where: { game }, _count: { _all: true }, orderBy: { term: 'asc' } });
  return rows.map((r) => ({ term: r.term, files: r._count._all }));
}
