// The teacher's admin: who is an admin (granted on the server's command
// line), disabling users and submissions, rejudging, releasing and renaming
// names, the per-game submission deadline, resetting a game's ratings. Every
// action writes its audit line (src/domain/audit.ts) in its own transaction,
// so an action and its line are stored together or not at all.
//
// Decisions:
// - Rejudge plays the gate again on the same source as a new version of the
//   same name (the old version and its gate matches stay on record). Only a
//   rejected submission whose name is not locked may be rejudged: a qualified
//   one already holds its locked name, and a submission still being judged
//   has its gate running.
// - Releasing a name is for a name that never qualified: its row stays (its
//   submissions and matches on record) under a tombstone key, and the name is
//   free for anyone, its old owner included, as a new claim.
// - Renaming checks the new name as a new one (rules, reserved, offensive,
//   taken by anyone in any game). Past matches keep the name they were played
//   under; the bot's file still declares the old name, so a new version must
//   declare the new one.
// - Resetting a game's ratings puts every player back to the starting rating
//   with no match played and clears the game's rating history (the ranked
//   matches themselves stay).

import { formatForPeople } from './course-time.ts';
import type { Db, Tx } from '../db/client.ts';
import { loadGames } from '../games/registry.ts';
import { nameRuleError } from './names.ts';
import { initialRating } from './ratings/index.ts';
import { recordAudit } from './audit.ts';
import { conflict, DomainError, invalid, notFound } from './errors.ts';
import { JUDGING } from '../statuses.ts';
import type { AccountSummary } from './serialize.ts';

/** Who acts: an admin's user id, or null for the server's command line. */
export type Actor = number | null;

async function gameOrInvalid(game: string) {
  const games = await loadGames();
  const g = games.get(game);
  if (!g) throw invalid(`unknown game "${game}" (known: ${[...games.keys()].join(', ')})`, 'unknown-game');
  return g;
}

/** `arbiter admin grant|revoke`: makes a registered user an admin, or no longer one. */
export async function setAdmin(db: Db, actorId: Actor, username: string, isAdmin: boolean) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { usernameLower: username.toLowerCase() } });
    if (!user) throw notFound(`no user "${username}": they must sign up first`);
    const updated = await tx.user.update({ where: { id: user.id }, data: { isAdmin } });
    await recordAudit(tx, {
      actorId,
      action: isAdmin ? 'admin.grant' : 'admin.revoke',
      targetType: 'user',
      targetId: user.id,
      detail: { username: user.username, wasAdmin: user.isAdmin },
    });
    return updated;
  });
}

export interface UserRow extends AccountSummary {
  players: { game: string; name: string; qualified: boolean }[];
}

/** Users whose name contains `q` (any case), by name. */
export async function searchUsers(db: Db, q: string, limit = 50): Promise<UserRow[]> {
  const rows = await db.user.findMany({
    where: q ? { usernameLower: { contains: q.toLowerCase() } } : {},
    orderBy: { usernameLower: 'asc' },
    take: limit,
    select: {
      id: true,
      username: true,
      email: true,
      isAdmin: true,
      createdAt: true,
      disabledAt: true,
      players: { where: { releasedAt: null }, select: { game: true, name: true, locked: true }, orderBy: { id: 'asc' } },
    },
  });
  return rows.map((u) => ({ ...u, players: u.players.map((p) => ({ game: p.game, name: p.name, qualified: p.locked })) }));
}

/** Disables (or enables again) a user: no log-in, no submission, their players out of ranked play and the leaderboard. */
export async function setUserDisabled(db: Db, actorId: Actor, userId: number, disabled: boolean) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw notFound(`no user ${userId}`);
    if (disabled && actorId === userId) throw invalid('you cannot disable your own account', 'self');
    const updated = await tx.user.update({ where: { id: userId }, data: { disabledAt: disabled ? (user.disabledAt ?? new Date()) : null } });
    await recordAudit(tx, {
      actorId,
      action: disabled ? 'user.disable' : 'user.enable',
      targetType: 'user',
      targetId: userId,
      detail: { username: user.username },
    });
    return updated;
  });
}

