// Player names: 1-12 of [A-Za-z0-9_], unique
// across users ignoring case, built-in names reserved, offensive words
// refused, the owner may resubmit until the name is locked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameSyntaxError, nameRuleError, reservedNames, checkNameForSubmission, NameError } from '../../src/domain/names.ts';
import { loadGames } from '../../src/games/registry.ts';
import { startTestApi, registerUser, bot, submitJson } from '../helpers/app.ts';

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
  // In Spanish: the same codes, the messages translated with the values the English one gives.
  const spanish: [string, RegExp][] = [
    ['ThirteenChars', /^el nombre de jugador "ThirteenChars" es demasiado largo: 13 caracteres, como máximo 12$/],
    ['bad-na me', /^el nombre de jugador "bad-na me" tiene caracteres que no son A-Z a-z 0-9 _: "-", " "$/],
    ['Dummy', /^el nombre de jugador "Dummy" está reservado \(es un jugador predefinido\): elige otro$/],
    ['zorglub_7', /^el nombre de jugador "zorglub_7" no está permitido: elige otro$/],
  ];
  for (const [name, re] of spanish) {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...u.auth, 'accept-language': 'es' },
      payload: { game: 'moria', source: bot(name) },
    });
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
  assert.deepEqual(
    results.map((r) => r.statusCode),
    [202, 202, 202, 202],
  );
  assert.deepEqual(results.map((r) => r.json().version as number).sort(), [1, 2, 3, 4]);
  const duel = await Promise.all([submitJson(api.app, ana, bot('Duel')), submitJson(api.app, bob, bot('duel'))]);
  assert.deepEqual(duel.map((r) => r.statusCode).sort(), [202, 409]);
  assert.match(duel.find((r) => r.statusCode === 409)!.json().message, /taken/);
});

// ---- how long a claim holds: for good after self-play, else NAME_HOLD_HOURS (24 h by default)

const HOUR = 3600_000;

/** What the recorder leaves after a gate rejected a submission (the tests' app has no queue, so rows stay queued). */
async function rejectAged(id: number, hoursAgo: number) {
  await api.db.submission.update({
    where: { id },
    data: { status: 'rejected', reason: 'compile error: test', finishedAt: new Date(), createdAt: new Date(Date.now() - hoursAgo * HOUR) },
  });
}

test('a rejected claim holds the name for 24 h after its latest submission, then another user takes it and the old row is tombstoned', async () => {
  const ana = await registerUser(api.app);
  const bob = await registerUser(api.app);
  const first = await submitJson(api.app, ana, bot('Frodo'));
  assert.equal(first.statusCode, 202);
  await rejectAged(first.json().id, 23);
  const early = await submitJson(api.app, bob, bot('frodo'));
  assert.equal(early.statusCode, 409);
  assert.equal(early.json().code, 'name-taken');
  assert.match(early.json().message, /held until \d{4}-\d\d-\d\d \d\d:\d\d UTC unless a bot under it passes self-play/);
  // The hold in Catalan (the name as typed, the holder's spelling, the hold's end): what the submit page shows.
  const inCatalan = await api.app.inject({
    method: 'POST',
    url: '/api/submissions?lang=ca',
    headers: bob.auth,
    payload: { game: 'moria', source: bot('frodo') },
  });
  assert.equal(inCatalan.json().code, 'name-taken');
  assert.match(
    inCatalan.json().message,
    /^el nom de jugador "frodo" ja és d'un altre usuari \(com a "Frodo"; [^)]*\), i el té reservat fins al \d{4}-\d\d-\d\d \d\d:\d\d UTC si abans cap jugador amb aquest nom no supera la partida contra si mateix: tria'n un altre$/,
  );

  await rejectAged(first.json().id, 25);
  const late = await submitJson(api.app, bob, bot('frodo'));
  assert.equal(late.statusCode, 202, late.body);
  assert.equal(late.json().player, 'frodo');
  assert.equal(late.json().version, 1);
  const old = await api.db.playerName.findFirstOrThrow({ where: { ownerId: ana.id } });
  assert.ok(old.releasedAt, 'the expired row is released');
  assert.match(old.nameLower, /^released:\d+:frodo$/);
  const kept = await api.db.submission.findUniqueOrThrow({ where: { id: first.json().id } });
  assert.equal(kept.playerId, old.id, "ana's old version stays on record under her old row");
  // Now bob holds it: ana is the one refused.
  const back = await submitJson(api.app, ana, bot('Frodo'));
  assert.equal(back.statusCode, 409);
  assert.match(back.json().message, /taken by another user/);
});

