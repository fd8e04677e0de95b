// `arbiter eval` (the real CLI in its own process): a bot over several seeds
// in the judge's sandbox, summed up as the starter kit's eval does; each
// match is the one `arbiter play` plays for its seed; bad input exits 2.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinSeat } from '../../src/match/builtins.ts';
import { playMatch } from '../../src/sandbox/entries/play-match.ts';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';
import { botAs } from '../helpers/judge.ts';

const BIN = fileURLToPath(new URL('../../bin/arbiter.js', import.meta.url));
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-eval-'));
  writeFileSync(join(dir, 'Champ.ts'), botAs('Walker', 'Champ'));
});
after(() => {
  sharedPool.shutdown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--no-node-snapshot', BIN, 'eval', ...args], { cwd: dir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

test('arbiter eval: the seeds in the sandbox, each the match arbiter play gives; the summary and --json; progress when piped', async () => {
  const r = await cli(['moria', 'Champ.ts', '--seeds', '2,1', '--set', 'nb_rounds=30', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Moria: 2\/2 matches, [0-2] won, \d+ s$/m);
  const s = JSON.parse(r.stdout);
  assert.equal(s.seeds, 2);
  assert.deepEqual(
    s.matches.map((m: { seed: number }) => m.seed),
    [2, 1],
  );
  assert.deepEqual(
    s.cpu.map((c: { name: string }) => c.name),
    ['Champ', 'Dummy', 'Dummy', 'Dummy'],
  );
  assert.ok(s.processCpuMs > 0);
  for (const l of s.lost) assert.equal(l.play, `npx arbiter play moria Champ.ts Dummy Dummy Dummy --seed ${l.seed} --set nb_rounds=30`);
  const dummy = await builtinSeat('moria', 'Dummy');
  const judged = await playMatch({
    game: 'moria',
    seed: 1,
    config: { nb_rounds: 30 },
    seats: [{ filename: 'Champ.ts', source: readFileSync(join(dir, 'Champ.ts'), 'utf8') }, dummy, dummy, dummy],
  });
  assert.deepEqual(s.matches[1].scores, judged.replay.result.scores);

  const text = await cli(['moria', 'Champ.ts', '--seeds', '1', '--set', 'nb_rounds=30', '--quiet']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Champ\.ts against Dummy, Dummy, Dummy: 1 seeds, 1 at a time/m);
  assert.match(text.stdout, /^ {2}won [01] of 1 \(strictly first\): \d+\.\d%, 95% interval \d+\.\d% to \d+\.\d%$/m);

  const bad = await cli(['moria', 'Champ.ts', '--seeds', 'lots']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--seeds wants a range or a list/);
  const three = await cli(['moria', 'Champ.ts', 'Dummy']);
  assert.equal(three.code, 2);
  assert.match(three.stderr, /Moria has 4 players/);
});
