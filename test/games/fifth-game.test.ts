// A game added by its folder alone: Coins (test/fixtures/games/coins) touches
// no platform file. Pointed to by ARBITER_GAMES_PATH, it is listed, played in
// the sandbox, verified, and served with its viewer, like the project's games.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../../bin/arbiter.js', import.meta.url).pathname;
const env = { ...process.env, ARBITER_GAMES_PATH: join(import.meta.dirname, '..', 'fixtures', 'games') };

function arbiter(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, env });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('arbiter play and verify: the folder-only game is listed, played in the sandbox with its built-ins, and its replay verifies', () => {
  assert.match(arbiter('play', '--list').out, /^coins\s+Coins\s+built-in players: .*Null.*Demo.*Dummy/m);
  const replay = join(mkdtempSync(join(tmpdir(), 'arbiter-coins-')), 'coins.json.gz');
  const played = arbiter('play', 'coins', 'Demo', 'Dummy', 'Dummy', 'Null', '--seed', '4', '-o', replay);
  assert.equal(played.code, 0, played.err);
  assert.match(played.out, /Demo/);
  const verified = arbiter('verify', replay);
  assert.equal(verified.code, 0, verified.err + verified.out);
});

test('a bad ARBITER_GAMES_PATH is a one-line error naming the variable', () => {
  const r = spawnSync(process.execPath, [bin, 'play', '--list'], { encoding: 'utf8', env: { ...process.env, ARBITER_GAMES_PATH: '/no/such/folder' } });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /ARBITER_GAMES_PATH: \/no\/such\/folder is not a folder/);
});
