// In Chromium: the play page (/games/<id>/play) plays a whole match of each
// game in the browser with a user's file against built-ins, the engine in the
// page and each bot in a Web Worker, and shows it in the viewer with each
// bot's log of the shown round. The replay it builds is the one the server's
// runner (playMatch, the same MatchRun) builds for the same seed and bots,
// round for round but for the time figures. Bots that throw, loop or do not
// compile are frozen as the judge freezes them. The judge runs without a match
// runner: nothing here plays on the server.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { getGame } from '../../../src/games/registry.ts';
import { builtinSeat } from '../../../src/match/builtins.ts';
import { playMatch } from '../../../src/sandbox/entries/play-match.ts';
import type { Replay } from '../../../src/sdk/replay-format.ts';
import { overflow, startSite, type Site } from '../../helpers/site.ts';

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
  for (const [i, name] of names.entries()) await page.getByLabel(`Player ${i + 1}`, { exact: true }).selectOption(name);
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
  assert.ok(path, (await download.failure()) ?? 'the download failed');
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
      // The server's runner plays the same match meanwhile (trusted code: in process).
      const seats = [{ source, filename: 'Tester.ts' }, ...(await Promise.all(OPPONENTS.map((o) => builtinSeat(game, o))))];
      const onServer = playMatch({ game, seed: SEED, seats }, { host: 'inprocess' });
      onServer.catch(() => {});
      await playAndWait(page, 120_000);

      const replay = await pageReplay(page);
      const server = await onServer;
      assert.equal(await page.locator('[data-play-cli]').textContent(), `node arbiter.mjs play Tester.ts ${OPPONENTS.join(' ')} --seed ${SEED} -o match.json`);
      assert.deepEqual(
        replay.players.map((p) => p.name),
        ['Tester', ...OPPONENTS],
      );
      assert.deepEqual(
        replay.players.map((p) => p.frozenReason),
        [null, null, null, null],
      );
      assert.equal(replay.rounds.at(-1)!.round, (await getGame(game)).totalRounds(replay.config));
      assert.deepEqual(withoutTimes(replay), withoutTimes(server.replay), 'the browser plays the match the server plays');

      // The viewer shows it; the logs follow the round shown.
      const v = page.locator('[data-play-viewer]');
      await v.and(page.locator('[data-ready="true"]')).waitFor();
      assert.equal(await v.getAttribute('data-game'), game);
      assert.equal(await v.getAttribute('data-rounds'), String(replay.rounds.at(-1)!.round));
      const heads = page.locator('table[data-scoreboard] th[data-col="player"]');
      assert.deepEqual(
        (await heads.allTextContents()).map((t) => t.trim()),
        replay.players.map((p) => p.name),
      );
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

/** A Bola de Drac bot (2 s budget) whose play() is `body`. */
const bolaBot = (name: string, body: string) => `export const GAME = 'bola-de-drac';
export const PLAYER_NAME = '${name}';
export default class extends Player {
  play(): void {
${body}
  }
}
`;

