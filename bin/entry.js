// Which code a launcher runs: the built judge (dist/, built first when missing or older than the
// sources: scripts/build.js), or with ARBITER_FROM_SOURCE=1 the TypeScript sources through tsx
// (the tests, and a change tried without building).

import { pathToFileURL } from 'node:url';

const SOURCES = { cli: '../src/cli/main.ts', main: '../src/main.ts' };

/** The module of an entry (`cli`: src/cli/main.ts, `main`: src/main.ts), built or from the sources. */
export async function loadEntry(name) {
  if (process.env.ARBITER_FROM_SOURCE === '1') {
    // Under scripts/run-tests.js: the bundle it made of these sources when the run started (the same code,
    // which starts without tsx compiling each module: a test starts hundreds of commands and servers).
    const bundle = process.env.ARBITER_TEST_BUNDLE;
    if (bundle) {
      const dist = pathToFileURL(`${bundle}/`);
      return import(new URL(`${name}.js`, dist).href);
    }
    const { register } = await import('tsx/esm/api');
    register();
    return import(new URL(SOURCES[name], import.meta.url).href);
  }
  const { ensureBuilt } = await import('../scripts/build.js');
  let dist;
  try {
    dist = await ensureBuilt();
  } catch (err) {
    // esbuild's errors name the file and line; a folder that cannot be written names itself.
    const errors = Array.isArray(err?.errors) ? err.errors.map((e) => `${e.location?.file ?? ''}:${e.location?.line ?? ''}: ${e.text}`) : [];
    console.error(`arbiter: the judge could not be built into dist/: ${errors.length ? errors.join('\n') : (err?.message ?? String(err))}`);
    console.error('(npm run build says why; ARBITER_FROM_SOURCE=1 runs the sources through tsx instead)');
    process.exit(1);
  }
  return import(new URL(`${name}.js`, dist).href);
}
