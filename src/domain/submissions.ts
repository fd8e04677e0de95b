// Submissions: the checks every upload goes through (the API, the website's
// form and the CLI through the API), the player-name claim, the new version,
// and the start of the gate.

import { BotCompileError, CompileInfraError, PlayCompileRefusal } from '../sandbox/languages/compile-errors.ts';
import { BOT_FILE_KINDS, compileBot, isUploadFilename, languageOf, readBotHeader } from '../sandbox/languages/index.ts';
import { compileErrorText } from './reasons.ts';
import { refuseShippedCopy } from './builtin-copies.ts';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { loadGames } from '../games/registry.ts';
import { checkNameForSubmission, lockNameForClaim, NameError, type NameClaim } from './names.ts';
import { withTimeout } from '../queue/connection.ts';
import type { JudgeQueues } from '../queue/index.ts';
import { conflict, DomainError, forbidden, invalid, tooLarge, unprocessable } from './errors.ts';
import { submissionDeadline } from './admin.ts';
import { deriveGateSeedsAsync, gateSecret } from './gate-seeds.ts';
import { Slots } from '../sandbox/system/slots.ts';
import type { GateStartRow } from './gate.ts';

/**
 * Upload inserts in flight in this process; the others wait their turn, first
 * come, first served. Each insert is a transaction of a few statements that
 * holds a database connection from its first to its last; a deadline's burst
 * on a busy API otherwise holds every connection of the pool with
 * transactions waiting for their next turn, and the uploads behind them give
 * up waiting for a connection (a 500: the judge's fault shown to a student).
 * Eight of the pool's ten connections (pg's default), so the pages' reads
 * always have two. Four halved the uploads stored a second on a starved API
 * (each insert waits as long for its statements' turns, whatever the others
 * do, so fewer at once is fewer a second).
 */
export const UPLOAD_INSERTS_AT_ONCE = 8;
const insertSlots = new Slots(UPLOAD_INSERTS_AT_ONCE);

/** A promise's outcome, held until it is wanted (no unhandled rejection meanwhile). */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settled = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
function unwrap<T>(outcome: Settled<T>): T;
function unwrap<T>(outcome: Promise<Settled<T>>): Promise<T>;
function unwrap<T>(outcome: Settled<T> | Promise<Settled<T>>): T | Promise<T> {
  const take = (o: Settled<T>) => {
    if (!o.ok) throw o.error;
    return o.value;
  };
  return outcome instanceof Promise ? outcome.then(take) : take(outcome);
}

/** Called after a submission row is inserted: queues its gate (src/domain/gate.ts's startGate). */
export type StartGate = (deps: { db: Db; queues: JudgeQueues }, submissionId: number, stored?: GateStartRow) => Promise<void>;

/** Where the domain notes what happened (pino's and fastify's loggers fit). */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SubmissionDeps {
  db: Db;
  config: Pick<Config, 'submissionMaxBytes' | 'offensiveWords' | 'gateStartTimeoutMs' | 'nameHoldHours'>;
  queues: JudgeQueues | null;
  startGate: StartGate | null;
}

/**
 * A file that does not compile, refused at upload (400, code compile-error),
 * with its line and column when known. The message is the compiler's text as
 * it printed it (clang's lines and carets kept).
 */
export class SubmissionCompileError extends DomainError {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super('invalid', message, 'compile-error', {
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
    });
  }
}

/** An uploaded file's bytes as text, or an invalid error coded not-text. */
export function decodeUtf8(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw invalid(`the file is not UTF-8 text: upload the bot source file (${BOT_FILE_KINDS})`, 'not-text');
  }
}

/** After the game's submission deadline (set by an admin), a new submission is refused with the date (code deadline-passed). */
export async function refuseAfterDeadline(db: Db, game: string, title = game, now = new Date()): Promise<void> {
  const deadline = await submissionDeadline(db, game);
  if (deadline && now.getTime() >= deadline.getTime()) {
    throw forbidden(
      `submissions to ${title} closed on ${deadline.toISOString().slice(0, 16).replace('T', ' ')} UTC (the deadline): no new submission is accepted`,
      'deadline-passed',
    );
  }
}

