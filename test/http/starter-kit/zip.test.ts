// The zip writer: what it writes, the system's unzip and python's zipfile read back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, zip, zipStream } from '../../../src/http/starter-kit/zip.ts';

test('crc32: the standard check value and the empty input', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(Buffer.alloc(0)), 0);
  assert.equal(crc32(Buffer.from('The quick brown fox jumps over the lazy dog')), 0x414fa339);
});

test('zip: unzip -t accepts it and extracts the same bytes (UTF-8 names, folders, empty and binary files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-zip-'));
  try {
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const files = { 'README.md': '# Hola, món\n'.repeat(50), 'src/Bot.ts': 'export const x = 1;\n', 'empty.txt': '', 'data.bin': binary, 'ñandú.txt': 'ü' };
    const archive = zip(Object.entries(files).map(([name, data]) => ({ name, data, date: new Date(2024, 2, 5, 14, 30, 12) })));
    const path = join(dir, 'a.zip');
    writeFileSync(path, archive);
    assert.match(execFileSync('unzip', ['-t', path]).toString(), /No errors detected/);
    execFileSync('unzip', ['-q', path, '-d', join(dir, 'out')]);
    for (const [name, data] of Object.entries(files)) assert.deepEqual(readFileSync(join(dir, 'out', name)), Buffer.from(data), name);
    const listing = execFileSync('python3', [
      '-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip()); [print(i.filename, i.date_time) for i in z.infolist()]',
      path,
    ]).toString();
    assert.match(listing, /^None$/m, 'python: every CRC checks');
    assert.match(listing, /^ñandú\.txt \(2024, 3, 5, 14, 30, 12\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('zip: names that would escape the folder are refused', () => {
  assert.throws(() => zip([{ name: '../x', data: '' }]), /bad zip entry name/);
  assert.throws(() => zip([{ name: '/etc/x', data: '' }]), /bad zip entry name/);
});

test('zipStream: entries written as they come (stored or deflated) make an archive unzip and python read back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-zipstream-'));
  try {
    const gz = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));
    let produced = 0;
    async function* entries() {
      yield { name: 'manifest.json', data: '{"a": 1}\n' };
      produced++;
      yield { name: 'replays/one.json.gz', data: gz, store: true };
      produced++;
    }
    const chunks: Buffer[] = [];
    for await (const c of zipStream(entries())) {
      if (chunks.length === 0) assert.equal(produced, 0, 'the first bytes go out before the next entry is read');
      chunks.push(c);
    }
    const path = join(dir, 's.zip');
    writeFileSync(path, Buffer.concat(chunks));
    assert.match(execFileSync('unzip', ['-t', path]).toString(), /No errors detected/);
    execFileSync('unzip', ['-q', path, '-d', join(dir, 'out')]);
    assert.deepEqual(readFileSync(join(dir, 'out', 'replays/one.json.gz')), gz);
    assert.equal(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'), '{"a": 1}\n');
    const methods = execFileSync('python3', [
      '-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip(), [i.compress_type for i in z.infolist()])',
      path,
    ]).toString();
    assert.equal(methods.trim(), 'None [8, 0]', 'deflated, then stored');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
