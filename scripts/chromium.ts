// Which Chromium drives the browser tests, the web benchmark and the
// screenshots: CHROMIUM_PATH if set, else a system Chromium if installed, else
// the one shipped inside the @sparticuz/chromium npm package (unpacked to the
// temp directory on first use, about 1.5 s), so `npm install` brings
// everything the tests need.

import { existsSync } from 'node:fs';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export interface ChromiumChoice {
  executablePath: string;
  /** Where it came from, for messages. */
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
  /** Flags this build needs besides ours. */
  args: string[];
}

/** Flags for a headless Chromium run as root in a closed network: no sandbox, no background connections. */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function findChromium(): Promise<ChromiumChoice> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, source: 'CHROMIUM_PATH', args: HEADLESS_ARGS };
  }
  const system = SYSTEM_PATHS.find((p) => existsSync(p));
  if (system) return { executablePath: system, source: 'system', args: HEADLESS_ARGS };
  let packaged: typeof import('@sparticuz/chromium').default;
  try {
    packaged = (await import('@sparticuz/chromium')).default;
  } catch {
    throw new Error('no Chromium: run `npm install` (it brings @sparticuz/chromium), install a system chromium, or set CHROMIUM_PATH');
  }
  // Its own flags minus --single-process, which playwright's multi-page contexts do not survive.
  const args = [...new Set([...HEADLESS_ARGS, ...packaged.args.filter((a) => a !== '--single-process' && !a.startsWith('--headless'))])];
  return { executablePath: await packaged.executablePath(), source: '@sparticuz/chromium', args };
}
