// In Chromium: the replay viewer on /view with local files of all
// four games (drawn round by round without a page error), files that are not
// replays, the viewer and the reading pages on a phone, the home page's game
// cards, and the weight of the pages a visitor opens first. The judge runs
// without a match runner: nothing here plays on the server.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { decodeReplay } from '../../../src/match/replay-io.ts';
import { overflow, pageWeight, playReplay, startSite, type Site } from '../../helpers/site.ts';

const GAMES = [
  { id: 'moria', config: { nb_rounds: 30 } },
  { id: 'walking-dead', config: { num_rounds: 30 } },
  { id: 'harry-potter', config: { num_rounds: 30 } },
  { id: 'bola-de-drac', config: { nb_rounds: 30 } },
] as const;
const PHONE = { width: 390, height: 844 };
const WEIGHT_LIMIT = 300 * 1024;

let site: Site;
const replays = new Map<string, Buffer>();

before(async () => {
  site = await startSite({ workers: 0 });
  // The matches `arbiter play <game> Demo Dummy Demo Null --seed 3 --set <rounds>=30 -o x.json.gz` writes, played in process.
  for (const g of GAMES) replays.set(g.id, await playReplay(g.id, ['Demo', 'Dummy', 'Demo', 'Null'], g.config));
});
after(async () => {
  await site?.close();
});

const viewer = (page: Page) => page.locator('[data-viewer]');

/** Waits until the viewer shows round `round` (it draws on the next animation frame). */
async function atRound(page: Page, round: number | string, what = '') {
  try {
    await page.locator(`[data-viewer][data-round="${round}"]`).waitFor({ timeout: 5000 });
  } catch {
    assert.fail(`${what}: the viewer shows round ${await viewer(page).getAttribute('data-round')}, not ${round}`);
  }
}

async function openFile(page: Page, name: string, buffer: Buffer) {
  await page.getByLabel('Open a replay file').setInputFiles({ name, mimeType: name.endsWith('.gz') ? 'application/gzip' : 'application/json', buffer });
}

/** Pixels of the board canvas that are not fully transparent. */
function paintedPixels(page: Page): Promise<number> {
  return page.locator('canvas.viewer-board').evaluate((c: any) => {
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
    return n;
  });
}

