// The C++ language's files in a game's starter kit (its kitFolder, cpp/): the
// headers a player compiles against (the statement's API, the view header
// generated from the game's layout), the Null and Demo players in C++, and how
// to play and submit a .cc file. Games without a C++ API get none.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyGame } from '../../../sdk/types.ts';
import type { KitFile } from '../types.ts';
import { gameHeaders, shippedCppPlayer } from './headers.ts';

function cppReadme(game: AnyGame): string {
  const builtins = Object.keys(game.bots.builtin);
  const opponent = builtins.includes('Dummy') ? 'Dummy' : (builtins[0] ?? 'Null');
  return `# ${game.title} in C++

The course's way: one file \`AIName.cc\` against the statement's C++ API.
\`AINull.cc\` is the empty player, \`AIDemo.cc\` a simple one to learn from;
the headers (\`Player.hh\` and the ones it includes) carry the statement's
names and signatures, so a player written for the original game compiles
unchanged.

## Name your player

Copy \`AINull.cc\` to \`AIYourName.cc\` and change the line

    #define PLAYER_NAME Null

The game is the one you submit the file for; a line \`// GAME: ${game.id}\` in
the file names it too.

## How it runs

The judge compiles your file with clang to WebAssembly (C++17, -O2, no
exceptions) and runs it in the same sandbox, under the same limits, as a
JavaScript bot: the standard library works (vector, map, set, queue,
algorithm, iostream, cmath...); \`cerr\` and \`cout\` go to your bot's log; a
failed \`assert\`, \`abort()\` or \`exit()\` freezes the bot with the
message; memory is limited to ${game.defaultLimits.memoryMb} MiB (an
allocation past it freezes the bot for memory). There is no input, no files
and no clock: \`random(l, u)\` draws from your player's own generator, seeded
per match.

## Play locally

With nothing but Node (20 or newer), from the kit's folder (one level up):

    node arbiter.mjs play cpp/AIYourName.cc                                 # against three ${opponent}s, a random seed
    node arbiter.mjs play cpp/AIYourName.cc ${opponent} Demo ${opponent} --seed 7 -o match.json
    node arbiter.mjs eval cpp/AIYourName.cc --seeds 1-100                   # wins, CPU and freezes over many seeds

\`arbiter.mjs\` sends your file to the judge's own compile on the site this
kit came from (signed in: your API token in \`ARBITER_TOKEN\`, \`--token\`
or \`~/.config/arbiter.json\`; get one on the site's account page or with
POST /api/tokens), keeps the module in \`.cache/\` by your file's content,
and plays on your computer with the judge's engine and match loop: the same
seed and players give the match the judge plays, under the judge's CPU
budget (a player that loops is frozen where the judge would freeze it).
\`play\` prints the scores, the CPU times, why a bot was frozen and what
each bot wrote (your \`cerr\`), and writes the replay (\`node arbiter.mjs
view match.json\` shows it). A compile error is printed as clang prints it,
with the line and column in your file. The site's play page
(/games/${game.id}/play) takes the \`.cc\` file too, signed in, and shows
the match in the viewer.

## Build it natively (gdb, sanitizers)

These headers compile with the machine's own compiler too, without a
warning, to check your file:

    g++ -std=c++17 -Wall -Wextra -fsyntax-only AIYourName.cc

To run your player natively under gdb or with
\`-fsanitize=address,undefined\`, build it in the course's original package
(its \`Makefile\` and \`./Game\`): the API is the same, so the same file
compiles there. Where a native run and the judge's may differ (\`long\` is
32 bits on wasm32; libc++ against libstdc++: the order of equal elements in
\`sort\` and \`priority_queue\`, the iteration order of unordered
containers; uninitialised values): see docs/cpp-locally.md in Arbiter's
repository.

## Submit

On the website (Submit, choose ${game.title} and the .cc file) or, from the
kit's folder, with your API token:

    node arbiter.mjs submit cpp/AIYourName.cc

It follows the gate to its verdict, as the site's submission page does.
`;
}

/** The kit's C++ files (paths inside its cpp/ folder), or none for a game without C++ headers. */
export async function cppKitFiles(game: AnyGame): Promise<KitFile[]> {
  const gameCpp = new URL(`../../../games/${game.id}/cpp/`, import.meta.url);
  if (!existsSync(fileURLToPath(gameCpp))) return [];
  const headers = await gameHeaders(game.id);
  const files: KitFile[] = [{ path: 'README.md', data: cppReadme(game) }];
  for (const player of ['AINull.cc', 'AIDemo.cc'] as const) {
    const data = shippedCppPlayer(game.id, player);
    if (data !== null) files.push({ path: player, data });
  }
  for (const name of Object.keys(headers).sort()) files.push({ path: name, data: headers[name]! });
  return files;
}
