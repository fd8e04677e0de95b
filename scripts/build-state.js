// What scripts/build.js knows of dist/ without building it: where it is, what its entries are, and whether it
// can run as it is (staleReason). Kept apart from the build so that a launcher (bin/entry.js) asks that
// question, at every start, without loading the build's code: it stats the build's inputs and nothing more.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
export const DIST = join(ROOT, 'dist');
export const MANIFEST = 'build.json';

/** The entries of the built judge: dist/<name>.js from each source file. */
export const ENTRIES = {
  cli: { source: 'src/cli/main.ts', reexport: true },
  main: { source: 'src/main.ts', reexport: true },
  'match-child': { source: 'src/sandbox/match-process/match-child.ts', reexport: false },
};

/** The folder of the HTTP routes (autoloaded, src/http/app.ts). */
export const ROUTES = 'src/http/routes';

export const toPosix = (p) => p.split(sep).join('/');

/** Files under a folder, relative to the root, posix. */
export function walk(dir) {
  const files = [];
  const visit = (rel) => {
    // Paths as strings (not path.join): this runs at every start of a launcher.
    const entries = readdirSync(`${ROOT}${sep}${rel}`, { withFileTypes: true });
    for (const d of entries) {
      if (d.isDirectory()) visit(`${rel}/${d.name}`);
      else files.push(`${rel}/${d.name}`);
    }
  };
  if (existsSync(`${ROOT}${sep}${dir}`)) visit(dir);
  return files;
}

/** The route files, relative to the root: every script autoload would load (not a declaration file). */
export function routeSources() {
  return walk(ROUTES)
    .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
}

/** dist/build.json (what was built, from which inputs, when), or null when there is none to read. */
export function readManifest(outdir = DIST) {
  try {
    return JSON.parse(readFileSync(join(outdir, MANIFEST), 'utf8'));
  } catch {
    return null;
  }
}

/** Why dist/ cannot run as it is (missing, or an input changed since it was built), or null when it is up to date. */
export function staleReason(outdir = DIST, manifest = readManifest(outdir)) {
  if (!manifest) return 'there is no build yet';
  for (const input of manifest.inputs) {
    const stat = statSync(`${ROOT}${sep}${input}`, { throwIfNoEntry: false });
    if (!stat) return `${input} is gone`;
    if (stat.mtimeMs >= manifest.startedAt) return `${input} changed`;
  }
  for (const name of Object.keys(ENTRIES)) if (!existsSync(join(outdir, `${name}.js`))) return `${name}.js is missing`;
  // A build from before `arbiter play` had its own bundle, or one whose bundle is gone.
  if (typeof manifest.play !== 'string' || !existsSync(join(outdir, manifest.play))) return 'the play bundle is missing';
  // A route file added (not an input yet) or removed: the tree autoload reads is another.
  const routes = routeSources();
  const built = new Set(manifest.routes ?? []);
  const added = routes.find((r) => !built.has(r));
  if (added || routes.length !== built.size) return `${added ?? 'a route file'} ${added ? 'is new' : 'is gone'}`;
  return null;
}
