// scripts/check-imports.js (npm test runs it before the tests): a fixture tree with an import
// circle, an arrow back up a layer, a game that reaches past the SDK, Node in the SDK, a query in the HTTP layer or a
// file in no layer fails with the culprits named; the same tree without them, and this
// repository, pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-imports.js', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-imports-'));
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

/** A tree whose every arrow points down: http -> domain -> match -> sdk; games -> sdk. */
const clean = {
  'src/sdk/a.ts': 'export const a = 1;\n',
  'src/games/g/index.ts': "import { a } from '../../sdk/a.ts';\nexport const g = a;\n",
  'src/match/m.ts': "import type { g } from '../games/g/index.ts';\nimport { a } from '../sdk/a.ts';\nexport const m = a;\n",
  'src/domain/d.ts': "import { m } from '../match/m.ts';\nimport { readFileSync } from 'node:fs';\nexport const d = m;\n",
  'src/http/h.ts': "import { d } from '../domain/d.ts';\n// import { x } from '../cli/x.ts'; (a comment, not an arrow)\nexport const h = d;\n",
  'src/cli/c.ts': "export async function c() { return import('../http/h.ts'); }\n",
  // Tests and the generated client are not looked at.
  'test/x.test.ts': "import '../src/cli/c.ts';\nimport './y.ts';\n",
  'test/y.ts': "import './x.test.ts';\n",
  'src/db/generated/p.ts': "import './q.ts';\n",
  'src/db/generated/q.ts': "import './p.ts';\n",
};