/** The checks and the insert every upload goes through (the API and the website's form). */
export interface NewSubmission {
  userId: number;
  game: string | undefined;
  source: string;
  filename: string | undefined;
  /** The client's Idempotency-Key (checked by parseIdempotencyKey): the same key again returns the same submission. */
  idempotencyKey?: string | undefined;
}

const IDEMPOTENCY_KEY_RE = /^[\x20-\x7e]{1,128}$/;

/** The Idempotency-Key header: absent, or 1-128 printable ASCII characters (invalid otherwise). */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw invalid('send one Idempotency-Key header, not several', 'bad-idempotency-key');
  if (!IDEMPOTENCY_KEY_RE.test(value) || value.trim() === '') {
    throw invalid('Idempotency-Key must be 1 to 128 printable ASCII characters (a UUID, for example)', 'bad-idempotency-key');
  }
  return value;
}

/**
 * Validates an upload, claims or reuses its player name, inserts the new
 * version and starts the gate. Bad input throws a DomainError whose code says
 * which check failed (no-game, unknown-game, empty, not-text, too-large,
 * no-name, no-game-in-file, game-mismatch, bad-filename, name-<problem>,
 * compile-error). `syntaxCheck` also refuses, before anything is stored, a
 * JS/TS file that does not compile (esbuild's parse): the gate's compile step
 * would reject it anyway. A C++ file is never compiled here (seconds, and one
 * upload would wait on the others'): the gate's check does it.
 */
