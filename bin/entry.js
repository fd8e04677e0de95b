// Which code a launcher runs: the built judge (dist/, built first when missing or older than the
// sources: scripts/build.js), or with ARBITER_FROM_SOURCE=1 the TypeScript sources through tsx
// (the tests, and a change tried without building).

const SOURCES = { cli: '../src/cli/main.ts', main: '../src/main.ts' };

/** The module of an entry (`cli`: src/cli/main.ts, `main`: src/main.ts), built or from the sources. */
export async function loadEntry(name) {
  if (process.env.ARBITER_FROM_SOURCE === '1') {
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
