// In Chromium: the play page plays a C++ player. Signed in, a user drops a
// .cc file; the server compiles it with the judge's compile and the page runs
// the module in the bot's Web Worker (its policy allows compiling wasm) with
// the judge's C++ glue; the replay is the one the judge's runner plays for
// the same seed and bots. Signed out, the page says to log in. Slow: a C++
// compile takes seconds (tens with the npm toolchain).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gameDir } from '../../../src/games/registry.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { slow } from '../../helpers/slow.ts';
import { startSite, type Site } from '../../helpers/site.ts';

const GAME = 'bola-de-drac';
const SEED = 5;

let site: Site;
before(async () => {
  if (slow.skip) return;
  site = await startSite({ workers: 0 });
});
after(async () => {
  await site?.close();
});

const withoutTimes = (r: Replay) => ({ ...r, players: r.players.map((p) => ({ ...p, cpuMs: 0 })), rounds: r.rounds.map((x) => ({ ...x, cpuMs: [] })) });

test(
  '/games/bola-de-drac/play: a dropped .cc plays in the browser (signed in) the match the judge plays; signed out, the page says to log in',
  slow,
  async () => {
    const source = (await readFile(join((await gameDir(GAME))!, 'cpp', 'AIDemo.cc'), 'utf8')).replace(
      /#define PLAYER_NAME \w+/,
      '#define PLAYER_NAME CppTester',
    );
    const page = await site.newPage();
    try {
      // Signed out: the compile is refused with 401 and the page says why.
      page.expectHttpError(/\/api\/play\/compile$/, 401);
      await page.goto(`/games/${GAME}/play`);
      assert.match((await page.getByLabel('Your bot file').getAttribute('accept')) ?? '', /\.cc/);
      await page.getByLabel('Your bot file').setInputFiles({ name: 'AICppTester.cc', mimeType: 'text/plain', buffer: Buffer.from(source) });
      await page.getByLabel('Seed').fill(String(SEED));
      await page.getByRole('button', { name: 'Play the match' }).click();
      const form = page.locator('form[data-play]');
      await form.and(page.locator('[data-state="done"], [data-state="error"]')).waitFor({ timeout: 30_000 });
      assert.equal(await form.getAttribute('data-state'), 'error');
      assert.match((await page.locator('[data-play-alert]').textContent()) ?? '', /signed-in users only: log in first/);

      // Signed in (the context's cookie): the same file plays the whole match.
      const signup = await page.request.post('/api/users', { data: { username: 'cppplayer', password: 'correct horse battery' } });
      assert.equal(signup.status(), 201, await signup.text());
      await page.goto(`/games/${GAME}/play`);
      await page.getByLabel('Your bot file').setInputFiles({ name: 'AICppTester.cc', mimeType: 'text/plain', buffer: Buffer.from(source) });
      await page.getByLabel('Seed').fill(String(SEED));
      await page.getByRole('button', { name: 'Play the match' }).click();
      await form.and(page.locator('[data-state="done"], [data-state="error"]')).waitFor({ timeout: 300_000 });
      assert.equal(await form.getAttribute('data-state'), 'done', (await page.locator('[data-play-alert]').textContent()) ?? '');
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-play-download]').click()]);
      const replay = JSON.parse(await readFile((await download.path())!, 'utf8')) as Replay;
      assert.deepEqual(
        replay.players.map((p) => [p.name, p.frozenReason]),
        [
          ['CppTester', null],
          ['Dummy', null],
          ['Dummy', null],
          ['Dummy', null],
        ],
      );
      const seats = [{ source, filename: 'AICppTester.cc' }, ...(await Promise.all(['Dummy', 'Dummy', 'Dummy'].map((n) => builtinSeat(GAME, n))))];
      const judged = await playMatch({ game: GAME, seed: SEED, seats }, { host: 'isolate' });
      assert.deepEqual(withoutTimes(replay), withoutTimes(judged.replay), 'the browser plays the match the judge plays');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  },
);
