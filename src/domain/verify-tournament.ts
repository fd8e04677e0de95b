// `arbiter verify <replays.zip>`: a tournament's archive (GET
// /api/tournaments/:id/replays.zip) checked with nothing but the archive.
//
// Round by round, from the tournament seed the manifest publishes, the draw is
// redone (drawRound: who sits where, and each match's seed), each match the
// draw calls for must be in the manifest with those seats and that seed, its
// replay must be the file the manifest names for that round and group (same
// game, seed, config and players), the replay is re-run from its recorded
// orders (verifyReplay: every board and score), and the manifest's scores and
// ranks must be the replay's. Who falls is then worked out by the tournament
// rules (tournament-rules.ts) from those results, which gives the next round's
// players, and at the end the entries' rounds, the standings in manifest.json
// and standings.csv must be the ones the results give. The first thing that
// differs is reported, naming its round, group, match and seat.
//
// Withdrawals (an entry an admin disabled falls when its round ends, whatever
// its result) are facts no replay holds: the manifest marks them and the
// rules take them as given.

import { isDeepStrictEqual } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { MAX_ROUNDS, SEATS, TOURNAMENT_DUMMY, drawRound, orderStandings, roundEliminations, type DrawnGroup, type SeatResult } from './tournament-rules.ts';
import { zipEntries, ZipReadError, type ZipFileEntry } from './similarity/unzip.ts';
import { ranksFromScores } from '../sdk/ranking.ts';
import { getGame } from '../games/registry.ts';
import type { AnyGame } from '../sdk/types.ts';
import type { Replay } from '../sdk/replay-format.ts';
import { decodeReplay, ReplayFormatError } from '../match/replay-io.ts';
import { csvCellValue } from './exports.ts';
import { verifyReplayWithGame } from '../match/replay-verify.ts';

/** The archive is not a tournament archive this Arbiter reads (no manifest, a damaged zip, a manifest of another shape). */
export class BundleFormatError extends Error {
  override name = 'BundleFormatError';
}

/** Bounds on what an archive may make us read. */
export const BUNDLE_LIMITS = {
  /** Files in the archive. */
  entries: 20_000,
  /** manifest.json and standings.csv, each. */
  textBytes: 64 << 20,
  /** One replay as stored (gzip'd). */
  replayBytes: 64 << 20,
  /** One replay's JSON once gunzip'd. */
  replayJsonBytes: 256 << 20,
  /** Every replay's JSON together. */
  totalBytes: 4 * 2 ** 30,
};

/** A zip starts with a local file header (or, empty, with its end record). */
export function isZip(data: Buffer): boolean {
  return data.length >= 4 && (data.readUInt32LE(0) === 0x04034b50 || data.readUInt32LE(0) === 0x06054b50);
}

export type BundleResult =
  | { ok: true; summary: string; matches: number; rounds: number; finished: boolean }
  | { ok: false; message: string /** A replay was recorded under other engine rules, or the rules differ: nothing was decided. */; otherEngine?: boolean };

interface ManifestSeat {
  seat: number;
  name: string;
  builtin: boolean;
  entry: number | null;
}

interface ManifestMatch {
  id: number;
  round: number;
  final: boolean;
  group: number;
  attempt: number;
  seed: number;
  seats: ManifestSeat[];
  ranks: (number | null)[];
  scores: (number | null)[];
  file: string;
}

interface ManifestEntry {
  entry: number;
  name: string;
  owner: string | null;
  eliminatedRound: number | null;
  withdrawn: boolean;
  place: number | null;
}

interface ManifestStanding {
  place: number | null;
  position: number;
  entry: number;
  name: string;
  owner: string | null;
  eliminatedRound: number | null;
  lastRank: number | null;
  lastScore: number | null;
}

interface Manifest {
  tournament: {
    id: number;
    name: string;
    game: string;
    seed: number | null;
    config: Record<string, unknown> | null;
    rules: { seats: number; dummy: string; maxRounds: number };
    status: string;
  };
  entries: ManifestEntry[];
  matches: ManifestMatch[];
  standings: ManifestStanding[];
}

