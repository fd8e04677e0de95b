// Screenshots a replay in the viewer, with Debian's Chromium:
//   node --import tsx scripts/snap-replay.ts match.json.gz 100 out.png [width] [--full] [--height N] [--play S]
// By default only the board; --full takes the whole viewer (controls,
// scoreboard, legend); --play S plays for S seconds from the round first
// and reports how many rounds went by (a pacing check).
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { findChromium } from './chromium.ts';
import { startViewServer } from '../src/http/view-server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { full: { type: 'boolean' }, height: { type: 'string' }, play: { type: 'string' } },
});
const [file, round = '0', out = 'snap.png', width = '900'] = positionals;
if (!file) {
  console.error('usage: snap-replay.ts <replay> [round] [out.png] [width] [--full] [--height N] [--play seconds]');
  process.exit(2);
}
const server = await startViewServer({ file });
const chromiumBuild = await findChromium();
const browser = await chromium.launch({ executablePath: chromiumBuild.executablePath, args: chromiumBuild.args });
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: Number(values.height ?? 1000) } });
  page.on('console', (m) => console.log(`[browser] ${m.text()}`));
  page.on('pageerror', (e) => console.log(`[browser error] ${e.message}`));
  await page.goto(`${server.url}&round=${round}`);
  await page.waitForSelector('[data-viewer][data-ready], [data-viewer][data-error]', { timeout: 20_000 });
  const el = page.locator('[data-viewer]');
  if (await el.getAttribute('data-error')) {
    console.error(`viewer error: ${await page.locator('[data-viewer-alert]').textContent()}`);
    failed = true;
  }
  if (values.play && (await el.getAttribute('data-ready'))) {
    const before = Number(await el.getAttribute('data-round'));
    await page.keyboard.press('Space');
    await page.waitForTimeout(Number(values.play) * 1000);
    await page.keyboard.press('Space');
    const after = Number(await el.getAttribute('data-round'));
    console.log(`played ${after - before} rounds in ${values.play} s at ${await el.getAttribute('data-speed')} rounds/s`);
  }
  const board = page.locator('[data-viewer] canvas.viewer-board');
  await (values.full || !(await board.count()) ? el : board).screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = failed ? 1 : 0;
