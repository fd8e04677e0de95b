// Player names: 1-12 of [A-Za-z0-9_], unique
// across users ignoring case, built-in names reserved, offensive words
// refused, the owner may resubmit until the name is locked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameSyntaxError, nameRuleError, reservedNames, checkNameForSubmission, NameError } from '../../src/judge/names.ts';
import { loadGames } from '../../src/game-kit/registry.ts';
import { startTestApi, registerUser, bot, submitJson } from './setup.ts';

const api = await startTestApi({ OFFENSIVE_WORDS: 'badword, Zorglub' });

test('syntax: 1 to 12 characters from A-Z a-z 0-9 _', () => {
  for (const ok of ['a', 'Gimli', 'bot_2', 'ABCDEFGHIJKL', '_', '007']) assert.equal(nameSyntaxError(ok), null, ok);
  assert.equal(nameSyntaxError('')?.problem, 'empty');
  assert.equal(nameSyntaxError('ABCDEFGHIJKLM')?.problem, 'too-long');
  assert.match(nameSyntaxError('ABCDEFGHIJKLM')!.message, /at most 12/);
  for (const bad of ['with space', 'dash-ed', 'dot.ted', 'ñandú', 'a/b', 'emoji🙂', 'tab\t']) {
    assert.equal(nameSyntaxError(bad)?.problem, 'bad-characters', bad);
  }
  assert.match(nameSyntaxError('dash-ed')!.message, /"-"/);
});

test("reserved: every game's built-in players, in any case", async () => {
  const reserved = await reservedNames();
  for (const game of (await loadGames()).values()) {
    for (const n of Object.keys(game.bots.builtin)) assert.ok(reserved.has(n.toLowerCase()), `${game.id}: ${n}`);
  }
  for (const n of ['Dummy', 'DUMMY', 'demo', 'nUlL']) assert.equal((await nameRuleError(n))?.problem, 'reserved', n);
  assert.equal(await nameRuleError('Dummy2'), null);
});

test('offensive words: the built-in list and the configured ones, as substrings, any case', async () => {
  assert.equal((await nameRuleError('xFUCKx'))?.problem, 'offensive');
  assert.equal(await nameRuleError('myBadWord'), null, 'not refused without the configured list');
  assert.equal((await nameRuleError('myBadWord', ['badword']))?.problem, 'offensive');
});

test('over HTTP: too long, bad characters, reserved and offensive names are refused with a reason', async () => {
  const u = await registerUser(api.app);
  const cases: [string, RegExp][] = [
    ['ThirteenChars', /too long/],
    ['bad-name', /characters other than/],
    ['Dummy', /reserved/],
    ['demo', /reserved/],
    ['zorglub_7', /not allowed/],
  ];
  for (const [name, re] of cases) {
    const res = await submitJson(api.app, u, bot(name));
    assert.equal(res.statusCode, 400, name);
    assert.match(res.json().message, re, name);
  }
  assert.equal(await api.db.submission.count(), 0, 'nothing stored');
});

test('the first submission claims a name; the owner resubmits (new versions); another user cannot take it in any case', async () => {
  const ana = await registerUser(api.app);
  const bob = await registerUser(api.app);
  const first = await submitJson(api.app, ana, bot('Gimli'));
  assert.equal(first.statusCode, 202);
  assert.equal(first.json().version, 1);
  const second = await submitJson(api.app, ana, bot('Gimli', 'moria', ' /* v2 */ '));
  assert.equal(second.statusCode, 202);
  assert.equal(second.json().version, 2);
  assert.equal(second.json().player, 'Gimli');

  for (const name of ['Gimli', 'GIMLI', 'gimli']) {
    const res = await submitJson(api.app, bob, bot(name));
    assert.equal(res.statusCode, 409, name);
    assert.match(res.json().message, /taken by another user/);
  }
  // Another game does not make the name free for another user either.
  const games = [...(await loadGames()).keys()].filter((g) => g !== 'moria');
  if (games.length > 0) {
    const res = await submitJson(api.app, bob, bot('gimli', games[0]), games[0]);
    assert.equal(res.statusCode, 409);
  }
  // Case-insensitive collision for the owner: the same name, one player row.
  const third = await submitJson(api.app, ana, bot('GIMLI'));
  assert.equal(third.statusCode, 202);
  assert.equal(third.json().version, 3);
  assert.equal(await api.db.playerName.count({ where: { nameLower: 'gimli' } }), 1);
});

test('a locked name (a submission under it qualified) refuses every further submission, its owner included', async () => {
  const ana = await registerUser(api.app);
  const bob = await registerUser(api.app);
  const res = await submitJson(api.app, ana, bot('Balin'));
  assert.equal(res.statusCode, 202);
  const id = res.json().id as number;
  // What the recorder does when the gate accepts it.
  await api.db.submission.update({ where: { id }, data: { status: 'qualified', finishedAt: new Date() } });
  const sub = await api.db.submission.findUniqueOrThrow({ where: { id } });
  await api.db.playerName.update({ where: { id: sub.playerId }, data: { locked: true, lockedAt: new Date(), qualifiedSubmissionId: id } });

  const again = await submitJson(api.app, ana, bot('Balin'));
  assert.equal(again.statusCode, 409);
  assert.match(again.json().message, /name locked/);
  assert.equal(again.json().code, 'name-locked');
  const other = await submitJson(api.app, bob, bot('balin'));
  assert.equal(other.statusCode, 409);
  await assert.rejects(
    checkNameForSubmission(api.db, { name: 'BALIN', game: 'moria', userId: ana.id }),
    (e: unknown) => e instanceof NameError && e.problem === 'locked',
  );
  assert.equal(await api.db.submission.count({ where: { playerId: sub.playerId } }), 1, 'the qualified submission stays alone');
});

test('races: concurrent uploads under one new name get distinct versions; two users racing for a name, one wins', async () => {
  const ana = await registerUser(api.app);
  const bob = await registerUser(api.app);
  const results = await Promise.all([1, 2, 3, 4].map((i) => submitJson(api.app, ana, bot('Racer', 'moria', ` /* ${i} */ `))));
  assert.deepEqual(results.map((r) => r.statusCode), [202, 202, 202, 202]);
  assert.deepEqual(results.map((r) => r.json().version as number).sort(), [1, 2, 3, 4]);
  const duel = await Promise.all([submitJson(api.app, ana, bot('Duel')), submitJson(api.app, bob, bot('duel'))]);
  assert.deepEqual(duel.map((r) => r.statusCode).sort(), [202, 409]);
  assert.match(duel.find((r) => r.statusCode === 409)!.json().message, /taken/);
});
