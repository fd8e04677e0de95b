// Submit a bot: pick the game, choose (or drop) the file, submit. A plain
// multipart form that works without JavaScript (src/http/client/submit.ts only
// adds dropping a file onto the zone). The checks are the API's own
// (createSubmission in src/domain/submissions.ts), plus esbuild's parse, so a
// TypeScript or JavaScript file that does not compile is refused here with its
// line. A C++ file is taken at once and compiled by the gate's check (its
// page then shows clang's diagnostics as printed).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../form-fields.ts';
import { typed } from '../typed.ts';
import { loadGames } from '../../games/registry.ts';
import { BOT_FILE_ACCEPT, readBotHeader } from '../../sandbox/languages/index.ts';
import { asRefusal, badRequest, multipartRefusal, tooLarge } from '../errors.ts';
import { submissionDeadlines } from '../../domain/game-overview.ts';
import { createSubmission, decodeUtf8, SubmissionCompileError } from '../../domain/submissions.ts';
import { compileErrorLines } from '../../domain/reasons.ts';
import { when } from './matches/index.ts';
import { submitRateLimit } from '../rate-limits.ts';
import { html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { errorSummary, field, select, type FieldErrors } from '../render/forms.ts';
import { pageUser } from '../auth.ts';
import { botFileParts, readBotFile } from '../file-form.ts';
import { formatBytes } from './submissions/index.ts';
import { t, th } from '../i18n/index.ts';
import { localizeRefusal } from '../i18n/refusals.ts';
import { escapeHtml } from '../render/html.ts';

const labels = () => ({ game: t('submit.game'), file: t('submit.file') });

/** Which field an error code of createSubmission belongs to. */
const GAME_ERRORS = new Set(['no-game', 'unknown-game', 'deadline-passed']);

export default async function submitPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { config, db } = app.deps;
  const max = config.submissionMaxBytes;

  async function sendForm(
    request: FastifyRequest,
    reply: FastifyReply,
    values: { game: string; filename?: string; compiler?: { text: string; line: number | null } },
    errors: FieldErrors = {},
    status = 200,
  ) {
    const games = await loadGames();
    const options = [...games.values()].map((g) => ({ value: g.id, label: g.title }));
    const game = games.has(values.game) ? values.game : '';
    const deadlines = (await submissionDeadlines(db)).filter((d) => games.has(d.game));
    const now = Date.now();
    const body = html`<h1>${t('submit.title')}</h1>
${deadlines.length ? html`<ul class="notice" id="deadlines">${deadlines.map((d) => html`<li>${d.submissionDeadline!.getTime() <= now ? t('submit.closedOn', games.get(d.game)!.title) : t('submit.closeOn', games.get(d.game)!.title)}${when(d.submissionDeadline)}</li>`)}</ul>` : ''}
<p>${th('submit.intro_html')}</p>
${errorSummary(errors, labels())}
<form method="post" action="/submit" enctype="multipart/form-data" id="submit-form" novalidate>
  ${select({
    name: 'game',
    label: t('submit.game'),
    options: [{ value: '', label: t('submit.fileDeclares') }, ...options],
    value: game,
    hint: t('submit.gameHint'),
    errors,
  })}
  <div class="dropzone" id="dropzone">
    ${field({
      name: 'file',
      label: t('submit.file'),
      type: 'file',
      required: true,
      hint: `${t('submit.fileHint', formatBytes(max))}${values.filename ? t('submit.chooseAgain', values.filename) : ''}`,
      errors,
      attrs: html`accept="${BOT_FILE_ACCEPT}" data-max-bytes="${max}"`,
    })}
    <p class="dropzone-status" id="dropzone-status" aria-live="polite"></p>
  </div>
  ${values.compiler ? html`<figure id="compile-output"><figcaption>${t('gate.compileError', values.compiler.line)}</figcaption><pre class="compiler-output"><code>${values.compiler.text}</code></pre></figure>` : ''}
  <p><button type="submit" id="submit-button">${t('submit.button')}</button></p>
</form>
<p class="hint">${th('submit.terminal_html', escapeHtml(game || 'moria'))}</p>`;
    return sendPage(reply, { title: t('submit.title'), user: request.user, nav: '/submit', body, scripts: ['submit'] }, status);
  }

  app.get('/submit', { config: { access: 'user' } }, async (request, reply) => {
    if (!pageUser(request, reply)) return reply;
    return sendForm(request, reply, { game: fields(request.query).game ?? '' });
  });

  app.post('/submit', { bodyLimit: max * 6 + 64 * 1024, config: { ...submitRateLimit(config), access: 'user' } }, async (request, reply) => {
    const me = pageUser(request, reply, '/submit');
    if (!me) return reply;
    let game = '';
    let source: string | undefined;
    let filename: string | undefined;
    const errors: FieldErrors = {};
    let status = 400;
    try {
      if (!request.isMultipart()) throw badRequest(t('submit.noFile'), 'no-file');
      for await (const part of request.parts(botFileParts(max))) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            await readBotFile(part, max);
            continue;
          }
          const buf = await readBotFile(part, max);
          filename = part.filename || undefined;
          // A form submitted with no file chosen sends an empty part without a name.
          if (!filename && buf.length === 0) continue;
          source = decodeUtf8(buf);
        } else if (part.fieldname === 'game') {
          game = String(part.value);
        }
      }
    } catch (caught) {
      const code = (caught as { code?: string }).code;
      let err = caught;
      if (code === 'FST_REQ_FILE_TOO_LARGE') err = tooLarge(`file too large: more than ${max} bytes, at most ${max}`);
      else if (code === 'FST_FILES_LIMIT') err = badRequest(t('submit.oneFile'));
      else err = multipartRefusal(caught) ?? caught;
      const refused = asRefusal(err);
      if (!refused) throw err;
      errors.file = localizeRefusal(refused);
      status = refused.statusCode;
    }
    if (!errors.file && source === undefined) errors.file = t('submit.noFile');
    // No game chosen: the file's own `export const GAME` says which (a mismatch is refused later).
    if (!game && source !== undefined && !errors.file) game = readBotHeader(source).game ?? '';
    if (!game) errors.game = t('submit.chooseGame');
    if (Object.keys(errors).length > 0 || source === undefined) return sendForm(request, reply, { game, filename }, errors, status);

    try {
      const sub = await createSubmission(app.deps, { userId: me.id, game, source, filename }, request.log, { syntaxCheck: true });
      return reply.redirect(`/submissions/${sub.id}`, 303);
    } catch (err) {
      const refused = asRefusal(err);
      if (!refused) throw err;
      // clang's diagnostics (several lines, a caret under the column): the first line as the field's error, the whole under the field as printed.
      if (err instanceof SubmissionCompileError) {
        const { text, multiline } = compileErrorLines(err.message);
        if (multiline) {
          errors.file = err.message.split('\n', 1)[0]!;
          return sendForm(request, reply, { game, filename, compiler: { text, line: err.line ?? null } }, errors, refused.statusCode);
        }
      }
      errors[refused.code && GAME_ERRORS.has(refused.code) ? 'game' : 'file'] = localizeRefusal(refused);
      return sendForm(request, reply, { game, filename }, errors, refused.statusCode);
    }
  });
}
