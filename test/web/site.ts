// The whole judge behind a real port, for the browser tests: a fresh Postgres
// database, a fresh Redis prefix, the app listening on 127.0.0.1, the
// recorder in process and a real worker process. Debian's Chromium
// (playwright-core, /usr/bin/chromium or CHROMIUM_PATH) drives it.

import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestJudge, type TestJudge } from '../judge/setup.ts';
import type { GateOptions } from '../../src/scheduler/gate.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Site {
  judge: TestJudge;
  /** http://127.0.0.1:<port> */
  url: string;
  browser: Browser;
  /** A new page (its own cookies) with console errors collected. */
  newPage(options?: { width?: number; height?: number }): Promise<Page & { errors: string[] }>;
  close(): Promise<void>;
}

export async function startSite(options: { gate?: GateOptions; workers?: number } = {}): Promise<Site> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  const judge = await startTestJudge({ gate: options.gate, workers: options.workers ?? 1, concurrency: 2 });
  let browser: Browser | null = null;
  try {
    const address = await judge.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // As root in a closed network: no sandbox, and no background connections Chromium would make.
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const b = browser;
    return {
      judge,
      url: address,
      browser: b,
      async newPage(o = {}) {
        const context = await b.newContext({ baseURL: address, viewport: { width: o.width ?? 1100, height: o.height ?? 900 } });
        const page = (await context.newPage()) as Page & { errors: string[] };
        page.errors = [];
        page.on('pageerror', (e) => page.errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') page.errors.push(m.text());
        });
        page.setDefaultTimeout(20_000);
        return page;
      },
      async close() {
        await b.close();
        await judge.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await judge.close();
    throw err;
  }
}
