#!/usr/bin/env node
// The built judge: esbuild bundles the TypeScript sources into dist/, which every process runs
// (bin/arbiter.js, bin/server.js, the match children), so none pays for tsx loading the sources
// at each start. Entries: dist/cli.js (src/cli/main.ts), dist/main.js (src/main.ts) and
// dist/match-child.js (src/sandbox/match-process/match-child.ts); what they load only when asked (a command,
// a part, a game, a compiler) is in chunks of its own (code splitting), so `arbiter --help`
// loads one small file. Packages stay in node_modules (not bundled).
// The HTTP routes (src/http/routes, autoloaded by @fastify/autoload, which reads a folder at run
// time) are entries too, each compiled to the same place under dist/routes/ (index.ts ->
// dist/routes/.../index.js, their autohooks.ts too), so the built tree is the URL tree as the
// sources' is, and its files share the entries' chunks.
//
// Everything the sources read next to themselves stays where it is: each file's
// `import.meta.url` becomes its source file's URL (computed from dist/ at run time, so the
// checkout may move), so statements, viewers, bots' sources, C++ headers, the browser code
// esbuild bundles on request, the starter kit, the Prisma client's files and prisma/migrations
// are read from the tree. Modules loaded by path at run time (src/sdk/modules.ts: the games'
// index.ts and view.ts, each language's compiler) are served from the build by a hook; any other
// TypeScript (a game of ARBITER_GAMES_PATH, a new game's bot-api.ts) is loaded through tsx.
//
// `arbiter play` has a bundle of its own besides: dist/play-<hash>.cjs, the play command and everything it
// loads in one CommonJS script (no chunks to resolve and link one by one), which bin/play.js compiles with
// V8's code cache (bin/code-cache.js). build.json names it.
//
// dist/build.json lists the inputs and when the build started: `ensureBuilt()` (the launchers)
// rebuilds when any input changed since (a `git pull`), so a stale build never runs. Files are
// written each to a temporary name and renamed, chunks before the entries that import them and
// build.json last, and the previous build's chunks are kept: a process running the previous
// build, or a second build at the same time, never sees a half-written file.
//
//   node scripts/build.js            build dist/
//   node scripts/build.js --if-stale build only when dist/ is missing or older than the sources

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ENTRIES, MANIFEST, ROOT, ROUTES, readManifest, routeSources, staleReason, toPosix, walk } from './build-state.js';

export { DIST, ENTRIES, ROOT, staleReason };

/** Where the build writes the routes (src/http/routes) under dist/. */
const ROUTES_OUT = 'routes';

/** Inputs that are not modules of the bundle but change what it is. */
const EXTRA_INPUTS = ['scripts/build.js', 'scripts/build-state.js', 'package.json', 'package-lock.json', 'tsconfig.json', 'src/games'];

/** dist/routes/<path>.js of a route file (without the extension: esbuild's `out`). */
const routeOut = (source) => `${ROUTES_OUT}/${source.slice(ROUTES.length + 1).replace(/\.ts$/, '')}`;

/**
 * Modules the sources load by path at run time through src/sdk/modules.ts: each game's index.ts and
 * view.ts, and the modules named by a `const NAME: string = './x.ts'` specifier (the languages'
 * compilers, kept out of the play page's bundle that way).
 */
function loadedByPath() {
  const found = new Set();
  for (const game of readdirSync(join(ROOT, 'src/games'), { withFileTypes: true })) {
    if (!game.isDirectory()) continue;
    for (const file of ['index.ts', 'view.ts']) if (existsSync(join(ROOT, 'src/games', game.name, file))) found.add(`src/games/${game.name}/${file}`);
  }
  for (const file of walk('src/sandbox').filter((f) => f.endsWith('.ts'))) {
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/const [A-Z_]+: string = '(\.\.?\/[^']+\.ts)';/g))
      found.add(toPosix(relative(ROOT, resolve(ROOT, dirname(file), m[1]))));
  }
  return [...found].sort();
}

/**
 * Modules that tests, and the scripts they import, load by a path computed at run time (a game's bot API and
 * viewer, the viewer's and the play page's modules, the test games of test/fixtures/games, which tests name in
 * ARBITER_GAMES_PATH): the test build has its copies of them, so they share the bundle's modules (one
 * PLAYER_API, one GameConfigError class) as they shared tsx's.
 */