/** Disables (or enables again) a submission: it leaves the ranked pool and plays no challenge. */
export async function setSubmissionDisabled(db: Db, actorId: Actor, submissionId: number, disabled: boolean) {
  return db.$transaction(async (tx) => {
    const sub = await tx.submission.findUnique({ where: { id: submissionId }, include: { player: { select: { name: true } } } });
    if (!sub) throw notFound(`no submission ${submissionId}`);
    const updated = await tx.submission.update({ where: { id: submissionId }, data: { disabledAt: disabled ? (sub.disabledAt ?? new Date()) : null } });
    await recordAudit(tx, {
      actorId,
      action: disabled ? 'submission.disable' : 'submission.enable',
      targetType: 'submission',
      targetId: submissionId,
      detail: { game: sub.game, player: sub.player.name, version: sub.version },
    });
    return updated;
  });
}

/**
 * Rejudges a rejected submission: a new version of the same name with the
 * same source and the same gate seeds, whose gate starts from the compile step
 * (the caller starts it after the commit). Returns the new submission's id.
 */
export async function rejudgeSubmission(db: Db, actorId: Actor, submissionId: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const sub = await tx.submission.findUnique({ where: { id: submissionId }, include: { player: true } });
    if (!sub) throw notFound(`no submission ${submissionId}`);
    if (sub.status === 'qualified')
      throw conflict(`submission ${sub.id} qualified: its name is locked and a new gate run would change nothing`, 'already-qualified');
    if ((JUDGING as string[]).includes(sub.status)) throw conflict(`submission ${sub.id} is still being judged (${sub.status})`, 'still-judging');
    // Lock the name row: a qualification cannot commit between this check and the insert.
    const [p] = await tx.$queryRaw<
      { locked: boolean; releasedAt: Date | null }[]
    >`SELECT "locked", "releasedAt" FROM "PlayerName" WHERE "id" = ${sub.playerId} FOR UPDATE`;
    if (p?.locked) throw conflict(`the name "${sub.player.name}" is locked (another version qualified): a rejudge could not qualify it`, 'name-locked');
    if (p?.releasedAt) throw conflict(`the name "${sub.player.name}" was released: it may now belong to someone else`, 'name-released');
    const last = await tx.submission.aggregate({ where: { playerId: sub.playerId }, _max: { version: true } });
    const again = await tx.submission.create({
      data: {
        playerId: sub.playerId,
        userId: sub.userId,
        game: sub.game,
        version: (last._max.version ?? 0) + 1,
        source: sub.source,
        filename: sub.filename,
        sizeBytes: sub.sizeBytes,
        ...(sub.gateSeeds !== null ? { gateSeeds: sub.gateSeeds } : {}),
      },
    });
    await recordAudit(tx, {
      actorId,
      action: 'submission.rejudge',
      targetType: 'submission',
      targetId: sub.id,
      detail: { newSubmissionId: again.id, game: sub.game, player: sub.player.name },
    });
    return again.id;
  });
}

async function findName(tx: Tx, game: string, name: string) {
  const row = await tx.playerName.findUnique({
    where: { game_nameLower: { game, nameLower: name.toLowerCase() } },
    include: { owner: { select: { username: true } } },
  });
  if (!row) throw notFound(`no player "${name}" in ${game}`);
  return row;
}

/** Frees a name that never qualified: the row stays on record under a tombstone key; anyone may claim the name again. */
export async function releaseName(db: Db, actorId: Actor, game: string, name: string) {
  await gameOrInvalid(game);
  return db.$transaction(async (tx) => {
    const row = await findName(tx, game, name);
    await tx.$queryRaw`SELECT id FROM "PlayerName" WHERE id = ${row.id} FOR UPDATE`;
    const fresh = await tx.playerName.findUniqueOrThrow({ where: { id: row.id } });
    if (fresh.locked) throw conflict(`"${row.name}" qualified: a locked name cannot be released (rename it instead)`, 'name-locked');
    const judging = await tx.submission.count({ where: { playerId: row.id, status: { in: JUDGING } } });
    if (judging > 0) throw conflict(`a submission of "${row.name}" is still being judged: release the name once it has its verdict`, 'still-judging');
    await tx.playerName.update({ where: { id: row.id }, data: { nameLower: `released:${row.id}:${row.nameLower}`, releasedAt: new Date() } });
    await recordAudit(tx, {
      actorId,
      action: 'name.release',
      targetType: 'player',
      targetId: row.id,
      detail: { game, name: row.name, owner: row.owner.username },
    });
    return { id: row.id, name: row.name };
  });
}

