// In Chromium: the name rules as a student meets them on the submit form (a
// file that does not parse claims nothing; a claim whose submissions never
// passed self-play frees the name after its hold; one that passed holds it),
// and the pages that must fit: a match page's scoreboard with four players
// of 12-character names at 1280 px and on a phone, its final line naming the
// winner's seat, and the matches table on a phone; and Swagger UI's "Try it
// out" uploading a file.
//
// No match runner: the submissions' verdicts and the matches are written to
// the database as the recorder would write them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { decodeReplay, encodeReplay } from '../../../src/match/replay-io.ts';
import { insertMatch } from '../../helpers/app.ts';
import { botAs } from '../../helpers/judge.ts';
import { overflow, playReplay, startSite, type Site, type SitePage } from '../../helpers/site.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const HOUR = 3600_000;

let site: Site;
/** A match of four players with the widest 12-character names, its replay renamed to match. */
let matchId = 0;
let names: string[] = [];
let winnerSeat = 0;

before(async () => {
  site = await startSite({ workers: 0 });
  const replay = decodeReplay(await playReplay('moria', ['Demo', 'Dummy', 'Demo', 'Null'], { nb_rounds: 30 }));
  winnerSeat = replay.result.winner ?? 0;
  names = ['WWWWWWWWWWWW', 'MMMMMMMMMMMM', 'Wide_Name_12', 'mmmmmmmmmmmm'];
  replay.players.forEach((p, seat) => (p.name = names[seat]!));
  const final = replay.rounds.at(-1)!;
  const match = await insertMatch(site.judge.db, {
    replay: encodeReplay(replay),
    seats: names.map((name, seat) => ({ name, score: final.scores[seat] ?? 0, rank: replay.result.ranks[seat] ?? 4 })),
  });
  await site.judge.db.match.update({ where: { id: match.id }, data: { winnerSeat } });
  matchId = match.id;
  // More rows for the matches list, as many as a page shows with wide names.
  for (let i = 0; i < 5; i++) await insertMatch(site.judge.db, { seats: names.map((name, seat) => ({ name, score: 1000 * seat, rank: 4 - seat })) });
});
after(async () => {
  await site?.close();
});

async function logIn(page: Page, username: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(`password ${username}`);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForLoadState();
}

/** Submits a file through the form; returns the URL it lands on and the form's error, if any. */
async function submitForm(page: SitePage, name: string, source: string): Promise<{ url: string; error: string | null }> {
  await page.goto('/submit');
  await page.getByLabel('Game').selectOption('moria');
  await page.getByLabel('Bot file').setInputFiles({ name: `${name}.ts`, mimeType: 'text/plain', buffer: Buffer.from(source) });
  await page.getByRole('button', { name: 'Submit' }).click();
  // The form posts with fetch: either the submission's page comes, or the refusal is shown in place.
  await page.locator('#form-errors, #verdict').first().waitFor();
  const alert = page.getByRole('alert');
  return { url: page.url(), error: (await alert.count()) > 0 ? ((await alert.textContent()) ?? '').trim() : null };
}

/** What the recorder leaves once a gate rejected a submission, `hoursAgo` after it was made. */
async function rejectedHoursAgo(id: number, hoursAgo: number) {
  await site.judge.db.submission.update({
    where: { id },
    data: { status: 'rejected', reason: 'self-play: copy 1 froze', finishedAt: new Date(), createdAt: new Date(Date.now() - hoursAgo * HOUR) },
  });
}

