// Screenshots one round of a replay in the viewer, with Debian's Chromium:
//   node --import tsx scripts/snap-replay.ts match.json.gz 100 out.png [width]
import { chromium } from 'playwright-core';
import { startViewServer } from '../src/web/view-server.ts';

const [file, round = '0', out = 'snap.png', width = '900'] = process.argv.slice(2);
if (!file) {
  console.error('usage: snap-replay.ts <replay> [round] [out.png] [width]');
  process.exit(2);
}
const server = await startViewServer({ file });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: 1000 } });
  page.on('console', (m) => console.log(`[browser] ${m.text()}`));
  page.on('pageerror', (e) => console.log(`[browser error] ${e.message}`));
  await page.goto(`${server.url}&round=${round}`);
  await page.waitForSelector('[data-viewer][data-ready], [data-viewer][data-error]', { timeout: 20_000 });
  const el = page.locator('[data-viewer]');
  if (await el.getAttribute('data-error')) console.error(`viewer error: ${await el.textContent()}`);
  await el.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