/** Something differs: the first one stops the verification. */
class Differs extends Error {
  constructor(
    message: string,
    readonly otherEngine = false,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- reading the manifest

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const intOrNull = (v: unknown) => v === null || isInt(v);
const numOrNull = (v: unknown) => v === null || typeof v === 'number';
const strOrNull = (v: unknown) => v === null || typeof v === 'string';

function shape(ok: boolean, what: string): asserts ok {
  if (!ok) throw new BundleFormatError(`manifest.json: ${what}`);
}

/** Checks the manifest's shape (not its content: that is what the verification is for). */
function parseManifest(text: string): Manifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    throw new BundleFormatError('manifest.json is not JSON');
  }
  shape(isObject(m), 'not an object');
  const t = m.tournament;
  shape(
    isObject(t) && isInt(t.id) && typeof t.name === 'string' && typeof t.game === 'string' && typeof t.status === 'string',
    'no tournament id, name, game or status',
  );
  if (m.format !== 'arbiter-tournament' || !Array.isArray(m.entries) || !isObject(t.rules)) {
    throw new BundleFormatError(
      'manifest.json carries no format, entries or rules: the archive was made by an older Arbiter, which did not publish what verifying needs; download it again',
    );
  }
  shape(m.version === 1, `format version ${String(m.version)} is not read by this Arbiter (it reads version 1)`);
  shape(intOrNull(t.seed), 'the seed is not an integer');
  shape(t.config === null || isObject(t.config), 'the config is not an object');
  const rules = t.rules;
  shape(isInt(rules.seats) && typeof rules.dummy === 'string' && isInt(rules.maxRounds), 'rules without seats, dummy or maxRounds');
  const entries = m.entries as unknown[];
  for (const [i, e] of entries.entries()) {
    shape(
      isObject(e) &&
        e.entry === i &&
        typeof e.name === 'string' &&
        strOrNull(e.owner ?? null) &&
        intOrNull(e.eliminatedRound) &&
        typeof e.withdrawn === 'boolean' &&
        intOrNull(e.place),
      `entries[${i}] is not entry ${i} with a name, eliminatedRound, withdrawn and place`,
    );
  }
  shape(Array.isArray(m.matches), 'no matches');
  for (const [i, x] of (m.matches as unknown[]).entries()) {
    shape(
      isObject(x) &&
        isInt(x.id) &&
        isInt(x.round) &&
        typeof x.final === 'boolean' &&
        isInt(x.group) &&
        isInt(x.attempt) &&
        isInt(x.seed) &&
        typeof x.file === 'string',
      `matches[${i}] lacks its id, round, final, group, attempt, seed or file`,
    );
    shape(
      Array.isArray(x.seats) &&
        x.seats.every((s) => isObject(s) && isInt(s.seat) && typeof s.name === 'string' && typeof s.builtin === 'boolean' && intOrNull(s.entry)),
      `matches[${i}] (match ${x.id}): seats must be { seat, name, builtin, entry }`,
    );
    shape(
      Array.isArray(x.ranks) && x.ranks.every(intOrNull) && Array.isArray(x.scores) && x.scores.every(numOrNull),
      `matches[${i}] (match ${x.id}): ranks and scores must be lists of numbers`,
    );
  }
  shape(Array.isArray(m.standings), 'no standings');
  for (const [i, s] of (m.standings as unknown[]).entries()) {
    shape(
      isObject(s) &&
        intOrNull(s.place) &&
        isInt(s.position) &&
        isInt(s.entry) &&
        typeof s.name === 'string' &&
        intOrNull(s.eliminatedRound) &&
        intOrNull(s.lastRank) &&
        numOrNull(s.lastScore),
      `standings[${i}] lacks its place, position, entry, name, eliminatedRound, lastRank or lastScore`,
    );
  }
  return m as unknown as Manifest;
}

// ---------------------------------------------------------------- the archive

class Archive {
  private readonly files = new Map<string, ZipFileEntry>();
  replayBytes = 0;

  constructor(zip: Buffer) {
    let entries: ZipFileEntry[];
    try {
      entries = zipEntries(zip);
    } catch (err) {
      throw new BundleFormatError(`not a readable zip: ${(err as Error).message}`);
    }
    if (entries.length > BUNDLE_LIMITS.entries)
      throw new BundleFormatError(`the archive holds ${entries.length} files, more than the ${BUNDLE_LIMITS.entries} a tournament's could`);
    for (const e of entries) {
      if (this.files.has(e.name)) throw new Differs(`the archive holds two files named ${e.name}`);
      this.files.set(e.name, e);
    }
  }

