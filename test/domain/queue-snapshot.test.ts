// The queue's answers are computed once per read of its inputs: in a
// deadline's burst every waiting student's page asks for its place and wait
// every second or two, and one read a second serves them all (issue 35). A
// read's answer for a submission is computed once and served to every poll of
// that read; another submission gets its own place from the same read; and an
// answer is never served from a read once a newer one replaced it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/client.ts';
import { workerKey } from '../../src/queue/index.ts';
import { queueOverview, QUEUE_SNAPSHOT_MS } from '../../src/domain/queue-overview.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freshQueues } from '../helpers/queue.ts';

const fresh = await freshDatabase();
const fq = await freshQueues();
after(async () => {
  await fq.cleanup();
  await fresh.drop();
});
const { db } = fresh;
const deps = { db, queues: fq.queues };

/** A submission row per name, waiting for its check, in order (ids rise). */
async function waitingSubmissions(db: Db, names: string[]) {
  const owner = await db.user.create({ data: { username: 'owner', usernameLower: 'owner', passwordHash: 'x' } });
  const rows = [];
  for (const name of names) {
    const player = await db.playerName.create({ data: { game: 'moria', name, nameLower: name.toLowerCase(), ownerId: owner.id } });
    rows.push(
      await db.submission.create({
        data: { playerId: player.id, userId: owner.id, game: 'moria', version: 1, source: '//', filename: `${name}.ts`, sizeBytes: 2 },
      }),
    );
  }
  return rows;
}

test("a read's wait is computed once per submission, and never served once the read is replaced", async () => {
  await fq.queues.redis().set(workerKey(fq.prefix, 'w1'), JSON.stringify({ name: 'w1', concurrency: 2, host: 'box', pid: 1 }), 'PX', 60_000);
  // A finished self-play and Dummy match, so the wait has a figure, not only a place.
  for (const gateStep of ['selfplay', 'dummy'] as const) {
    const finishedAt = new Date(Date.now() - 60_000);
    await db.match.create({
      data: { game: 'moria', seed: 1, kind: 'gate', gateStep, status: 'done', durationMs: 2000, startedAt: new Date(finishedAt.getTime() - 2000), finishedAt },
    });
  }
  const [a, b, c] = await waitingSubmissions(db, ['Qa', 'Qb', 'Qc']);
  const poll = (now: number, before?: number) => queueOverview(deps, now, { ...(before !== undefined ? { before } : {}), maxAgeMs: QUEUE_SNAPSHOT_MS });
  const t0 = Date.now();

  const first = await poll(t0, c!.id);
  assert.equal(first.expectedWait.ahead.submissions, 2);
  assert.notEqual(first.expectedWait.seconds, null);
  // The same read, the same submission: the same answer, not computed again.
  assert.equal(await poll(t0 + 400, c!.id), first);
  // The same read, another submission or a new one: each its own place.
  assert.equal((await poll(t0 + 400, b!.id)).expectedWait.ahead.submissions, 1);
  assert.equal((await poll(t0 + 400, a!.id)).expectedWait.ahead.submissions, 0);
  assert.equal((await poll(t0 + 400)).expectedWait.ahead.submissions, 3);

  // A's verdict. Within the read's age the read still answers (one read a second is the design)...
  await db.submission.update({ where: { id: a!.id }, data: { status: 'rejected', finishedAt: new Date() } });
  assert.equal(await poll(t0 + QUEUE_SNAPSHOT_MS, c!.id), first);
  // ...and past it a new read answers every submission from the new state, never the old read's answer.
  const later = await poll(t0 + QUEUE_SNAPSHOT_MS + 1, c!.id);
  assert.notEqual(later, first);
  assert.equal(later.expectedWait.ahead.submissions, 1);
  assert.equal((await poll(t0 + QUEUE_SNAPSHOT_MS + 1, b!.id)).expectedWait.ahead.submissions, 0);
  assert.equal((await poll(t0 + QUEUE_SNAPSHOT_MS + 1)).expectedWait.ahead.submissions, 2);
  // What the kept answer says is what a read of its own at that moment computes.
  assert.deepEqual(await queueOverview(deps, t0 + QUEUE_SNAPSHOT_MS + 1, { before: c!.id }), later);

  // A read made at once (maxAgeMs 0: the admin's pages) replaces the kept one: the next poll answers from it.
  await db.submission.update({ where: { id: b!.id }, data: { status: 'rejected', finishedAt: new Date() } });
  const now = t0 + QUEUE_SNAPSHOT_MS + 2;
  assert.equal((await queueOverview(deps, now)).expectedWait.ahead.submissions, 1);
  assert.equal((await poll(now + 1, c!.id)).expectedWait.ahead.submissions, 0);
});
