// In Chromium: the site's language (Accept-Language at first, then the
// header's switch, which persists from page to page over Accept-Language),
// and the statements' formulas drawn as MathML with no raw TeX left in any
// statement, in every language each game has.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGames } from '../../../src/games/registry.ts';
import { playReplay, startSite, type Site } from '../../helpers/site.ts';

let site: Site;
before(async () => {
  site = await startSite({ workers: 0 });
});
after(async () => {
  await site?.close();
});

const htmlLang = (page: import('playwright-core').Page) => page.evaluate(() => (globalThis as any).document.documentElement.lang as string);

test('the language: Accept-Language first, then the switch in the header, kept across pages and over Accept-Language', async () => {
  const page = await site.newPage();
  await page.setExtraHTTPHeaders({ 'accept-language': 'ca-ES,ca;q=0.9,en;q=0.5' });
  await page.goto('/');
  assert.equal(await htmlLang(page), 'ca');
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Partides' }).waitFor();
  assert.equal(await page.locator('h1').textContent(), 'Arbiter: tornejos de jugadors artificials');

  // The switch: Español, then on through the navigation; Accept-Language still says Catalan.
  await page.getByRole('navigation', { name: 'Idioma' }).getByRole('link', { name: 'Español' }).click();
  await page.waitForURL(/\?lang=es$/);
  assert.equal(await htmlLang(page), 'es');
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Cola' }).click();
  await page.waitForURL(/\/queue$/);
  assert.equal(await htmlLang(page), 'es', 'the choice persists on the next page');
  await page.getByRole('link', { name: 'Entrar' }).first().click();
  await page.waitForURL(/\/login$/);
  assert.equal(await htmlLang(page), 'es');
  assert.equal(await page.locator('h1').textContent(), 'Entrar');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.locator('#form-errors').waitFor();
  assert.match((await page.locator('#form-errors').textContent()) ?? '', /Hay 2 problemas[^]*escribe tu nombre de usuario/);

  // Back to English from the switch; a page reached by typing its address keeps it.
  await page.getByRole('navigation', { name: 'Idioma' }).getByRole('link', { name: 'English' }).click();
  assert.equal(await htmlLang(page), 'en');
  await page.goto('/tournaments');
  assert.equal(await htmlLang(page), 'en');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Matches' }).waitFor();
  const cookies = await page.context().cookies();
  assert.equal(cookies.find((c) => c.name === 'lang')?.value, 'en');
  assert.deepEqual(
    page.errors.filter((e) => !/status of 400/.test(e)),
    [],
  );
  await page.context().close();
});

test('statements: formulas are MathML that Chromium lays out, no raw TeX in any statement, one title block', async () => {
  const page = await site.newPage();
  page.expectHttpError(/./, 404);
  let formulas = 0;
  for (const game of (await loadGames()).values()) {
    for (const lang of Object.keys(game.statements)) {
      await page.goto(`/games/${game.id}?statement=${lang}`);
      const statement = page.locator('#statement');
      const text = (await statement.innerText()) + (await statement.evaluate((e: any) => e.textContent as string));
      assert.doesNotMatch(text, /\\(frac|text|left|right|times|le|max|cdot|lfloor)\b/, `${game.id}/${lang}: raw TeX`);
      assert.doesNotMatch(text, /\$\$|\$[^\s$][^$]*\$/, `${game.id}/${lang}: $...$ left as text`);
      assert.equal(await statement.locator('.math-error').count(), 0);
      const n = await statement.locator('math').count();
      formulas += n;
      if (n > 0) {
        const box = await statement.locator('math').first().boundingBox();
        assert.ok(box && box.width > 5 && box.height > 5, `${game.id}/${lang}: the formula is laid out`);
      }
      // The PDF's title page is one block, not three headings.
      assert.equal(await statement.locator('header.statement-title').count(), 1, `${game.id}/${lang}: title block`);
    }
  }
  assert.ok(formulas >= 10, `formulas drawn: ${formulas}`);

  // Bola de Drac's combat probability: a real fraction (numerator above the denominator), força in it.
  await page.goto('/games/bola-de-drac?statement=ca');
  const frac = page.locator('#statement math[display="block"] mfrac').first();
  await frac.waitFor();
  const [num, den] = await frac.evaluate((f: any) => [...f.children].map((c: any) => c.getBoundingClientRect().top as number));
  assert.ok(num! < den!, 'the numerator sits above the denominator');
  assert.match((await frac.textContent()) ?? '', /força/);
  // The Walking Dead's floor brackets and its title block.
  await page.goto('/games/walking-dead?statement=ca');
  assert.match((await page.locator('#statement math').filter({ hasText: '⌊' }).first().textContent()) ?? '', /⌊[^]*força[^]*⌋/);
  assert.equal(await page.locator('#statement .statement-title .statement-name').textContent(), 'The Walking Dead');
  assert.match((await page.locator('#statement h2:not(.visually-hidden)').first().textContent()) ?? '', /^1 Regles del joc$/i);
  assert.deepEqual(page.errors, [], 'no page error and no CSP refusal (MathML carries no inline style)');
  await page.context().close();
});