test('names on the submit form: a file that does not parse claims nothing; a failed claim frees the name after its hold; one that passed self-play holds it', async () => {
  await site.judge.user('ana');
  await site.judge.user('bob');
  const ana = await site.newPage();
  const bob = await site.newPage();
  ana.expectHttpError(/\/submit$/, 400);
  ana.expectHttpError(/\/submit$/, 409);
  bob.expectHttpError(/\/submit$/, 400);
  bob.expectHttpError(/\/submit$/, 409);
  try {
    await logIn(ana, 'ana');
    await logIn(bob, 'bob');

    // A syntax error is the form's error at once: no version stored, the name not claimed.
    const broken = await submitForm(
      ana,
      'Aragorn',
      botAs('Walker', 'Aragorn', (s) => s + '\nconst x = ;\n'),
    );
    assert.match(broken.url, /\/submit$/);
    assert.match(broken.error ?? '', /compile error: Aragorn\.ts:\d+:\d+/);
    const taken = await submitForm(bob, 'Aragorn', botAs('Walker', 'Aragorn'));
    assert.match(taken.url, /\/submissions\/\d+$/, `bob takes the name nobody claimed: ${taken.error}`);

    // Ana's claim whose submission failed self-play holds the name 24 h after her latest submission, then it is free.
    const first = await submitForm(ana, 'Legolas', botAs('Walker', 'Legolas'));
    const firstId = Number(/\/submissions\/(\d+)$/.exec(first.url)?.[1]);
    assert.ok(firstId > 0, first.url);
    await rejectedHoursAgo(firstId, 23);
    const early = await submitForm(bob, 'Legolas', botAs('Walker', 'Legolas'));
    assert.match(early.url, /\/submit$/);
    assert.match(early.error ?? '', /taken by another user, held until .* UTC unless a bot under it passes self-play/);
    await rejectedHoursAgo(firstId, 25);
    const late = await submitForm(bob, 'Legolas', botAs('Walker', 'Legolas'));
    assert.match(late.url, /\/submissions\/\d+$/, `after the hold bob takes it: ${late.error}`);
    assert.match((await bob.locator('#submission-player').textContent()) ?? '', /Legolas/);
    const back = await submitForm(ana, 'Legolas', botAs('Walker', 'Legolas'));
    assert.match(back.error ?? '', /taken by another user/);

    // A claim whose submission passed self-play holds the name for good.
    const held = await submitForm(ana, 'Gimli', botAs('Walker', 'Gimli'));
    const heldId = Number(/\/submissions\/(\d+)$/.exec(held.url)?.[1]);
    await rejectedHoursAgo(heldId, 24 * 30);
    const row = await site.judge.db.submission.findUniqueOrThrow({ where: { id: heldId } });
    await site.judge.db.playerName.update({ where: { id: row.playerId }, data: { heldAt: new Date(Date.now() - 24 * 29 * HOUR) } });
    const refused = await submitForm(bob, 'Gimli', botAs('Walker', 'Gimli'));
    assert.match(refused.error ?? '', /taken by another user: choose another name/);
    assert.deepEqual([...ana.errors, ...bob.errors], []);
  } finally {
    await ana.context().close();
    await bob.context().close();
  }
});

/** The element's own horizontal overflow (a scroll bar inside it). */
function innerOverflow(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((els: any[]) => els.map((e) => ({ scrollWidth: e.scrollWidth as number, clientWidth: e.clientWidth as number })));
}

