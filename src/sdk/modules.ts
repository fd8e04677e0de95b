// Modules the judge loads by path while it runs: the games (src/games/<id>/index.ts and view.ts, and
// those of ARBITER_GAMES_PATH) and each language's compiler, loaded when first needed. From the sources
// (tsx) that is import() of the file. The built judge (dist/, scripts/build.js) installs a hook that
// serves its compiled copy of a module it has one of, and loads any other TypeScript (a game of
// ARBITER_GAMES_PATH) through tsx. Node-free: the play page's bundle takes this file in too.

const IMPORT_HOOK = Symbol.for('arbiter.importModule');
const DIST_URL = Symbol.for('arbiter.distUrl');

type ImportHook = (url: string) => Promise<unknown>;

/** import() of a module of the source tree (or any other) by its file URL, in the built judge as from the sources. */
export function importModule(url: string): Promise<unknown> {
  const hook = (globalThis as Record<symbol, unknown>)[IMPORT_HOOK] as ImportHook | undefined;
  return hook ? hook(url) : import(url);
}

/** The URL of an entry of the built judge (`match-child.js`) when this process runs from dist/, else null. */
export function builtEntryUrl(file: string): string | null {
  const dist = (globalThis as Record<symbol, unknown>)[DIST_URL] as string | undefined;
  return dist ? new URL(file, dist).href : null;
}
