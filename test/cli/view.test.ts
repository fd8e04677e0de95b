// `arbiter view`: a real process serving a real replay, and its refusals.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ARBITER_BIN as bin, arbiter, arbiterAsync, type CliRun } from '../helpers/cli.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-view-'));

function refused(r: CliRun, pattern: RegExp) {
  assert.equal(r.code, 2, r.err);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(r.err, pattern);
}

test('a missing file, a non-replay, a corrupt gzip and bad options exit 2 with one line', async () => {
  const cases: [Promise<CliRun>, RegExp][] = [];
  const expect = (pattern: RegExp, ...args: string[]) => cases.push([arbiterAsync(...args), pattern]);
  expect(/^arbiter view: cannot read .*missing\.json\.gz: no such file$/m, 'view', join(dir, 'missing.json.gz'), '--no-open');
  writeFileSync(join(dir, 'junk.json'), '{"hello": 1}');
  expect(/not a replay/, 'view', join(dir, 'junk.json'), '--no-open');
  writeFileSync(join(dir, 'text.txt'), 'hello');
  expect(/not a replay: not JSON/, 'view', join(dir, 'text.txt'), '--no-open');
  writeFileSync(join(dir, 'broken.json.gz'), gzipSync('{"format":"arbiter-replay"').subarray(0, 12));
  expect(/corrupt gzip/, 'view', join(dir, 'broken.json.gz'), '--no-open');
  writeFileSync(join(dir, 'v9.json'), JSON.stringify({ format: 'arbiter-replay', version: 9 }));
  expect(/version 9 is not supported/, 'view', join(dir, 'v9.json'), '--no-open');
  expect(/is a directory/, 'view', dir, '--no-open');
  expect(/which replay\?/, 'view', '--no-open');
  expect(/bad port "http"/, 'view', join(dir, 'junk.json'), '--port', 'http');
  for (const [run, pattern] of cases) refused(await run, pattern);
});

test('serves the viewer page, its script and the replay until SIGTERM', async () => {
  const replay = join(dir, 'match.json.gz');
  const played = arbiter('play', 'moria', 'Demo', 'Dummy', 'Null', 'Demo', '--seed', '3', '--set', 'nb_rounds=10', '-o', replay, '--quiet');
  assert.equal(played.code, 0, played.err);

  const child = spawn(process.execPath, ['--no-node-snapshot', bin, 'view', replay, '--no-open', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 60 s; stdout: ${out}; stderr: ${err}`)), 60_000);
      child.stdout.on('data', () => {
        const m = /viewer at (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exited.then((code) => reject(new Error(`exited ${code} before printing a URL: ${err}`)));
    });
    assert.match(out, /^Moria, seed 3, 10 rounds: Demo, Dummy, Null, Demo$/m);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/view\?replay=\/replay$/);

    const page = await fetch(url);
    assert.equal(page.status, 200);
    const body = await page.text();
    assert.match(body, /<div class="viewer" data-viewer>/);
    assert.match(body, /src="\/assets\/js\/viewer\.js"/);
    assert.match(body, /href="\/assets\/viewer\.css"/);
    assert.match(body, /<label for="replay-file">Open a replay file<\/label>/);

    const origin = new URL(url).origin;
    const file = await fetch(`${origin}/replay`);
    assert.equal(file.status, 200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b], 'the replay is served as written (gzip)');

    // The root is a page (not a 404): the replay it serves, linked to the viewer, in the visitor's language.
    const root = await fetch(`${origin}/`);
    assert.equal(root.status, 200);
    const rootBody = await root.text();
    assert.match(rootBody, /<h1>Replays served here<\/h1>/);
    assert.match(rootBody, /<a href="\/view\?replay=\/replay">match\.json\.gz<\/a>: Moria, seed 3, 10 rounds: Demo, Dummy, Null, Demo/);
    const rootCa = await fetch(`${origin}/`, { headers: { 'accept-language': 'ca' } });
    assert.match(await rootCa.text(), /Moria, llavor 3, 10 rondes: Demo, Dummy, Null, Demo/);

    const script = await fetch(`${origin}/assets/js/viewer.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    const js = await script.text();
    assert.ok(js.length < 60_000, `viewer bundle is ${js.length} bytes`);

    const css = await fetch(`${origin}/assets/viewer.css`);
    assert.equal(css.status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, err);
});
