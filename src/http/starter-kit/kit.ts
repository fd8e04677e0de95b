// A game's starter kit (/games/:game/starter-kit.zip): the empty player, the API's types,
// a tsconfig, the README, local play with only Node (./build.ts) and each language's files.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { besideTypes, KIT_COMPILER_OPTIONS, selfContainedTypes } from '../../games/player-types.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { languages } from '../../sandbox/languages/index.ts';
import { notFound } from '../errors.ts';
import { localPlayEntries } from './build.ts';
import { zip, type ZipEntry } from './zip.ts';

const seconds = (ms: number) => `${ms / 1000} s`;

/** The starter kit's README: renaming, the API, playing locally, submitting, the limits. */
function kitReadme(game: AnyGame, botFile: string): string {
  const builtins = Object.keys(game.bots.builtin);
  const opponent = builtins.includes('Dummy') ? 'Dummy' : (builtins[0] ?? 'Null');
  return `# ${game.title}: starter kit

Everything you need to write an Arbiter bot for ${game.title}: the empty
player \`${botFile}\`, the API's types \`player.d.ts\`, and a \`tsconfig.json\`
that checks your bot against them. The rules are the statement on the
game's page (/games/${game.id}).

## Name your player

Open \`${botFile}\` (rename the file as you like) and change the line

    export const PLAYER_NAME = 'Null';

to your player's name: 1 to 12 characters from A-Z a-z 0-9 _, not taken by
anyone else and not a built-in player (${builtins.join(', ')}). Once a
version under a name beats the Dummy, the name is locked: a later version
needs a new name. Leave \`export const GAME = '${game.id}';\` as it is.

## The API

Your bot is a class that extends \`Player\`; \`play()\` is called once per
round. Fields you declare keep their values between rounds. The functions
are those of the statement, under the same names as in C++ (\`me()\`,
\`round()\`, \`random(l, u)\`...), available both as globals and as methods
(\`this.me()\`). \`player.d.ts\` documents every one of them: your editor
completes and checks them when the bot starts with

    /// <reference path="player.d.ts" />

Type-check the bot with \`npx tsc -p .\` (TypeScript installed), or just open
the folder in an editor that reads tsconfig.json.

The bot runs in a sandbox: standard ECMAScript only (no require/import, no
files, network, timers or WebAssembly). \`console.log\` goes to your bot's
log, which only you can download from the match page. \`Math.random()\` is
seeded per match; prefer the game's \`random(l, u)\`.

## Play locally

Two ways, neither of them judges: only the server does, when you submit.

### In your browser, nothing to install

Open ${game.title}'s play page on the judge's website (/games/${game.id}/play,
or Play in the menu). Choose \`${botFile}\` (or drop it there, or paste its
code), pick three opponents (the built-in players ${builtins.join(', ')}, or
files of yours such as \`Demo.ts\` from this kit), a seed, and play. The
match runs in your browser, with the judge's API and the same seeded
\`Math.random\`, then plays in the viewer with each bot's log beside the
board, round by round. Time there is wall time in your browser (the judge
counts CPU time) and no memory limit is applied.

### On the command line, with only Node

With Node 20 or newer, in this folder (nothing to install):

    node arbiter.mjs play ${botFile}                                   # against three ${opponent}s, a random seed
    node arbiter.mjs play ${botFile} ${opponent} Demo ${opponent} --seed 7 -o match.json
    node arbiter.mjs eval ${botFile} --seeds 1-100                      # many seeds: wins, CPU, freezes
    node arbiter.mjs view match.json                                  # watch it in the browser
    node arbiter.mjs verify match.json                                # re-run the engine, check every state

\`arbiter.mjs\` has the judge compile your file (the site's own compile, as
the play page does; nothing is kept there), keeps the result in \`.cache/\`
by the file's content, and plays here with the judge's engine and match loop
(\`play/\`): the same seed and players give the judge's match. The judge's
CPU budget applies (${seconds(game.defaultLimits.cpuBudgetMs)} of CPU per match, counted per call as the
judge does): a bot that runs past it, an endless loop included, is stopped
and frozen in the round where the judge would freeze it, for the same
reason. Memory is not limited per bot here (a bot whose call fills the
match's heap, all the bots' limits together and some room, is frozen for
memory). \`--cpu-budget MS\` tries a smaller (or larger) budget.

\`play\` prints the scores, each bot's CPU time against the budget and why a
bot was frozen, then what the bots wrote, and writes the replay as JSON.
\`eval\` plays your file (the first player) against the others (three
${opponent}s unless you name them) on many seeds (\`--seeds 1-100\` or
\`--seeds 3,7,9\`), one match per core at a time, and prints how many it won
(strictly first, as the gate counts) with a 95% interval, your mean score and
rank, each seat's CPU (mean and max) against the budget, every freeze with its
seed, round and reason, and the seeds not won with the line that plays each
again; \`--json\` prints the same for scripts. \`view\` serves the replay on
this computer and shows it in the site's viewer. A C++ file (\`cpp/\`) needs
your API token (see Submit below). \`node play.mjs ...\` is \`node arbiter.mjs
play ...\`; \`node arbiter.mjs --help\` lists the options.

## Demo.ts

\`Demo.ts\` is the built-in Demo player, a simple example to read, and an
opponent to play against as a file of yours (its name is Demo: rename it in
your copy before you build on it, and never submit it as it is).

## Submit

On the website: log in, open Submit, choose ${game.title} and your file. Or
from the command line, in this folder:

    export ARBITER_TOKEN=...                        # from your account page (or POST /api/tokens)
    node arbiter.mjs submit ${botFile}

It uploads the file to the site this kit came from (\`--url\` or
\`ARBITER_URL\` name another; \`--token\` and \`"token"\` in
\`~/.config/arbiter.json\` work too), then follows the gate to its verdict and
prints each gate match with its replay and the line that plays it again.

The gate then runs: compile, a self-play match (rejected if any copy is
frozen), four matches against three Dummies (it must finish strictly first
in all four). A qualified player enters ranked play.

## Limits

- CPU time: ${seconds(game.defaultLimits.cpuBudgetMs)} for the whole match, loading included.
- Memory: ${game.defaultLimits.memoryMb} MiB.
- At most 1000 orders per round; only the first order per unit counts.
- A bot that throws, runs out of CPU or memory, or gives too many orders
  is frozen: its units stay on the board, but it gives no more orders.
`;
}

