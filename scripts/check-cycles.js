#!/usr/bin/env node
// Fails when the import graph of the source has a circle: every import points one way.
// It reads every .ts/.mjs/.js under src/, sandbox/, workers/ and bin/ (not test/, not
// the generated src/db/generated), takes each static `import ... from`, `export ... from`,
// bare `import '...'` and dynamic `import('...')` with a relative specifier (type-only
// imports count too: they tie the files together just the same), resolves it to a file,
// finds the strongly connected components (Tarjan) and prints each circle with its files.
// Exit 1 if any circle is found that is not in ALLOWED below.
//   node scripts/check-cycles.js [root]      (root defaults to the current directory)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const DIRS = ['src', 'sandbox', 'workers', 'bin'];
const SKIP = [/^src\/db\/generated(\/|$)/, /(^|\/)node_modules(\/|$)/];
const EXTS = ['.ts', '.mjs', '.js'];

/**
 * Circles that are known and accepted, each as its sorted list of files, with why. A circle
 * found that is not exactly one of these fails the check, so no new circle can appear.
 */
const ALLOWED = [];

const toPosix = (p) => p.split(sep).join('/');

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

/** Drops comments (keeping strings) so a commented-out import is not an edge. */
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

export function check(root, allowed = ALLOWED) {
  const graph = buildGraph(root);
  const found = circles(graph);
  const key = (files) => [...files].sort().join('\n');
  const allowedKeys = new Set(allowed.map((a) => key(a.files)));
  const bad = found.filter((c) => !allowedKeys.has(key(c)));
  const known = found.filter((c) => allowedKeys.has(key(c)));
  return { graph, found, bad, known };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const root = resolve(process.argv[2] ?? '.');
  const { graph, bad, known } = check(root);
  const describe = (comp) =>
    comp.map((f) => `    ${f} -> ${[...graph.get(f)].filter((t) => comp.includes(t)).join(', ')}`).join('\n');
  for (const comp of known) console.log(`check-cycles: allowed circle of ${comp.length} files:\n${describe(comp)}`);
  for (const comp of bad) console.error(`check-cycles: import circle of ${comp.length} files:\n${describe(comp)}`);
  if (bad.length) {
    console.error(`check-cycles: ${bad.length} import circle(s) in ${graph.size} files`);
    process.exit(1);
  }
  console.log(`check-cycles: no import circles in ${graph.size} files`);
}
