// In Chromium: the play page (/games/<id>/play) plays a whole match of each
// game in the browser with a user's file against built-ins, the engine in the
// page and each bot in a Web Worker, and shows it in the viewer with each
// bot's log of the shown round. The replay it builds is the one the server's
// runner (runMatch, the same MatchRun) builds for the same seed and bots,
// round for round but for the time figures. Bots that throw, loop or do not
// compile are frozen as the judge freezes them. The judge runs without a match
// runner: nothing here plays on the server.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { getGame } from '../../src/game-kit/registry.ts';
import { builtinSeat } from '../../src/runner/builtins.ts';
import { runMatch } from '../../src/runner/run-match.ts';
import type { Replay } from '../../src/replay/format.ts';
import { startSite, type Site } from './site.ts';

const GAMES = ['moria', 'walking-dead', 'harry-potter', 'bola-de-drac'] as const;
const SEED = 3;
const OPPONENTS = ['Demo', 'Dummy', 'Null'];

let site: Site;

before(async () => {
  site = await startSite({ workers: 0 });
});
after(async () => {
  await site?.close();
});

/** A user's file: the game's Demo under another name, writing to its log every round. */
async function userBot(game: string): Promise<string> {
  const demo = await readFile((await getGame(game)).bots.builtin['Demo']!, 'utf8');
  const renamed = demo.replace(/export const PLAYER_NAME = (['"])[^'"]*\1/, "export const PLAYER_NAME = 'Tester'");
  assert.notEqual(renamed, demo, 'the Demo declares its name');
  const logging = renamed.replace(/play\(\): void \{/, "play(): void {\n    console.log('round ' + round() + ' of Tester');");
  assert.notEqual(logging, renamed, 'the Demo has a play(): void method');
  return `console.log('Tester loaded');\n${logging}`;
}

async function openPlay(page: Page, game: string) {
  await page.goto(`/games/${game}/play`);
}

async function chooseOpponents(page: Page, names: string[]) {
  for (const [i, name] of names.entries()) await page.getByLabel(`Player ${i + 2}`, { exact: true }).selectOption(name);
}

async function playAndWait(page: Page, timeout: number) {
  await page.getByLabel('Seed').fill(String(SEED));
  await page.getByRole('button', { name: 'Play the match' }).click();
  const form = page.locator('form[data-play]');
  await form.and(page.locator('[data-state="done"], [data-state="error"]')).waitFor({ timeout });
  assert.equal(await form.getAttribute('data-state'), 'done', (await page.locator('[data-play-alert]').textContent()) ?? '');
}

/** The replay the page built, through its download link. */
async function pageReplay(page: Page): Promise<Replay> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-play-download]').click()]);
  const path = await download.path();
  assert.ok(path, await download.failure() ?? 'the download failed');
  return JSON.parse(await readFile(path, 'utf8')) as Replay;
}

/** A replay without its time figures (wall time in the browser, CPU time on the server). */
function withoutTimes(r: Replay) {
  return {
    ...r,
    players: r.players.map((p) => ({ ...p, cpuMs: 0 })),
    rounds: r.rounds.map((x) => ({ ...x, cpuMs: [] })),
  };
}

for (const game of GAMES) {
  test(`/games/${game}/play: a user's file against Demo, Dummy and Null plays the whole match in the browser, as the server's runner plays it`, async () => {
    const source = await userBot(game);
    const page = await site.newPage();
    try {
      await openPlay(page, game);
      assert.match((await page.locator('#play-judge-note').textContent()) ?? '', /only a local try.*the server remains the only judge/s);
      await page.getByLabel('Your bot file').setInputFiles({ name: 'Tester.ts', mimeType: 'text/plain', buffer: Buffer.from(source) });
      await chooseOpponents(page, OPPONENTS);
      await playAndWait(page, 120_000);

      const replay = await pageReplay(page);
      const seats = [{ source, filename: 'Tester.ts' }, ...(await Promise.all(OPPONENTS.map((o) => builtinSeat(game, o))))];
      const server = await runMatch({ game, seed: SEED, seats }, { host: 'inprocess' });
      assert.deepEqual(replay.players.map((p) => p.name), ['Tester', ...OPPONENTS]);
      assert.deepEqual(replay.players.map((p) => p.frozenReason), [null, null, null, null]);
      assert.equal(replay.rounds.at(-1)!.round, (await getGame(game)).totalRounds(replay.config));
      assert.deepEqual(withoutTimes(replay), withoutTimes(server.replay), 'the browser plays the match the server plays');

      // The viewer shows it; the logs follow the round shown.
      const v = page.locator('[data-play-viewer]');
      await v.and(page.locator('[data-ready="true"]')).waitFor();
      assert.equal(await v.getAttribute('data-game'), game);
      assert.equal(await v.getAttribute('data-rounds'), String(replay.rounds.at(-1)!.round));
      const heads = page.locator('table[data-scoreboard] th[data-col="player"]');
      assert.deepEqual((await heads.allTextContents()).map((t) => t.trim()), replay.players.map((p) => p.name));
      const log0 = page.locator('[data-play-log="0"]');
      assert.match((await log0.textContent()) ?? '', /Tester loaded/);
      await page.keyboard.press('ArrowRight');
      await page.locator('[data-play-result][data-round="1"]').waitFor();
      // In round r a bot sees the board after round r - 1: round() is r - 1.
      assert.equal((await log0.textContent())?.trim(), 'round 0 of Tester');
      await page.keyboard.press('End');
      const last = replay.rounds.at(-1)!.round;
      await page.locator(`[data-play-result][data-round="${last}"]`).waitFor();
      assert.equal((await log0.textContent())?.trim(), `round ${last - 1} of Tester`);
      assert.match((await page.locator('[data-play-log-round]').textContent()) ?? '', new RegExp(`round ${last}`));
      assert.match((await page.locator('[data-play-log="3"]').textContent()) ?? '', /nothing written/);
      assert.match((await page.locator('table[data-scoreboard] caption').textContent()) ?? '', /final/);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}
