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
  // Throws in round() 4: frozen there, at the judge and in eval alike.
  writeFileSync(
    join(dir, 'Crasher.ts'),
    botAs('Walker', 'Crasher', (s) => s.replace('play(): void {', "play(): void {\n    if (round() === 4) throw new Error('boom');")),
  );
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

  // Each seed's match is the one the judge plays (arbiter play's): its rounds, scores, ranks and freezes, with a bot frozen.
  const mixed = await cli(['moria', 'Champ.ts', 'Crasher.ts', 'Dummy', 'Dummy', '--seeds', '3,1,2', '--set', 'nb_rounds=30', '--json', '--quiet']);
  assert.equal(mixed.code, 0, mixed.stderr);
  const m = JSON.parse(mixed.stdout);
  const dummy = await builtinSeat('moria', 'Dummy');
  const file = (name: string) => ({ filename: name, source: readFileSync(join(dir, name), 'utf8') });
  const decisions = (players: { name: string; frozenRound: number | null; frozenReason: string | null; frozenMessage: string | null }[]) =>
    players.map((p) => [p.name, p.frozenRound, p.frozenReason, p.frozenMessage]);
  for (const [i, seed] of [3, 1, 2].entries()) {
    const judged = await playMatch({ game: 'moria', seed, config: { nb_rounds: 30 }, seats: [file('Champ.ts'), file('Crasher.ts'), dummy, dummy] });
    const got = m.matches[i];
    assert.equal(got.seed, seed);
    assert.equal(got.rounds, judged.replay.rounds.length - 1);
    assert.deepEqual(got.scores, judged.replay.result.scores, `seed ${seed}`);
    assert.deepEqual(got.ranks, judged.replay.result.ranks, `seed ${seed}`);
    assert.deepEqual(decisions(got.players), decisions(judged.replay.players), `seed ${seed}`);
  }
  assert.deepEqual(
    m.freezes.map((f: { seed: number; seat: number; round: number; reason: string }) => [f.seed, f.seat, f.round, f.reason]),
    [
      [3, 1, 4, 'exception'],
      [1, 1, 4, 'exception'],
      [2, 1, 4, 'exception'],
    ],
  );

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