  names(): string[] {
    return [...this.files.keys()];
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  /** A file's bytes, at most maxBytes (a ZipReadError past it). */
  read(name: string, maxBytes: number): Buffer {
    const e = this.files.get(name);
    if (!e) throw new Differs(`${name} is not in the archive`);
    return e.read(maxBytes);
  }

  /** A replay file: gunzip'd with a cap, then decoded. */
  replay(name: string): Replay {
    const stored = this.read(name, BUNDLE_LIMITS.replayBytes);
    let json: Buffer = stored;
    if (stored[0] === 0x1f && stored[1] === 0x8b) {
      try {
        json = gunzipSync(stored, { maxOutputLength: BUNDLE_LIMITS.replayJsonBytes });
      } catch (err) {
        const big = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
        throw new ReplayFormatError(big ? `larger than ${BUNDLE_LIMITS.replayJsonBytes} bytes once unpacked` : 'corrupt gzip data');
      }
    }
    this.replayBytes += json.length;
    if (this.replayBytes > BUNDLE_LIMITS.totalBytes) throw new BundleFormatError(`the replays come to more than ${BUNDLE_LIMITS.totalBytes} bytes unpacked`);
    return decodeReplay(json.toString('utf8'));
  }
}

// ---------------------------------------------------------------- the verification

/** The file name the server gives a match's replay in the archive (replayFileName in src/domain/tournaments.ts). */
const replayFile = (game: string, round: number, group: number, matchId: number) =>
  `replays/round-${String(round).padStart(2, '0')}-group-${String(group).padStart(2, '0')}-match-${matchId}.${game}.replay.json.gz`;

/** The first key where two configs differ, as `key: a vs b`. */
function configDifference(a: Record<string, unknown>, b: Record<string, unknown>): string {
  const key = [...new Set([...Object.keys(a), ...Object.keys(b)])].find((k) => !isDeepStrictEqual(a[k], b[k]));
  return key === undefined ? 'the same keys' : `${key}: ${JSON.stringify(a[key]) ?? 'absent'} vs ${JSON.stringify(b[key]) ?? 'absent'}`;
}

/** A CSV line's cells (the quoting toCsv writes, or none). */
function csvCells(line: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let cell = '';
      at++;
      for (;;) {
        const q = line.indexOf('"', at);
        if (q < 0) throw new Differs(`standings.csv: an unterminated quoted cell in "${line}"`);
        cell += line.slice(at, q);
        at = q + 1;
        if (line[at] === '"') {
          cell += '"';
          at++;
        } else break;
      }
      out.push(cell);
    } else {
      const comma = line.indexOf(',', at);
      out.push(line.slice(at, comma < 0 ? line.length : comma));
      at = comma < 0 ? line.length : comma;
    }
    if (at >= line.length) return out;
    at++; // the comma
  }
}

export async function verifyTournamentBundle(zip: Buffer): Promise<BundleResult> {
  try {
    return await verify(zip);
  } catch (err) {
    if (err instanceof Differs) return { ok: false, message: err.message, ...(err.otherEngine ? { otherEngine: true } : {}) };
    if (err instanceof ZipReadError) throw new BundleFormatError(err.message);
    throw err;
  }
}

