#!/usr/bin/env node
// Keeps the import graph one-way (npm test runs it before the tests). The source is in
// layers along the data path, each allowed to import only itself and the layers below it:
//   core (config, log, db) < sdk < games < match < sandbox (system < languages < hosts < match-process
//   < entries) < queue < domain < jobs < http < cli
// (LAYERS below), with two more rules: the game SDK is Node-free (no node: import, and
// nothing but itself), games import only the SDK and themselves, and the HTTP layer queries
// the database only through the domain's functions (databaseInHttp). Every source file
// must belong to a layer, so a new folder cannot slip past, and no circle may form even
// inside a layer (Tarjan's strongly connected components).
// It reads every .ts/.mjs/.js under src/ and bin/ (not test/, not the generated
// src/db/generated), takes each static `import ... from`, `export ... from`, bare
// `import '...'` and dynamic `import('...')` with a relative specifier (type-only imports
// count too: they tie the files together just the same), and resolves it to a file.
// Three more rules say what the layers cannot: a worker-side file never reaches the database
// (WORKER_SIDE: not src/db/, not a database package, however many imports away), an import's
// path is written out (`import(x)` only where VARIABLE_IMPORTS says why), and the environment
// is read in src/config.ts alone (ENV_READS says where else, and why).
// Exit 1 with every offending arrow, circle or read named.
//   node scripts/check-imports.js [root]      (root defaults to the current directory)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const DIRS = ['src', 'bin'];
const SKIP = [/^src\/db\/generated(\/|$)/, /(^|\/)node_modules(\/|$)/];
const EXTS = ['.ts', '.mjs', '.js'];

/**
 * The layers, lowest first: a file's layer is the first whose prefixes match its path.
 * `may` lists the lower layers a layer may import, when it is not all of them.
 */
export const LAYERS = [
  {
    name: 'core',
    paths: ['src/config.ts', 'src/log.ts', 'src/statuses.ts', 'src/db/'],
    why: 'configuration, logging, the shared statuses, the database client',
  },
  { name: 'sdk', paths: ['src/sdk/'], may: [], nodeFree: true, why: 'what a game is written against: Node-free, runs in isolates and browsers' },
  { name: 'games', paths: ['src/games/'], may: ['sdk'], why: 'the games: pure engines, bot APIs, viewers' },
  { name: 'match', paths: ['src/match/'], why: 'MatchRun, the bot-host protocol, replays read and verified' },
  // The sandbox in its rooms, lowest first: the OS helpers, the languages, the hosts a bot runs in,
  // the match process (each side of its boundary a file of its own), and the entries the layers above call.
  { name: 'sandbox/system', paths: ['src/sandbox/system/'], why: "the OS's figures (/proc) and the core slots" },
  { name: 'sandbox/languages', paths: ['src/sandbox/languages/'], why: 'one record per language: compile, headers, source maps, compile errors' },
  {
    name: 'sandbox/hosts',
    paths: ['src/sandbox/hosts/'],
    why: "a bot's hosts: the isolate and its CPU meter and stop switch, node:vm, the runtime and prelude",
  },
  { name: 'sandbox/match-process', paths: ['src/sandbox/match-process/'], why: 'the match process: its protocol, the parent side (the pool), the child side' },
  {
    name: 'sandbox/entries',
    paths: ['src/sandbox/entries/'],
    why: "what the layers above call: playMatch, the gate's check, the play page's match and budget",
  },
  { name: 'queue', paths: ['src/queue/'], why: 'the typed jobs and their Redis queues, which the domain hands work to' },
  { name: 'domain', paths: ['src/domain/'], why: 'submissions, the gate, names, matches, tournaments, ratings, health' },
  { name: 'jobs', paths: ['src/jobs/'], why: 'the worker pool, the recorder, the scheduler' },
  { name: 'http', paths: ['src/http/'], why: 'the API and the pages' },
  { name: 'cli', paths: ['src/cli/', 'src/main.ts', 'bin/'], why: 'the commands and the one entry per process' },
];