for (const [label, size] of [
  ['1280 px', DESKTOP],
  ['a phone (390 px)', PHONE],
] as const) {
  test(`a match page at ${label}: the scoreboard fits four 12-character names without scrolling; the final line names the winner's seat`, async () => {
    const page = await site.newPage(size);
    try {
      await page.goto(`/matches/${matchId}`);
      const v = page.locator('[data-viewer]');
      await v.and(page.locator('[data-ready="true"]')).waitFor();
      await page.getByRole('button', { name: 'Jump to end' }).click();
      const caption = page.locator('table[data-scoreboard] caption');
      await caption.filter({ hasText: 'final:' }).waitFor();
      assert.equal(((await caption.textContent()) ?? '').replace(/\s+/g, ' ').trim(), `Scoreboard · final: ${names[winnerSeat]} (seat ${winnerSeat}) wins`);
      const page_ = await overflow(page);
      assert.ok(page_.scrollWidth <= page_.innerWidth + 1, `the page: ${JSON.stringify(page_)}`);
      for (const selector of ['.viewer-side', '.viewer-scores .table-wrap', 'table[data-scoreboard]', '#match-result']) {
        for (const o of await innerOverflow(page, selector === '#match-result' ? '.table-wrap:has(#match-result)' : selector)) {
          assert.ok(o.scrollWidth <= o.clientWidth, `${selector} at ${size.width} px scrolls sideways: ${JSON.stringify(o)}`);
        }
      }
      // The table is inside the page's width, every player's column too.
      const heads = page.locator('table[data-scoreboard] th[data-col="player"]');
      assert.equal(await heads.count(), 4);
      for (const box of await heads.evaluateAll((els: any[]) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
        assert.ok(box.left >= 0 && box.right <= size.width + 1, JSON.stringify(box));
      }
      // A name that is cut short still has its whole text for a pointer and a screen reader.
      for (const [seat, name] of names.entries()) {
        assert.equal((await heads.nth(seat).textContent())?.trim(), name);
      }
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}

test("a match page at 1366×900 shows the viewer's controls without scrolling, and its final result only at the replay's end (or on asking)", async () => {
  const page = await site.newPage({ width: 1366, height: 900 });
  try {
    await page.goto(`/matches/${matchId}`);
    await page.locator('[data-viewer][data-ready="true"]').waitFor();
    for (const control of [page.getByRole('button', { name: 'Play', exact: true }), page.getByRole('slider', { name: 'Round' })]) {
      const box = (await control.boundingBox())!;
      assert.ok(box.y >= 0 && box.y + box.height <= 900, `in the first screen: ${JSON.stringify(box)}`);
    }
    assert.equal(await page.evaluate('window.scrollY'), 0);
    // While the replay has not reached its end, the ranks wait: not in the viewer, not in the table under it.
    assert.equal(await page.locator('table#match-result').isVisible(), false, 'the result table waits');
    assert.equal(await page.locator('table[data-scoreboard] .viewer-rank').count(), 0);
    assert.match((await page.locator('#result-held').textContent()) ?? '', /shows when the replay reaches its end/);
    await page.getByRole('button', { name: 'Step forward' }).click();
    assert.equal(await page.locator('table#match-result').isVisible(), false, 'still playing');
    await page.getByRole('button', { name: 'Jump to end' }).click();
    await page.locator('table#match-result').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#result-held').count(), 0);
    assert.equal(await page.locator('table[data-scoreboard] .viewer-rank').count(), 4, 'the ranks at the end');

    // Asked for: the button shows it at once. Opened at the last round (#round=N), it is there.
    await page.goto('/matches');
    await page.goto(`/matches/${matchId}#round=5`);
    await page.locator('[data-viewer][data-ready="true"]').waitFor();
    assert.equal(await page.locator('table#match-result').isVisible(), false);
    await page.getByRole('button', { name: 'Show the final result' }).click();
    assert.equal(await page.locator('table#match-result').isVisible(), true);
    const rounds = await page.locator('[data-viewer]').getAttribute('data-rounds');
    const atEnd = await site.newPage({ width: 1366, height: 900 });
    try {
      await atEnd.goto(`/matches/${matchId}#round=${rounds}`);
      await atEnd.locator('[data-viewer][data-ready="true"]').waitFor();
      assert.equal(await atEnd.locator('table#match-result').isVisible(), true);
      assert.equal(await atEnd.locator('#result-held').count(), 0);
    } finally {
      await atEnd.context().close();
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('on a phone (390×844) the menu takes two lines at most: brand and languages, then the links in one row that scrolls sideways', async () => {
  const page = await site.newPage(PHONE);
  try {
    await page.goto('/matches');
    const header = (await page.locator('header.site').boundingBox())!;
    const line = (await page.locator('header.site nav[aria-label] a').first().boundingBox())!.height;
    assert.ok(header.height <= 2 * line + 40, `the header is ${header.height} px high (a line ${line} px)`);
    const links = page.locator('header.site nav:not(.site-lang) a');
    const tops = new Set(await links.evaluateAll((els: any[]) => els.map((e) => Math.round(e.getBoundingClientRect().top))));
    assert.equal(tops.size, 1, `the menu's links are on one row: ${[...tops].join(', ')}`);
    const o = await overflow(page);
    assert.ok(o.scrollWidth <= o.innerWidth + 1, `the page does not scroll sideways: ${JSON.stringify(o)}`);
    // The last link is reached by scrolling the row, not the page.
    await links.last().scrollIntoViewIfNeeded();
    assert.ok(await links.last().isVisible());
    assert.equal(await page.evaluate('window.scrollX'), 0);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('the matches table fits a phone: no sideways scrolling of the page or the table', async () => {
  const page = await site.newPage(PHONE);
  try {
    await page.goto('/matches');
    assert.ok((await page.locator('table.matches tbody tr').count()) >= 6);
    const o = await overflow(page);
    assert.ok(o.scrollWidth <= o.innerWidth + 1, `/matches: ${JSON.stringify(o)}`);
    for (const t of await innerOverflow(page, '.table-wrap:has(table.matches)')) {
      assert.ok(t.scrollWidth <= t.clientWidth, `the matches table scrolls sideways: ${JSON.stringify(t)}`);
    }
    // Each row still says what each value is (the column's name goes with it when the table is stacked).
    const first = page.locator('table.matches tbody tr').first();
    assert.match((await first.textContent()) ?? '', /WWWWWWWWWWWW/);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('Swagger UI: "Try it out" on POST /api/submissions sends a file and its game, and shows 202 with its Location', async () => {
  await site.judge.user('swagger');
  const page = await site.newPage(DESKTOP);
  try {
    await logIn(page, 'swagger');
    await page.goto('/docs');
    const op = page.locator('#operations-submissions-post_api_submissions');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const bodyType = op.locator('.body-param-content-type select, select.body-param-content-type');
    if ((await bodyType.count()) > 0) await bodyType.first().selectOption('multipart/form-data');
    // Swagger UI fills the form from the schema's sample (an enum's first value): choose the game as a user would.
    await op.locator('tr[data-property-name="game"] select').selectOption('moria');
    await op.locator('input[type="file"]').setInputFiles({ name: 'Boromir.ts', mimeType: 'text/plain', buffer: Buffer.from(botAs('Walker', 'Boromir')) });
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.textContent())?.trim(), '202', (await op.locator('.live-responses-table').textContent()) ?? '');
    assert.match((await op.locator('.live-responses-table').textContent()) ?? '', /location: \/api\/submissions\/\d+/i);
    const sub = await site.judge.db.submission.findFirstOrThrow({ where: { player: { nameLower: 'boromir' } } });
    assert.equal(sub.game, 'moria');
    assert.equal(sub.source, botAs('Walker', 'Boromir'), 'the file as chosen');
  } finally {
    await page.context().close();
  }
});
