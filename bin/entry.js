// Which code a launcher runs: the built judge (dist/, built first when missing or older than the
// sources: scripts/build.js), or with ARBITER_FROM_SOURCE=1 the TypeScript sources through tsx
// (the tests, and a change tried without building).

import { sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, readManifest, staleReason } from '../scripts/build-state.js';

const SOURCES = { cli: '../src/cli/main.ts', main: '../src/main.ts' };

const fromSource = () => process.env.ARBITER_FROM_SOURCE === '1';

/**
 * dist/'s manifest (build.json), after building it when it is missing or stale. Whether it is stale is
 * asked of scripts/build-state.js (the build's inputs stat'ed, nothing loaded); the build's own code
 * loads only to build.
 */
async function builtManifest() {
  const manifest = readManifest(DIST);
  if (!staleReason(DIST, manifest)) return manifest;
  const { ensureBuilt } = await import('../scripts/build.js');
  try {
    await ensureBuilt();
  } catch (err) {
    // esbuild's errors name the file and line; a folder that cannot be written names itself.
    const errors = Array.isArray(err?.errors) ? err.errors.map((e) => `${e.location?.file ?? ''}:${e.location?.line ?? ''}: ${e.text}`) : [];
    console.error(`arbiter: the judge could not be built into dist/: ${errors.length ? errors.join('\n') : (err?.message ?? String(err))}`);
    console.error('(npm run build says why; ARBITER_FROM_SOURCE=1 runs the sources through tsx instead)');
    process.exit(1);
  }
  return readManifest(DIST);
}

/** The module of an entry (`cli`: src/cli/main.ts, `main`: src/main.ts), built or from the sources. */
export async function loadEntry(name) {
  if (fromSource()) {
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
  await builtManifest();
  const dist = pathToFileURL(`${DIST}${sep}`).href;
  return import(new URL(`${name}.js`, dist).href);
}

/**
 * `arbiter play`'s own bundle from the built judge (bin/play.js): its playCommand and runCommand. Null with
 * ARBITER_FROM_SOURCE=1, where play runs from the sources as every command does (loadEntry('cli')).
 */
export async function loadPlay() {
  if (fromSource()) return null;
  const manifest = await builtManifest();
  const { loadPlayBundle } = await import('./play.js');
  return loadPlayBundle(DIST, manifest.play);
}
