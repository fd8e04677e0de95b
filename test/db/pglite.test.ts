// The embedded default (no DATABASE_URL): the same API on PGlite in process,
// including the raw-SQL pages (leaderboard, matches list).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, migrate, closeDb } from '../../src/db/client.ts';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { registerUser, bot, submitJson, insertMatch } from '../helpers/app.ts';

const db = await createDb({ dataDir: 'memory://' });
await migrate(db);
const app = await buildApp({ config: loadConfig({}), db, queues: null, logger: false });
after(async () => {
  await app.close();
  await closeDb(db);
});

test('on PGlite: register, submit, leaderboard, matches list and detail', async () => {
  const ana = await registerUser(app, 'ana');
  const res = await submitJson(app, ana, bot('Gimli'));
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as number;
  const sub = await db.submission.findUniqueOrThrow({ where: { id } });
  await db.playerName.update({ where: { id: sub.playerId }, data: { locked: true, qualifiedSubmissionId: id } });
  await db.rating.create({ data: { playerId: sub.playerId, game: 'moria', mu: 27, sigma: 3, ordinal: 18, matchesPlayed: 2 } });
  const board = (await app.inject({ url: '/api/games/moria/leaderboard' })).json();
  assert.deepEqual(board.players, [{ rank: 1, player: 'Gimli', owner: 'ana', rating: 18, mu: 27, sigma: 3, matchesPlayed: 2, provisional: false }]);
  const m = await insertMatch(db, {
    seats: [
      { name: 'Gimli', playerId: sub.playerId, submissionId: id, score: 3, rank: 1 },
      { name: 'Demo', builtinName: 'Demo', score: 2, rank: 2 },
      { name: 'Demo', builtinName: 'Demo', score: 1, rank: 3 },
      { name: 'Demo', builtinName: 'Demo', score: 0, rank: 4 },
    ],
  });
  const list = (await app.inject({ url: '/api/matches?player=gimli' })).json();
  assert.equal(list.total, 1);
  assert.equal(list.matches[0].id, m.id);
  assert.equal(list.matches[0].participants.length, 4);
  assert.equal((await app.inject({ url: `/api/matches/${m.id}` })).json().participants[0].owner, 'ana');
});
