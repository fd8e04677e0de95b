// Tournaments a teacher can manage: the entries a planned
// tournament would freeze now (API and page), editing before the freeze,
// cancelling before the start (DELETE on a planned one, or /cancel), deleting
// a cancelled one, the real start time on the page after "Start now"; every
// step admin-only and audited. Real Postgres, app.inject.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerUser, startTestApi, type TestUser } from '../../helpers/app.ts';
import { adminGrant } from '../../../src/cli/admin.ts';
import { startDueTournaments } from '../../../src/domain/tournaments.ts';
import { coinsBot, qualifiedPlayer, TEST_GAMES } from '../../helpers/tournaments.ts';

process.env.ARBITER_GAMES_PATH = TEST_GAMES;

const { app, db } = await startTestApi({ COURSE_TIME_ZONE: 'Europe/Madrid' });
const boss = await registerUser(app, 'boss');
await adminGrant(db, 'grant', 'boss');
const alice = await registerUser(app, 'alice');
const bob = await registerUser(app, 'bob');

const day = 86_400_000;
const json = (u: TestUser | null, method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: u ? u.auth : {}, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
const form = (cookie: string, url: string, fields: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  });
const create = async (name: string, freezeAt = new Date(Date.now() + day)) => {
  const res = await json(boss, 'POST', '/api/tournaments', { game: 'coins', name, freezeAt: freezeAt.toISOString(), seed: 11 });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as number;
};
const actions = async (id: number) =>
  (await db.auditEntry.findMany({ where: { targetType: 'tournament', targetId: String(id) }, orderBy: { id: 'asc' } })).map((a) => a.action);

await qualifiedPlayer(db, { userId: alice.id, name: 'A1', source: coinsBot('A1', 1) });
await qualifiedPlayer(db, { userId: bob.id, name: 'B1', source: coinsBot('B1', 2) });

test('preview: the entries that would freeze now, admin only; the page shows them while planned (not "0")', async () => {
  const id = await create('Preview cup');
  assert.equal((await json(null, 'GET', `/api/tournaments/${id}/preview`)).statusCode, 401);
  assert.equal((await json(alice, 'GET', `/api/tournaments/${id}/preview`)).statusCode, 403);
  const res = await json(boss, 'GET', `/api/tournaments/${id}/preview`);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(
    res.json().entries.map((e: { entry: number; name: string; owner: string }) => [e.entry, e.name, e.owner]),
    [
      [0, 'A1', 'alice'],
      [1, 'B1', 'bob'],
    ],
  );
  const page = await app.inject({ url: `/tournaments/${id}` });
  assert.match(page.body, /id="tournament-entries">2 if the entries froze now</);
  assert.ok(page.body.includes('id="entries-preview"'));
  assert.ok(!page.body.includes('id="preview"'), 'the list is for admins');
  const adminPage = await app.inject({ url: `/tournaments/${id}`, headers: { cookie: boss.cookie } });
  assert.match(adminPage.body, /<table id="preview">[^]*A1[^]*alice[^]*B1[^]*bob/);
  assert.equal(await db.tournamentEntry.count({ where: { tournamentId: id } }), 0, 'a preview writes nothing');
  assert.equal((await json(boss, 'GET', '/api/tournaments/999999/preview')).statusCode, 404);
});

