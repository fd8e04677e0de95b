// A deployment's own Dummy for a game. An admin uploads a file (JavaScript,
// TypeScript, or C++ as the course writes players: `#define PLAYER_NAME
// Dummy` in a .cc, compiled by the judge's compile like a student's); it is
// judged like a bot (the compile check, then a self-play of four copies in
// which no copy may freeze) before it replaces the shipped Dummy. From then on the
// gate and every Dummy seat of every kind of match play it
// (src/domain/match-setup.ts resolveBuiltin); matches still call it Dummy. Its
// source is never shown: no route, page, export or starter kit reads it, and
// its audit lines carry only its size and hash. Removing it brings back the
// shipped Dummy for matches queued from then on.
//
// The judging runs where the admin's request is served, in the same sandbox
// the workers use (bot processes with CPU and memory caps): the file comes
// from an admin, and an answer in the same request tells them at once.

import { createHash } from 'node:crypto';
import { languageOf, readBotHeader } from '../sandbox/languages/index.ts';
import type { Db } from '../db/client.ts';
import { loadGames } from '../games/registry.ts';
import { roundShown } from '../sdk/replay-format.ts';
import { checkBot } from '../sandbox/entries/check-bot.ts';
import { playMatch } from '../sandbox/entries/play-match.ts';
import { DUMMY, pickSeed } from './match-setup.ts';
import { recordAudit } from './audit.ts';
import type { Actor } from './admin.ts';
import { invalid, notFound, tooLarge, unprocessable } from './errors.ts';

export interface PrivateDummyInfo {
  game: string;
  installed: boolean;
  filename: string | null;
  sizeBytes: number | null;
  uploadedAt: Date | null;
  uploadedBy: string | null;
}

/** Whether a game has a private Dummy, and when and by whom it was installed (never its source). */
export async function privateDummyInfo(db: Db, game: string): Promise<PrivateDummyInfo> {
  const row = await db.privateDummy.findUnique({
    where: { game },
    select: { filename: true, sizeBytes: true, createdAt: true, uploadedBy: { select: { username: true } } },
  });
  return {
    game,
    installed: !!row,
    filename: row?.filename ?? null,
    sizeBytes: row?.sizeBytes ?? null,
    uploadedAt: row?.createdAt ?? null,
    uploadedBy: row?.uploadedBy?.username ?? null,
  };
}

export interface JudgeOptions {
  /** Settings of the self-play match (tests shorten it; production plays the game's defaults). */
  selfPlayConfig?: Record<string, unknown>;
}

/** Judges the file as the gate's first two steps would; throws an unprocessable error (dummy-rejected) saying why. */
export async function judgePrivateDummy(game: string, source: string, filename: string, options: JudgeOptions = {}): Promise<void> {
  const check = await checkBot({ game, source, filename });
  if (!check.ok)
    throw unprocessable(
      `the Dummy was not installed: ${check.message}${check.line !== undefined && !/\bline \d+/.test(check.message) ? ` (line ${check.line})` : ''}`,
      'dummy-rejected',
    );
  const g = (await loadGames()).get(game)!;
  const seed = pickSeed();
  const { replay } = await playMatch({
    game,
    seed,
    seats: Array.from({ length: g.nbPlayers }, () => ({ source, filename })),
    ...(options.selfPlayConfig ? { config: options.selfPlayConfig } : {}),
  });
  const frozen = replay.players.map((p, seat) => ({ ...p, seat })).filter((p) => p.frozenReason !== null);
  if (frozen.length > 0) {
    const f = frozen[0]!;
    throw unprocessable(
      `the Dummy was not installed: in self-play (seed ${seed}) copy ${f.seat + 1} of ${g.nbPlayers} froze in round ${roundShown(f.frozenRound ?? 0)} (${f.frozenReason}): ${(f.frozenMessage ?? '').split('\n')[0]}`,
      'dummy-rejected',
    );
  }
}

/** Checks, judges and installs a private Dummy for the game (replacing the one before). */
export async function installPrivateDummy(
  db: Db,
  actorId: Actor,
  upload: { game: string; source: string; filename?: string | undefined },
  limits: { maxBytes: number },
  options: JudgeOptions = {},
): Promise<PrivateDummyInfo> {
  const games = await loadGames();
  const game = games.get(upload.game);
  if (!game) throw invalid(`unknown game "${upload.game}" (known: ${[...games.keys()].join(', ')})`, 'unknown-game');
  const size = Buffer.byteLength(upload.source, 'utf8');
  if (size > limits.maxBytes) throw tooLarge(`file too large: ${size} bytes, at most ${limits.maxBytes}`);
  if (size === 0 || upload.source.trim() === '') throw invalid('the file is empty', 'empty');
  const header = readBotHeader(upload.source);
  // The language by the file's name, or by its text when it came without one.
  const language = languageOf(upload.source, upload.filename);
  if (language.gameRequiredInFile) {
    if (header.game !== game.id) throw invalid(`the file must declare  ${language.gameLine(game.id)}`, 'game-mismatch');
  } else if (header.game !== null && header.game !== game.id) {
    // A file that takes the game it is installed for (C++): a game line, when there is one, must agree.
    throw invalid(`the file says  ${language.gameLine(header.game)}  but the Dummy is for ${game.id}`, 'game-mismatch');
  }
  // The name every replay shows is the file's: it must be Dummy, so matches still call it Dummy.
  if (header.name !== DUMMY) {
    throw invalid(`a private Dummy must declare  ${language.nameLine(DUMMY)}  (it plays as Dummy)`, 'dummy-name');
  }
  // The name it is stored and compiled under (the course's AIDummy.cc for C++).
  const filename = language.defaultFilename(DUMMY);
  await judgePrivateDummy(game.id, upload.source, filename, options);
  const sha256 = createHash('sha256').update(upload.source).digest('hex');
  await db.$transaction(async (tx) => {
    const data = { source: upload.source, filename, sizeBytes: size, uploadedById: actorId, createdAt: new Date() };
    await tx.privateDummy.upsert({ where: { game: game.id }, create: { game: game.id, ...data }, update: data });
    await recordAudit(tx, { actorId, action: 'dummy.install', targetType: 'game', targetId: game.id, detail: { sizeBytes: size, sha256 } });
  });
  return privateDummyInfo(db, game.id);
}

/** Removes the game's private Dummy: the shipped one plays again. */
export async function removePrivateDummy(db: Db, actorId: Actor, game: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.privateDummy.findUnique({ where: { game }, select: { id: true } });
    if (!row) throw notFound(`${game} has no private Dummy: the shipped one plays`);
    await tx.privateDummy.delete({ where: { id: row.id } });
    await recordAudit(tx, { actorId, action: 'dummy.remove', targetType: 'game', targetId: game });
  });
}