for (const g of GAMES) {
  test(`/view: a local ${g.id} replay file opens, every round draws (→ through the match), the scoreboard ends final`, async () => {
    const buffer = replays.get(g.id)!;
    const replay = decodeReplay(buffer);
    const lastRound = replay.rounds.at(-1)!.round;
    const page = await site.newPage();
    try {
      await page.goto('/view');
      await page.locator('[data-viewer-status]').filter({ hasText: 'No replay yet' }).waitFor();
      await openFile(page, `${g.id}.json.gz`, buffer);
      const v = viewer(page);
      await v.and(page.locator('[data-ready="true"]')).waitFor();
      assert.equal(await v.getAttribute('data-game'), g.id);
      assert.equal(await v.getAttribute('data-rounds'), String(lastRound));
      assert.equal(await v.getAttribute('data-round'), String(replay.rounds[0]!.round));
      assert.equal(await v.getAttribute('data-error'), null);
      assert.match((await page.locator('.viewer-title').textContent()) ?? '', new RegExp(`seed 3 · ${lastRound} rounds · ${g.id}\\.json\\.gz`));
      const board = page.getByRole('img', { name: new RegExp(`board, round 0 of ${lastRound}`) });
      assert.equal(await board.count(), 1, 'the canvas is an image named after the round');
      assert.ok((await paintedPixels(page)) > 1000, 'the board is drawn');
      const heads = page.locator('table[data-scoreboard] th[data-col="player"]');
      assert.deepEqual(
        (await heads.allTextContents()).map((t) => t.trim()),
        replay.players.map((p) => p.name),
      );

      // Every round, one → at a time: the view draws each one (a draw error would show in the alert).
      for (let i = 1; i < replay.rounds.length; i++) {
        await page.keyboard.press('ArrowRight');
        await atRound(page, replay.rounds[i]!.round, `→ number ${i}`);
      }
      assert.equal(await v.getAttribute('data-error'), null, (await page.locator('[data-viewer-alert]').textContent()) ?? '');
      assert.equal((await page.locator('[data-viewer-alert]').textContent())?.trim(), '');
      assert.match((await page.locator('table[data-scoreboard] caption').textContent()) ?? '', /Scoreboard · final: /);
      assert.equal(await page.getByRole('button', { name: 'Step forward' }).getAttribute('aria-disabled'), 'true');
      const ranks = await heads.evaluateAll((els: any[]) => els.map((e) => Number(e.dataset.rank)));
      assert.deepEqual(ranks, replay.result.ranks, "the final ranks on the scoreboard are the replay's");
      assert.ok((await paintedPixels(page)) > 1000, 'the last round is drawn');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}

test('/view: a file that is not a replay is an alert; the next good file clears it', async () => {
  const page = await site.newPage();
  try {
    await page.goto('/view');
    const v = viewer(page);
    const alert = page.locator('[data-viewer-alert]');
    assert.equal(await alert.getAttribute('role'), 'alert');

    await openFile(page, 'notes.txt', Buffer.from('hello, not a replay\n'));
    await v.and(page.locator('[data-error="true"]')).waitFor();
    assert.match((await alert.textContent()) ?? '', /Could not show the replay: notes\.txt: not a replay: the file is neither gzip nor JSON/);
    assert.equal(await v.getAttribute('data-ready'), null);
    assert.equal(await page.getByRole('alert').filter({ hasText: 'notes.txt' }).count(), 1);

    await openFile(page, 'other.json', Buffer.from(JSON.stringify({ format: 'something-else', rounds: [] })));
    await alert.filter({ hasText: 'other.json: not an Arbiter replay' }).waitFor();

    await openFile(page, 'broken.json.gz', replays.get('moria')!.subarray(0, 200));
    await alert.filter({ hasText: 'broken.json.gz: the file looks gzipped but does not decompress' }).waitFor();

    await openFile(page, 'good.json.gz', replays.get('moria')!);
    await v.and(page.locator('[data-ready="true"]')).waitFor();
    assert.equal(await v.getAttribute('data-error'), null);
    assert.equal((await alert.textContent())?.trim(), '');
    assert.equal(await v.getAttribute('data-game'), 'moria');

    // And a damaged file after a good one keeps showing the good one, saying so.
    await openFile(page, 'empty.json', Buffer.from(' '));
    await alert.filter({ hasText: 'empty.json' }).waitFor();
    assert.match((await page.locator('[data-viewer-status]').textContent()) ?? '', /Still showing the previous replay/);
    assert.equal(await v.getAttribute('data-game'), 'moria');
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('/view on a phone (390×844): no horizontal overflow, the board and every control visible and inside the screen', async () => {
  const page = await site.newPage(PHONE);
  try {
    await page.goto('/view');
    const before = await overflow(page);
    assert.ok(before.scrollWidth <= before.innerWidth + 1, `/view before a file: ${JSON.stringify(before)}`);
    for (const g of GAMES) {
      await openFile(page, `${g.id}.json.gz`, replays.get(g.id)!);
      await viewer(page)
        .and(page.locator(`[data-ready="true"][data-game="${g.id}"]`))
        .waitFor();
      const o = await overflow(page);
      assert.ok(o.scrollWidth <= o.innerWidth + 1, `${g.id} on a phone: ${JSON.stringify(o)}`);
      const controls = [
        page.getByRole('button', { name: 'Jump to start' }),
        page.getByRole('button', { name: 'Step back' }),
        page.getByRole('button', { name: 'Play', exact: true }),
        page.getByRole('button', { name: 'Step forward' }),
        page.getByRole('button', { name: 'Jump to end' }),
        page.getByRole('button', { name: 'Keyboard shortcuts' }),
        page.getByRole('slider', { name: 'Round' }),
        page.getByRole('combobox', { name: 'Speed' }),
        page.locator('canvas.viewer-board'),
      ];
      for (const c of controls) {
        assert.ok(await c.isVisible(), `${g.id}: ${c} visible`);
        const box = (await c.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width + 1 && box.width > 0, `${g.id}: ${c} inside the screen's width: ${JSON.stringify(box)}`);
      }
      // The buttons are big enough to hit with a finger (24 CSS px at least, WCAG 2.2 target size).
      for (const c of controls.slice(0, 6)) {
        const box = (await c.boundingBox())!;
        assert.ok(box.width >= 24 && box.height >= 24, `${g.id}: ${c} is ${box.width}×${box.height}`);
      }
      await page.getByRole('button', { name: 'Step forward' }).click();
      await atRound(page, 1, `${g.id}: Step forward on a phone`);
    }
    // The measure itself sees an overflow when there is one.
    await page.evaluate('document.body.append(Object.assign(document.createElement("div"), { style: "width: 600px; height: 1px" }))');
    const wide = await overflow(page);
    assert.ok(wide.scrollWidth > wide.innerWidth + 1, `a 600 px block overflows a 390 px screen: ${JSON.stringify(wide)}`);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('the home page shows a card per game with its leaderboard and latest matches; the reading pages fit a phone', async () => {
  const page = await site.newPage();
  try {
    await page.goto('/');
    const cards = page.locator('#games article');
    assert.deepEqual(await cards.evaluateAll((els: any[]) => els.map((e) => e.id).sort()), GAMES.map((g) => `game-${g.id}`).sort());
    for (const g of GAMES) {
      const card = page.locator(`article#game-${g.id}`);
      const heading = card.getByRole('heading', { level: 2 });
      assert.equal(await heading.getByRole('link').getAttribute('href'), `/games/${g.id}`);
      assert.equal(await card.locator(`#leaderboard-${g.id}`).count(), 1, `${g.id}: its leaderboard (or the "no player yet" line)`);
    }
    await page.locator('article#game-moria').getByRole('heading', { level: 2 }).getByRole('link').click();
    await page.waitForURL('**/games/moria');
    for (const id of ['#starter-kit', '#leaderboard', '#statement']) assert.equal(await page.locator(id).count(), 1, id);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }

  const phone = await site.newPage(PHONE);
  try {
    for (const path of ['/', '/games/moria', '/games/walking-dead', '/games/moria/leaderboard', '/matches', '/queue', '/signup', '/login', '/view']) {
      const res = await phone.goto(path);
      assert.equal(res?.status(), 200, path);
      const o = await overflow(phone);
      assert.ok(o.scrollWidth <= o.innerWidth + 1, `${path} on a phone: ${JSON.stringify(o)}`);
    }
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.context().close();
  }
});

test('page weight: the pages a visitor opens (HTML + CSS + JS, before any replay data) stay under 300 KB', async (t) => {
  const pages: { path: string; ready?: (p: Page) => Promise<unknown> }[] = [
    { path: '/' },
    { path: '/games/moria' },
    { path: '/games/harry-potter' },
    { path: '/games/moria/leaderboard' },
    { path: '/matches' },
    { path: '/queue' },
    { path: '/signup' },
    { path: '/login' },
    { path: '/view' },
  ];
  for (const { path, ready } of pages) {
    const w = await pageWeight(site, path, { ready });
    t.diagnostic(
      `${path}: ${w.total} bytes (${Object.entries(w.byType)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );
    assert.ok(w.total > 0 && w.byType.Document! > 0, path);
    assert.ok(w.total < WEIGHT_LIMIT, `${path}: ${w.total} bytes: ${JSON.stringify(w.urls)}`);
    assert.deepEqual(w.errors, [], path);
  }
  // /view with a file open: the game's board viewer loads too (the file itself is read from disk, not transferred).
  for (const g of GAMES) {
    const w = await pageWeight(site, '/view', {
      ready: async (p) => {
        await openFile(p, `${g.id}.json.gz`, replays.get(g.id)!);
        await viewer(p).and(p.locator('[data-ready="true"]')).waitFor();
      },
    });
    t.diagnostic(`/view + the ${g.id} viewer: ${w.total} bytes (${w.urls.map((u) => `${u.url} ${u.bytes}`).join(', ')})`);
    assert.ok(
      w.urls.some((u) => u.url === `/assets/games/${g.id}/viewer.js`),
      `${g.id}: its board viewer was loaded`,
    );
    assert.ok(w.total < WEIGHT_LIMIT, `/view + ${g.id}: ${w.total} bytes`);
    assert.deepEqual(w.errors, []);
  }
});