async function verify(zip: Buffer): Promise<BundleResult> {
  const archive = new Archive(zip);
  if (!archive.has('manifest.json'))
    throw new BundleFormatError(
      'not a tournament archive: no manifest.json (arbiter verify reads the zip GET /api/tournaments/:id/replays.zip serves, or one replay)',
    );
  const m = parseManifest(archive.read('manifest.json', BUNDLE_LIMITS.textBytes).toString('utf8'));
  const t = m.tournament;
  const title = `tournament #${t.id} "${t.name}"`;
  const ours = { seats: SEATS, dummy: TOURNAMENT_DUMMY, maxRounds: MAX_ROUNDS };
  if (!isDeepStrictEqual(t.rules, ours)) {
    throw new Differs(
      `${title} was played under other rules (${JSON.stringify(t.rules)}) than this Arbiter's (${JSON.stringify(ours)}); verify it with the Arbiter release that ran it`,
      true,
    );
  }
  if (t.seed === null) throw new Differs(`${title}: the manifest publishes no tournament seed (a tournament's seed is published once it starts)`);
  const seed = t.seed;
  const game: AnyGame = await getGame(t.game);
  let config: Record<string, unknown>;
  try {
    config = game.parseConfig(t.config ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw new Differs(`${title}: the manifest's config is not one ${t.game} accepts: ${(err as Error).message}`);
  }
  const finished = t.status === 'finished';
  const entries = m.entries;
  const who = (entry: number | null) => (entry === null ? `a ${TOURNAMENT_DUMMY}` : `${entries[entry]?.name ?? '?'} (entry ${entry})`);

  // The manifest's matches by round and group; each is taken once.
  const byKey = new Map<string, ManifestMatch>();
  for (const x of m.matches) {
    const key = `${x.round}/${x.group}`;
    const twin = byKey.get(key);
    if (twin) throw new Differs(`round ${x.round}, group ${x.group}: the manifest lists two matches (${twin.id} and ${x.id})`);
    byKey.set(key, x);
  }
  const taken = new Set<ManifestMatch>();
  let replayRounds = 0;

  /** One drawn group against its manifest match and its replay; its seat results. */
  const checkMatch = (round: number, final: boolean, g: number, drawn: DrawnGroup): SeatResult[] => {
    const x = byKey.get(`${round}/${g + 1}`)!;
    taken.add(x);
    const where = `round ${round}, group ${g + 1} (match ${x.id})`;
    if (x.final !== final)
      throw new Differs(
        `${where}: the manifest calls it a ${x.final ? 'final-phase' : 'knockout'} match; with the players still in, the rules make it a ${final ? 'final-phase' : 'knockout'} match`,
      );
    if (x.seed !== drawn.seed) throw new Differs(`${where}: the manifest gives seed ${x.seed}, the tournament seed ${seed} gives ${drawn.seed}`);
    if (x.seats.length !== SEATS || x.ranks.length !== SEATS || x.scores.length !== SEATS)
      throw new Differs(`${where}: the manifest lists ${x.seats.length} seats, ${x.ranks.length} ranks and ${x.scores.length} scores, not ${SEATS}`);
    for (const [s, seat] of x.seats.entries()) {
      const entry = drawn.seats[s]!;
      if (seat.seat !== s) throw new Differs(`${where}: the manifest's seat ${s} is numbered ${seat.seat}`);
      if (seat.entry !== entry)
        throw new Differs(`${where}, seat ${s}: the manifest seats ${who(seat.entry)}, the draw from the tournament seed seats ${who(entry)}`);
      const name = entry === null ? TOURNAMENT_DUMMY : entries[entry]!.name;
      if (seat.name !== name || seat.builtin !== (entry === null))
        throw new Differs(`${where}, seat ${s}: the manifest names it ${seat.name}${seat.builtin ? ' (built-in)' : ''}, entry ${entry} is ${name}`);
    }
    const file = replayFile(t.game, round, g + 1, x.id);
    if (x.file !== file) throw new Differs(`${where}: the manifest names the file ${x.file}, not ${file}`);
    if (!archive.has(file)) throw new Differs(`${where}: ${file} is not in the archive`);
    let replay: Replay;
    try {
      replay = archive.replay(file);
    } catch (err) {
      if (err instanceof ReplayFormatError || err instanceof ZipReadError) throw new Differs(`${where}: ${file} is not a replay: ${err.message}`);
      throw err;
    }
    const players = replay.players.map((p) => p.name).join(', ');
    if (replay.game !== t.game || replay.seed !== x.seed || replay.players.length !== SEATS || replay.players.some((p, s) => p.name !== x.seats[s]!.name)) {
      throw new Differs(
        `${where}: ${file} is the replay of a ${replay.game} match with seed ${replay.seed} and players ${players}; the manifest names it for seed ${x.seed} and players ${x.seats.map((s) => s.name).join(', ')}`,
      );
    }
    if (!isDeepStrictEqual(replay.config, config))
      throw new Differs(`${where}: ${file} was played with another config than the tournament's (${configDifference(replay.config, config)})`);
    const rerun = verifyReplayWithGame(game, replay);
    if (!rerun.ok) {
      if (rerun.otherEngine) throw new Differs(`${where}: ${rerun.message}`, true);
      throw new Differs(`${where}: re-running ${file} from its recorded orders, round ${rerun.round}: ${rerun.message}`);
    }
    // The replay is the match as played: the manifest must report it.
    const ranks = ranksFromScores(replay.result.scores);
    if (!isDeepStrictEqual(replay.result.ranks, ranks))
      throw new Differs(
        `${where}: ${file} records ranks ${replay.result.ranks.join(' ')}, its scores ${replay.result.scores.join(' ')} give ${ranks.join(' ')}`,
      );
    for (let s = 0; s < SEATS; s++) {
      const seatName = `seat ${s} (${x.seats[s]!.name})`;
      if (x.scores[s] !== replay.result.scores[s])
        throw new Differs(`${where}, ${seatName}: the manifest's score is ${x.scores[s]}, the replay's ${replay.result.scores[s]}`);
      if (x.ranks[s] !== ranks[s]) throw new Differs(`${where}, ${seatName}: the manifest's rank is ${x.ranks[s]}, the replay's ${ranks[s]}`);
    }
    replayRounds += rerun.rounds;
    return drawn.seats.map((entry, s) => ({ entry, rank: ranks[s]!, score: replay.result.scores[s]! }));
  };

  // The bracket, round by round, from the seed and the results.
  let active = entries.map((e) => e.entry);
  const fell = new Map<number, { round: number; withdrawn: boolean }>();
  const last = new Map<number, { rank: number | null; score: number | null }>();
  let round = 0;
  let complete = active.length <= 1;
  let stoppedAt: string | null = null;
  while (!complete) {
    round++;
    const drawn = drawRound(seed, round, active, SEATS);
    const present = drawn.groups.map((_, g) => byKey.has(`${round}/${g + 1}`));
    const extra = m.matches.find((x) => x.round === round && (x.group < 1 || x.group > drawn.groups.length));
    if (extra)
      throw new Differs(
        `round ${round}: the manifest lists match ${extra.id} as group ${extra.group}; with ${active.length} players still in the seed draws ${drawn.groups.length} group${drawn.groups.length === 1 ? '' : 's'}`,
      );
    const missing = present.indexOf(false);
    if (missing >= 0 && finished) {
      throw new Differs(
        `round ${round}, group ${missing + 1}: the results so far call for this match (${drawn.groups[missing]!.seats.map(who).join(', ')}), the manifest of the finished tournament has none`,
      );
    }
    const results = drawn.groups.map((g, i) => (present[i] ? checkMatch(round, drawn.final, i, g) : null));
    if (missing >= 0) {
      stoppedAt = `round ${round} is under way (${present.filter(Boolean).length} of ${drawn.groups.length} matches played)`;
      break;
    }
    const fallen = roundEliminations(drawn.final, results as SeatResult[][]);
    for (const r of results) for (const s of r!) if (s.entry !== null) last.set(s.entry, { rank: s.rank, score: s.score });
    for (const e of fallen) fell.set(e, { round, withdrawn: false });
    const left = active.filter((e) => !fallen.includes(e));
    const withdrawn = left.filter((e) => entries[e]!.withdrawn && entries[e]!.eliminatedRound === round);
    for (const e of withdrawn) fell.set(e, { round, withdrawn: true });
    active = left.filter((e) => !withdrawn.includes(e));
    if (active.length <= 1 || round >= MAX_ROUNDS) complete = true;
  }
  const played = round - (stoppedAt ? 1 : 0);
  const stray = m.matches.find((x) => !taken.has(x));
  if (stray)
    throw new Differs(
      `round ${stray.round}, group ${stray.group} (match ${stray.id}): the manifest lists it, but the draws from the seed and the results call for no such match`,
    );
  const named = new Set(m.matches.map((x) => x.file));
  const unnamed = archive.names().find((n) => n.startsWith('replays/') && !named.has(n));
  if (unnamed) throw new Differs(`${unnamed} is in the archive, but the manifest names no match for it`);
  const summaryHead = `${title} (${t.game}, seed ${seed})`;
  const counts = `${taken.size} match${taken.size === 1 ? '' : 'es'} in ${round} round${round === 1 ? '' : 's'} replayed (${replayRounds} game rounds), every draw and match seed follows from the tournament seed`;

  if (!finished) {
    // Complete but not finished: the last match was recorded while paused, or the step that closes it is still to run.
    const state = stoppedAt ? ` and ${stoppedAt}` : complete ? `, though its results end it after round ${round}` : '';
    return {
      ok: true,
      finished: false,
      matches: taken.size,
      rounds: played,
      summary: `ok so far: ${summaryHead} is ${t.status}${state}: ${counts}; the standings are not final and were not checked`,
    };
  }

  // Every entry's fate, then the standings.
  for (const e of entries) {
    const f = fell.get(e.entry);
    const ours = f ? `fell in round ${f.round}${f.withdrawn ? ' (withdrawn)' : ''}` : 'is still in at the end';
    const theirs = e.eliminatedRound === null ? 'is still in at the end' : `fell in round ${e.eliminatedRound}${e.withdrawn ? ' (withdrawn)' : ''}`;
    if ((f?.round ?? null) !== e.eliminatedRound || (f?.withdrawn ?? false) !== e.withdrawn)
      throw new Differs(`entry ${e.entry} (${e.name}): the manifest says it ${theirs}; by the results it ${ours}`);
  }
  const standings = orderStandings(
    entries.map((e) => ({
      entry: e.entry,
      eliminatedRound: fell.get(e.entry)?.round ?? null,
      lastRank: last.get(e.entry)?.rank ?? null,
      lastScore: last.get(e.entry)?.score ?? null,
    })),
  );
  if (m.standings.length !== standings.length)
    throw new Differs(`the standings list ${m.standings.length} players, the tournament had ${standings.length} entries`);
  for (const [i, s] of standings.entries()) {
    const p = m.standings[i]!;
    const at = `standing ${i + 1}`;
    if (p.entry !== s.entry) throw new Differs(`${at}: the manifest puts ${who(p.entry)} there, the results put ${who(s.entry)}`);
    const e = entries[s.entry]!;
    const diff = (field: string, theirs: unknown, ours: unknown) => {
      if (theirs !== ours) throw new Differs(`${at} (${e.name}): the manifest's ${field} is ${String(theirs)}, the results give ${String(ours)}`);
    };
    diff('name', p.name, e.name);
    diff('place', p.place, i + 1);
    diff('position', p.position, i + 1);
    diff('eliminated round', p.eliminatedRound, s.eliminatedRound);
    diff('last rank', p.lastRank, s.lastRank);
    diff('last score', p.lastScore, s.lastScore);
    diff('owner', p.owner, e.owner);
    if (e.place !== i + 1) throw new Differs(`entry ${e.entry} (${e.name}): the manifest's place is ${e.place}, the results give ${i + 1}`);
  }
  checkCsv(
    archive,
    standings.map((s) => ({ ...entries[s.entry]!, ...s })),
  );
  const champion = standings[0] && fell.get(standings[0].entry) === undefined ? `; champion ${entries[standings[0].entry]!.name}` : '';
  return {
    ok: true,
    finished: true,
    matches: taken.size,
    rounds: played,
    summary: `ok: ${summaryHead}: ${counts}, the standings follow from the results${champion}`,
  };
}

/** standings.csv against the standings the results give. */
function checkCsv(archive: Archive, standings: (ManifestEntry & { lastRank: number | null; lastScore: number | null })[]): void {
  if (!archive.has('standings.csv')) throw new Differs('standings.csv is not in the archive');
  const lines = archive
    .read('standings.csv', BUNDLE_LIMITS.textBytes)
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);
  const header = 'place,player,owner,eliminated_round,last_rank,last_score,entry';
  // Cells quoted or not (an archive from before every export was quoted), a formula's guard taken off.
  const cellsOf = (line: string) => csvCells(line).map(csvCellValue);
  if (cellsOf(lines[0]!).join(',') !== header) throw new Differs(`standings.csv: the header is "${lines[0]}", not "${header}"`);
  if (lines.length - 1 !== standings.length)
    throw new Differs(`standings.csv lists ${lines.length - 1} players, the tournament had ${standings.length} entries`);
  const str = (v: number | string | null) => (v === null ? '' : String(v));
  for (const [i, s] of standings.entries()) {
    const want = [
      String(i + 1),
      s.name,
      str(s.owner),
      s.eliminatedRound === null ? 'champion' : String(s.eliminatedRound),
      str(s.lastRank),
      str(s.lastScore),
      String(s.entry),
    ];
    const got = cellsOf(lines[i + 1]!);
    const names = header.split(',');
    const k = want.findIndex((w, j) => got[j] !== w);
    if (k >= 0 || got.length !== want.length) {
      const col = k >= 0 ? k : want.length;
      throw new Differs(
        `standings.csv, line ${i + 2} (standing ${i + 1}, ${s.name}): ${names[col] ?? 'extra cell'} is "${got[col] ?? ''}", the results give "${want[col] ?? ''}"`,
      );
    }
  }
}
