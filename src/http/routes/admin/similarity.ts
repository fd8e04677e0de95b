// The similarity report's pages (admins only; 403 for anyone else):
// /admin/similarity (every game: when its report was computed, a button to
// compute it again, the previous terms imported), /admin/similarity/:game
// (the top pairs) and /admin/similarity/:game/pair?a=&b= (both sources side
// by side, the matching regions highlighted and numbered alike on both
// sides). Sources are students' text: always escaped by html``.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../../form-fields.ts';
import { typed } from '../../typed.ts';
import { computeAudited } from '../api/admin/similarity/index.ts';
import { archiveTerms, pairDetail, readReport, type DocLabel } from '../../../domain/similarity/report.ts';
import type { Region } from '../../../domain/similarity/index.ts';
import { loadGames } from '../../../games/registry.ts';
import { requireAdmin, type AuthUser } from '../../auth.ts';
import { badRequest, notFound } from '../../errors.ts';
import { html, type Html } from '../../render/html.ts';
import { t, th } from '../../i18n/index.ts';
import { sendPage } from '../../render/layout.ts';
import { pageUser } from '../../auth.ts';
import { when } from '../matches/index.ts';

const percent = (x: number) => `${Math.round(x * 100)}%`;

function docCell(label: DocLabel, fraction: number): Html {
  return html`<strong>${label.author}</strong> <span class="muted">${label.title}${label.kind === 'archive' ? ` (${t('sim.archived')})` : ''}</span><br><span class="hint">${t('sim.ofItself', percent(fraction))}</span>`;
}

/** A source as numbered lines; a line inside region i has class "match rN" and links to the same region on the other side. */
function sourceView(side: 'a' | 'b', source: string, regions: Region[]): Html {
  const other = side === 'a' ? 'b' : 'a';
  const regionOf = new Map<number, number>();
  regions.forEach((r, i) => {
    const [from, to] = r[side];
    for (let l = from; l <= to; l++) if (!regionOf.has(l)) regionOf.set(l, i);
  });
  const starts = new Map(regions.map((r, i) => [r[side][0], i]));
  const lines = source.split('\n');
  return html`<pre class="similarity-source" id="source-${side}">${lines.map((text, k) => {
    const line = k + 1;
    const i = regionOf.get(line);
    const start = starts.get(line);
    const mark = start !== undefined ? html`<a class="region-tag" href="#${other}-region-${start + 1}" id="${side}-region-${start + 1}">${start + 1}</a>` : '';
    return html`<span class="line${i !== undefined ? ` match r${i % 6}` : ''}" id="${side}-L${line}"><span class="ln">${line}</span>${mark}${text}</span>`;
  })}</pre>`;
}

