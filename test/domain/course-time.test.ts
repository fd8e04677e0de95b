// The course's time zone (COURSE_TIME_ZONE): dates a person reads are shown
// in it with UTC beside them, dates a person types without an offset are read
// in it (daylight saving included), and a deadline in the past asks for
// confirmation on the admin page. Real Postgres, app.inject.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { formatForPeople, parseCourseInput, setCourseTimeZone, toCourseInput } from '../../src/domain/course-time.ts';
import { loadConfig } from '../../src/config.ts';
import { adminGrant } from '../../src/cli/admin.ts';
import { startTestApi, registerUser } from '../helpers/app.ts';

test('wall-clock times in Europe/Madrid, winter and summer, and the hour that does not exist', () => {
  const winter = parseCourseInput('2026-12-20T23:59', 'Europe/Madrid')!;
  assert.equal(winter.toISOString(), '2026-12-20T22:59:00.000Z');
  assert.equal(formatForPeople(winter, 'Europe/Madrid'), '2026-12-20 23:59 CET (22:59 UTC)');
  assert.equal(toCourseInput(winter, 'Europe/Madrid'), '2026-12-20T23:59');
  const summer = parseCourseInput('2026-07-01 00:30', 'Europe/Madrid')!;
  assert.equal(summer.toISOString(), '2026-06-30T22:30:00.000Z');
  assert.equal(formatForPeople(summer, 'Europe/Madrid'), '2026-07-01 00:30 CEST (2026-06-30 22:30 UTC)');
  // 02:30 on the last Sunday of March is skipped by the clocks: read as the instant an hour on.
  assert.equal(parseCourseInput('2026-03-29T02:30', 'Europe/Madrid')!.toISOString(), '2026-03-29T01:30:00.000Z');
  // An offset or Z is an instant whatever the zone; nonsense is null.
  assert.equal(parseCourseInput('2026-12-20T23:59Z', 'Europe/Madrid')!.toISOString(), '2026-12-20T23:59:00.000Z');
  assert.equal(parseCourseInput('2026-12-20T23:59+01:00', 'UTC')!.toISOString(), '2026-12-20T22:59:00.000Z');
  for (const bad of ['someday', '2026-02-30T10:00', '2026-12-20T24:10', '']) assert.equal(parseCourseInput(bad, 'Europe/Madrid'), null, bad);
  assert.equal(formatForPeople(winter, 'UTC'), '2026-12-20 22:59 UTC');
});

test('COURSE_TIME_ZONE is checked once, at start', () => {
  assert.equal(loadConfig({}).courseTimeZone, 'UTC');
  assert.equal(loadConfig({ COURSE_TIME_ZONE: 'Europe/Madrid' }).courseTimeZone, 'Europe/Madrid');
  assert.throws(() => loadConfig({ COURSE_TIME_ZONE: 'Mars/Olympus' }), /COURSE_TIME_ZONE must be an IANA time zone/);
});

const api = await startTestApi({ COURSE_TIME_ZONE: 'Europe/Madrid' });
after(() => setCourseTimeZone('UTC'));
const { app, db } = api;
const teacher = await registerUser(app, 'tz_teacher');
await adminGrant(db, 'grant', 'tz_teacher');
const form = (payload: string) =>
  app.inject({
    method: 'POST',
    url: '/admin/actions/deadline',
    headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload,
  });

test("the admin types the deadline in the course's time; every page shows it there with UTC beside it", async () => {
  const set = await form('game=moria&deadline=2030-01-02T10%3A30');
  assert.equal(set.statusCode, 303, set.body);
  assert.equal((await db.gameSetting.findUniqueOrThrow({ where: { game: 'moria' } })).submissionDeadline?.toISOString(), '2030-01-02T09:30:00.000Z');
  const admin = await app.inject({ url: '/admin', headers: { cookie: teacher.cookie } });
  assert.ok(admin.body.includes('value="2030-01-02T10:30"'), 'the field shows it as typed');
  assert.ok(admin.body.includes('2030-01-02 10:30 CET (09:30 UTC)'));
  assert.match(admin.body, /New deadline \(Europe\/Madrid; empty clears it\)/);
  // The API keeps instants.
  const api = await app.inject({ url: '/api/admin/games/moria', headers: teacher.auth });
  assert.equal(api.json().submissionDeadline, '2030-01-02T09:30:00.000Z');
  await form('game=moria&deadline=');
});

test('a deadline in the past asks for confirmation on the page, and sets nothing until it is given', async () => {
  const ask = await form('game=moria&deadline=2020-05-01T12%3A00');
  assert.equal(ask.statusCode, 409);
  assert.match(ask.body, /has already passed: submissions to moria would close at once/);
  assert.match(ask.body, /2020-05-01 12:00 CEST \(10:00 UTC\)/);
  assert.match(ask.body, /name="confirmPast" value="yes"/);
  assert.equal((await db.gameSetting.findUnique({ where: { game: 'moria' } }))?.submissionDeadline ?? null, null);
  const confirmed = await form('game=moria&deadline=2020-05-01T12%3A00&confirmPast=yes');
  assert.equal(confirmed.statusCode, 303);
  assert.equal((await db.gameSetting.findUniqueOrThrow({ where: { game: 'moria' } })).submissionDeadline?.toISOString(), '2020-05-01T10:00:00.000Z');
  await form('game=moria&deadline=');
});
