// scripts/check-cycles.js (npm test runs it before the tests): a fixture tree with an import
// circle fails with the circle's files named; the same tree without it, and this repository, pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-cycles.js', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(root: string) {
  const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

const base = {
  // a -> b (type only) -> c (dynamic import) -> a (re-export): one circle of three.
  'src/a.ts': "import type { B } from './b.ts';\nexport const a = 1;\nexport type A = B;\n",
  'src/b.ts': "export type B = number;\nexport async function c() { return import('../sandbox/c.ts'); }\n",
  'sandbox/c.ts': "export { a } from '../src/a.ts';\n",
  // d is outside the circle: it imports a, nothing imports it back.
  'workers/d.ts': "import { a } from '../src/a.ts';\n// import { e } from './e.ts'; (a comment, not an edge)\nconsole.log(a);\n",
  // Circles in tests and in the generated client are not looked at.
  'test/x.test.ts': "import './y.ts';\n",
  'test/y.ts': "import './x.test.ts';\n",
  'src/db/generated/p.ts': "import './q.ts';\n",
  'src/db/generated/q.ts': "import './p.ts';\n",
};

test('a circle (type-only, dynamic and re-export edges) fails, with its files named', () => {
  const root = tree(base);
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(out, /import circle of 3 files/);
    for (const f of ['src/a.ts', 'src/b.ts', 'sandbox/c.ts']) assert.ok(out.includes(f), `${f} in ${out}`);
    for (const f of ['workers/d.ts', 'test/', 'generated', 'e.ts']) assert.ok(!out.includes(f), `${f} not in ${out}`);
    assert.match(out, /1 import circle\(s\)/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the same tree without the edge back passes', () => {
  const root = tree({ ...base, 'sandbox/c.ts': 'export const c = 3;\n' });
  try {
    const { status, out } = run(root);
    assert.equal(status, 0, out);
    assert.match(out, /no import circles/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('this repository has no import circle', () => {
  const { status, out } = run(repo);
  assert.equal(status, 0, out);
});