/** Renames a player (on its owner's request): the new name is checked as a new name would be. */
export async function renameName(db: Db, actorId: Actor, game: string, name: string, newName: string, offensiveWords: readonly string[] = []) {
  await gameOrInvalid(game);
  const problem = await nameRuleError(newName, offensiveWords);
  if (problem) throw new DomainError('invalid', problem.message, `name-${problem.problem}`);
  return db.$transaction(async (tx) => {
    const row = await findName(tx, game, name);
    const lower = newName.toLowerCase();
    const holders = await tx.playerName.findMany({ where: { nameLower: lower, id: { not: row.id } }, select: { ownerId: true, game: true } });
    if (holders.some((h) => h.ownerId !== row.ownerId || h.game === game))
      throw conflict(`player name "${newName}" is taken: choose another name`, 'name-taken');
    try {
      await tx.playerName.update({ where: { id: row.id }, data: { name: newName, nameLower: lower } });
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002') throw conflict(`player name "${newName}" is taken: choose another name`, 'name-taken');
      throw err;
    }
    await recordAudit(tx, {
      actorId,
      action: 'name.rename',
      targetType: 'player',
      targetId: row.id,
      detail: { game, from: row.name, to: newName, owner: row.owner.username },
    });
    return { id: row.id, name: newName };
  });
}

/** The game's submission deadline, or null. */
export async function submissionDeadline(db: Db, game: string): Promise<Date | null> {
  return (await db.gameSetting.findUnique({ where: { game }, select: { submissionDeadline: true } }))?.submissionDeadline ?? null;
}

/** Sets (or clears, with null) a game's submission deadline. */
/**
 * Sets or clears a game's submission deadline. A deadline already past closes submissions at once, so
 * it needs `allowPast` (the page's confirmation, the API's confirmPast): otherwise a conflict coded deadline-in-past.
 */
export async function setSubmissionDeadline(db: Db, actorId: Actor, game: string, deadline: Date | null, opts: { allowPast?: boolean; now?: Date } = {}) {
  await gameOrInvalid(game);
  if (deadline && Number.isNaN(deadline.getTime())) throw invalid('the deadline is not a date', 'bad-date');
  if (deadline && !opts.allowPast && deadline.getTime() <= (opts.now ?? new Date()).getTime()) {
    throw conflict(
      `the deadline ${formatForPeople(deadline)} is in the past: submissions to ${game} would close at once; confirm to set it anyway`,
      'deadline-in-past',
    );
  }
  return db.$transaction(async (tx) => {
    const before = await tx.gameSetting.findUnique({ where: { game } });
    const row = await tx.gameSetting.upsert({ where: { game }, create: { game, submissionDeadline: deadline }, update: { submissionDeadline: deadline } });
    await recordAudit(tx, {
      actorId,
      action: 'game.deadline',
      targetType: 'game',
      targetId: game,
      detail: { from: before?.submissionDeadline?.toISOString() ?? null, to: deadline?.toISOString() ?? null },
    });
    return row;
  });
}

/** Every player of the game back to the starting rating with no match played; the rating history of the game is cleared. */
export async function resetRatings(db: Db, actorId: Actor, game: string) {
  await gameOrInvalid(game);
  const start = initialRating();
  return db.$transaction(async (tx) => {
    const players = await tx.rating.updateMany({ where: { game }, data: { mu: start.mu, sigma: start.sigma, ordinal: start.ordinal, matchesPlayed: 0 } });
    const history = await tx.ratingHistory.deleteMany({ where: { game } });
    await recordAudit(tx, {
      actorId,
      action: 'game.ratings-reset',
      targetType: 'game',
      targetId: game,
      detail: { players: players.count, historyRowsCleared: history.count },
    });
    return { players: players.count, historyRowsCleared: history.count };
  });
}