test("a game's statement follows the site's language where it exists, and offers the others", async () => {
  const page = await site.newPage();
  await page.goto('/games/moria?lang=ca');
  assert.equal(await page.locator('#statement').getAttribute('lang'), 'ca');
  assert.match(await page.locator('#statement h2[id="s-1"]').innerText(), /Normes del joc/);
  await page.getByRole('navigation', { name: "Idioma de l'enunciat" }).getByRole('link', { name: 'English' }).click();
  assert.equal(await page.locator('#statement').getAttribute('lang'), 'en');
  assert.equal(await htmlLang(page), 'ca', 'reading the English statement keeps the site in Catalan');
  await page.goto('/games/moria?lang=es');
  assert.equal(await page.locator('#statement').getAttribute('lang'), 'es');
  assert.match(await page.locator('#statement h2[id="s-1"]').innerText(), /Normas del juego/);
  assert.equal(await page.locator('#statement-fallback').count(), 0, 'every game has a Spanish statement: no fallback notice');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the viewer in Catalan: its controls, and the legend and tooltip in the statement's words (Cova, Abisme...)", async () => {
  const replay = await playReplay('moria', ['Demo', 'Dummy', 'Demo', 'Null'], { nb_rounds: 5 });
  const page = await site.newPage();
  await page.goto('/view?lang=ca');
  await page.locator('#replay-file').setInputFiles({ name: 'moria.json.gz', mimeType: 'application/gzip', buffer: replay });
  const legend = page.locator('[data-legend]');
  await legend.waitFor();
  const text = (await legend.innerText()).replace(/\s+/g, ' ');
  assert.match(text, /^Llegenda /);
  for (const word of ['Exterior (fora de Mòria)', 'Cova', 'Abisme', 'Granit', 'Roca', 'nan (el color del seu clan)', 'el Balrog'])
    assert.ok(text.includes(word), `${word} in: ${text}`);
  assert.doesNotMatch(text, /\b(cave|abyss|dwarf)\b/);
  assert.match(await page.locator('[data-scoreboard] caption').innerText(), /^Marcador · ronda 0/);
  assert.match(await page.locator('.viewer-title').innerText(), /· llavor 3 · 5 rondes/);
  assert.equal(await page.locator('[data-action="play"]').getAttribute('aria-label'), 'Reprodueix');
  // The tooltip names a cell in the same words: the outer ring is Exterior.
  const box = (await page.locator('canvas.viewer-board').boundingBox())!;
  await page.mouse.move(box.x + 3, box.y + 3);
  const tip = page.locator('.viewer-tip');
  await tip.waitFor();
  assert.match(await tip.innerText(), /^\(0, 0\) Exterior/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the play page in Catalan: the server-rendered form, and the script speaking the page’s language', async () => {
  const page = await site.newPage();
  await page.goto('/games/moria/play?lang=ca');
  assert.equal(await htmlLang(page), 'ca');
  assert.equal(await page.locator('h1').textContent(), 'Juga a Moria al navegador');
  assert.match((await page.locator('#play-judge-note').textContent()) ?? '', /el servidor continua sent l’únic jutge/);
  await page.getByRole('button', { name: 'Juga la partida' }).click();
  await page.getByRole('alert').filter({ hasText: 'Tria el teu jugador: escull o deixa anar un fitxer, o enganxa’n el codi.' }).waitFor();
  await page.getByLabel('O enganxa’n el codi').fill('export const GAME = "moria";');
  await page.locator('[data-play-chosen]').filter({ hasText: 'Codi enganxat (com a MyBot.ts)' }).waitFor();
  await page.getByLabel('Llavor').fill('1.5');
  await page.getByRole('button', { name: 'Juga la partida' }).click();
  await page.getByRole('alert').filter({ hasText: 'La llavor és un nombre enter de 0 a 2147483647.' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
