// In Chromium, through the pages as a student uses them: sign up,
// submit a bot and watch the verdict arrive live, open a gate match and step
// through it, download its replay, find the player on the leaderboard and
// its rating chart; the same pages on a phone and their weight. The whole
// judge runs: Postgres, Redis, the recorder and a real match runner.
//
// The gate plays Null (not Dummy) with short matches, so that Walker (a test player)
// surely qualifies (as in submit-pages.test.ts); the rules are the same.
// The tests run in order and share one logged-in browser context.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { decodeReplay } from '../../../src/match/replay-io.ts';
import { scheduleRanked } from '../../../src/jobs/scheduler/ranked.ts';
import { initialRating } from '../../../src/domain/ratings/index.ts';
import { botAs, TEST_GATE_CONFIG } from '../../helpers/judge.ts';
import { waitFor } from '../../helpers/queue.ts';
import { overflow, pageWeight, startSite, type Site, type SitePage } from '../../helpers/site.ts';

const PHONE = { width: 390, height: 844 };
const WEIGHT_LIMIT = 300 * 1024;
const USER = 'ada';
const PASSWORD = 'correct horse battery';
const BOT = 'Champ';

let site: Site;
let page: SitePage;
let context: BrowserContext;
/** Filled as the tests go: the qualified submission and one of its gate matches. */
let submissionId = 0;
let gateMatchId = 0;

before(async () => {
  site = await startSite({ gate: { opponent: 'Null', config: TEST_GATE_CONFIG } });
  page = await site.newPage();
  context = page.context();
});
after(async () => {
  await site?.close();
});

/** Walker (test/fixtures/bots/moria, no copy of a shipped player) under another PLAYER_NAME, as a user would upload it. */
const walkerAs = (name: string, edit?: (s: string) => string) => ({
  name: `${name}.ts`,
  mimeType: 'text/plain',
  buffer: Buffer.from(botAs('Walker', name, edit)),
});

const viewer = (p: Page) => p.locator('[data-viewer]');

/** Waits until the viewer shows round `round` (it draws on the next animation frame). */
async function atRound(p: Page, round: number | string, what: string) {
  try {
    await p.locator(`[data-viewer][data-round="${round}"]`).waitFor({ timeout: 5000 });
  } catch {
    assert.fail(`${what}: the viewer shows round ${await viewer(p).getAttribute('data-round')}, not ${round}`);
  }
}

test('sign up: a short password is an announced error on the field; then the account is made and the nav shows its name', async () => {
  // A form with errors is answered with 400 on purpose (as the API would); Chromium logs that as a console error.
  page.expectHttpError(/\/signup$/, 400);
  await page.goto('/signup');
  await page.getByLabel('Username').fill(USER);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.waitForLoadState();

  const summary = page.getByRole('alert');
  assert.equal(await summary.count(), 1);
  assert.equal(await summary.getAttribute('id'), 'form-errors');
  assert.match((await summary.textContent()) ?? '', /There is a problem[\s\S]*Password: .*at least \d+ characters/i);
  const password = page.getByLabel('Password');
  assert.equal(await password.getAttribute('aria-invalid'), 'true');
  assert.equal(await password.inputValue(), '', 'the password is never sent back');
  assert.equal(await page.getByLabel('Username').inputValue(), USER, 'the username is kept');
  assert.equal(await page.getByLabel('Username').getAttribute('aria-invalid'), null);
  // The field's error is tied to it: its accessible description says what is wrong.
  const described = (await password.getAttribute('aria-describedby')) ?? '';
  assert.ok(described.split(' ').includes('f-password-error'), described);
  assert.match((await page.locator('#f-password-error').textContent()) ?? '', /at least \d+ characters/);
  // The summary's link reaches the field by keyboard.
  const link = summary.getByRole('link', { name: /Password/ });
  assert.equal(await link.getAttribute('href'), '#f-password');
  await link.focus();
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('href')), '#f-password', 'the link takes the focus');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#f-password$/);
  assert.equal(await page.evaluate('document.activeElement?.id'), 'f-password', 'following the link puts the focus in the field');

  await password.fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.waitForURL('**/submit');
  const nav = page.getByRole('navigation', { name: 'Main' });
  assert.equal(await nav.getByRole('link', { name: USER, exact: true }).count(), 1, 'the nav names the user');
  assert.equal(await nav.getByRole('link', { name: 'Log in' }).count(), 0);
  assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
  assert.deepEqual(page.errors, []);
});