test('edit before the freeze: name, freeze time, config, seed; refused for a student, for bad values, and once started; audited without the seed', async () => {
  const id = await create('Draft');
  const freezeAt = new Date(Date.now() + 3 * day);
  freezeAt.setUTCMilliseconds(0);
  assert.equal((await json(alice, 'PATCH', `/api/tournaments/${id}`, { name: 'Mine' })).statusCode, 403);
  assert.equal((await json(boss, 'PATCH', `/api/tournaments/${id}`, {})).statusCode, 400, 'nothing to change');
  const badConfig = await json(boss, 'PATCH', `/api/tournaments/${id}`, { config: { nb_rounds: -1 } });
  assert.equal(badConfig.statusCode, 400);
  assert.equal(badConfig.json().code, 'config');
  assert.equal((await json(boss, 'PATCH', `/api/tournaments/${id}`, { freezeAt: 'tomorrow' })).statusCode, 400);
  assert.equal((await json(boss, 'PATCH', `/api/tournaments/${id}`, { name: '   ' })).statusCode, 400);
  const res = await json(boss, 'PATCH', `/api/tournaments/${id}`, {
    name: 'Spring cup',
    freezeAt: freezeAt.toISOString(),
    config: { nb_rounds: 30 },
    seed: 4242,
  });
  assert.equal(res.statusCode, 200, res.body);
  const t = res.json();
  assert.deepEqual([t.name, t.freezeAt, t.config, t.seed], ['Spring cup', freezeAt.toISOString(), { nb_rounds: 30 }, null]);
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id } })).seed, 4242);
  const edit = await db.auditEntry.findFirstOrThrow({ where: { action: 'tournament.edit', targetId: String(id) } });
  assert.equal(edit.actorId, boss.id);
  const detail = edit.detail as Record<string, unknown>;
  assert.deepEqual(detail.name, { from: 'Draft', to: 'Spring cup' });
  assert.equal(detail.seed, 'changed');
  assert.ok(!JSON.stringify(detail).includes('4242'), 'the seed stays secret');
  // Clearing the config; the same values again change nothing (no audit line).
  assert.equal((await json(boss, 'PATCH', `/api/tournaments/${id}`, { config: null })).json().config, null);
  await json(boss, 'PATCH', `/api/tournaments/${id}`, { name: 'Spring cup' });
  assert.equal((await actions(id)).filter((a) => a === 'tournament.edit').length, 2);

  // The form: prefilled in the course's time zone, saved, back to the page.
  const page = await app.inject({ url: `/admin/tournaments/${id}/edit`, headers: { cookie: boss.cookie } });
  assert.equal(page.statusCode, 200);
  assert.ok(page.body.includes('value="Spring cup"'));
  assert.ok(page.body.includes('value="4242"'));
  assert.equal((await app.inject({ url: `/admin/tournaments/${id}/edit`, headers: { cookie: alice.cookie } })).statusCode, 403);
  const bad = await form(boss.cookie, `/admin/tournaments/${id}/edit`, { name: 'Spring cup', freezeAt: 'soon', config: '', seed: '1' });
  assert.equal(bad.statusCode, 400);
  assert.ok(bad.body.includes('id="f-freezeAt-error"'));
  const saved = await form(boss.cookie, `/admin/tournaments/${id}/edit`, {
    name: 'Spring cup II',
    freezeAt: '2030-03-01T10:00',
    config: '{"nb_rounds": 25}',
    seed: '99',
  });
  assert.equal(saved.statusCode, 303, saved.body);
  const row = await db.tournament.findUniqueOrThrow({ where: { id } });
  assert.deepEqual([row.name, row.freezeAt.toISOString(), row.config, row.seed], ['Spring cup II', '2030-03-01T09:00:00.000Z', { nb_rounds: 25 }, 99]);

  // Start now: the page shows when it really started; editing is over.
  const started = await json(boss, 'POST', `/api/tournaments/${id}/start`);
  assert.equal(started.statusCode, 200);
  assert.ok(started.json().startedAt);
  const after = await app.inject({ url: `/tournaments/${id}` });
  assert.match(after.body, /<dt>Started<\/dt><dd id="tournament-started"><time datetime="[^"]+">/);
  assert.match(after.body, /id="tournament-freeze"><time datetime="2030-03-01T09:00:00.000Z"/);
  assert.match(after.body, /id="tournament-entries">2</);
  const late = await json(boss, 'PATCH', `/api/tournaments/${id}`, { name: 'Too late' });
  assert.equal(late.statusCode, 409);
  assert.equal(late.json().code, 'not-scheduled');
  assert.equal((await json(boss, 'GET', `/api/tournaments/${id}/preview`)).statusCode, 409);
  assert.equal((await app.inject({ url: `/admin/tournaments/${id}/edit`, headers: { cookie: boss.cookie } })).statusCode, 303);
});

