// /games/:game/play: a match played in the visitor's browser,
// without installing anything. The engines are pure TypeScript and run in the
// page; each bot runs in a Web Worker of its own with the judge's bot runtime
// (src/sandbox/hosts/prelude.ts); the page's match loop is the judge's own MatchRun
// (src/match/match-run.ts), so the replay is the one `arbiter play` writes
// for the same seed and bots, and the replay viewer shows it. Nothing is
// recorded: the server stays the only judge, and the page says so.
//
// Bots are compiled by the server (POST /api/play/compile): the
// judge's own compile (src/sandbox/languages/javascript/compile.ts: the same esbuild, flags and
// wrapper), so a bot's code and line numbers are the ones the judge runs; it
// stores nothing, is capped at the upload size and rate-limited per address.
// A C++ file (signed-in users) comes back as the judge's wasm module, which
// the bot's worker instantiates with the judge's C++ glue; the starter kit's
// play.mjs uses the same endpoint.
// esbuild-wasm in the browser would be a ~10 MB download for every student
// and a second compiler to keep in step with the judge's.

import type { FastifyInstance } from 'fastify';
import { typed } from '../../../typed.ts';
import type { AnyGame } from '../../../../sdk/types.ts';
import { formatBudget } from '../../../../sdk/limits.ts';
import { BOT_FILE_ACCEPT } from '../../../../sandbox/languages/index.ts';
import { GAME_PARAMS, gameOr404 } from '../../../game-param.ts';
import { html } from '../../../render/html.ts';
import { t } from '../../../i18n/index.ts';
import { sendPage } from '../../../render/layout.ts';

function pageBody(game: AnyGame, maxBytes: number) {
  const builtins = Object.keys(game.bots.builtin);
  const opponent = builtins.includes('Dummy') ? 'Dummy' : (builtins[0] ?? '');
  // Your bot is player 0; the others 1 to 3: the seats as arbiter play, the statements and the viewer number them.
  const seats = Array.from({ length: game.nbPlayers - 1 }, (_, i) => i + 1);
  return html`<p class="breadcrumbs"><a href="/">${t('nav.games')}</a> › <a href="/games/${game.id}">${game.title}</a></p>
<h1>${t('play.title', game.title)}</h1>
<p class="notice" id="play-judge-note"><strong>${t('play.judgeNote')}</strong></p>
<p>${t('play.differences', formatBudget(game.defaultLimits.cpuBudgetMs))}</p>
<form class="play-form" id="play-form" data-play data-game="${game.id}" data-max-bytes="${maxBytes}" novalidate>
<fieldset>
  <legend>${t('play.yourBot')}</legend>
  <p><label for="play-file">${t('play.file')}</label>
  <input type="file" id="play-file" accept="${ACCEPT}" data-play-file aria-describedby="play-file-hint"></p>
  <p class="hint" id="play-file-hint">${t('play.fileHint')}</p>
  <p><label for="play-paste">${t('play.paste')}</label>
  <textarea id="play-paste" rows="8" spellcheck="false" autocomplete="off" data-play-paste></textarea></p>
  <p class="hint" data-play-chosen aria-live="polite"></p>
  <p class="hint">${t('play.compileNote')}</p>
</fieldset>
<fieldset>
  <legend>${t('play.opponents')}</legend>
  ${seats.map(
    (n) => html`<p><label for="play-seat-${n}">${t('play.player', n)}</label>
  <select id="play-seat-${n}" data-seat="${n}">${builtins.map((b) => html`<option value="${b}"${b === opponent ? html` selected` : ''}>${t('play.builtin', b)}</option>`)}<option value="file">${t('play.fromFile')}</option></select>
  <input type="file" accept="${ACCEPT}" data-seat-file="${n}" aria-label="${t('play.fileFor', n)}" hidden></p>`,
  )}
</fieldset>
<p><label for="play-seed">${t('play.seed')}</label>
<input type="number" id="play-seed" min="0" max="2147483647" step="1" value="1" inputmode="numeric" data-play-seed aria-describedby="play-seed-hint">
<span class="hint" id="play-seed-hint">${t('play.seedHint')}</span></p>
<p><button type="submit">${t('play.play')}</button></p>
</form>
<p class="play-status" role="status" data-play-status></p>
<p class="notice bad play-alert" role="alert" data-play-alert></p>
<div class="play-result" data-play-result hidden>
  <div class="viewer" data-play-viewer></div>
  <section class="play-logs" data-play-logs aria-labelledby="play-logs-h">
    <h2 id="play-logs-h" data-play-log-round>${t('play.logs')}</h2>
    ${Array.from(
      { length: game.nbPlayers },
      (_, p) => html`<h3 class="seat-head"><span class="seat seat-${p}" aria-hidden="true"></span> <span data-play-log-name="${p}"></span></h3>
    <pre class="play-log" data-play-log="${p}" tabindex="0"></pre>`,
    )}
  </section>
  <p><a data-play-download href="#" download>${t('play.download')}</a> ${t('play.downloadHint')} <a href="/view">${t('play.viewer')}</a>.</p>
</div>
<noscript><p class="notice bad">${t('play.noScript')}</p></noscript>
<p class="hint">${t('play.cli')} <code data-play-cli>node arbiter.mjs play MyBot.ts ${seats.map(() => opponent).join(' ')} --seed 1 -o match.json</code></p>`;
}

/** The bot files the page takes: every language's (C++ compiled by the judge's compile, for signed-in users), and plain text. */
const ACCEPT = `${BOT_FILE_ACCEPT},text/plain,application/typescript`;

export default async function playPage(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { config } = app.deps;

  app.get('/play', { config: { access: 'public' }, schema: { hide: true, params: GAME_PARAMS } }, async (request, reply) => {
    const game = await gameOr404(request.params.game);
    return sendPage(reply, {
      title: t('play.title', game.title),
      user: request.user,
      nav: '/play',
      description: t('play.pickerLead'),
      head: html`<link rel="stylesheet" href="/assets/viewer.css">
<link rel="stylesheet" href="/assets/play.css">
<script type="module" src="/assets/play/${game.id}.js"></script>`,
      body: pageBody(game, config.submissionMaxBytes),
    });
  });
}
