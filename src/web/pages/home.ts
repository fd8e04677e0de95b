// The front page (every game with its leaderboard top and latest matches, how
// it works), a game's page (statement, starter kit, limits, built-in
// players) and the starter kit itself (/games/:id/starter-kit.zip).

import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { selfContainedTypes } from '../../game-kit/player-types.ts';
import { loadGames } from '../../game-kit/registry.ts';
import type { AnyGame } from '../../game-kit/types.ts';
import { notFound } from '../../server/errors.ts';
import { latestMatches } from '../../domain/matches.ts';
import { html, type Html } from '../html.ts';
import { sendPage } from '../layout.ts';
import { renderStatement } from '../statement.ts';
import { zip } from '../zip.ts';
import { cppKitEntries } from '../cpp-kit.ts';
import { gameOr404, leaderboardTable } from './leaderboard.ts';
import { readLeaderboard } from '../../ratings/leaderboard.ts';
import { matchesTable } from './matches.ts';

const LANGUAGES: Record<string, string> = { en: 'English', ca: 'Català', es: 'Español' };
const seconds = (ms: number) => `${ms / 1000} s`;

const howItWorks = html`<section id="how-it-works" aria-labelledby="how-it-works-h">
<h2 id="how-it-works-h">How it works</h2>
<ol class="steps">
  <li><strong>Write a bot</strong> in TypeScript or JavaScript from a game's starter kit: one file, one class with a <code>play()</code> method called every round, the statement's API under the same names as in C++.</li>
  <li><strong>Run it locally</strong> against the built-in players with <code>npx arbiter play</code>, and watch the match with <code>npx arbiter view</code>.</li>
  <li><strong><a href="/submit">Submit</a></strong> the file here (or with <code>npx arbiter submit</code>).</li>
  <li><strong>Pass the Dummy gate</strong>: it compiles, survives a match against three copies of itself, then finishes strictly first in four matches against three Dummies. Its name is then locked.</li>
  <li><strong>Get ranked</strong>: qualified players play each other continuously; the leaderboard orders them by rating, and every match has a public replay.</li>
</ol>
</section>`;

async function qualifiedCounts(app: FastifyInstance): Promise<Map<string, number>> {
  const counts = await app.deps.db.playerName.groupBy({ by: ['game'], where: { locked: true }, _count: { _all: true } });
  return new Map(counts.map((c) => [c.game, c._count._all]));
}

