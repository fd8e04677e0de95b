// `arbiter play` from its own bundle (dist/play-<hash>.cjs, scripts/build.js): one CommonJS script of the
// command and all it loads, compiled through V8's code cache (bin/code-cache.js). A 4-Dummy play is short:
// loading some forty ES module chunks (each resolved, read, compiled and linked), compiled again at every run
// on Node 20, was a fifth of its CPU.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileWithCache } from './code-cache.js';

/** The play bundle's exports (playCommand, runCommand) from the build in `dist` (a folder) whose build.json names it `name`. */
export function loadPlayBundle(dist, name, cacheFolder) {
  const file = join(dist, name);
  // The CommonJS module wrapper, plus what the bundle asks of its loader: its file's URL (each module's
  // import.meta.url derives from it) and an import() for what it loads at run time (a package, a game of
  // ARBITER_GAMES_PATH). On the source's first line, so its line numbers stay the file's.
  const source = `(function (exports, require, module, __filename, __dirname, __arbiterScriptUrl, __arbiterImport) {${readFileSync(file, 'utf8')}\n})`;
  const { script, saveCache } = compileWithCache(source, file, name, cacheFolder);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dist, pathToFileURL(file).href, (specifier) => import(specifier));
  saveCache();
  return module.exports;
}
