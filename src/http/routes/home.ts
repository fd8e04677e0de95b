// The front page (every game with its leaderboard top and latest matches, how
// it works), a game's page (statement, starter kit, limits, built-in
// players) and the starter kit itself (/games/:id/starter-kit.zip).

import type { FastifyInstance } from 'fastify';
import { typed } from '../typed.ts';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { selfContainedTypes } from '../../games/player-types.ts';
import { loadGames } from '../../games/registry.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { notFound } from '../errors.ts';
import { qualifiedPlayerCounts } from '../../domain/game-overview.ts';
import { latestMatches } from '../../domain/matches.ts';
import { html, type Html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { renderStatement } from '../render/statement.ts';
import { zip, type ZipEntry } from '../starter-kit/zip.ts';
import { languages } from '../../sandbox/languages/index.ts';
import { localPlayEntries } from '../starter-kit/build.ts';
import { gameOr404, leaderboardTable } from './leaderboard.ts';
import { readLeaderboard } from '../../domain/ratings/leaderboard.ts';
import { matchesTable } from './matches/index.ts';
import { LANGUAGE_NAMES, t, th, word } from '../i18n/index.ts';

const LANGUAGES: Record<string, string> = LANGUAGE_NAMES;
const seconds = (ms: number) => `${ms / 1000} s`;

const howItWorks = () => html`<section id="how-it-works" aria-labelledby="how-it-works-h">
<h2 id="how-it-works-h">${t('home.how')}</h2>
<ol class="steps">
  <li>${th('home.step1_html')}</li>
  <li>${th('home.step2_html')}</li>
  <li>${th('home.step3_html')}</li>
  <li>${th('home.step4_html')}</li>
  <li>${th('home.step5_html')}</li>
</ol>
</section>`;

async function qualifiedCounts(app: FastifyInstance): Promise<Map<string, number>> {
  return qualifiedPlayerCounts(app.deps.db);
}

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
async function starterKit(game: AnyGame, url: string): Promise<Buffer> {
  const templatePath = game.bots.builtin['Null'] ?? Object.values(game.bots.builtin)[0];
  if (!templatePath) throw notFound(`${game.title} has no template player to start from.`);
  const botFile = 'MyBot.ts';
  // The template sits in bots/ next to ../player.d.ts; in the kit they are side by side.
  const besideTypes = (source: string) => source.replace(/(\/\/\/\s*<reference\s+path=")[^"]*player\.d\.ts("\s*\/>)/, '$1player.d.ts$2');
  const template = besideTypes(await readFile(templatePath, 'utf8'));
  // The Demo too: an example to read, and an opponent to play against as a file.
  const demoPath = game.bots.builtin['Demo'];
  const demo = demoPath ? besideTypes(await readFile(demoPath, 'utf8')) : null;
  // player.d.ts with the declarations the games share inlined: one self-contained file.
  const types = await selfContainedTypes(game.bots.types);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      isolatedModules: true,
    },
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

const kits = new Map<string, Promise<Buffer>>();

const GAME_PARAMS = { type: 'object', required: ['game'], properties: { game: { type: 'string', minLength: 1, maxLength: 64 } } } as const;

/** Statements are files shipped with the game: each is read and rendered once. */
const statements = new Map<string, Promise<Html>>();
function statementHtml(path: string): Promise<Html> {
  let p = statements.get(path);
  if (!p) {
    p = readFile(path, 'utf8').then(renderStatement);
    statements.set(path, p);
    p.catch(() => statements.delete(path));
  }
  return p;
}

export default async function homePages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const games = await loadGames();
    const qualified = await qualifiedCounts(app);
    // Every game's boxes at once; the latest matches need no total count.
    const boxes = await Promise.all(
      [...games.values()].map((game) => Promise.all([readLeaderboard(db, game.id, 5, 0), latestMatches(db, { game: game.id, limit: 5, offset: 0 })])),
    );
    const cards: Html[] = [];
    for (const [g, game] of [...games.values()].entries()) {
      const [top, latest] = boxes[g]!;
      const n = qualified.get(game.id) ?? 0;
      cards.push(html`<article class="card game-card" id="game-${game.id}" aria-labelledby="game-${game.id}-h">
<h2 id="game-${game.id}-h"><a href="/games/${game.id}">${game.title}</a></h2>
<p>${t('home.qualified', n)} · ${t('home.cpuPerMatch', seconds(game.defaultLimits.cpuBudgetMs))} · <a href="/games/${game.id}/starter-kit.zip">${t('home.starterKit')}</a></p>
<h3>${t('home.leaderboard')}</h3>
${leaderboardTable(top.players, game, `leaderboard-${game.id}`)}
${top.total > 5 ? html`<p><a href="/games/${game.id}/leaderboard">${t('home.allPlayers', top.total)}</a></p>` : ''}
<h3>${t('home.latestMatches')}</h3>
${
  latest.length
    ? html`<ul class="latest" id="latest-${game.id}">${latest.map(
        (m) =>
          html`<li><a href="/matches/${m.id}">#${m.id}</a> ${word(m.kind)}: ${m.participants.map((p, i) => html`${i ? ', ' : ''}<span class="seat seat-${p.seat}" aria-hidden="true"></span>${p.name}${p.score !== null ? ` ${p.score}` : ''}`)}${m.status !== 'done' ? html` <span class="badge ${m.status}">${word(m.status)}</span>` : ''}</li>`,
      )}</ul>
<p><a href="/matches?game=${game.id}">${t('home.moreMatches')}</a></p>`
    : html`<p class="muted">${t('home.noMatch')}</p>`
}
</article>`);
    }
    return sendPage(reply, {
      title: t('home.title'),
      user: request.user,
      nav: '/',
      body: html`<h1>${t('home.h1')}</h1>
<p class="lead">${t('home.lead')}</p>
<div class="cards" id="games">${cards}</div>
${howItWorks()}`,
    });
  });

  app.get(
    '/games/:game',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: GAME_PARAMS,
        querystring: { type: 'object', additionalProperties: false, properties: { statement: { type: 'string', maxLength: 8 } } },
      },
    },
    async (request, reply) => {
      const game = await gameOr404(request.params.game);
      const langs = Object.keys(game.statements);
      // ?statement= picks the statement alone; else the site's language where the statement exists, else English, else the first.
      const asked = request.query.statement;
      if (asked && !langs.includes(asked)) {
        throw notFound(t('game.notAvailable', game.title, asked, langs.join(', ')));
      }
      const lang = asked || (langs.includes(request.lang) ? request.lang : langs.includes('en') ? 'en' : langs[0]);
      const [statement, top, latest, qualified] = await Promise.all([
        lang ? statementHtml(game.statements[lang]!) : Promise.resolve(null),
        readLeaderboard(db, game.id, 10, 0),
        latestMatches(db, { game: game.id, limit: 10, offset: 0 }),
        qualifiedCounts(app).then((c) => c.get(game.id) ?? 0),
      ]);
      const games = await loadGames();
      return sendPage(reply, {
        title: game.title,
        user: request.user,
        nav: '/',
        description: t('game.description', game.title),
        body: html`<p class="breadcrumbs"><a href="/">${t('nav.games')}</a></p>
<h1>${game.title}</h1>
<div class="game-layout">
<aside class="game-side" aria-label="${t('game.atAGlance', game.title)}">
<p><a class="button" id="starter-kit" href="/games/${game.id}/starter-kit.zip" download>${t('game.downloadKit')}</a></p>
<p class="hint">${t('game.kitHint')}</p>
<p><a class="button secondary" id="play-link" href="/games/${game.id}/play">${t('game.playInBrowser')}</a></p>
<h2>${t('game.limits')}</h2>
<dl class="facts" id="limits">
  <dt>${t('game.cpuTime')}</dt><dd>${t('game.cpuTimeValue', seconds(game.defaultLimits.cpuBudgetMs))}</dd>
  <dt>${t('game.memory')}</dt><dd>${game.defaultLimits.memoryMb} MiB</dd>
  <dt>${t('game.players')}</dt><dd>${t('game.playersValue', game.nbPlayers)}</dd>
  <dt>${t('game.qualified')}</dt><dd>${t('game.qualifiedValue', qualified)}</dd>
</dl>
<h2>${t('game.builtins')}</h2>
<ul id="builtin-players">${Object.keys(game.bots.builtin).map((n) => html`<li>${n}${n === 'Dummy' ? t('game.dummyNote') : n === 'Null' ? t('game.nullNote') : n === 'Demo' ? t('game.demoNote') : ''}</li>`)}</ul>
<h2>${t('home.leaderboard')}</h2>
${leaderboardTable(top.players, game)}
<p><a href="/games/${game.id}/leaderboard">${t('game.wholeLeaderboard')}</a></p>
</aside>
<section class="statement" id="statement" aria-labelledby="statement-h"${lang ? html` lang="${lang}"` : ''}>
<h2 id="statement-h" class="visually-hidden">${t('game.statement')}</h2>
${lang && lang !== request.lang && !asked ? html`<p class="notice" id="statement-fallback">${t('game.statementFallback', request.lang, lang)}</p>` : ''}
${langs.length > 1 ? html`<nav class="lang-switch" aria-label="${t('game.statementLanguage')}"><ul>${langs.map((l) => html`<li>${l === lang ? html`<span aria-current="true"><strong>${LANGUAGES[l] ?? l}</strong></span>` : html`<a href="/games/${game.id}?statement=${l}" hreflang="${l}" lang="${l}">${LANGUAGES[l] ?? l}</a>`}</li>`)}</ul></nav>` : ''}
${statement ?? html`<p class="muted">${t('game.noStatement')}</p>`}
</section>
</div>
<section id="latest-matches" aria-labelledby="latest-matches-h">
<h2 id="latest-matches-h">${t('home.latestMatches')}</h2>
${latest.length ? html`${matchesTable(latest, games, 'latest-matches-table')}<p><a href="/matches?game=${game.id}">${t('game.allMatches', game.title)}</a></p>` : html`<p class="muted">${t('home.noMatch')}</p>`}
</section>`,
      });
    },
  );

  app.get('/games/:game/starter-kit.zip', { config: { access: 'public' }, schema: { hide: true, params: GAME_PARAMS } }, async (request, reply) => {
    const game = await gameOr404(request.params.game);
    // The kit names the site it came from (play.mjs compiles there): one kit per game and address.
    const url = `${request.protocol}://${request.host}`;
    const key = `${game.id} ${url}`;
    let kit = kits.get(key);
    if (!kit) {
      // Bounded: a client picks the Host header it sends.
      if (kits.size >= 32) kits.clear();
      kit = starterKit(game, url);
      kits.set(key, kit);
      kit.catch(() => kits.delete(key));
    }
    const data = await kit;
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${game.id}-starter-kit.zip"`)
      .header('cache-control', 'public, max-age=3600')
      .send(data);
  });
}