test('submit: a refused form is shown in place with the file still chosen (no game, no PLAYER_NAME, a file that does not parse), on the right field', async () => {
  page.expectHttpError(/\/submit$/, 400);
  await page.goto('/submit');
  // A marker on the window dies with any navigation: the refusals are shown in the same document.
  await page.evaluate('window.__stillHere = true');
  const noName = {
    name: 'NoName.ts',
    mimeType: 'text/plain',
    buffer: Buffer.from('export default class extends Player { play() {} }\n'),
  };
  // A string, not a function: tsx would wrap a function's inner names in its own helper (__name), unknown in the page.
  const chosenFile = () => page.evaluate("document.getElementById('f-file')?.files?.[0]?.name ?? null") as Promise<string | null>;
  const submitAndSee = async (message: RegExp, field: 'game' | 'file') => {
    await page.getByRole('button', { name: 'Submit' }).click();
    const summary = page.getByRole('alert');
    await summary.filter({ hasText: message }).waitFor();
    assert.match(page.url(), /\/submit$/, 'the form again, not a submission');
    assert.equal(await page.evaluate('window.__stillHere'), true, 'not reloaded');
    assert.equal(await summary.count(), 1);
    assert.equal(await summary.getByRole('link').first().getAttribute('href'), `#f-${field}`);
    const control = page.getByLabel(field === 'game' ? 'Game' : 'Bot file');
    assert.equal(await control.getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator(`#f-${field}-error`).textContent()) ?? '', message);
    assert.equal(await page.evaluate('document.activeElement?.id'), 'form-errors', 'the summary has the focus, as on a served page');
    assert.equal(await page.getByRole('button', { name: 'Submit' }).isEnabled(), true);
  };

  // No game chosen and none in the file: the error is on the game; the file stays chosen.
  await page.getByLabel('Bot file').setInputFiles(noName);
  await page.locator('#dropzone-status').filter({ hasText: 'Chosen: NoName.ts' }).waitFor();
  await submitAndSee(/choose the game your bot plays/, 'game');
  assert.equal(await chosenFile(), 'NoName.ts', 'the file is still chosen');
  assert.match((await page.locator('#dropzone-status').textContent()) ?? '', /Chosen: NoName\.ts/);
  assert.doesNotMatch((await page.locator('#f-file-hint').textContent()) ?? '', /choose it again/);
  // Choosing the game and submitting again sends the same file, not chosen again: now its own error.
  await page.getByLabel('Game').selectOption('moria');
  await submitAndSee(/no player name in the file/, 'file');
  assert.equal(await page.getByLabel('Game').getAttribute('aria-invalid'), null, 'the game is no longer in error');
  assert.equal(await page.getByLabel('Game').inputValue(), 'moria', 'the game is kept');
  assert.equal(await chosenFile(), 'NoName.ts');

  // Another file, chosen on the re-rendered form (its drop zone and input still work): a compile error.
  const oops = walkerAs('Oops', (s) => s + '\nconst x = ;\n');
  await page.getByLabel('Bot file').setInputFiles(oops);
  await page.locator('#dropzone-status').filter({ hasText: 'Chosen: Oops.ts' }).waitFor();
  await submitAndSee(/compile error: Oops\.ts:\d+:\d+/, 'file');
  assert.equal(await chosenFile(), 'Oops.ts');
  assert.deepEqual(page.errors, []);
});