test('cancel before the start, then delete: DELETE cancels a planned one and deletes a cancelled one; a started one stays; audited', async () => {
  const id = await create('To cancel', new Date(Date.now() + day));
  assert.equal((await json(alice, 'DELETE', `/api/tournaments/${id}`)).statusCode, 403);
  assert.equal((await json(null, 'DELETE', `/api/tournaments/${id}`)).statusCode, 401);
  const cancelled = await json(boss, 'DELETE', `/api/tournaments/${id}`);
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  assert.equal(cancelled.json().status, 'cancelled');
  assert.ok(cancelled.json().cancelledAt);
  assert.equal(cancelled.json().seed, null, 'a cancelled tournament never publishes its seed');
  // It never starts, and it cannot be cancelled, edited or started again.
  await startDueTournaments(db, new Date(Date.now() + 2 * day));
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id } })).status, 'cancelled');
  assert.equal((await json(boss, 'POST', `/api/tournaments/${id}/cancel`)).statusCode, 409);
  assert.equal((await json(boss, 'PATCH', `/api/tournaments/${id}`, { name: 'x' })).statusCode, 409);
  assert.equal((await json(boss, 'POST', `/api/tournaments/${id}/start`)).statusCode, 409);
  const page = await app.inject({ url: `/tournaments/${id}`, headers: { cookie: boss.cookie } });
  assert.ok(page.body.includes('id="tournament-cancelled"'));
  assert.ok(page.body.includes(`action="/admin/tournaments/${id}/delete"`));
  assert.ok(!page.body.includes('id="entries-preview"'));
  const list = (await app.inject({ url: '/api/tournaments' })).json().tournaments;
  assert.equal(list.find((t: { id: number }) => t.id === id).status, 'cancelled');

  const deleted = await json(boss, 'DELETE', `/api/tournaments/${id}`);
  assert.equal(deleted.statusCode, 204);
  assert.equal((await app.inject({ url: `/api/tournaments/${id}` })).statusCode, 404);
  assert.equal((await json(boss, 'DELETE', `/api/tournaments/${id}`)).statusCode, 404);
  assert.deepEqual(await actions(id), ['tournament.create', 'tournament.cancel', 'tournament.delete']);

  // POST /cancel, and the page's buttons.
  const other = await create('Other');
  assert.equal((await json(alice, 'POST', `/api/tournaments/${other}/cancel`)).statusCode, 403);
  assert.equal((await json(boss, 'POST', `/api/tournaments/${other}/cancel`)).json().status, 'cancelled');
  const third = await create('Third');
  assert.equal((await form(alice.cookie, `/admin/tournaments/${third}/cancel`)).statusCode, 403);
  const viaPage = await form(boss.cookie, `/admin/tournaments/${third}/cancel`);
  assert.equal(viaPage.statusCode, 303);
  assert.equal((await db.tournament.findUniqueOrThrow({ where: { id: third } })).status, 'cancelled');
  const gone = await form(boss.cookie, `/admin/tournaments/${third}/delete`);
  assert.equal(gone.statusCode, 303);
  assert.equal(gone.headers.location, '/admin/tournaments');
  assert.equal(await db.tournament.count({ where: { id: third } }), 0);

  // A running tournament is neither cancelled nor deleted.
  const running = await create('Running');
  await json(boss, 'POST', `/api/tournaments/${running}/start`);
  const refused = await json(boss, 'DELETE', `/api/tournaments/${running}`);
  assert.equal(refused.statusCode, 409);
  assert.equal(refused.json().code, 'not-cancelled');
  assert.equal((await json(boss, 'POST', `/api/tournaments/${running}/cancel`)).json().code, 'not-scheduled');
  assert.equal((await form(boss.cookie, `/admin/tournaments/${running}/delete`)).statusCode, 409);
});