export async function createSubmission(deps: SubmissionDeps, upload: NewSubmission, log: Logger, options: { syntaxCheck?: boolean } = {}) {
  const { db, config } = deps;
  const max = config.submissionMaxBytes;
  // Where an upload's time goes (logged with 'submission stored'): checks, compile, the insert's transaction, the gate's start.
  const took: Record<string, number> = {};
  let lap = performance.now();
  const mark = (phase: string) => {
    const now = performance.now();
    took[phase] = Math.round((took[phase] ?? 0) + now - lap);
    lap = now;
  };
  const me = { id: upload.userId };
  const { queues, startGate } = deps;

  // Starting the gate waits for Redis at most gateStartTimeoutMs: while Redis
  // is down, BullMQ holds the command until it is back. The upload answers at
  // once and the row stays queued for the sweep; if the queued command goes
  // through later, it does what the sweep would have done (same job id).
  const startGateQuickly = async (submissionId: number, stored?: GateStartRow) => {
    if (!queues || !startGate) return;
    try {
      await withTimeout(startGate({ db, queues }, submissionId, stored), config.gateStartTimeoutMs, 'queueing the compile check');
    } catch (err) {
      log.warn({ err, submissionId }, 'startGate failed or timed out; submission left queued for the sweep');
    }
  };
  // No game named: the file's own `export const GAME` says which (checked below like a named one).
  const requestedGame = upload.game || readBotHeader(upload.source).game || undefined;
  const key = upload.idempotencyKey;
  // The same upload sent again with its key (a client retrying): the first one's submission, not a new version.
  const replay = async () => {
    if (key === undefined) return null;
    const earlier = await db.submission.findUnique({ where: { userId_idempotencyKey: { userId: me.id, idempotencyKey: key } }, include: { player: true } });
    if (!earlier) return null;
    if (earlier.source !== upload.source || earlier.game !== requestedGame) {
      throw unprocessable(
        `Idempotency-Key "${key}" was already used for submission ${earlier.id} with another file or game: use a new key for a new upload`,
        'idempotency-key-reused',
      );
    }
    if (earlier.status === 'queued') await startGateQuickly(earlier.id);
    const current = await db.submission.findUnique({ where: { id: earlier.id }, select: { status: true } });
    return { ...earlier, status: current?.status ?? earlier.status, replayed: true };
  };
  const replayed = await replay();
  if (replayed) return replayed;
  const size = Buffer.byteLength(upload.source, 'utf8');
  if (size > max) throw tooLarge(`file too large: ${size} bytes, at most ${max}`);
  if (size === 0 || upload.source.trim() === '') throw invalid('the file is empty', 'empty');
  if (upload.source.includes('\0')) throw invalid(`the file contains NUL bytes: upload the bot source file (${BOT_FILE_KINDS})`, 'not-text');
  if (upload.game?.includes('\0')) throw invalid('NUL characters are not allowed in "game"');
  const games = await loadGames();
  if (!requestedGame) {
    throw invalid(
      `no game: send the field "game" (one of: ${[...games.keys()].join(', ')}) or declare it in the file:  ${languageOf(upload.source, upload.filename).gameLine('moria')}`,
      'no-game',
    );
  }
  const game = games.get(requestedGame);
  if (!game) {
    const whose = upload.game ? '' : " (from the file's GAME)";
    throw invalid(`unknown game "${requestedGame}"${whose} (known: ${[...games.keys()].join(', ')})`, 'unknown-game');
  }
  // What takes a round trip (the deadline's row, the seed secret) or another process (esbuild) starts at once and
  // runs side by side with the checks: a busy API turns every sequential wait into a turn of its event loop.
  const deadlineCheck = settled(refuseAfterDeadline(db, game.id, game.title));
  const secret = settled(gateSecret(db));
  const header = readBotHeader(upload.source);
  const language = languageOf(upload.source, upload.filename);
  // The file's own checks; their refusal is thrown after the deadline's, which goes first.
  const checkFile = async (): Promise<string> => {
    if (!header.name) throw invalid(`no player name in the file: add  ${language.nameLine('YourName')}`, 'no-name');
    if (!header.game && language.gameRequiredInFile) throw invalid(`no game in the file: add  ${language.gameLine(game.id)}`, 'no-game-in-file');
    if (header.game && header.game !== game.id) {
      throw invalid(`game mismatch: the file says GAME = "${header.game}" but the submission is for "${game.id}"`, 'game-mismatch');
    }
    const other = await language.otherGame?.(upload.source, game.id);
    if (other)
      throw invalid(
        `this file looks like a "${other.game}" player, not a "${game.id}" one: it uses "${other.uses.join(', ')}" of ${other.game}'s API; submit it for ${other.game}`,
        'other-game',
      );
    const named = upload.filename ? upload.filename.split(/[\\/]/).pop()! : language.defaultFilename(header.name);
    if (!isUploadFilename(named)) throw invalid(`"${named}": the bot must be a ${BOT_FILE_KINDS} file`, 'bad-filename');
    return named.slice(0, 100);
  };
  const fileChecked = await settled(checkFile());
  // A file that does not compile claims nothing. esbuild parses in
  // milliseconds, so a JS/TS file is refused here before any name is claimed.
  // A C++ compile takes seconds and would keep this upload waiting on every
  // other upload's compile: the file is taken at once (202) and the gate's
  // check compiles it on the checks' lane, ahead of every gate match; a
  // compile error there rejects it within seconds, its name left free
  // (src/domain/names.ts: a name only files that never compiled claimed).
  const compiled = fileChecked.ok && options.syntaxCheck && !language.slowCompile ? settled(compileBot(upload.source, fileChecked.value, game.id)) : null;
  await unwrap(deadlineCheck);
  const filename = unwrap(fileChecked);

  const checkName = async (tx: Tx | Db): Promise<NameClaim> => {
    try {
      return await checkNameForSubmission(tx, {
        name: header.name!,
        game: game.id,
        userId: me.id,
        offensiveWords: config.offensiveWords,
        holdHours: config.nameHoldHours,
      });
    } catch (err) {
      if (err instanceof NameError) {
        throw new DomainError(err.problem === 'taken' || err.problem === 'locked' ? 'conflict' : 'invalid', err.message, `name-${err.problem}`);
      }
      throw err;
    }
  };

  // A renamed or reshuffled shipped player (Demo, Dummy, the C++ kit's AIDemo.cc...) is no entry: refused before any name is claimed (and before the compile's verdict).
  refuseShippedCopy(game, filename, upload.source);
  mark('checks');

  // The compile's verdict, after the checks above (their refusals say more than a compile error would).
  const compileRun = compiled ? await compiled : null;
  if (compileRun && !compileRun.ok) {
    const err = compileRun.error;
    if (err instanceof CompileInfraError || err instanceof PlayCompileRefusal) {
      // The judge could not compile it, not the file's fault: the upload is taken and the gate compiles it again.
      log.warn({ err: err.message }, 'compile at upload skipped: the compiler failed; the gate will compile the file');
    } else {
      if (!(err instanceof BotCompileError)) throw err;
      // Worded as the gate words it (src/domain/gate.ts gateOnCheck, englishReason).
      throw new SubmissionCompileError(compileErrorText(`compile error: ${err.message}`, err.line ?? null), err.line, err.column);
    }
  }
  // The gate's seeds, from the file, stored with the row: the gate starts without reading it back.
  const gateSeeds = await deriveGateSeedsAsync(await unwrap(secret), game.id, upload.source, filename);
  mark('compile');
  const create = () =>
    db.$transaction(async (tx) => {
      // One claim of this name at a time (src/domain/names.ts): the checks below read what the previous one committed.
      await lockNameForClaim(tx, header.name!);
      const claim = await checkName(tx);
      if (claim.release.length > 0) {
        // Other users' claims whose hold ran out: tombstoned as an admin's release is, so the name is free for this one.
        for (const id of claim.release) {
          const row = await tx.playerName.findUniqueOrThrow({ where: { id }, select: { nameLower: true } });
          await tx.playerName.update({ where: { id }, data: { nameLower: `released:${id}:${row.nameLower}`, releasedAt: new Date() } });
        }
        log.info({ part: 'api', released: claim.release, name: header.name, userId: me.id }, 'expired name holds released for a new claim');
      }
      let playerId = claim.playerId;
      if (playerId === null) {
        const p = await tx.playerName.create({ data: { game: game.id, name: header.name!, nameLower: header.name!.toLowerCase(), ownerId: me.id } });
        playerId = p.id;
      } else {
        // Row lock: a qualification (which locks the name) cannot commit between this check and the insert.
        const [p] = await tx.$queryRaw<{ name: string; locked: boolean }[]>`SELECT "name", "locked" FROM "PlayerName" WHERE "id" = ${playerId} FOR UPDATE`;
        if (!p) throw conflict('the player name changed meanwhile: submit again');
        if (p.locked) throw conflict(`name locked: "${p.name}" already qualified; choose a new name for a new bot`, 'name-locked');
      }
      const last = await tx.submission.aggregate({ where: { playerId }, _max: { version: true } });
      return tx.submission.create({
        data: {
          playerId,
          userId: me.id,
          game: game.id,
          version: (last._max.version ?? 0) + 1,
          source: upload.source,
          filename,
          sizeBytes: size,
          gateSeeds,
          ...(key !== undefined ? { idempotencyKey: key } : {}),
        },
        include: { player: true },
      });
    });
  let sub;
  await insertSlots.acquire();
  try {
    sub = await create();
  } catch (err) {
    // The same key twice at once: the (user, key) index refused the second.
    if ((err as { code?: string }).code !== 'P2002') throw err;
    const again = await replay();
    if (again) return again;
    sub = await create();
  } finally {
    insertSlots.release();
  }
  mark('insert');
  await startGateQuickly(sub.id, sub);
  mark('gate');
  log.info(
    {
      part: 'api',
      submissionId: sub.id,
      userId: sub.userId,
      game: sub.game,
      player: sub.player.name,
      version: sub.version,
      status: sub.status,
      tookMs: took,
    },
    'submission stored',
  );
  // Queued: the row says so until its check's verdict, which the recorder writes after the check ran.
  return { ...sub, replayed: false };
}