test("the owner's own expired claim is still theirs until someone else takes it", async () => {
  const ana = await registerUser(api.app);
  const first = await submitJson(api.app, ana, bot('Pippin'));
  await rejectAged(first.json().id, 72);
  const again = await submitJson(api.app, ana, bot('Pippin', 'moria', ' /* v2 */ '));
  assert.equal(again.statusCode, 202);
  assert.equal(again.json().version, 2);
  assert.equal(await api.db.playerName.count({ where: { ownerId: ana.id } }), 1);
});

test('a name whose submission passed self-play is held for good; one still being judged is held too', async () => {
  const ana = await registerUser(api.app);
  const bob = await registerUser(api.app);
  const sam = await submitJson(api.app, ana, bot('Samwise'));
  await rejectAged(sam.json().id, 24 * 60);
  const row = await api.db.playerName.findFirstOrThrow({ where: { nameLower: 'samwise' } });
  await api.db.playerName.update({ where: { id: row.id }, data: { heldAt: new Date(Date.now() - 24 * 59 * HOUR) } });
  const res = await submitJson(api.app, bob, bot('Samwise'));
  assert.equal(res.statusCode, 409);
  assert.doesNotMatch(res.json().message, /held until/);

  const judging = await submitJson(api.app, ana, bot('Merry'));
  await api.db.submission.update({ where: { id: judging.json().id }, data: { status: 'compiling', createdAt: new Date(Date.now() - 48 * HOUR) } });
  assert.equal((await submitJson(api.app, bob, bot('Merry'))).statusCode, 409);
  // The pure check, with the time given instead of read: the hold counts from the latest submission.
  await rejectAged(judging.json().id, 48);
  const { id: merryId } = await api.db.playerName.findFirstOrThrow({ where: { nameLower: 'merry' } });
  const last = (await api.db.submission.findUniqueOrThrow({ where: { id: judging.json().id } })).createdAt.getTime();
  await assert.rejects(
    checkNameForSubmission(api.db, { name: 'Merry', game: 'moria', userId: bob.id, holdHours: 5, now: new Date(last + 5 * HOUR - 1000) }),
    /taken/,
  );
  assert.deepEqual(await checkNameForSubmission(api.db, { name: 'Merry', game: 'moria', userId: bob.id, holdHours: 5, now: new Date(last + 5 * HOUR) }), {
    playerId: null,
    release: [merryId],
  });
});

test('NAME_HOLD_HOURS sets the hold', async () => {
  const short = await startTestApi({ NAME_HOLD_HOURS: '2' });
  const ana = await registerUser(short.app);
  const bob = await registerUser(short.app);
  const first = await submitJson(short.app, ana, bot('Gollum'));
  await short.db.submission.update({ where: { id: first.json().id }, data: { status: 'rejected', createdAt: new Date(Date.now() - 3 * HOUR) } });
  assert.equal((await submitJson(short.app, bob, bot('Gollum'))).statusCode, 202);
});

test('races: two users claiming one free name in two games, or one expired name, have one winner', async () => {
  const games = [...(await loadGames()).keys()];
  const [ana, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(() => registerUser(api.app)));
  for (let round = 0; round < 2; round++) {
    const name = `Twin${round}`;
    const duel = await Promise.all([submitJson(api.app, ana!, bot(name, games[0]), games[0]), submitJson(api.app, bob!, bot(name, games[1]), games[1])]);
    assert.deepEqual(duel.map((r) => r.statusCode).sort(), [202, 409], `round ${round}: ${duel.map((r) => r.body).join(' | ')}`);
    assert.equal(new Set((await api.db.playerName.findMany({ where: { nameLower: name.toLowerCase() } })).map((p) => p.ownerId)).size, 1);

    // The winner's claim expires; two others race for it.
    const winner = duel.find((r) => r.statusCode === 202)!;
    await rejectAged(winner.json().id, 30);
    const race = await Promise.all([submitJson(api.app, carol!, bot(name)), submitJson(api.app, dave!, bot(name))]);
    assert.deepEqual(race.map((r) => r.statusCode).sort(), [202, 409], `round ${round}: ${race.map((r) => r.body).join(' | ')}`);
    const live = await api.db.playerName.findMany({ where: { nameLower: name.toLowerCase() } });
    assert.equal(live.length, 1);
    assert.ok([carol!.id, dave!.id].includes(live[0]!.ownerId));
  }
});
