// `arbiter new-game`: the skeleton it writes is a game as it stands (the
// contract test as written passes on it, a seeded match plays and verifies,
// its bots typecheck against its player.d.ts), and so is Trails
// (test/fixtures/games/trails), the fixture built from it: `arbiter new-game
// trails --title Trails --dir test/fixtures/games`, then edited only where an
// author would: index.ts's header comment and one rule in next() (a unit
// cannot step onto another player's paint), the statements' rules paragraph
// (the stub's comment dropped) and bots/Demo.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newGame } from '../../src/cli/new-game.ts';
import { ARBITER_BIN } from '../helpers/cli.ts';
import type { AnyGame } from '../../src/sdk/types.ts';
import { playerDts, type ApiTable } from '../../src/sdk/api-table.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const games = mkdtempSync(join(tmpdir(), 'arbiter-new-game-'));

function run(args: string[], env: Record<string, string> = {}) {
  // Without the runner's NODE_TEST_CONTEXT, a child `node --test` reports in TAP on its stdout, not to this runner.
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000, env: { ...inherited, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const arbiter = (args: string[], env: Record<string, string> = {}) => run([ARBITER_BIN, ...args], env);

test('a bad id, a bad title or a folder that exists: exit 2 and one line saying which', async () => {
  const bad = arbiter(['new-game', 'Bad_Id', '--dir', games]);
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /^arbiter new-game: bad game id "Bad_Id": 2-30 characters, lowercase letters, digits and '-', starting with a letter\n$/);
  assert.equal(existsSync(join(games, 'Bad_Id')), false);
  await assert.rejects(async () => newGame({ id: 'x', dir: games }), /bad game id "x"/);
  await assert.rejects(async () => newGame({ id: '9lives', dir: games }), /bad game id/);
  await assert.rejects(async () => newGame({ id: 'ok-id', title: 'two\nlines', dir: games }), /bad title/);
  // The project's own games and the folder of another root are taken.
  await assert.rejects(async () => newGame({ id: 'moria' }), /src\/games\/moria already exists/);
  mkdirSync(join(games, 'taken'));
  const taken = arbiter(['new-game', 'taken', '--dir', games]);
  assert.equal(taken.code, 2, taken.err);
  assert.match(taken.err, /taken already exists: pick another id/);
  const help = arbiter(['new-game', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: arbiter new-game <id> \[--title "\.\.\."\] \[--dir <folder of games>\]/);
});

test("the title is written as a literal: L'Illa stays one string", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-new-game-title-'));
  const { gameDir } = await newGame({ id: 'illa', title: "L'Illa", dir });
  const game = ((await import(pathToFileURL(join(gameDir, 'index.ts')).href)) as { default: AnyGame }).default;
  assert.equal(game.id, 'illa');
  assert.equal(game.title, "L'Illa");
  assert.equal(game.engineVersion, 'illa-1');
  assert.match(readFileSync(join(gameDir, 'statement.ca.md'), 'utf8'), /^# L'Illa\n/);
});

test('the skeleton written into a folder of games: its bots and its viewer typecheck, a seeded match plays and verifies', () => {
  const made = arbiter(['new-game', 'skeleton', '--dir', games]);
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /wrote 18 files for "skeleton"/);
  for (const f of [
    'index.ts',
    'view.ts',
    'bot-api.ts',
    'player.d.ts',
    'bots/Null.ts',
    'bots/Dummy.ts',
    'viewer.ts',
    'viewer-words.ts',
    'statement.es.md',
    'test/golden.ts',
    'package.json',
  ])
    assert.ok(existsSync(join(games, 'skeleton', f)), f);
  const tsc = (project: string) => run([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
  const bots = tsc(join(games, 'skeleton', 'bots', 'tsconfig.json'));
  assert.equal(bots.code, 0, bots.out + bots.err);
  // The viewer as the site's client code is checked: DOM types, strict.
  const client = JSON.parse(readFileSync(join(ROOT, 'src', 'http', 'client', 'tsconfig.json'), 'utf8')) as { compilerOptions: object };
  writeFileSync(join(games, 'tsconfig.viewer.json'), JSON.stringify({ compilerOptions: client.compilerOptions, files: ['skeleton/viewer.ts'] }));
  const viewer = tsc(join(games, 'tsconfig.viewer.json'));
  assert.equal(viewer.code, 0, viewer.out + viewer.err);

  const env = { ARBITER_GAMES_PATH: games };
  const replay = join(games, 'match.json.gz');
  const played = arbiter(['play', 'skeleton', 'Demo', 'Dummy', 'Dummy', 'Null', '--seed', '1', '-o', replay], env);
  assert.equal(played.code, 0, played.err);
  assert.match(played.out, /^Skeleton, seed 1, 100 rounds/);
  // Null never moves: it keeps the one cell it starts on; the others paint more.
  assert.match(played.out, /^4\s+Null\s+1\s/m);
  const verified = arbiter(['verify', replay], env);
  assert.equal(verified.code, 0, verified.err + verified.out);
  assert.match(verified.out, /^ok: skeleton, seed 1, 100 rounds replayed/);
});

test("Trails' player.d.ts is its API table's text, and its bot API installs every function of the table", async () => {
  const dir = join(ROOT, 'test', 'fixtures', 'games', 'trails');
  const { API, install } = (await import(pathToFileURL(join(dir, 'bot-api.ts')).href)) as { API: ApiTable; install: (rt: unknown) => void };
  const strip = (dts: string) => dts.replace(/^\/\/\/ <reference path=.*\n/gm, '');
  assert.equal(strip(readFileSync(join(dir, 'player.d.ts'), 'utf8')), strip(playerDts(API)));
  assert.match(readFileSync(join(dir, 'player.d.ts'), 'utf8'), /^\/\/\/ <reference path="\.\.\/\.\.\/\.\.\/\.\.\/src\/sdk\/player-api\.d\.ts" \/>$/m);
  const defined: string[] = [];
  install({ onView: () => {}, order: () => {}, define: (name: string) => void defined.push(name) });
  for (const f of API.entries) if (f.kind === 'function' || f.kind === 'enum') assert.ok(defined.includes(f.name), f.name);
});

test('the contract test as written passes on the fresh skeleton and on Trails, the game built from it', async () => {
  // skeleton-1's digest is recorded in test/fixtures/contract/digests.json: a change to the template's rules shows here.
  if (!existsSync(join(games, 'skeleton'))) await newGame({ id: 'skeleton', dir: games });
  const r = run(['--import', 'tsx', '--test', '--test-reporter=tap', '--test-name-pattern=^(skeleton|trails): ', 'test/games/contract.test.ts'], {
    ARBITER_GAMES_PATH: games,
  });
  assert.equal(
    r.code,
    0,
    r.out
      .split('\n')
      .filter((l) => /^not ok|Error|expected|actual/.test(l.trim()))
      .join('\n') || r.err,
  );
  const passed = r.out.split('\n').filter((l) => /^ok \d+ - (skeleton|trails): /.test(l));
  assert.equal(passed.length, 8, r.out);
  assert.match(r.out, /^# fail 0$/m);
});
