// The whole judge behind a real port, for the browser tests: a fresh Postgres
// database, a fresh Redis prefix, the app listening on 127.0.0.1, the
// recorder in process and a real worker process. playwright-core drives a
// Chromium (scripts/chromium.ts: CHROMIUM_PATH, a system one, or the npm one).

import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestJudge, type TestJudge } from './judge.ts';
import type { GateOptions } from '../../src/domain/gate.ts';
import { findChromium } from '../../scripts/chromium.ts';

export interface Site {
  judge: TestJudge;
  /** http://127.0.0.1:<port> */
  url: string;
  browser: Browser;
  /** A new page (its own cookies) with console errors collected. */
  newPage(options?: { width?: number; height?: number; javaScriptEnabled?: boolean }): Promise<SitePage>;
  close(): Promise<void>;
}

export type SitePage = Page & {
  /** Page errors and console errors, in order. */
  errors: string[];
  /**
   * Chromium logs "Failed to load resource: ... status of N" as a console error for every
   * response >= 400, including a page the server answers with 400 on purpose (a form with
   * errors). Such a message is not collected when its URL matches `url` and its status is `status`.
   */
  expectHttpError(url: RegExp, status: number): void;
};

export async function startSite(options: { gate?: GateOptions; workers?: number } = {}): Promise<Site> {
  const chromiumBuild = await findChromium();
  const judge = await startTestJudge({ gate: options.gate, workers: options.workers ?? 1, concurrency: 2 });
  let browser: Browser | null = null;
  try {
    const address = await judge.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: chromiumBuild.executablePath,
      args: chromiumBuild.args,
    });
    const b = browser;
    return {
      judge,
      url: address,
      browser: b,
      async newPage(o = {}) {
        const context = await b.newContext({
          baseURL: address,
          viewport: { width: o.width ?? 1100, height: o.height ?? 900 },
          javaScriptEnabled: o.javaScriptEnabled ?? true,
        });
        const page = (await context.newPage()) as SitePage;
        page.errors = [];
        const expected: { url: RegExp; status: number }[] = [];
        page.expectHttpError = (url, status) => void expected.push({ url, status });
        page.on('pageerror', (e) => page.errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() !== 'error') return;
          const failed = /^Failed to load resource: the server responded with a status of (\d+)/.exec(m.text());
          if (failed && expected.some((x) => x.status === Number(failed[1]) && x.url.test(m.location().url))) return;
          page.errors.push(m.text());
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

// ---- Helpers for the browser tests (test/web/browser-*.test.ts) ----

export interface PageWeight {
  /** Bytes on the wire (headers + body, as Chromium counts them) of everything but the excluded URLs. */
  total: number;
  /** The same by resource type (Document, Stylesheet, Script, Image, Fetch...). */
  byType: Record<string, number>;
  /** Bytes of the excluded responses (the replay data). */
  excluded: number;
  urls: { url: string; type: string; bytes: number }[];
}

/**
 * Opens `path` in a fresh context (an empty cache) and counts what Chromium transferred
 * (CDP Network.loadingFinished encodedDataLength) until `ready` resolves and the network
 * is idle. URLs matching `exclude` (the replay data) are counted apart.
 */
export async function pageWeight(
  site: Site,
  path: string,
  o: {
    cookies?: Parameters<import('playwright-core').BrowserContext['addCookies']>[0];
    ready?: (page: Page) => Promise<unknown>;
    exclude?: RegExp;
    width?: number;
    height?: number;
  } = {},
): Promise<PageWeight & { errors: string[] }> {
  const page = await site.newPage({ width: o.width, height: o.height });
  try {
    if (o.cookies) await page.context().addCookies(o.cookies);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const seen = new Map<string, { url: string; type: string }>();
    const done = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => seen.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other' }));
    cdp.on('Network.responseReceived', (e) => seen.set(e.requestId, { url: e.response.url, type: e.type }));
    cdp.on('Network.loadingFinished', (e) => done.set(e.requestId, e.encodedDataLength));
    const res = await page.goto(path, { waitUntil: 'load' });
    if (!res || res.status() >= 400) throw new Error(`${path}: HTTP ${res?.status()}`);
    if (o.ready) await o.ready(page);
    await page.waitForLoadState('networkidle');
    const weight: PageWeight = { total: 0, byType: {}, excluded: 0, urls: [] };
    for (const [id, bytes] of done) {
      const r = seen.get(id);
      if (!r) continue;
      if (o.exclude?.test(r.url)) {
        weight.excluded += bytes;
        continue;
      }
      weight.total += bytes;
      weight.byType[r.type] = (weight.byType[r.type] ?? 0) + bytes;
      weight.urls.push({ url: r.url.replace(site.url, ''), type: r.type, bytes });
    }
    await cdp.detach();
    return { ...weight, errors: [...page.errors] };
  } finally {
    await page.context().close();
  }
}

/** The page's width against the viewport's: no horizontal scrolling means scrollWidth <= innerWidth (+1 for rounding). */
export async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    // Runs in the page (this project's tsconfig has no DOM types).
    const { window, document } = globalThis as any;
    const innerWidth: number = window.innerWidth;
    const widest: string[] = [];
    // What sticks out, to make a failure readable.
    for (const el of document.body.querySelectorAll('*')) {
      const r = (el as any).getBoundingClientRect();
      if (r.right > innerWidth + 1 && widest.length < 5) {
        const e = el as any;
        const id = e.id ? `#${e.id}` : '';
        const cls = typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : '';
        widest.push(`${e.tagName.toLowerCase()}${id}${cls} right=${Math.round(r.right)}`);
      }
    }
    return { scrollWidth: document.scrollingElement.scrollWidth as number, innerWidth, widest };
  });
}

/** A short match of built-ins played in process (trusted code), as the gzip'd replay `arbiter play -o x.json.gz` writes. */
export async function playReplay(game: string, players: string[], config: Record<string, unknown>, seed = 3): Promise<Buffer> {
  const { playMatch } = await import('../../src/sandbox/entries/play-match.ts');
  const { builtinSeat } = await import('../../src/match/builtins.ts');
  const { encodeReplay } = await import('../../src/match/replay-io.ts');
  const seats = await Promise.all(players.map((p) => builtinSeat(game, p)));
  const { replay } = await playMatch({ game, seed, config, seats }, { host: 'inprocess' });
  return encodeReplay(replay);
}
