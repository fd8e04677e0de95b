// The system clang's probe (a compile of <vector> and <iostream>, about a second of CPU) is remembered under
// CACHE_DIR with what it read: a later process that finds the same clang++ and the same files skips it, and any
// change to them (here: a header's recorded size, another clang++'s path) makes it probe again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const toolchain = new URL('../../../../src/sandbox/languages/cpp/toolchain.ts', import.meta.url).href;

/** findSystemClang() in a fresh process with CACHE_DIR=dir. */
function findIn(dir: string): string {
  const script = `import { findSystemClang } from ${JSON.stringify(toolchain)}; console.log(findSystemClang() ?? 'none');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, CACHE_DIR: dir, LOG_LEVEL: 'error' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

interface Record {
  clang: string;
  files: [string, number, number][];
}

test('the clang probe is remembered with the files it read, and made again when one of them changes', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-clang-probe-'));
  try {
    const clang = findIn(dir);
    if (clang === 'none') return t.skip('no system clang that compiles for wasm32-wasi here');
    const path = join(dir, 'clang-probe.json');
    const record = JSON.parse(readFileSync(path, 'utf8')) as Record;
    assert.equal(record.clang, clang);
    assert.ok(
      record.files.some(([f]) => f.endsWith('/vector')),
      'the headers the probe read are listed',
    );

    // The same files: the record is used as it is, not written again.
    const written = statSync(path).mtimeMs;
    assert.equal(findIn(dir), clang);
    assert.equal(statSync(path).mtimeMs, written);

    // A header that changed since (its recorded size differs): probed again, the record made anew.
    const changed: Record = { ...record, files: record.files.map(([f, size, m], i) => [f, i === 1 ? size + 1 : size, m]) };
    writeFileSync(path, JSON.stringify(changed));
    assert.equal(findIn(dir), clang);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), record);

    // A record of another clang++: probed again.
    writeFileSync(path, JSON.stringify({ ...record, clang: '/nowhere/clang++' }));
    assert.equal(findIn(dir), clang);
    assert.equal((JSON.parse(readFileSync(path, 'utf8')) as Record).clang, clang);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