test('submit without JavaScript: a refused form still works, and asks to choose the file again', async () => {
  const noJs = await site.newPage({ javaScriptEnabled: false });
  try {
    noJs.expectHttpError(/\/submit$/, 400);
    await noJs.context().addCookies(await context.cookies());
    await noJs.goto('/submit');
    await noJs.getByLabel('Bot file').setInputFiles({
      name: 'NoName.ts',
      mimeType: 'text/plain',
      buffer: Buffer.from('export default class extends Player { play() {} }\n'),
    });
    await noJs.getByRole('button', { name: 'Submit' }).click();
    await noJs.waitForLoadState();
    assert.match((await noJs.getByRole('alert').textContent()) ?? '', /choose the game your bot plays/);
    assert.match((await noJs.locator('#f-file-hint').textContent()) ?? '', /You chose NoName\.ts: choose it again/);
  } finally {
    await noJs.context().close();
  }
});

test('submit a player: the submission page follows the gate live, pending to done without reloading, to "qualified"', { timeout: 240_000 }, async () => {
  // Hold the runners (the checks' lane and the matches') until the page is open, so the page surely sees every step change.
  await site.judge.queues.checks.pause();
  await site.judge.queues.matches.pause();
  try {
    await page.goto('/submit');
    await page.getByLabel('Game').selectOption('moria');
    await page.getByLabel('Bot file').setInputFiles(walkerAs(BOT));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/submissions\/\d+$/);
    submissionId = Number(/\/submissions\/(\d+)$/.exec(page.url())![1]);
    assert.equal(await page.locator('#gate-live').getAttribute('data-final'), 'false');
    assert.equal(await page.locator('#verdict').getAttribute('data-status'), 'pending');
    // Compiling has begun (queued or running), nothing has been played.
    assert.match((await page.locator('li[data-step="compile"]').getAttribute('data-state')) ?? '', /^(pending|running)$/);
    for (const step of ['selfplay', 'dummy-0', 'dummy-3'])
      assert.equal(await page.locator(`li[data-step="${step}"]`).getAttribute('data-state'), 'pending', step);
  } finally {
    await site.judge.queues.checks.resume();
    await site.judge.queues.matches.resume();
  }
  // From here the page must change by itself: a marker on the window dies with any reload.
  let navigations = 0;
  const onNav = (f: any) => {
    if (f === page.mainFrame()) navigations++;
  };
  page.on('framenavigated', onNav);
  // A string, not a function: tsx would wrap a function's inner names in its own helper (__name), unknown in the page.
  await page.evaluate(`(() => {
    window.__stillHere = true;
    window.__states = {};
    window.__announced = [];
    const record = () => {
      for (const li of document.querySelectorAll('#gate-timeline [data-step]')) {
        const seen = (window.__states[li.dataset.step] ??= []);
        if (seen.at(-1) !== li.dataset.state) seen.push(li.dataset.state);
      }
      const said = document.getElementById('gate-announcer')?.textContent ?? '';
      if (said && window.__announced.at(-1) !== said) window.__announced.push(said);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);

  await page.locator('#verdict[data-status="qualified"]').waitFor({ timeout: 200_000 });
  page.off('framenavigated', onNav);
  assert.equal(navigations, 0, 'the page did not navigate');
  assert.equal(await page.evaluate(() => (globalThis as any).__stillHere), true, 'the same document: not reloaded');
  assert.equal(await page.locator('#gate-live').getAttribute('data-final'), 'true');
  assert.equal(await page.locator('#submission-status').getAttribute('data-status'), 'qualified');
  const states = (await page.evaluate(() => (globalThis as any).__states)) as Record<string, string[]>;
  assert.match(states.compile?.[0] ?? '', /^(pending|running)$/);
  assert.equal(states.compile?.at(-1), 'passed', JSON.stringify(states));
  assert.equal(states.selfplay?.at(-1), 'passed', JSON.stringify(states));
  for (let i = 0; i < 4; i++) {
    const seen = states[`dummy-${i}`]!;
    assert.equal(seen[0], 'pending', JSON.stringify(states));
    assert.equal(seen.at(-1), 'won', JSON.stringify(states));
  }
  // The live region said what happened, ending with the verdict.
  const announced = (await page.evaluate(() => (globalThis as any).__announced)) as string[];
  assert.ok(announced.length >= 1, 'something was announced');
  assert.match(announced.at(-1)!, /Verdict: qualified\./);
  assert.match(announced.join(' '), /Match \d against Null: won\./);
  assert.equal(await page.locator('#gate-announcer').getAttribute('aria-live'), 'polite');
  assert.match((await page.locator('#verdict').textContent()) ?? '', /Qualified\./);
  assert.equal(await page.locator('#gate-refresh').isHidden(), true, 'no Refresh link once final');
  assert.deepEqual(page.errors, []);
});

test('watch a gate match from the timeline: step (button and →), jump to the end, shortcuts dialog, scrub, play; the result table and the replay download', async () => {
  assert.ok(submissionId > 0, 'needs the qualified submission');
  const step = page.locator('li[data-step="dummy-0"]');
  gateMatchId = Number(await step.getAttribute('data-match-id'));
  assert.ok(gateMatchId > 0, 'dummy-0 names its match');
  await step.getByRole('link', { name: /^Watch match 1 against null \(match \d+\)$/i }).click();
  await page.waitForURL(`**/matches/${gateMatchId}`);
  const v = viewer(page);
  await page.locator('[data-viewer][data-ready="true"]').waitFor();
  assert.equal(await v.getAttribute('data-game'), 'moria');
  assert.equal(await v.getAttribute('data-rounds'), String(TEST_GATE_CONFIG.nb_rounds));
  assert.equal(await v.getAttribute('data-round'), '0');
  assert.equal(await v.getAttribute('data-replay'), `/api/matches/${gateMatchId}/replay`);

  await page.getByRole('button', { name: 'Step forward' }).click();
  await atRound(page, 1, 'Step forward');
  await page.keyboard.press('ArrowRight');
  await atRound(page, 2, '→');
  await page.getByRole('button', { name: 'Step back' }).click();
  await atRound(page, 1, 'Step back');
  await page.getByRole('button', { name: 'Jump to end' }).click();
  await atRound(page, TEST_GATE_CONFIG.nb_rounds, 'Jump to end');
  const caption = page.locator('table[data-scoreboard] caption');
  const winnerSeat = await page.locator('table[data-scoreboard] th[data-col="player"][data-winner="true"]').getAttribute('data-seat');
  assert.match((await caption.textContent()) ?? '', new RegExp(`Scoreboard · final: ${BOT} \\(seat ${winnerSeat}\\) wins`));
  assert.equal(await page.locator(`table[data-scoreboard] th[data-col="player"][data-winner="true"]`).textContent(), BOT);
  await page.keyboard.press('Home');
  await atRound(page, 0, 'Home');
  assert.match((await caption.textContent()) ?? '', /Scoreboard · round 0/);

  // h opens the shortcuts; Esc closes them and gives the keys back to the viewer.
  await page.keyboard.press('h');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  assert.match((await dialog.textContent()) ?? '', /Play \/ pause/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await v.getAttribute('data-round'), '0', 'keys do not move the viewer while the dialog is open');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await dialog.waitFor();
  assert.equal(await page.evaluate('document.activeElement?.closest("dialog[data-help]") !== null'), true, 'the focus is in the open dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(
    await page.evaluate('document.activeElement?.getAttribute("aria-label")'),
    'Keyboard shortcuts',
    'the focus goes back to the button that opened it',
  );

  // The slider: set it, then move it by keyboard.
  const slider = page.getByRole('slider', { name: 'Round' });
  await slider.fill('10');
  await atRound(page, 10, 'the slider at 10');
  assert.equal(await page.locator('output[data-round-indicator]').textContent(), `Round 10 / ${TEST_GATE_CONFIG.nb_rounds}`);
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await atRound(page, 11, '→ on the slider');
  assert.equal(await slider.inputValue(), '11');

  // Play at the fastest speed runs to the end by itself, then stops.
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('32');
  assert.equal(await v.getAttribute('data-speed'), '32');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  assert.equal(await v.getAttribute('data-playing'), 'true');
  assert.equal(await page.getByRole('button', { name: 'Pause' }).count(), 1);
  await page.locator('[data-viewer][data-playing="false"]').waitFor({ timeout: 10_000 });
  assert.equal(await v.getAttribute('data-round'), String(TEST_GATE_CONFIG.nb_rounds), 'played to the end');

  // The round shown is in the address (#round=N, once it settles), and such a link opens at that round.
  await page.waitForURL(new RegExp(`/matches/${gateMatchId}#round=${TEST_GATE_CONFIG.nb_rounds}$`));
  const deep = await site.newPage();
  try {
    await deep.context().addCookies(await context.cookies());
    await deep.goto(`/matches/${gateMatchId}#round=7`);
    await deep.locator('[data-viewer][data-ready="true"]').waitFor();
    await atRound(deep, 7, '#round=7');
    await deep.evaluate('location.hash = "#round=3"');
    await atRound(deep, 3, 'the hash changed to #round=3');
    assert.deepEqual(deep.errors, []);
  } finally {
    await deep.context().close();
  }

  // The result and the downloads.
  const rows = page.locator('table#match-result tr[data-seat]');
  assert.equal(await rows.count(), 4);
  assert.match((await page.locator('table#match-result').textContent()) ?? '', new RegExp(BOT));
  assert.equal(await page.locator('#gate-submission').getAttribute('href'), `/submissions/${submissionId}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-replay').click()]);
  const bytes = readFileSync((await download.path())!);
  assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip');
  const replay = decodeReplay(bytes);
  assert.equal(replay.game, 'moria');
  assert.deepEqual(replay.players.map((p) => p.name).sort(), [BOT, 'Null', 'Null', 'Null']);
  assert.equal(replay.rounds.at(-1)!.round, TEST_GATE_CONFIG.nb_rounds);
  // The owner may download the bot's log.
  assert.equal(await page.locator('[id^="download-log-"]').count(), 1);
  assert.deepEqual(page.errors, []);
});

test('after ranked play the leaderboard lists the player; its page has a rating chart; the home page shows it on the game card', {
  timeout: 120_000,
}, async () => {
  assert.ok(submissionId > 0, 'needs the qualified submission');
  const { db, queues } = site.judge;
  // A second qualified player (straight into the database: the gate has been shown above), so that ranked play starts.
  await site.judge.user('bea');
  const other = await db.user.findUniqueOrThrow({ where: { usernameLower: 'bea' } });
  const p = await db.playerName.create({ data: { game: 'moria', name: 'Rival', nameLower: 'rival', ownerId: other.id } });
  const s = await db.submission.create({
    data: {
      playerId: p.id,
      userId: other.id,
      game: 'moria',
      version: 1,
      source: botAs('Null', 'Rival'),
      filename: 'Rival.ts',
      sizeBytes: 10,
      status: 'qualified',
      finishedAt: new Date(),
    },
  });
  await db.playerName.update({ where: { id: p.id }, data: { locked: true, lockedAt: new Date(), qualifiedSubmissionId: s.id } });
  const r = initialRating();
  await db.rating.create({ data: { playerId: p.id, game: 'moria', mu: r.mu, sigma: r.sigma, ordinal: r.ordinal } });
  const created = await scheduleRanked({ db, queues }, { target: 1, games: ['moria'], config: { nb_rounds: 20 } });
  assert.equal(created.length, 1);
  const champ = await db.playerName.findFirstOrThrow({ where: { nameLower: BOT.toLowerCase() } });
  await waitFor('the ranked match rated', async () => (await db.ratingHistory.count({ where: { playerId: champ.id } })) > 0, 100_000, 250);

  await page.goto('/games/moria/leaderboard');
  const board = page.locator('table#leaderboard');
  assert.equal(await board.getByRole('link', { name: 'Rival' }).count(), 1);
  const link = board.getByRole('link', { name: BOT, exact: true });
  assert.equal(await link.getAttribute('href'), `/players/${BOT}?game=moria`);
  assert.equal(await board.locator('tbody tr').count(), 2);
  await link.click();
  await page.waitForURL(`**/players/${BOT}?game=moria`);
  const section = page.locator('section#game-moria');
  assert.match((await section.textContent()) ?? '', /qualified/);
  const chart = section.locator('svg#rating-chart-moria');
  assert.equal(await chart.count(), 1);
  assert.ok(await chart.isVisible(), 'the rating chart is visible');
  assert.match((await section.locator('table#rating-history-moria').textContent()) ?? '', new RegExp(String(created[0])));

  await page.goto('/');
  for (const id of ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac']) assert.equal(await page.locator(`#games article#game-${id}`).count(), 1, id);
  const card = page.locator('article#game-moria');
  assert.equal(await card.locator(`#leaderboard-moria`).getByRole('link', { name: BOT, exact: true }).count(), 1);
  assert.ok((await card.locator('#latest-moria li').count()) >= 1, 'the latest matches of Moria');
  assert.deepEqual(page.errors, []);
});

test('on a phone (390×844): the submit, submission, match, player, leaderboard and home pages do not scroll sideways; the viewer controls show', async () => {
  assert.ok(gateMatchId > 0, 'needs the gate match');
  const phone = await site.newPage(PHONE);
  try {
    await phone.context().addCookies(await context.cookies());
    for (const path of [
      '/',
      '/submit',
      `/submissions/${submissionId}`,
      '/submissions',
      '/matches',
      `/players/${BOT}`,
      '/games/moria/leaderboard',
      '/account',
      `/matches/${gateMatchId}`,
    ]) {
      const res = await phone.goto(path);
      assert.equal(res?.status(), 200, path);
      if (path.startsWith('/matches/')) await phone.locator('[data-viewer][data-ready="true"]').waitFor();
      const o = await overflow(phone);
      assert.ok(o.scrollWidth <= o.innerWidth + 1, `${path} on a phone: ${JSON.stringify(o)}`);
    }
    // The match page (the last one opened): the viewer's controls.
    for (const name of ['Jump to start', 'Step back', 'Play', 'Step forward', 'Jump to end', 'Keyboard shortcuts']) {
      const b = phone.getByRole('button', { name, exact: true });
      assert.ok(await b.isVisible(), name);
      const box = (await b.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${name}: ${JSON.stringify(box)}`);
    }
    assert.ok(await phone.getByRole('slider', { name: 'Round' }).isVisible(), 'the Round slider is visible');
    assert.equal(await phone.locator('table#match-result').isVisible(), false, 'the result waits for the end of the replay');
    await phone.getByRole('button', { name: 'Show the final result' }).click();
    assert.ok(await phone.locator('table#match-result').isVisible(), 'the result table is visible on asking');
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.context().close();
  }
});

test('page weight of the logged-in pages and a match page (HTML + CSS + JS, not the replay) stays under 300 KB', async (t) => {
  assert.ok(gateMatchId > 0, 'needs the gate match');
  const cookies = await context.cookies();
  const pages: { path: string; ready?: (p: Page) => Promise<unknown> }[] = [
    { path: '/' },
    { path: '/submit' },
    { path: `/submissions/${submissionId}` },
    { path: '/submissions' },
    { path: '/account' },
    { path: `/players/${BOT}` },
    { path: '/games/moria/leaderboard' },
    { path: '/matches' },
    { path: `/matches/${gateMatchId}`, ready: (p) => p.locator('[data-viewer][data-ready="true"]').waitFor() },
  ];
  for (const { path, ready } of pages) {
    const w = await pageWeight(site, path, { cookies, ready, exclude: /\/api\/matches\/\d+\/replay$/ });
    t.diagnostic(
      `${path}: ${w.total} bytes (${Object.entries(w.byType)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})${w.excluded ? `; replay data ${w.excluded} bytes apart` : ''}`,
    );
    assert.ok(w.byType.Document! > 0, path);
    assert.ok(w.total < WEIGHT_LIMIT, `${path}: ${w.total} bytes: ${JSON.stringify(w.urls)}`);
    if (path.startsWith('/matches/')) assert.ok(w.excluded > 0, 'the replay was fetched (and counted apart)');
    assert.deepEqual(w.errors, [], path);
  }
});