test('a tree whose arrows all point down, with no circle, passes', () => {
  const root = tree(clean);
  try {
    const { status, out } = run(root);
    assert.equal(status, 0, out);
    assert.match(out, /every arrow pointing down, no circles/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a circle inside a layer (type-only, dynamic and re-export edges) fails, with its files named', () => {
  const root = tree({
    ...clean,
    'src/domain/e.ts': "import type { F } from './f.ts';\nexport const e = 1;\nexport type E = F;\n",
    'src/domain/f.ts': "export type F = number;\nexport async function g() { return import('./g.ts'); }\n",
    'src/domain/g.ts': "export { e } from './e.ts';\n",
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(out, /import circle of 3 files/);
    for (const f of ['src/domain/e.ts', 'src/domain/f.ts', 'src/domain/g.ts']) assert.ok(out.includes(f), `${f} in ${out}`);
    for (const f of ['test/', 'generated']) assert.ok(!out.includes(f), `${f} not in ${out}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an arrow back up a layer fails, naming both files and the layers', () => {
  const root = tree({ ...clean, 'src/match/m.ts': "import { d } from '../domain/d.ts';\nexport const m = d;\n", 'src/domain/d.ts': 'export const d = 1;\n' });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(out, /src\/match\/m\.ts -> src\/domain\/d\.ts: match may not import domain \(an arrow back up\)/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a game may import only the SDK; the SDK is Node-free; every file has a layer', () => {
  const root = tree({
    ...clean,
    'src/games/g/index.ts': "import { m } from '../../match/m.ts';\nexport const g = m;\n",
    'src/match/m.ts': "import { a } from '../sdk/a.ts';\nexport const m = a;\n",
    'src/sdk/a.ts': "import { join } from 'node:path';\nexport const a = join('x');\n",
    'src/stray/s.ts': 'export const s = 1;\n',
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(out, /src\/games\/g\/index\.ts -> src\/match\/m\.ts: games may not import match/);
    assert.match(out, /src\/sdk\/a\.ts -> node:path: sdk is Node-free/);
    assert.match(out, /src\/stray\/s\.ts: belongs to no layer/);
    assert.match(out, /3 arrow\(s\) or read\(s\) against the rules/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a worker-side file that reaches the database, however far, fails with the chain named', () => {
  const root = tree({
    ...clean,
    // worker -> queue -> (type-only) db: the path src/jobs/worker/pool.ts once had through src/db/statuses.ts.
    'src/db/statuses.ts': 'export type Status = string;\n',
    'src/queue/jobs.ts': "import type { Status } from '../db/statuses.ts';\nexport type Job = { status: Status };\n",
    'src/jobs/worker/pool.ts': "import type { Job } from '../../queue/jobs.ts';\nexport const pool = (j: Job) => j;\n",
    // A sandbox file that imports a database package itself.
    'src/sandbox/hosts/s.ts': "import pg from 'pg';\nexport const s = pg;\n",
    // The same queue file from the recorder's side is fine: it is not a worker.
    'src/jobs/recorder/r.ts': "import type { Job } from '../../queue/jobs.ts';\nexport const r = (j: Job) => j;\n",
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(
      out,
      /src\/jobs\/worker\/pool\.ts: worker-side, reaches the database: src\/jobs\/worker\/pool\.ts -> src\/queue\/jobs\.ts -> src\/db\/statuses\.ts/,
    );
    assert.match(out, /src\/sandbox\/hosts\/s\.ts: worker-side, reaches the database: src\/sandbox\/hosts\/s\.ts -> pg/);
    assert.ok(!out.includes('src/jobs/recorder/r.ts'), out);
    assert.match(out, /2 arrow\(s\) or read\(s\) against the rules/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an import whose path is an expression fails unless the allow-list names it; a regex with a quote is no string', () => {
  const root = tree({
    ...clean,
    'src/domain/v.ts':
      'const strip = (s: string) => s.replace(/"[^"]*"/g, \'\');\n' +
      '// import(commented) is no import\n' +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture's source text
      "export async function v(name: string) { strip(name); await import(`./${name}.ts`); return import(name + '.ts'); }\n",
    'src/domain/w.ts': 'export async function w() { return import(`./v.ts`); }\n',
    // Allowed in VARIABLE_IMPORTS (scripts/check-imports.js), with why.
    'src/sdk/modules.ts': 'export async function importModule(url: string) { return import(url); }\n',
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's expression, as reported
    assert.ok(out.includes('src/domain/v.ts: import(`./${name}.ts`): its path is an expression'), out);
    assert.ok(out.includes("src/domain/v.ts: import(name + '.ts'): its path is an expression"), out);
    assert.ok(!out.includes('commented') && !out.includes('w.ts') && !out.includes('modules.ts'), out);
    assert.match(out, /2 arrow\(s\) or read\(s\) against the rules/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the environment is read in src/config.ts alone (PATH, and the allow-list, apart)', () => {
  const root = tree({
    ...clean,
    'src/config.ts': "export const port = process.env['PORT'];\n",
    'src/domain/e.ts': "export const a = process.env.CPP_PCH !== '0';\nexport const b = process.env['LOG_LEVEL'];\nexport const all = { ...process.env };\n",
    'src/match/p.ts': "export const path = (process.env['PATH'] ?? '').split(':');\n",
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    for (const what of ['CPP_PCH', 'LOG_LEVEL', 'process.env']) assert.ok(out.includes(`src/domain/e.ts: reads ${what} from the environment`), out);
    assert.ok(!out.includes('check-imports: src/config.ts') && !out.includes('src/match/p.ts'), out);
    assert.match(out, /3 arrow\(s\) or read\(s\) against the rules/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the HTTP layer queries the database only through the domain (passing deps.db down is fine)', () => {
  const root = tree({
    ...clean,
    'src/http/h.ts': "import { d } from '../domain/d.ts';\nexport const h = d;\nexport const list = (deps: any) => d(deps.db, 1);\n",
    'src/http/query.ts': 'export const rows = (db: any) => db.match.findMany({ where: {} });\n// db.user.findUnique( in a comment is no query\n',
    'src/http/raw.ts': "export const n = (app: any) => app.deps.db.$queryRawUnsafe('SELECT 1');\n",
    'src/http/client-import.ts': "import type { Prisma } from '../db/generated/client.ts';\nexport type P = Prisma.Sql;\n",
  });
  try {
    const { status, out } = run(root);
    assert.equal(status, 1, out);
    assert.match(out, /src\/http\/query\.ts: a database query in the HTTP layer \(db\.match\.findMany\(/);
    assert.match(out, /src\/http\/raw\.ts: a database query in the HTTP layer \(db\.\$queryRawUnsafe/);
    assert.match(out, /src\/http\/client-import\.ts -> \.\.\/db\/generated\/client\.ts: the HTTP layer reaches the database only through src\/domain\//);
    assert.doesNotMatch(out, /src\/http\/h\.ts/);
    assert.match(out, /3 arrow\(s\) or read\(s\) against the rules/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('this repository keeps its layers and has no import circle', () => {
  const { status, out } = run(repo);
  assert.equal(status, 0, out);
});