/**
 * Circles that are known and accepted, each as its sorted list of files, with why. A circle
 * found that is not exactly one of these fails the check, so no new circle can appear.
 */
const ALLOWED = [];

/**
 * Single arrows a layer's rule would refuse, each with why it is right.
 */
export const ALLOWED_ARROWS = [
  {
    from: 'src/games/registry.ts',
    to: 'src/config.ts',
    why: 'the registry (not a game: it finds them, with node:fs) searches ARBITER_GAMES_PATH, declared with every other setting',
  },
];

/**
 * Worker-side files: a worker never opens the database (results go back through a queue to the
 * one process that writes), so nothing these files import, however far, is in `db` or is a
 * database package.
 */
export const WORKER_SIDE = {
  roots: ['src/jobs/worker/', 'src/sandbox/', 'src/match/'],
  db: ['src/db/'],
  packages: ['@prisma/client', '@prisma/adapter-pg', 'prisma', 'pg', '@electric-sql/pglite', 'pglite-prisma-adapter'],
};

/**
 * Imports whose path is an expression (import(x)): a reader, a bundler and this check cannot
 * follow them, so each is named, by file and expression, with why it cannot be written out.
 */
export const VARIABLE_IMPORTS = [
  {
    file: 'src/sdk/modules.ts',
    expr: 'url',
    why: 'the one import of a game or bot module by its file URL (the built judge hooks it): the registry and the hosts go through it',
  },
  {
    file: 'src/http/client/viewer/viewer.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression as the file writes it
    expr: '`/assets/games/${game}/viewer.js`',
    why: "the browser loads the viewer of the replay's game, one bundle per game",
  },
  { file: 'bin/entry.js', expr: 'new URL(SOURCES[name], import.meta.url).href', why: 'the entry point runs a part from the sources (tsx) by its name' },
  {
    file: 'bin/entry.js',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression as the file writes it
    expr: 'new URL(`${name}.js`, dist).href',
    why: "the entry point runs a part from the built judge (dist/, or the test runner's bundle of the sources) by its name",
  },
  {
    file: 'bin/play.js',
    expr: 'specifier',
    why: "`arbiter play`'s bundle is a script, which has no import() of its own: what it loads at run time (a package, a game by its URL) it loads through its loader's",
  },
  { file: 'src/http/starter-kit/arbiter.mjs', expr: 'runnerUrl', why: "the students' kit is standalone: it loads the runner it downloaded next to itself" },
];

/**
 * Environment reads outside src/config.ts that are right: every setting of Arbiter is declared
 * there (SETTINGS), so a read elsewhere is a setting with no default, no sentence and no check.
 */
export const ENV_READS = [
  { key: 'PATH', why: "the system's search path: binaries are looked up in it and child processes are handed it; no setting of Arbiter's" },
  { file: 'src/http/starter-kit/arbiter.mjs', why: "the students' kit is standalone (it ships to students, without src/config.ts)" },
  {
    file: 'bin/entry.js',
    key: 'ARBITER_FROM_SOURCE',
    why: 'the launcher reads it before any TypeScript can load: it chooses between the sources (through tsx) and the built judge',
  },
  {
    file: 'bin/entry.js',
    key: 'ARBITER_TEST_BUNDLE',
    why: "scripts/run-tests.js's bundle of the sources, which the launchers run for ARBITER_FROM_SOURCE=1 under the test runner (read before any TypeScript can load)",
  },
  {
    file: 'src/sandbox/system/child-env.ts',
    why: 'copies the environment, less the credentials, for the processes that run bots (match and check processes): it reads no setting',
  },
  {
    file: 'src/http/app.ts',
    key: 'FASTIFY_AUTOLOAD_TYPESCRIPT',
    why: "written, not read: @fastify/autoload's documented switch that lets it load the routes' .ts sources (it does not recognise tsx registered by --import or its API)",
  },
];