/** The starter kit's README: renaming, the API, playing locally, submitting, the limits. */
function kitReadme(game: AnyGame, botFile: string): string {
  const builtins = Object.keys(game.bots.builtin);
  const opponent = builtins.includes('Dummy') ? 'Dummy' : builtins[0] ?? 'Null';
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

With Node 20 or newer, in a checkout of Arbiter (\`npm install\` there):

    npx arbiter play ${game.id} ${botFile} ${opponent} ${opponent} ${opponent} -o match.json.gz
    npx arbiter view match.json.gz       # watch it in the browser
    npx arbiter verify match.json.gz     # re-run the engine and check every state
    npx arbiter play --list              # games and built-in players

\`play\` prints the scores and ranks, each bot's CPU time and, for a frozen
bot, the round and the reason (with the line in your file for an
exception), then what your bot printed. \`--seed N\` picks the board; try
many seeds.

## Submit

On the website: log in, open Submit, choose ${game.title} and your file. Or
from the command line:

    export ARBITER_URL=https://the-judge.example    # the judge's address
    export ARBITER_TOKEN=...                        # from POST /api/tokens
    npx arbiter submit ${botFile} --game ${game.id}

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

async function starterKit(game: AnyGame): Promise<Buffer> {
  const templatePath = game.bots.builtin['Null'] ?? Object.values(game.bots.builtin)[0];
  if (!templatePath) throw notFound(`${game.title} has no template player to start from.`);
  const botFile = 'MyBot.ts';
  // The template sits in bots/ next to ../player.d.ts; in the kit they are side by side.
  const template = (await readFile(templatePath, 'utf8')).replace(/(\/\/\/\s*<reference\s+path=")[^"]*player\.d\.ts("\s*\/>)/, '$1player.d.ts$2');
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
    files: ['player.d.ts', botFile],
  };
  const dir = `${game.id}-starter-kit`;
  return zip([
    { name: `${dir}/README.md`, data: kitReadme(game, botFile) },
    { name: `${dir}/${botFile}`, data: template },
    { name: `${dir}/${basename(game.bots.types)}`, data: types },
    { name: `${dir}/tsconfig.json`, data: JSON.stringify(tsconfig, null, 2) + '\n' },
    // The C++ variant (cpp/): headers, Null and Demo, its README.
    ...(await cppKitEntries(game, dir)),
  ]);
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

export default async function homePages(app: FastifyInstance) {
  const { db } = app.deps;

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
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
<p>${n} qualified player${n === 1 ? '' : 's'} · ${seconds(game.defaultLimits.cpuBudgetMs)} of CPU per match · <a href="/games/${game.id}/starter-kit.zip">starter kit</a></p>
<h3>Leaderboard</h3>
${leaderboardTable(top.players, game, `leaderboard-${game.id}`)}
${top.total > 5 ? html`<p><a href="/games/${game.id}/leaderboard">All ${top.total} players</a></p>` : ''}
<h3>Latest matches</h3>
${latest.length ? html`<ul class="latest" id="latest-${game.id}">${latest.map(
        (m) => html`<li><a href="/matches/${m.id}">#${m.id}</a> ${m.kind}: ${m.participants.map((p, i) => html`${i ? ', ' : ''}<span class="seat seat-${p.seat}" aria-hidden="true"></span>${p.name}${p.score !== null ? ` ${p.score}` : ''}`)}${m.status !== 'done' ? html` <span class="badge ${m.status}">${m.status}</span>` : ''}</li>`,
      )}</ul>
<p><a href="/matches?game=${game.id}">More matches</a></p>` : html`<p class="muted">No match yet.</p>`}
</article>`);
    }
    return sendPage(reply, {
      title: 'Games',
      user: request.user,
      nav: '/',
      body: html`<h1>Arbiter: bot tournaments</h1>
<p class="lead">Write a player for a four-player game, beat the Dummy, climb the leaderboard, and watch every match.</p>
<div class="cards" id="games">${cards}</div>
${howItWorks}`,
    });
  });

  app.get<{ Params: { game: string }; Querystring: { lang?: string } }>(
    '/games/:game',
    {
      schema: {
        hide: true,
        params: GAME_PARAMS,
        querystring: { type: 'object', additionalProperties: false, properties: { lang: { type: 'string', maxLength: 8 } } },
      },
    },
    async (request, reply) => {
      const game = await gameOr404(request.params.game);
      const langs = Object.keys(game.statements);
      const lang = request.query.lang || (langs.includes('en') ? 'en' : langs[0]);
      if (request.query.lang && !langs.includes(request.query.lang)) {
        throw notFound(`The ${game.title} statement is not available in "${request.query.lang}" (it is in: ${langs.join(', ')}).`);
      }
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
        description: `${game.title}: the rules, the starter kit, the leaderboard and the latest matches.`,
        body: html`<p class="breadcrumbs"><a href="/">Games</a></p>
<h1>${game.title}</h1>
<div class="game-layout">
<aside class="game-side" aria-label="${game.title} at a glance">
<p><a class="button" id="starter-kit" href="/games/${game.id}/starter-kit.zip" download>Download the starter kit</a></p>
<p class="hint">The empty player, the API's types (player.d.ts), a tsconfig.json and a README: how to play locally and submit.</p>
<h2>Limits</h2>
<dl class="facts" id="limits">
  <dt>CPU time</dt><dd>${seconds(game.defaultLimits.cpuBudgetMs)} per bot for the whole match</dd>
  <dt>Memory</dt><dd>${game.defaultLimits.memoryMb} MiB</dd>
  <dt>Players</dt><dd>${game.nbPlayers} per match</dd>
  <dt>Qualified</dt><dd>${qualified} player${qualified === 1 ? '' : 's'}</dd>
</dl>
<h2>Built-in players</h2>
<ul id="builtin-players">${Object.keys(game.bots.builtin).map((n) => html`<li>${n}${n === 'Dummy' ? ' (the gate: beat it to qualify)' : n === 'Null' ? ' (does nothing: the template)' : n === 'Demo' ? ' (a simple example)' : ''}</li>`)}</ul>
<h2>Leaderboard</h2>
${leaderboardTable(top.players, game)}
<p><a href="/games/${game.id}/leaderboard">The whole leaderboard</a></p>
</aside>
<section class="statement" id="statement" aria-labelledby="statement-h"${lang ? html` lang="${lang}"` : ''}>
<h2 id="statement-h" class="visually-hidden">Statement</h2>
${langs.length > 1 ? html`<nav class="lang-switch" aria-label="Statement language"><ul>${langs.map((l) => html`<li>${l === lang ? html`<span aria-current="true"><strong>${LANGUAGES[l] ?? l}</strong></span>` : html`<a href="/games/${game.id}?lang=${l}" hreflang="${l}" lang="${l}">${LANGUAGES[l] ?? l}</a>`}</li>`)}</ul></nav>` : ''}
${statement ?? html`<p class="muted">No statement yet.</p>`}
</section>
</div>
<section id="latest-matches" aria-labelledby="latest-matches-h">
<h2 id="latest-matches-h">Latest matches</h2>
${latest.length ? html`${matchesTable(latest, games, 'latest-matches-table')}<p><a href="/matches?game=${game.id}">All ${game.title} matches</a></p>` : html`<p class="muted">No match yet.</p>`}
</section>`,
      });
    },
  );

  app.get<{ Params: { game: string } }>('/games/:game/starter-kit.zip', { schema: { hide: true, params: GAME_PARAMS } }, async (request, reply) => {
    const game = await gameOr404(request.params.game);
    let kit = kits.get(game.id);
    if (!kit) {
      kit = starterKit(game);
      kits.set(game.id, kit);
      kit.catch(() => kits.delete(game.id));
    }
    const data = await kit;
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${game.id}-starter-kit.zip"`)
      .header('cache-control', 'public, max-age=3600')
      .send(data);
  });
}