test('/games/bola-de-drac/play: pasted code; opponents from files that throw, loop and do not compile are frozen as the judge freezes them, and the match goes on', async () => {
  const thrower = bolaBot('Thrower', "    console.log('still here');\n    if (round() === 2) throw new Error('boom in round ' + round());");
  const looper = bolaBot('Looper', '    if (round() === 4) for (;;) {}');
  const broken =
    'export const GAME = "bola-de-drac";\nexport const PLAYER_NAME = "Broken";\nexport default class extends Player { play(): void { const x: number = ; } }\n';
  const page = await site.newPage();
  try {
    await openPlay(page, 'bola-de-drac');
    const pasted = await userBot('bola-de-drac');
    await page.getByLabel('Or paste its code').fill(pasted);
    await page.locator('[data-play-chosen]').filter({ hasText: 'Pasted code (as MyBot.ts)' }).waitFor();
    const files = { 1: ['Thrower.ts', thrower], 2: ['Looper.ts', looper], 3: ['Broken.ts', broken] } as const;
    for (const [seat, [name, text]] of Object.entries(files)) {
      await page.getByLabel(`Player ${seat}`, { exact: true }).selectOption('file');
      await page.getByLabel(`File for player ${seat}`).setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    }
    // The same seats on the server meanwhile (in its sandbox: the looper must be stopped).
    const seats = [
      { source: pasted, filename: 'MyBot.ts' },
      { source: thrower, filename: 'Thrower.ts' },
      { source: looper, filename: 'Looper.ts' },
      { source: broken, filename: 'Broken.ts' },
    ];
    const onServer = playMatch({ game: 'bola-de-drac', seed: SEED, seats }, { host: 'sandbox' });
    onServer.catch(() => {});
    const started = Date.now();
    await playAndWait(page, 60_000);
    const replay = await pageReplay(page);
    assert.deepEqual(
      replay.players.map((p) => p.name),
      ['Tester', 'Thrower', 'Looper', 'Broken'],
    );
    assert.deepEqual(
      replay.players.map((p) => [p.frozenRound, p.frozenReason]),
      [
        [null, null],
        [3, 'exception'],
        [5, 'cpu'],
        [0, 'compile'],
      ],
    );
    // The exception points at the line of the author's file (line 6: the throw).
    assert.match(replay.players[1]!.frozenMessage ?? '', /Error: boom in round 2[\s\S]*Thrower\.ts:6:/);
    assert.match(replay.players[2]!.frozenMessage ?? '', /CPU budget of 2000 ms for the match used up \(wall time in this browser\)/);
    assert.match(replay.players[3]!.frozenMessage ?? '', /Broken\.ts:3:\d+: Unexpected ";"/);
    assert.ok(replay.players[2]!.cpuMs >= 2000, `the looper used its budget: ${replay.players[2]!.cpuMs} ms`);
    assert.ok(Date.now() - started < 30_000, 'the endless loop was stopped');
    assert.equal(replay.rounds.at(-1)!.round, 601, 'the match went on to its end');

    // The server freezes the same bots in the same rounds for the same reasons.
    const server = await onServer;
    assert.deepEqual(
      server.replay.players.map((p) => [p.name, p.frozenRound, p.frozenReason]),
      replay.players.map((p) => [p.name, p.frozenRound, p.frozenReason]),
    );
    // The message and the bot's own frame, mapped to the same line (how V8 names the runtime's frames below differs between Node and Chromium).
    const top = (m: string | null) => (m ?? '').split('\n').slice(0, 2).join('\n');
    assert.equal(top(replay.players[1]!.frozenMessage), top(server.replay.players[1]!.frozenMessage));
    assert.equal(server.replay.players[3]!.frozenMessage, replay.players[3]!.frozenMessage);
    assert.deepEqual(server.replay.result, replay.result);

    // The thrower's log: its line of round 3, then why it was frozen.
    await page.locator('[data-play-viewer][data-ready="true"]').waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.locator('[data-play-result][data-round="3"]').waitFor();
    assert.match((await page.locator('[data-play-log="1"]').textContent()) ?? '', /still here\nfrozen in round 2 \(exception\): Error: boom in round 2/);
    assert.match((await page.locator('[data-play-log-name="1"]').textContent()) ?? '', /Thrower · frozen in round 2 \(exception\)/);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
});

test('/games/<id>/play: the form says what is missing and fits a phone; /play lists the games', async () => {
  const page = await site.newPage();
  try {
    await page.goto('/play');
    for (const game of GAMES) await page.locator(`#play-games a[href="/games/${game}/play"]`).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /the server remains the only judge/);
    await openPlay(page, 'moria');
    await page.getByRole('button', { name: 'Play the match' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose your bot: pick or drop a file, or paste its code.' }).waitFor();
    // A file dropped on the form is your bot; code pasted afterwards replaces it.
    await page.locator('form[data-play]').evaluate((form: any) => {
      const { DataTransfer, File, DragEvent } = globalThis as any;
      const data = new DataTransfer();
      data.items.add(new File(['export const GAME = "moria";'], 'Dropped.ts', { type: 'text/plain' }));
      form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.locator('[data-play-chosen]').filter({ hasText: 'Your bot: Dropped.ts' }).waitFor();
    await page.getByLabel('Or paste its code').fill('export const GAME = "moria";');
    await page.locator('[data-play-chosen]').filter({ hasText: 'Pasted code (as MyBot.ts)' }).waitFor();
    await page.getByLabel('Player 2', { exact: true }).selectOption('file');
    assert.equal(await page.getByLabel('File for player 2').isVisible(), true);
    await page.getByRole('button', { name: 'Play the match' }).click();
    await page.getByRole('alert').filter({ hasText: 'Player 2: choose the file to play.' }).waitFor();
    await page.getByLabel('Seed').fill('-4');
    await page.getByRole('button', { name: 'Play the match' }).click();
    await page.getByRole('alert').filter({ hasText: 'The seed is a whole number' }).waitFor();
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
  }
  // On a phone, the form fits the screen.
  const phone = await site.newPage({ width: 390, height: 844 });
  try {
    await openPlay(phone, 'harry-potter');
    const o = await overflow(phone);
    assert.ok(o.scrollWidth <= o.innerWidth + 1, `the play page scrolls sideways on a phone: ${o.widest.join(', ')}`);
  } finally {
    await phone.context().close();
  }
});

test("play API: the judge compiles (a compile error is the bot's), caps the size, serves built-ins and the prelude; the bots' worker may evaluate and reach nothing", async () => {
  const { app } = site.judge;
  const ok = await app.inject({
    method: 'POST',
    url: '/api/play/compile',
    payload: { filename: 'a.ts', source: 'export const GAME = "moria"; const x: number = 1;' },
  });
  assert.equal(ok.statusCode, 200);
  assert.match(ok.json().code, /const x = 1/);
  assert.equal(ok.headers['x-ratelimit-limit'], '60', 'compiles are rate-limited');
  const bad = await app.inject({ method: 'POST', url: '/api/play/compile', payload: { filename: 'a.ts', source: 'const = ;' } });
  assert.equal(bad.statusCode, 200);
  assert.match(bad.json().error, /^a\.ts:1:7: /);
  const big = await app.inject({
    method: 'POST',
    url: '/api/play/compile',
    payload: { filename: 'a.ts', source: 'x'.repeat(site.judge.app.deps.config.submissionMaxBytes + 1) },
  });
  assert.equal(big.statusCode, 413);
  assert.match(big.json().message, /larger than/);
  const badName = await app.inject({ method: 'POST', url: '/api/play/compile', payload: { filename: '../x\n.ts', source: '' } });
  assert.equal(badName.statusCode, 400);
  const demo = await app.inject({ url: '/api/play/moria/builtins/Demo' });
  assert.equal(demo.statusCode, 200);
  assert.equal(demo.json().filename, 'Demo.ts');
  assert.ok(demo.json().compiled.code);
  assert.equal((await app.inject({ url: '/api/play/moria/builtins/Nobody' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/play/nogame/builtins/Demo' })).statusCode, 404);
  const prelude = await app.inject({ url: '/api/play/moria/prelude.js' });
  assert.equal(prelude.statusCode, 200);
  assert.match(prelude.body, /^\(function\(\)\{/);
  const worker = await app.inject({ url: '/assets/play/worker.js' });
  assert.equal(worker.statusCode, 200);
  // eval for the bots' scripts, wasm-unsafe-eval for a C++ bot's module; nothing else (no fetch, no import).
  assert.equal(worker.headers['content-security-policy'], "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'");
  const script = await app.inject({ url: '/assets/play/moria.js' });
  assert.equal(script.statusCode, 200);
  assert.doesNotMatch(script.body, /unsafe-eval/);
  assert.equal((await app.inject({ url: '/assets/play/nogame.js' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/games/nogame/play', headers: { accept: 'text/html' } })).statusCode, 404);
});