export function layerOf(file, layers = LAYERS) {
  const i = layers.findIndex((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
  return i < 0 ? null : i;
}

/** Arrows a layer may not draw: upward, or sideways out of a layer with a `may` list. */
export function layerViolations(graph, layers = LAYERS) {
  const bad = [];
  for (const [from, tos] of graph) {
    const a = layerOf(from, layers);
    if (a === null) {
      bad.push({ from, to: null, why: 'belongs to no layer (add its folder to LAYERS in scripts/check-imports.js)' });
      continue;
    }
    for (const to of tos) {
      const b = layerOf(to, layers);
      if (b === null || b === a) continue;
      const allowed = (layers[a].may ? layers[a].may.includes(layers[b].name) : b < a) || ALLOWED_ARROWS.some((x) => x.from === from && x.to === to);
      if (!allowed) bad.push({ from, to, why: `${layers[a].name} may not import ${layers[b].name}${b > a ? ' (an arrow back up)' : ''}` });
    }
  }
  return bad;
}

/** Node built-ins imported by a Node-free layer. */
export function nodeImports(root, graphFiles, layers = LAYERS) {
  const bad = [];
  for (const f of graphFiles) {
    const l = layerOf(f, layers);
    if (l === null || !layers[l].nodeFree) continue;
    for (const spec of specifiers(readFileSync(join(root, f), 'utf8'))) {
      if (spec.startsWith('node:') || /^(fs|path|os|url|crypto|child_process|zlib|util)(\/|$)/.test(spec))
        bad.push({ from: f, to: spec, why: `${layers[l].name} is Node-free` });
    }
  }
  return bad;
}

const toPosix = (p) => p.split(sep).join('/');

/**
 * The HTTP layer reads and writes the database only through the domain's functions (its
 * repository functions): a query written in a route (`db.match.findMany(`, `tx.$queryRaw`,
 * `prisma.user.update(`) or an import of the generated client fails. Passing `deps.db` down to
 * a domain function is fine.
 */
const QUERY_IN_CODE = /\b(?:db|tx|prisma)\s*\.\s*(?:\$[A-Za-z]+|[a-z][A-Za-z]*\s*\.\s*[a-z][A-Za-z]*\s*\()/;
export function databaseInHttp(root, graphFiles) {
  const bad = [];
  for (const f of graphFiles) {
    if (!f.startsWith('src/http/')) continue;
    const src = stripComments(readFileSync(join(root, f), 'utf8'));
    const query = QUERY_IN_CODE.exec(src);
    if (query) bad.push({ from: f, to: null, why: `a database query in the HTTP layer (${query[0]}...): put it in a function in src/domain/` });
    for (const spec of specifiers(src))
      if (/(^|\/)db\/generated(\/|$)/.test(spec)) bad.push({ from: f, to: spec, why: 'the HTTP layer reaches the database only through src/domain/' });
  }
  return bad;
}

function walk(root, dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = toPosix(join(dir, name));
    if (SKIP.some((re) => re.test(rel))) return [];
    const st = statSync(join(root, rel));
    if (st.isDirectory()) return walk(root, rel);
    return EXTS.some((e) => rel.endsWith(e)) && !rel.endsWith('.d.ts') ? [rel] : [];
  });
}

/** A `/` here starts a regular expression, not a division: what precedes it is no value. */
function regexMayStart(before) {
  const t = before.trimEnd();
  return t === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(t) || /\b(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(t);
}

/** Drops comments and regular expressions (keeping strings) so a commented-out import is not an edge. */
function stripComments(src) {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '/' && regexMayStart(out)) {
      // A regular expression literal: skipped whole, so a quote inside it opens no string.
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== '\n' && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j++;
      }
      out += '/regex/';
      i = j + 1;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const PATTERNS = [
  // import x from '...', import { a } from '...', import type { A } from '...', export { a } from '...', export * from '...'
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
  // import '...'
  /\bimport\s*(['"])([^'"\n]+)\1/g,
  // import('...'), await import("...")
  /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1\s*[,)]/g,
];

export function specifiers(src) {
  const code = stripComments(src);
  const found = new Set();
  for (const re of PATTERNS) for (const m of code.matchAll(re)) found.add(m[2]);
  return [...found];
}

function resolveSpec(root, from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(root, dirname(from), spec);
  const candidates = [base];
  // TypeScript's ESM style: './x.js' names './x.ts'
  const m = /\.(m?)js$/.exec(base);
  if (m) candidates.push(base.slice(0, -m[0].length) + (m[1] ? '.mts' : '.ts'));
  for (const e of EXTS) candidates.push(base + e);
  for (const e of EXTS) candidates.push(join(base, 'index' + e));
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return toPosix(relative(root, c));
  return null;
}

/** The text of the expression an `import(` at `at` (just past the parenthesis) is given, up to its closing one. */
function argumentAt(code, at) {
  let depth = 0;
  let i = at;
  for (; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < code.length && code[i] !== c) i += code[i] === '\\' ? 2 : 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
  }
  return code.slice(at, i).trim();
}

/** `import(expr)` calls whose path is not written out (a string with no `${`), not in `allowed`. */
export function variableImports(root, fileList, allowed = VARIABLE_IMPORTS) {
  const files = [...fileList];
  const bad = [];
  const met = new Set();
  for (const f of files) {
    const code = stripComments(readFileSync(join(root, f), 'utf8'));
    for (const m of code.matchAll(/(?<![\w.$])import\s*\(/g)) {
      const expr = argumentAt(code, m.index + m[0].length);
      if (/^(['"])[^'"\n]*\1$/.test(expr) || /^`[^`$]*`$/.test(expr)) continue;
      const allowance = allowed.find((a) => a.file === f && a.expr === expr);
      if (allowance) met.add(allowance);
      else bad.push({ from: f, to: null, why: `import(${expr}): its path is an expression (write it out, or add it to VARIABLE_IMPORTS with why)` });
    }
  }
  // An allowance outlives its import only by mistake: the next one written there would pass unread.
  const scanned = new Set(files);
  for (const a of allowed)
    if (scanned.has(a.file) && !met.has(a))
      bad.push({ from: a.file, to: null, why: `VARIABLE_IMPORTS allows import(${a.expr}), which is no longer there: remove it` });
  return bad;
}

/** Bare specifiers (packages) a file imports. */
function packagesOf(root, file) {
  return specifiers(readFileSync(join(root, file), 'utf8'))
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

/** Worker-side files that reach the database, each with the chain of imports that gets there. */
export function workerDbReach(root, graph, rules = WORKER_SIDE) {
  const under = (f, prefixes) => prefixes.some((p) => (p.endsWith('/') ? f.startsWith(p) : f === p));
  const bad = [];
  for (const start of graph.keys()) {
    if (!under(start, rules.roots)) continue;
    // Breadth first, so the chain named is a shortest one.
    const cameFrom = new Map([[start, null]]);
    const queue = [start];
    let hit = null;
    while (queue.length && !hit) {
      const f = queue.shift();
      if (under(f, rules.db)) hit = { file: f, what: f };
      else {
        const pkg = packagesOf(root, f).find((p) => rules.packages.includes(p));
        if (pkg) hit = { file: f, what: pkg };
      }
      if (hit) break;
      for (const to of graph.get(f) ?? []) {
        if (!cameFrom.has(to)) {
          cameFrom.set(to, f);
          queue.push(to);
        }
      }
    }
    if (!hit) continue;
    const chain = [];
    for (let f = hit.file; f !== null; f = cameFrom.get(f)) chain.unshift(f);
    if (hit.what !== hit.file) chain.push(hit.what);
    bad.push({ from: start, to: null, why: `worker-side, reaches the database: ${chain.join(' -> ')}` });
  }
  return bad;
}

/** Reads of process.env outside src/config.ts that ENV_READS does not allow. */
export function envReads(root, files, allowed = ENV_READS) {
  const bad = [];
  for (const f of files) {
    if (f === 'src/config.ts' || allowed.some((a) => a.file === f && a.key === undefined)) continue;
    const code = stripComments(readFileSync(join(root, f), 'utf8'));
    for (const m of code.matchAll(/\bprocess\.env\b(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*(['"])([^'"]+)\2\s*\])?/g)) {
      const key = m[1] ?? m[3] ?? null;
      if (key !== null && allowed.some((a) => a.key === key && (a.file === undefined || a.file === f))) continue;
      bad.push({
        from: f,
        to: null,
        why: `reads ${key === null ? 'process.env' : key} from the environment: declare it in SETTINGS (src/config.ts) and read it through readSettings`,
      });
    }
  }
  return bad;
}

/** The import graph: file -> set of files it imports (only files inside the scanned set). */
export function buildGraph(root) {
  const files = DIRS.flatMap((d) => walk(root, d));
  const known = new Set(files);
  const graph = new Map();
  for (const f of files) {
    const out = new Set();
    for (const spec of specifiers(readFileSync(join(root, f), 'utf8'))) {
      const to = resolveSpec(root, f, spec);
      if (to && known.has(to) && to !== f) out.add(to);
    }
    graph.set(f, out);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan, iterative). */
export function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const result = [];
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work = [[start, [...graph.get(start)], 0]];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, edges] = frame;
      if (frame[2] < edges.length) {
        const w = edges[frame[2]++];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, [...(graph.get(w) ?? [])], 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v), idx.get(w)));
        }
      } else {
        work.pop();
        if (work.length) {
          const u = work[work.length - 1][0];
          low.set(u, Math.min(low.get(u), low.get(v)));
        }
        if (low.get(v) === idx.get(v)) {
          const comp = [];
          let w;
          do {
            w = stack.pop();
            onStack.delete(w);
            comp.push(w);
          } while (w !== v);
          if (comp.length > 1) result.push(comp.sort());
        }
      }
    }
  }
  return result.sort((a, b) => a[0].localeCompare(b[0]));
}

export function check(root, allowed = ALLOWED, layers = LAYERS) {
  const graph = buildGraph(root);
  const found = circles(graph);
  const key = (files) => [...files].sort().join('\n');
  const allowedKeys = new Set(allowed.map((a) => key(a.files)));
  const bad = found.filter((c) => !allowedKeys.has(key(c)));
  const known = found.filter((c) => allowedKeys.has(key(c)));
  const arrows = [
    ...layerViolations(graph, layers),
    ...nodeImports(root, graph.keys(), layers),
    ...workerDbReach(root, graph),
    ...variableImports(root, graph.keys()),
    ...envReads(root, graph.keys()),
    ...databaseInHttp(root, graph.keys()),
  ];
  return { graph, found, bad, known, arrows };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const root = resolve(process.argv[2] ?? '.');
  const { graph, bad, known, arrows } = check(root);
  const describe = (comp) => comp.map((f) => `    ${f} -> ${[...graph.get(f)].filter((t) => comp.includes(t)).join(', ')}`).join('\n');
  for (const comp of known) console.log(`check-imports: allowed circle of ${comp.length} files:\n${describe(comp)}`);
  for (const comp of bad) console.error(`check-imports: import circle of ${comp.length} files:\n${describe(comp)}`);
  for (const a of arrows) console.error(`check-imports: ${a.from}${a.to ? ` -> ${a.to}` : ''}: ${a.why}`);
  if (bad.length || arrows.length) {
    console.error(`check-imports: ${bad.length} import circle(s), ${arrows.length} arrow(s) or read(s) against the rules, in ${graph.size} files`);
    process.exit(1);
  }
  console.log(
    `check-imports: ${graph.size} files in ${LAYERS.length} layers, every arrow pointing down, no circles, no worker-side file reaching the database, every import path written out (or allowed), the environment read in src/config.ts`,
  );
}