/** The kit for `game`; `url` is the site its play.mjs compiles at (the site the kit was downloaded from). */
export async function starterKit(game: AnyGame, url: string): Promise<Buffer> {
  const templatePath = game.bots.builtin['Null'] ?? Object.values(game.bots.builtin)[0];
  if (!templatePath) throw notFound(`${game.title} has no template player to start from.`);
  const botFile = 'MyBot.ts';
  const template = besideTypes(await readFile(templatePath, 'utf8'));
  // The Demo too: an example to read, and an opponent to play against as a file.
  const demoPath = game.bots.builtin['Demo'];
  const demo = demoPath ? besideTypes(await readFile(demoPath, 'utf8')) : null;
  // player.d.ts with the declarations the games share inlined: one self-contained file.
  const types = await selfContainedTypes(game.bots.types);
  const tsconfig = {
    compilerOptions: KIT_COMPILER_OPTIONS,
    files: ['player.d.ts', botFile, ...(demo === null ? [] : ['Demo.ts'])],
  };
  const dir = `${game.id}-starter-kit`;
  return zip([
    { name: `${dir}/README.md`, data: kitReadme(game, botFile) },
    { name: `${dir}/${botFile}`, data: template },
    ...(demo === null ? [] : [{ name: `${dir}/Demo.ts`, data: demo }]),
    { name: `${dir}/${basename(game.bots.types)}`, data: types },
    { name: `${dir}/tsconfig.json`, data: JSON.stringify(tsconfig, null, 2) + '\n' },
    // Local play with only Node: play.mjs and the judge's engine and match loop (play/).
    ...(await localPlayEntries(game, dir, url)),
    // Each language's own files, in its folder (C++'s cpp/: headers, Null and Demo, its README).
    ...(await languageKitEntries(game, dir)),
  ]);
}

/** The files each language puts in a game's kit, under the kit's folder for that language. */
async function languageKitEntries(game: AnyGame, dir: string): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  for (const language of languages) {
    if (!language.kitFiles || !language.kitFolder) continue;
    for (const f of await language.kitFiles(game)) entries.push({ name: `${dir}/${language.kitFolder}/${f.path}`, data: f.data });
  }
  return entries;
}
