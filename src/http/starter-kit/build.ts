// The starter kit's command line (arbiter.mjs, play.mjs and play/ in the zip):
// a student plays, evaluates, verifies and watches matches on their own
// computer with nothing but Node, the same match the judge plays for the same
// seed, and submits from there. Built by the server when the kit zip is made:
// play/runner.mjs is one game's engine, the judge's match loop and the
// in-process bot host bundled for Node (runner.ts); play/kit.json carries the
// judge's prelude (bot runtime, API, C++ glue), the built-in players as the
// judge compiles them, the game's limits and the site to compile at;
// arbiter.mjs (this folder's file, as it is) sends the student's file to the
// judge's compile and plays; it submits and verifies with the CLI's own code,
// which it finds in play/runner.mjs.

import { build, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameDir } from '../../games/registry.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { resolveLimits, type Limits } from '../../sdk/limits.ts';
import { compileSeat } from '../../sandbox/languages/compile-seat.ts';
import { buildPrelude } from '../../sandbox/hosts/prelude.ts';
import type { ZipEntry } from './zip.ts';

const kitDir = fileURLToPath(new URL('.', import.meta.url));
// The engines look in their folder for bot files and statements when a game is defined; in the kit there is none.
const nodeShim = fileURLToPath(new URL('../client/play/node-shim.ts', import.meta.url));

const noGameFolder: Plugin = {
  name: 'node-shim',
  setup(b) {
    b.onResolve({ filter: /^node:(fs|path|url)$/ }, () => ({ path: nodeShim }));
    // The kit has one game, given to the runner: the registry of games (replay-verify.ts's getGame) is not bundled.
    b.onResolve({ filter: /\/games\/registry\.ts$/ }, () => ({ path: 'registry', namespace: 'kit-one-game' }));
    b.onLoad({ filter: /.*/, namespace: 'kit-one-game' }, () => ({
      contents: `export function getGame() { throw new Error('the kit plays its own game only'); }`,
      loader: 'js',
    }));
  },
};

/** play/runner.mjs: `run(match)` plays one match of `game` (runner.ts's runKitMatch), `verify(replay)` re-runs one; and the submit and verify steps the CLI shares (shared-commands.ts). */
export async function kitRunner(game: AnyGame): Promise<string> {
  const dir = await gameDir(game.id);
  if (!dir) throw new Error(`no folder for game "${game.id}"`);
  const result = await build({
    stdin: {
      contents: [
        `import game from ${JSON.stringify(join(dir, 'index.ts'))};`,
        `import { runKitMatch, verifyKitReplay } from './runner.ts';`,
        `export { cpuBudgetUsedUp, memoryLimitExceeded, METER_BYTES, evalMatch, isWin, parseSeeds, summarize, summaryLines } from './runner.ts';`,
        `export const run = (match) => runKitMatch(game, match);`,
        `export const verify = (replay) => verifyKitReplay(game, replay);`,
        // Submit and verify as `arbiter submit` / `arbiter verify` do them, for arbiter.mjs.
        `export { reportVerification, submitAndFollow, SubmitError } from './shared-commands.ts';`,
      ].join('\n'),
      loader: 'ts',
      resolveDir: kitDir,
      sourcefile: 'kit-runner.ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    minify: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: [noGameFolder],
  });
  return `// ${game.title}: the judge's engine and match loop for play.mjs (made by the site with the kit).\n${result.outputFiles[0]!.text}`;
}

export interface KitData {
  game: string;
  title: string;
  nbPlayers: number;
  /** The site that compiles the student's files (play.mjs's default --url). */
  url: string;
  /** Changes with the runner, the prelude and the built-ins: play.mjs's cached modules are kept per version. */
  version: string;
  prelude: string;
  builtins: Record<string, { filename: string; source: string; compiled: unknown }>;
  /** The judge's limits for a match of this game (its defaults, as the judge resolves them): arbiter.mjs applies the CPU budget. */
  limits: Limits;
}

export async function kitData(game: AnyGame, url: string, runner: string): Promise<KitData> {
  const prelude = await buildPrelude(game);
  const builtins: KitData['builtins'] = {};
  for (const [name, path] of Object.entries(game.bots.builtin)) {
    const source = await readFile(path, 'utf8');
    const filename = basename(path);
    builtins[name] = { filename, source, compiled: await compileSeat(source, filename, 0, game.id) };
  }
  const version = createHash('sha256').update(runner).update('\0').update(prelude).update(JSON.stringify(builtins)).digest('hex').slice(0, 16);
  return { game: game.id, title: game.title, nbPlayers: game.nbPlayers, url, version, prelude, builtins, limits: resolveLimits(game.defaultLimits) };
}

/** The kit's command line under `dir`: arbiter.mjs (play.mjs its alias for play), play/runner.mjs and play/kit.json. */
export async function localPlayEntries(game: AnyGame, dir: string, url: string): Promise<ZipEntry[]> {
  const runner = await kitRunner(game);
  const data = await kitData(game, url, runner);
  return [
    { name: `${dir}/arbiter.mjs`, data: await readFile(join(kitDir, 'arbiter.mjs'), 'utf8') },
    { name: `${dir}/play.mjs`, data: await readFile(join(kitDir, 'play.mjs'), 'utf8') },
    { name: `${dir}/play/runner.mjs`, data: runner },
    { name: `${dir}/play/kit.json`, data: JSON.stringify(data) },
  ];
}