export default async function similarityPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = app.deps;

  const adminOf = (request: FastifyRequest, reply: FastifyReply): AuthUser | null => {
    if (!pageUser(request, reply)) return null;
    return requireAdmin(request);
  };
  const gameOf = async (id: string) => {
    const game = (await loadGames()).get(id);
    if (!game) throw notFound(t('lb.noGameShort', id));
    return game;
  };
  const noticeOf = (q: { done?: string }) => (q.done ? html`<p class="notice ok" role="status" id="similarity-notice">${q.done.slice(0, 300)}</p>` : '');
  const computeButton = (game: string, label: string) =>
    html`<form method="post" action="/admin/actions/similarity" class="inline"><input type="hidden" name="game" value="${game}"><button type="submit">${label}</button></form>`;
  const doneQuery = { type: 'object', properties: { done: { type: 'string', maxLength: 400 } } } as const;

  app.get('/similarity', { config: { access: 'admin' }, schema: { hide: true, querystring: doneQuery } }, async (request, reply) => {
    if (!adminOf(request, reply)) return reply;
    const games = [...(await loadGames()).values()];
    const rows = await Promise.all(games.map(async (g) => ({ game: g, report: await readReport(db, g.id), terms: await archiveTerms(db, g.id) })));
    return sendPage(reply, {
      title: t('sim.title'),
      user: request.user,
      nav: '/admin',
      body: html`<p><a href="/admin">${t('sim.back')}</a></p>
<h1>${t('sim.title')}</h1>
${noticeOf(request.query)}
<p>${t('sim.intro')}</p>
<div class="table-wrap"><table id="similarity-games">
<thead><tr><th scope="col">${t('sim.game')}</th><th scope="col">${t('sim.computed')}</th><th scope="col">${t('sim.archive')}</th><th scope="col"></th></tr></thead>
<tbody>${rows.map(
        ({ game, report, terms }) => html`<tr data-game="${game.id}"><td><a href="/admin/similarity/${game.id}">${game.title}</a></td>
<td>${report ? html`${t('sim.documents', report.documents)}, ${th('sim.computedAt_html', String(when(report.createdAt)), report.durationMs)}${report.pairs[0] ? `; ${t('sim.atMost', percent(report.pairs[0].score))}` : ''}` : html`<span class="muted">${t('sim.never')}</span>`}</td>
<td>${terms.length ? terms.map((term) => `${term.term} (${term.files})`).join(', ') : html`<span class="muted">${t('sim.noArchive')}</span>`}</td>
<td>${computeButton(game.id, report ? t('sim.recompute') : t('sim.compute'))}</td></tr>`,
      )}</tbody></table></div>
<p class="hint">${th('sim.archiveHint_html')}</p>`,
    });
  });

  app.get(
    '/similarity/:game',
    {
      config: { access: 'admin' },
      schema: { hide: true, params: { type: 'object', required: ['game'], properties: { game: { type: 'string', maxLength: 64 } } }, querystring: doneQuery },
    },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const game = await gameOf(request.params.game);
      const report = await readReport(db, game.id);
      const pairHref = (a: string, b: string) => `/admin/similarity/${game.id}/pair?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
      return sendPage(reply, {
        title: `${t('sim.title')}: ${game.title}`,
        user: request.user,
        nav: '/admin',
        body: html`<p><a href="/admin/similarity">${t('sim.title')}</a></p>
<h1>${t('sim.title')}: ${game.title}</h1>
${noticeOf(request.query)}
${
  !report
    ? html`<p class="muted" id="no-report">${t('sim.notComputed')}</p><p>${computeButton(game.id, t('sim.compute'))}</p>`
    : html`<p>${t('sim.documents', report.documents)}, ${th('sim.computedAt_html', String(when(report.createdAt)), report.durationMs)} ${computeButton(game.id, t('sim.recompute'))}</p>
<h2>${t('sim.topPairs')}</h2>
${
  report.pairs.length === 0
    ? html`<p class="muted">${t('sim.noPairs')}</p>`
    : html`<div class="table-wrap"><table id="similarity-pairs">
<thead><tr><th scope="col">#</th><th scope="col">${t('sim.score')}</th><th scope="col">${t('sim.first')}</th><th scope="col">${t('sim.second')}</th><th scope="col">${t('sim.shared')}</th><th scope="col"></th></tr></thead>
<tbody>${report.pairs.map(
        (p, i) =>
          html`<tr data-a="${p.a}" data-b="${p.b}"><td>${i + 1}</td><td><strong>${percent(p.score)}</strong></td><td>${docCell(p.labelA, p.fractionA)}</td><td>${docCell(p.labelB, p.fractionB)}</td><td>${p.shared}</td><td><a href="${pairHref(p.a, p.b)}">${t('sim.sideBySide')}</a></td></tr>`,
      )}</tbody></table></div>`
}`
}`,
      });
    },
  );

  app.get(
    '/similarity/:game/pair',
    {
      config: { access: 'admin' },
      schema: {
        hide: true,
        params: { type: 'object', required: ['game'], properties: { game: { type: 'string', maxLength: 64 } } },
        querystring: { type: 'object', properties: { a: { type: 'string', maxLength: 16 }, b: { type: 'string', maxLength: 16 } } },
      },
    },
    async (request, reply) => {
      if (!adminOf(request, reply)) return reply;
      const game = await gameOf(request.params.game);
      const { a = '', b = '' } = request.query;
      const d = await pairDetail(db, game.id, a, b);
      return sendPage(reply, {
        title: `${t('sim.pairTitle')}: ${d.a.author} ~ ${d.b.author}`,
        user: request.user,
        nav: '/admin',
        body: html`<p><a href="/admin/similarity/${game.id}">${t('sim.title')}: ${game.title}</a></p>
<h1>${t('sim.pairTitle')}: ${percent(d.score.score)}</h1>
<p>${t('sim.pairIntro')}</p>
<div class="similarity-pair">
<section aria-labelledby="a-h"><h2 id="a-h">${d.a.author} <span class="muted">${d.a.title}</span></h2><p class="hint">${t('sim.ofItself', percent(d.score.fractionA))} · ${t('sim.cover', percent(d.coverA))}</p>${sourceView('a', d.a.source, d.regions)}</section>
<section aria-labelledby="b-h"><h2 id="b-h">${d.b.author} <span class="muted">${d.b.title}</span></h2><p class="hint">${t('sim.ofItself', percent(d.score.fractionB))} · ${t('sim.cover', percent(d.coverB))}</p>${sourceView('b', d.b.source, d.regions)}</section>
</div>
<h2>${t('sim.regions')}</h2>
${
  d.regions.length === 0
    ? html`<p class="muted">${t('sim.noRegions')}</p>`
    : html`<ol id="similarity-regions">${d.regions.map((r, i) => html`<li class="match r${i % 6}"><a href="#a-region-${i + 1}">${d.a.author}: ${t('sim.lines', ...r.a)}</a> ~ <a href="#b-region-${i + 1}">${d.b.author}: ${t('sim.lines', ...r.b)}</a> (${t('sim.tokens', r.tokens)})</li>`)}</ol>`
}`,
      });
    },
  );

  app.post('/actions/similarity', { config: { access: 'admin' } }, async (request, reply) => {
    const me = adminOf(request, reply);
    if (!me) return reply;
    const id = typeof fields(request.body)?.game === 'string' ? fields(request.body).game : '';
    if (!id) throw badRequest(t('sim.whichGame'));
    const game = await gameOf(id);
    const report = await computeAudited(db, me.id, game.id);
    return reply.redirect(`/admin/similarity/${game.id}?done=${encodeURIComponent(t('sim.done', game.title, report.documents, report.pairs.length))}`, 303);
  });
}
