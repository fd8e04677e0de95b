// Reading a replay is bounded: a gzip bomb (1 GiB of zeros in about 1 MB) and
// a file past the limit are refused by `arbiter verify` and `arbiter view`
// with a message naming the limit (exit 2), and by the site's viewer (its
// reading code, run here on Node's DecompressionStream), and reading one costs bounded
// memory and CPU (measured here in this process: the peak resident memory and
// CPU time spent on it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { arbiterAsync } from '../helpers/cli.ts';
import { decodeReplay, readReplayFile, REPLAY_MAX_JSON_BYTES, ReplayFormatError } from '../../src/match/replay-io.ts';

// The viewer's reading code is browser code (DOM types): loaded by its URL, so the Node typecheck does not follow it.
const viewerLoad = new URL('../../src/http/client/viewer/load.ts', import.meta.url).href;
const { parseReplay, ReplayLoadError } = (await import(viewerLoad)) as {
  parseReplay: (bytes: Uint8Array) => Promise<unknown>;
  ReplayLoadError: new (message: string) => Error;
};

const dir = mkdtempSync(join(tmpdir(), 'arbiter-replay-bounds-'));
const MIB = 1024 * 1024;

/** 1 GiB of zeros, gzip'd a MiB at a time (never held whole). */
async function writeBomb(path: string) {
  const zeros = Buffer.alloc(MIB);
  let left = 1024;
  const source = new Readable({
    read() {
      this.push(left-- > 0 ? zeros : null);
    },
  });
  await pipeline(source, createGzip({ level: 9 }), createWriteStream(path));
}

const bomb = join(dir, 'match.json.gz');
await writeBomb(bomb);

test('a gzip bomb is refused while it inflates: bounded memory and CPU, a message naming the limit', () => {
  assert.ok(statSync(bomb).size < 2 * MIB, `the bomb is small: ${statSync(bomb).size} bytes`);
  const rssBefore = process.resourceUsage().maxRSS * 1024;
  const cpuBefore = process.cpuUsage();
  assert.throws(
    () => decodeReplay(readReplayFile(bomb)),
    (e: unknown) => e instanceof ReplayFormatError && /past 64 MiB, the limit for a replay's JSON/.test(e.message),
  );
  const cpu = process.cpuUsage(cpuBefore);
  const grew = process.resourceUsage().maxRSS * 1024 - rssBefore;
  console.log(`the bomb refused: peak memory +${Math.round(grew / MIB)} MiB, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
  // Uncapped, the whole GiB was inflated (2.2 GB resident and 12.6 s in the issue).
  assert.ok(grew < REPLAY_MAX_JSON_BYTES * 3, `peak memory grew ${Math.round(grew / MIB)} MiB`);
  assert.ok((cpu.user + cpu.system) / 1e6 < 3, `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
});

test('arbiter verify and view refuse the bomb, a plain file past the limit and a JSON string past it, exit 2, one line', async () => {
  const big = join(dir, 'huge.json');
  writeFileSync(big, '');
  truncateSync(big, REPLAY_MAX_JSON_BYTES + MIB); // sparse: nothing is written
  const [verifyBomb, viewBomb, verifyBig] = await Promise.all([
    arbiterAsync('verify', bomb),
    arbiterAsync('view', bomb, '--no-open'),
    arbiterAsync('verify', big),
  ]);
  for (const [run, pattern] of [
    [verifyBomb, /^arbiter verify: not a replay: it unpacks past 64 MiB, the limit for a replay's JSON/],
    [viewBomb, /^arbiter view: not a replay: it unpacks past 64 MiB/],
    [verifyBig, /^arbiter verify: not a replay: the file is 65 MiB, past 64 MiB/],
  ] as const) {
    assert.equal(run.code, 2, run.err);
    assert.equal(run.err.trim().split('\n').length, 1, run.err);
    assert.match(run.err, pattern);
  }
  assert.throws(() => decodeReplay('x'.repeat(REPLAY_MAX_JSON_BYTES + 1)), /its JSON is past 64 MiB/);
});

test("the site's viewer inflates a chunk at a time and stops at the limit", async () => {
  const bytes = new Uint8Array(readFileSync(bomb));
  const rssBefore = process.resourceUsage().maxRSS * 1024;
  await assert.rejects(parseReplay(bytes), (e: unknown) => e instanceof ReplayLoadError && /unpacks past 64 MiB, the limit for a replay/.test(e.message));
  const grew = process.resourceUsage().maxRSS * 1024 - rssBefore;
  assert.ok(grew < REPLAY_MAX_JSON_BYTES * 3, `peak memory grew ${Math.round(grew / MIB)} MiB`);
});