const LOADED_BY_PATH_IN_TESTS = [
  /^src\/games\/[^/]+\/(bot-api|viewer)\.ts$/,
  /^test\/fixtures\/games\/[^/]+\/[^/.]+\.ts$/,
  /^src\/sdk\/viewer\/game-view\.ts$/,
  /^src\/http\/client\/viewer\/load\.ts$/,
  /^src\/http\/client\/play\/match\.ts$/,
];

/** The hook module every entry imports first (src/sdk/modules.ts reads what it installs). */
function hookModule(outdir, { tests = false } = {}) {
  const rootFromDist = toPosix(relative(outdir, ROOT)) || '.';
  const byPath = loadedByPath();
  if (tests)
    byPath.push(...[...walk('src'), ...walk('test/fixtures/games')].filter((f) => !byPath.includes(f) && LOADED_BY_PATH_IN_TESTS.some((re) => re.test(f))));
  const table = byPath.map((rel) => `  ${JSON.stringify(rel)}: () => import(${JSON.stringify(join(ROOT, rel))}),`).join('\n');
  return `const root = new URL(${JSON.stringify(`${rootFromDist}/`)}, import.meta.url).href;
const built = {
${table}
};
let tsx = null;
globalThis[Symbol.for('arbiter.distUrl')] = new URL('./', import.meta.url).href;
globalThis[Symbol.for('arbiter.importModule')] = (url) => {
  const load = url.startsWith(root) ? built[decodeURIComponent(url.slice(root.length))] : undefined;
  if (load) return load();
  // TypeScript the build has no copy of (a game of ARBITER_GAMES_PATH): tsx, registered the first time.
  if (/\\.[cm]?tsx?$/.test(url)) {
    tsx ??= import('tsx/esm/api').then((m) => m.register());
    return tsx.then(() => import(url));
  }
  return import(url);
};
`;
}

/**
 * esbuild plugin: the entries' wrappers, the hook module, and each source's import.meta.url made its source file's.
 * `deep`: some outputs sit below dist/ (the routes), so import.meta.url is computed from dist/ as the hook module gave it.
 */
