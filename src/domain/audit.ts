// The admin's audit trail: every admin action is one row (who, what, to
// what, when), written in the same transaction as the action itself, so an
// action and its line are stored together or not at all.

import type { Db, Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';

export interface AuditLine {
  /** The admin who acted; null when done from the server's command line. */
  actorId: number | null;
  /** Dotted verb: "admin.grant", "user.disable", "tournament.create"... */
  action: string;
  targetType?: string;
  targetId?: string | number;
  detail?: Record<string, unknown>;
}

export async function recordAudit(tx: Tx | Db, line: AuditLine): Promise<void> {
  await tx.auditEntry.create({
    data: {
      actorId: line.actorId,
      action: line.action,
      targetType: line.targetType ?? null,
      targetId: line.targetId === undefined ? null : String(line.targetId),
      ...(line.detail ? { detail: line.detail as Prisma.InputJsonValue } : {}),
    },
  });
}

export interface AuditRow {
  id: number;
  at: Date;
  actor: string | null;
  action: string;
  targetType: string | null;
  /** A database id as a number (a user, submission, player, tournament); a game's id is its name. */
  targetId: number | string | null;
  detail: unknown;
}

/** The newest audit lines first, optionally of one target. */
export async function listAudit(
  db: Db,
  opts: { limit?: number; offset?: number; targetType?: string; targetId?: string } = {},
): Promise<{ total: number; rows: AuditRow[] }> {
  const where = { ...(opts.targetType ? { targetType: opts.targetType } : {}), ...(opts.targetId ? { targetId: opts.targetId } : {}) };
  const [total, rows] = await Promise.all([
    db.auditEntry.count({ where }),
    db.auditEntry.findMany({
      where,
      orderBy: { id: 'desc' },
      take: opts.limit ?? 50,
      skip: opts.offset ?? 0,
      include: { actor: { select: { username: true } } },
    }),
  ]);
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      at: r.createdAt,
      actor: r.actor?.username ?? null,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId !== null && /^\d{1,15}$/.test(r.targetId) ? Number(r.targetId) : r.targetId,
      detail: r.detail,
    })),
  };
}
