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
  const dist = await ensureBuilt();
  return import(new URL(`${name}.js`, dist).href);
}