/** `tests`: the test build, whose test/ modules are rewritten too (testModule). */
function arbiterPlugin(outdir, { deep = false, tests = false } = {}) {
  return {
    name: 'arbiter',
    setup(build) {
      build.onResolve({ filter: /^arbiter:/ }, (args) => ({ path: args.path, namespace: 'arbiter' }));
      build.onLoad({ filter: /.*/, namespace: 'arbiter' }, (args) => {
        if (args.path === 'arbiter:modules') return { contents: hookModule(outdir, { tests }), loader: 'js', resolveDir: ROOT };
        const name = args.path.slice('arbiter:entry/'.length);
        const entry = ENTRIES[name];
        const source = JSON.stringify(join(ROOT, entry.source));
        return {
          contents: `import 'arbiter:modules';\n${entry.reexport ? `export * from ${source};` : `import ${source};`}\n`,
          loader: 'js',
          resolveDir: ROOT,
        };
      });
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (tests && !args.path.startsWith(join(ROOT, 'src') + sep) && !args.path.includes(`${sep}node_modules${sep}`)) return testModule(args.path);
        if (!args.path.startsWith(join(ROOT, 'src') + sep)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        // Chunks and entries sit in dist/ itself, so one relative path from there reaches the source; a route
        // file's own code sits deeper (dist/routes/...), so it starts from dist/ as the hook module gave it.
        const fromDist = JSON.stringify(toPosix(relative(outdir, args.path)));
        const base = deep ? "(globalThis[Symbol.for('arbiter.distUrl')] ?? import.meta.url)" : 'import.meta.url';
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${fromDist}, ${base}).href`),
          loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
        };
      });
    },
  };
}

/**
 * The spans of a TypeScript text that are code: not in a string, a template's text, a comment or a regular
 * expression literal (a `/` after an operand divides). Enough to find `import(` and `import.meta` in test/,
 * whose tests hold sources in strings.
 */
function codeSpans(text) {
  const spans = [];
  const n = text.length;
  let i = 0;
  let start = 0;
  let depth = 0; // braces open in code
  const templates = []; // the brace depth at each open template's `${`
  let prev = ''; // the last token of code: does a `/` start a regular expression?
  const push = (end) => {
    if (end > start) spans.push([start, end]);
  };
  const regexAllowed = () =>
    prev === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(prev) || /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(prev);
  while (i < n) {
    const c = text[i];
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      push(i);
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      i = end < 0 ? n : text[i + 1] === '/' ? end : end + 2;
      start = i;
    } else if (c === "'" || c === '"') {
      push(i);
      i++;
      while (i < n && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      start = ++i;
      prev = 'operand';
    } else if (c === '`' || (c === '}' && templates.at(-1) === depth)) {
      if (c === '}') templates.pop();
      push(i);
      i++;
      while (i < n && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{')) i += text[i] === '\\' ? 2 : 1;
      if (text[i] === '$') {
        i += 2;
        templates.push(depth);
        prev = '{';
      } else {
        i++;
        prev = 'operand';
      }
      start = i;
    } else if (c === '/' && regexAllowed()) {
      push(i);
      i++;
      let inClass = false;
      while (i < n && (inClass || text[i] !== '/') && text[i] !== '\n') {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(text[i])) i++;
      start = i;
      prev = 'operand';
    } else if (/[A-Za-z0-9_$]/.test(c)) {
      let j = i;
      while (j < n && /[A-Za-z0-9_$]/.test(text[j])) j++;
      prev = text.slice(i, j);
      i = j;
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (!/\s/.test(c)) prev = c === ')' || c === ']' ? 'operand' : c;
      i++;
    }
  }
  push(n);
  return spans;
}

/**
 * A module of test/ (or of scripts/, which tests import) as the test build has it: import.meta's url, dirname and filename its source file's (the
 * build sits in a folder of its own for one run, so they are written out whole), and each import() of a path
 * computed at run time (a game's viewer, a fixture's module) made through the hook module, as
 * src/sdk/modules.ts's importModule is: the build's copy of a module it has one of, any other TypeScript
 * through tsx. A literal path (or a template, which esbuild reads as a pattern) is bundled.
 */
function testModule(path) {
  const text = readFileSync(path, 'utf8');
  const url = JSON.stringify(pathToFileURL(path).href);
  const meta = { url, dirname: JSON.stringify(dirname(path)), filename: JSON.stringify(path) };
  // A path (relative to the module, as import() reads it, or absolute) made a URL, then the hook's.
  const load = `((path) => globalThis[Symbol.for('arbiter.importModule')](/^\\.{0,2}\\//.test(path) ? new URL(path, ${url}).href : path))`;
  let out = '';
  let last = 0;
  for (const [start, end] of codeSpans(text)) {
    out += text.slice(last, start);
    out += text
      .slice(start, end)
      .replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => meta[key])
      .replace(/\bimport\((?=\s*[^'"`\s])/g, `${load}(`);
    last = end;
  }
  return { contents: out + text.slice(last), loader: /\.[cm]?ts$/.test(path) ? 'ts' : 'js' };
}

function writeAtomic(file, contents) {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

/**
 * Each game's prelude (the bot runtime and its bot API, the script every bot's isolate runs first),
 * made by src/sandbox/hosts/prelude.ts's own bundlePrelude as the judge would at run time, so its match
 * processes read it instead of starting esbuild: dist/prelude-<id>.js, and the files it was made from.
 * And each game's shipped bots (src/games/<id>/bots/*.ts: Null, Demo, Dummy) compiled by the judge's own
 * compileScript (src/sandbox/languages/javascript/compile.ts, the same esbuild process and flags), into
 * dist/compiled-<key>.json, which compileScript reads instead of starting esbuild for them: a CLI run
 * and each new match process compile no built-in.
 */
async function buildPreludes(esbuild, outdir) {
  const maker = await esbuild({
    absWorkingDir: ROOT,
    stdin: {
      contents: [
        "export { bundlePrelude } from './src/sandbox/hosts/prelude.ts';",
        "export { compileScript, compileKey, builtCompileFile } from './src/sandbox/languages/javascript/compile.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: 'build-maker.ts',
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir,
    write: false,
    logLevel: 'silent',
    plugins: [arbiterPlugin(outdir)],
  });
  // In dist/ itself, where its import.meta.url points at the sources and 'esbuild' resolves.
  const makerFile = join(outdir, `prelude-maker.${process.pid}.tmp.mjs`);
  writeFileSync(makerFile, maker.outputFiles[0].contents);
  const files = [];
  const inputs = new Set();
  try {
    const { bundlePrelude, compileScript, compileKey, builtCompileFile } = await import(pathToFileURL(makerFile).href);
    const bots = [];
    for (const game of readdirSync(join(ROOT, 'src/games'), { withFileTypes: true })) {
      const api = join(ROOT, 'src/games', game.name, 'bot-api.ts');
      if (!game.isDirectory() || !existsSync(api)) continue;
      const prelude = await bundlePrelude(api);
      files.push({ path: join(outdir, `prelude-${game.name}.js`), contents: prelude.code });
      for (const f of prelude.inputs) inputs.add(toPosix(relative(ROOT, resolve(f))));
      const dir = join(ROOT, 'src/games', game.name, 'bots');
      if (existsSync(dir)) for (const f of readdirSync(dir)) if (/\.ts$/.test(f) && !f.endsWith('.d.ts')) bots.push(join(dir, f));
    }
    const compiled = await Promise.all(
      bots.map(async (path) => {
        const source = readFileSync(path, 'utf8');
        const filename = path.slice(path.lastIndexOf(sep) + 1);
        const { code, map } = await compileScript(source, filename);
        return { path: join(outdir, builtCompileFile(compileKey(source, filename))), contents: JSON.stringify({ code, map }) };
      }),
    );
    files.push(...compiled);
  } finally {
    rmSync(makerFile, { force: true });
  }
  return { files, inputs: [...inputs] };
}

/** The modules of the play bundle (dist/play-<hash>.cjs): the command and its error handling, behind the hook module. */
const PLAY_SOURCES = { playCommand: 'src/cli/play.ts', runCommand: 'src/cli/run-command.ts' };

/** What the play bundle calls for an import() left to run time (a package, a module by URL): the loader hands it in. */
const PLAY_IMPORT = '__arbiterImport';

/**
 * `arbiter play` as one CommonJS script, for bin/play.js to compile with V8's code cache (Node 20 caches no
 * ES module; one script also skips resolving and linking some forty chunks). The same sources and plugin as
 * dist/: each module's import.meta.url is the script's file URL (the loader hands it in; the plugin makes
 * every source's its own from there; the rest of import.meta is empty in a script: match-pool's
 * import.meta.resolve serves a run from the sources only), and each import() left to run time goes through
 * the loader's import(): a vm.Script has none of its own (Node 20's USE_MAIN_CONTEXT_DEFAULT_LOADER warns
 * that it is experimental, and a script compiled from a code cache loses it). Returns its text.
 */
async function buildPlayBundle(esbuild, outdir) {
  const entry = Object.entries(PLAY_SOURCES)
    .map(([name, source]) => `export { ${name} } from ${JSON.stringify(join(ROOT, source))};`)
    .join('\n');
  const result = await esbuild({
    absWorkingDir: ROOT,
    stdin: { contents: `import 'arbiter:modules';\n${entry}\n`, resolveDir: ROOT, sourcefile: 'play-entry.js', loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    keepNames: true,
    outfile: join(outdir, 'play.cjs'),
    write: false,
    logLevel: 'silent',
    metafile: true,
    define: { 'import.meta.url': '__arbiterScriptUrl' },
    plugins: [arbiterPlugin(outdir)],
  });
  const text = result.outputFiles[0].text;
  let out = '';
  let last = 0;
  for (const [start, end] of codeSpans(text)) {
    out += text.slice(last, start) + text.slice(start, end).replace(/(?<![\w$.])import\(/g, `${PLAY_IMPORT}(`);
    last = end;
  }
  out += text.slice(last);
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('arbiter:') && !p.includes('node_modules/') && p !== 'play-entry.js');
  return { text: out, inputs };
}

/** The judge's bundle as esbuild makes it for dist/ and for the suite's run: its entries and routes, split into shared chunks. */
function judgeBundle(outdir) {
  return {
    absWorkingDir: ROOT,
    entryPoints: [
      ...Object.keys(ENTRIES).map((name) => ({ in: `arbiter:entry/${name}`, out: name })),
      ...routeSources().map((source) => ({ in: join(ROOT, source), out: routeOut(source) })),
    ],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    outdir,
    chunkNames: 'chunk-[hash]',
    // Error classes and functions keep their names (messages and checks read `name`).
    keepNames: true,
    sourcemap: 'linked',
  };
}

/** Builds dist/ (or `outdir`); returns the manifest written. */
export async function build({ outdir = DIST, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { build: esbuild } = await import('esbuild');
  const startedAt = Date.now();
  const result = await esbuild({
    ...judgeBundle(outdir),
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [arbiterPlugin(outdir, { deep: true })],
  });
  mkdirSync(outdir, { recursive: true });
  const preludes = await buildPreludes(esbuild, outdir);
  const playBundle = await buildPlayBundle(esbuild, outdir);
  // Named by its content, as the chunks are: a process that read the previous build.json loads the script it names.
  const playName = `play-${createHash('sha256').update(playBundle.text).digest('hex').slice(0, 16)}.cjs`;
  const entryFiles = new Set(Object.keys(ENTRIES).flatMap((n) => [join(outdir, `${n}.js`), join(outdir, `${n}.js.map`)]));
  const routesOut = join(outdir, ROUTES_OUT) + sep;
  const rank = (f) => (entryFiles.has(f.path) ? 2 : f.path.startsWith(routesOut) ? 1 : 0);
  // Chunks first, then the routes and the entries that import them: a process starting meanwhile finds whole files.
  const files = [...result.outputFiles, ...preludes.files, { path: join(outdir, playName), contents: playBundle.text }].sort((a, b) => rank(a) - rank(b));
  for (const f of files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeAtomic(f.path, f.contents);
  }
  const inputs = [
    ...new Set([
      ...Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('arbiter:') && !p.includes('node_modules/')),
      ...preludes.inputs,
      ...playBundle.inputs,
      ...EXTRA_INPUTS,
    ]),
  ].sort();
  const previous = readManifest(outdir);
  const outputs = files.map((f) => toPosix(relative(outdir, f.path)));
  const manifest = { startedAt, node: process.version, inputs, routes: routeSources(), play: playName, outputs, previousOutputs: previous?.outputs ?? [] };
  writeAtomic(join(outdir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
  // Chunks of older builds go; the previous build's stay for the processes still running it. Not its
  // routes: autoload would load a route file this build has not (those processes loaded theirs at start).
  const keep = new Set([MANIFEST, ...outputs, ...manifest.previousOutputs.filter((name) => !name.startsWith(`${ROUTES_OUT}/`))]);
  const sweep = (dir) => {
    for (const d of readdirSync(join(outdir, dir), { withFileTypes: true })) {
      const name = dir ? `${dir}/${d.name}` : d.name;
      const file = join(outdir, name);
      if (d.isDirectory()) {
        sweep(name);
        if (readdirSync(file).length === 0) rmSync(file, { recursive: true, force: true });
        continue;
      }
      if (keep.has(name)) continue;
      // Another build's file in flight (being written, its prelude maker) is not ours to remove.
      if (d.name.includes('.tmp') && Date.now() - statSync(file).mtimeMs < 60_000) continue;
      rmSync(file, { force: true });
    }
  };
  sweep('');
  log(`built ${relative(process.cwd(), outdir) || '.'}/ from ${inputs.length} files in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return manifest;
}

/**
 * The judge and the given test files (paths relative to the root, test/**.test.ts) bundled into `outdir` for one
 * run of the suite (scripts/run-tests.js): outdir/test/<path>.js runs the test file, loading the judge's modules,
 * its routes and its match child from the same build (the judge's entries as dist/ has them: no prelude or
 * compiled bot, which the match processes make from the sources as they would from them). A test file's process
 * preloads outdir/modules.js, the hook module (`node --import`: a test module may load one by path as it is
 * evaluated, and esbuild's chunks do not promise which of two imports evaluates first). `outdir` must sit in the
 * checkout, where the bundles' packages resolve from node_modules. Returns the files' outputs by source.
 */
export async function buildTests({ outdir, tests }) {
  const { build: esbuild } = await import('esbuild');
  const out = (source) => source.replace(/\.ts$/, '');
  const judge = judgeBundle(outdir);
  await esbuild({
    ...judge,
    entryPoints: [...judge.entryPoints, { in: 'arbiter:modules', out: 'modules' }, ...tests.map((source) => ({ in: join(ROOT, source), out: out(source) }))],
    sourcesContent: false,
    logLevel: 'silent',
    plugins: [arbiterPlugin(outdir, { deep: true, tests: true })],
  });
  return new Map(tests.map((source) => [source, join(outdir, `${out(source)}.js`)]));
}

/** The URL of dist/, built first when missing or stale (saying so on stderr). */
export async function ensureBuilt({ outdir = DIST, log = (line) => process.stderr.write(`arbiter: ${line}\n`) } = {}) {
  const reason = staleReason(outdir);
  if (reason) {
    log(`building the judge into dist/ (${reason})…`);
    await build({ outdir, log });
  }
  return pathToFileURL(`${outdir}${sep}`).href;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const ifStale = process.argv.includes('--if-stale');
  try {
    if (!ifStale || staleReason()) await build();
  } catch (err) {
    // esbuild's errors name the file and line.
    const errors = err?.errors;
    console.error(Array.isArray(errors) ? errors.map((e) => `${e.location?.file ?? ''}:${e.location?.line ?? ''}: ${e.text}`).join('\n') : String(err));
    process.exit(1);
  }
}
