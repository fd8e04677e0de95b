// The gate's four Dummy matches are played side by side, in whatever order the
// runners finish them, yet the verdict and what is stored are those of a gate
// playing them one after another: the first match (in the gate's order) that
// is not a win decides, once the ones before it are won; the matches after it
// are not kept (the queued ones cancelled, the recorded ones deleted, a result
// that comes later dropped). Against a real database, through gateOnMatch as
// the recorder calls it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase } from '../helpers/db.ts';
import { gateOnMatch, GATE_DUMMY_MATCHES, type GateEffects } from '../../src/domain/gate.ts';
import { createMatch, type SeatRef } from '../../src/domain/match-setup.ts';

const database = await freshDatabase();
after(() => database.drop());
const { db } = database;
const owner = await db.user.create({ data: { username: 'ana', usernameLower: 'ana', passwordHash: 'x' } });

/** A submission in qualifying with its four Dummy matches queued (the bot in seat i of match i). */
async function qualifying(name: string) {
  const player = await db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: owner.id } });
  const sub = await db.submission.create({
    data: { playerId: player.id, userId: owner.id, game: 'moria', version: 1, source: '//', filename: `${name}.ts`, sizeBytes: 2, status: 'qualifying' },
  });
  const me: SeatRef = { submissionId: sub.id, playerId: player.id, name };
  const ids: number[] = [];
  for (let i = 0; i < GATE_DUMMY_MATCHES; i++) {
    const seats: SeatRef[] = [0, 1, 2, 3].map(() => ({ builtinName: 'Dummy' }));
    seats[i] = me;
    ids.push(await createMatch(db, { game: 'moria', kind: 'gate', submissionId: sub.id, gateStep: 'dummy', gateIndex: i, seed: 100 + i, seats }));
  }
  return { sub, ids };
}

/** Records match `index` as the recorder does (won: the bot scores 10 against 5; lost: 1 against 5), then the gate's step; applies the cancellations. */
async function record(subId: number, ids: number[], index: number, won: boolean): Promise<GateEffects | null> {
  const id = ids[index]!;
  const row = await db.match.findUnique({ where: { id }, include: { participants: true } });
  if (!row) return null; // cancelled
  const effects = await db.$transaction(async (tx) => {
    await tx.match.update({ where: { id }, data: { status: 'done', finishedAt: new Date() } });
    for (const p of row.participants) {
      const mine = p.submissionId === subId;
      await tx.participant.update({ where: { id: p.id }, data: { score: mine ? (won ? 10 : 1) : 5, rank: mine ? (won ? 1 : 4) : 2 } });
    }
    const full = await tx.match.findUniqueOrThrow({ where: { id }, include: { participants: true } });
    return gateOnMatch(tx, { ...full, status: 'done' });
  });
  // What applyEffects does for a cancelled match whose job was still waiting.
  await db.match.deleteMany({ where: { id: { in: effects.cancel }, status: 'queued' } });
  return effects;
}

async function outcome(subId: number) {
  const sub = await db.submission.findUniqueOrThrow({ where: { id: subId } });
  const kept = await db.match.findMany({
    where: { submissionId: subId },
    select: { gateIndex: true, seed: true, status: true },
    orderBy: { gateIndex: 'asc' },
  });
  const detail = sub.reasonDetail as { code?: string; params?: { n?: number; seed?: number } } | null;
  return { status: sub.status, code: detail?.code, n: detail?.params?.n, seed: detail?.params?.seed, kept: kept.map((m) => `${m.gateIndex}:${m.status}`) };
}

// Match 1 won, matches 2 and 3 lost, match 4 won: one after another, the gate stops at match 2.
const RESULTS = [true, false, false, true];
const SEQUENTIAL = { status: 'rejected', code: 'lost', n: 2, seed: 101, kept: ['0:done', '1:done'] };

test('one after another: rejected at match 2, matches 1 and 2 kept', async () => {
  const { sub, ids } = await qualifying('Seq');
  for (const i of [0, 1, 2, 3]) await record(sub.id, ids, i, RESULTS[i]!);
  assert.deepEqual(await outcome(sub.id), SEQUENTIAL);
});

test('finished in another order (3, 4, 1, 2): the loss in match 3 waits for matches 1 and 2; the same verdict, the same matches kept', async () => {
  const { sub, ids } = await qualifying('Par');
  const early = await record(sub.id, ids, 2, false);
  assert.equal((await db.submission.findUniqueOrThrow({ where: { id: sub.id } })).status, 'qualifying', 'match 3 lost, but matches 1 and 2 are not played yet');
  assert.deepEqual(early?.cancel, []);
  await record(sub.id, ids, 3, true);
  await record(sub.id, ids, 0, true);
  const decided = await record(sub.id, ids, 1, false);
  assert.ok(decided?.events.some((e) => e.status === 'rejected'));
  assert.deepEqual(await outcome(sub.id), SEQUENTIAL, 'matches 3 and 4, played and recorded, are deleted');
});

test('rejected while later matches still run: their results are dropped when they come, not kept nor announced', async () => {
  const { sub, ids } = await qualifying('Run');
  await record(sub.id, ids, 0, true);
  // Matches 3 and 4 are being played (their rows stay queued: a job being played is not cancelled).
  const running = [ids[2]!, ids[3]!];
  const decided = await db.$transaction(async (tx) => {
    const id = ids[1]!;
    await tx.match.update({ where: { id }, data: { status: 'done' } });
    const row = await tx.match.findUniqueOrThrow({ where: { id }, include: { participants: true } });
    for (const p of row.participants) await tx.participant.update({ where: { id: p.id }, data: { score: p.submissionId === sub.id ? 1 : 5 } });
    return gateOnMatch(tx, { ...(await tx.match.findUniqueOrThrow({ where: { id }, include: { participants: true } })), status: 'done' });
  });
  assert.deepEqual([...decided.cancel].sort(), [...running].sort(), 'the rest is cancelled');
  for (const i of [2, 3]) {
    const late = await record(sub.id, ids, i, RESULTS[i]!);
    assert.equal(late?.dropped, true, `match ${i + 1}'s late result is dropped`);
    assert.deepEqual(late?.events, []);
  }
  assert.deepEqual(await outcome(sub.id), SEQUENTIAL);
});

test('four wins in any order qualify once, with the last one', async () => {
  const { sub, ids } = await qualifying('Win');
  const verdicts: string[] = [];
  for (const i of [3, 1, 2, 0]) {
    const e = await record(sub.id, ids, i, true);
    verdicts.push(...(e?.events ?? []).map((x) => x.status));
  }
  assert.deepEqual(verdicts, ['qualifying', 'qualifying', 'qualifying', 'qualified']);
  assert.equal((await db.submission.findUniqueOrThrow({ where: { id: sub.id } })).status, 'qualified');
  assert.equal(await db.match.count({ where: { submissionId: sub.id, status: 'done' } }), 4);
});
