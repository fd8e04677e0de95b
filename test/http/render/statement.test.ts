// Statement text to HTML (headings, paragraphs, lists, code, math, escaping), and every game's statements: Catalan, Spanish and English, Arbiter's own, with one outline.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderInline, renderStatement } from '../../../src/http/render/statement.ts';
import { loadGames } from '../../../src/games/registry.ts';
import { translate } from '../../../src/http/i18n/index.ts';

test('numbered headings, paragraphs, lists with indented commands, code lines, fenced code', () => {
  const out = renderStatement(`Title line

1  Game rules

This is a game
for four players.

2.1  Running your first game

  1. Open a console.
  2. Run:

    cp AIDummy.o.Linux64 AIDummy.o

    If you use another architecture, choose.

  3. Done

./Game --help

to see the parameters.

- first
 - nested
- second **bold** and *em* and \`code\` and PLAYER\\_NAME

A paragraph ends the list.

\`\`\`
int main() { return 0; }
\`\`\`

#### #define PLAYER\\_NAME Gimli

#### Utilitzeu

pdf   zip
Official solutions
`).value;
  assert.match(out, /<p>Title line<\/p>/);
  assert.match(out, /<h2 id="s-1">1 Game rules<\/h2>/);
  assert.match(out, /<p>This is a game for four players\.<\/p>/, 'wrapped lines join');
  assert.match(out, /<h3 id="s-2-1">2\.1 Running your first game<\/h3>/);
  assert.match(
    out,
    /<ol><li value="1">Open a console\.<\/li><li value="2">Run:<pre><code>cp AIDummy\.o\.Linux64 AIDummy\.o<\/code><\/pre><p>If you use another architecture, choose\.<\/p><\/li><li value="3">Done<\/li><\/ol>/,
  );
  assert.match(out, /<pre><code>\.\/Game --help<\/code><\/pre>\n<p>to see the parameters\.<\/p>/);
  assert.match(
    out,
    /<ul><li>first<ul><li>nested<\/li><\/ul><\/li><li>second <strong>bold<\/strong> and <em>em<\/em> and <code>code<\/code> and PLAYER_NAME<\/li><\/ul>/,
  );
  assert.match(out, /<pre><code>int main\(\) \{ return 0; \}<\/code><\/pre>/);
  assert.match(out, /<pre><code>#define PLAYER_NAME Gimli<\/code><\/pre>/, 'a #### in front of a #define is conversion noise');
  assert.match(out, /<p>Utilitzeu<\/p>/);
  assert.doesNotMatch(out, /Official solutions|pdf/, 'Jutge page boilerplate dropped');
});

test('everything is escaped: markup in text, code, links and headings', () => {
  const out = renderStatement(`1  A <b>bold</b> title

<script>alert(1)</script> & "quotes" 'too'

\`\`\`
if (a < b && c > d) {}
\`\`\`

See <https://example.org/?a=1&b="x"> and \`<img src=x onerror=alert(1)>\`
`).value;
  assert.doesNotMatch(out, /<script>|<b>|<img/);
  assert.match(out, /<h2 id="s-1">1 A &lt;b&gt;bold&lt;\/b&gt; title<\/h2>/);
  assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;/);
  assert.match(out, /if \(a &lt; b &amp;&amp; c &gt; d\) \{\}/);
  assert.match(out, /<a href="https:\/\/example\.org\/\?a=1&amp;b=&quot;x&quot;" rel="nofollow noopener">/);
  assert.match(out, /<code>&lt;img src=x onerror=alert\(1\)&gt;<\/code>/);
  assert.equal(renderInline('a "b" <c>'), 'a &quot;b&quot; &lt;c&gt;');
});

test("every game's statements render with their section headings", async () => {
  for (const game of (await loadGames()).values()) {
    for (const [lang, path] of Object.entries(game.statements)) {
      const out = renderStatement(readFileSync(path, 'utf8')).value;
      assert.ok(out.length > 5000, `${game.id}/${lang}`);
      assert.match(out, /<h2[ >]|<header class="statement-title">/, `${game.id}/${lang} has headings`);
      assert.doesNotMatch(out, /<(script|iframe|img)\b/i, `${game.id}/${lang}`);
    }
  }
});

test('math: $...$ and $$...$$ become MathML (non-ASCII \\text included), bad TeX stays visible as code, text in math is escaped', () => {
  const inline = renderInline('p = $\\frac{1 + \\text{força}(A)}{2}$ and $60 \\times 60$');
  assert.match(inline, /^p = <math><mfrac>.*<mtext>força<\/mtext>.*<\/mfrac><\/math> and <math>.*<mo>×<\/mo>.*<\/math>$/);
  assert.doesNotMatch(inline, /\\frac|\\text|style=/, 'no raw TeX, no inline style (the CSP refuses it)');
  const display = renderStatement(
    'Intro line that is long enough not to be taken for a title of the statement, really.\n\n$$\\left\\lfloor \\frac{a}{b} \\right\\rfloor$$\n',
  ).value;
  assert.match(display, /<p><math display="block"[^>]*>.*⌊.*<mfrac>.*⌋.*<\/math><\/p>/);
  assert.equal(renderInline('$\\frac{1}{$'), '<code class="math math-error">\\frac{1}{</code>');
  const hostile = renderInline('$\\text{<img src=x onerror=alert(1)>}$');
  assert.doesNotMatch(hostile, /<img/);
  assert.match(hostile, /<mtext>&lt;img.*&gt;<\/mtext>/);
});

test("a PDF's title page (name, authors, date) is one title block, not a heading each", () => {
  const out = renderStatement('# The Walking Dead\n\n# Albert Oliveras\n\n## 23 de novembre de 2022\n\n## 1 Regles del Joc\n\nText.\n').value;
  assert.match(
    out,
    /^<header class="statement-title"><p class="statement-name">The Walking Dead<\/p><p class="byline">Albert Oliveras · 23 de novembre de 2022<\/p><\/header>\n<h2 id="s-1">1 Regles del Joc<\/h2>/,
  );
  assert.equal((out.match(/<h\d/g) ?? []).length, 1);
});

test('no shipped statement shows raw TeX: every backslash command outside MathML is a failure', async () => {
  let formulas = 0;
  for (const game of (await loadGames()).values()) {
    for (const [lang, path] of Object.entries(game.statements)) {
      const out = renderStatement(readFileSync(path, 'utf8')).value;
      formulas += (out.match(/<math\b/g) ?? []).length;
      assert.doesNotMatch(out, /math-error/, `${game.id}/${lang}: TeX that does not parse`);
      const outside = out.replace(/<math\b[^]*?<\/math>/g, '').replace(/<pre>[^]*?<\/pre>|<code>[^<]*<\/code>/g, '');
      assert.doesNotMatch(outside, /\\[a-zA-Z]+/, `${game.id}/${lang}: a TeX command outside MathML`);
      assert.doesNotMatch(outside, /\$[^$\s][^$]*\$/, `${game.id}/${lang}: $...$ left as text`);
    }
  }
  assert.ok(formulas >= 10, `the statements' formulas are MathML (${formulas})`);
});

/** The outline of a rendered statement: its title block and each heading's level and id, in order. */
const outline = (out: string) =>
  [...out.matchAll(/<header class="statement-title">|<h(\d)(?: id="([^"]*)")?>/g)].map((m) => (m[1] ? `h${m[1]}#${m[2] ?? ''}` : 'title'));

test("every game has Arbiter's statement in Catalan, Spanish and English, free of the original's tools, with the Catalan's outline", async (t) => {
  const games = [...(await loadGames()).values()];
  assert.ok(games.length >= 4);
  for (const game of games)
    await t.test(game.id, () => {
      assert.deepEqual(Object.keys(game.statements).sort(), ['ca', 'en', 'es'], `${game.id}: statement.ca.md, statement.es.md and statement.en.md`);
      const catalan = outline(renderStatement(readFileSync(game.statements.ca!, 'utf8')).value);
      assert.ok(catalan.filter((h) => h.startsWith('h')).length >= 3, `${game.id}/ca: sections`);
      for (const lang of ['ca', 'es', 'en']) {
        const source = readFileSync(game.statements[lang]!, 'utf8');
        // Jutge.org's page, the original's build (make, ./Game) and its api.pdf: tools Arbiter does not have.
        for (const word of [/Jutge/, /Makefile/, /api\.pdf/, /\.\/Game\b/]) assert.doesNotMatch(source, word, `${game.id}/${lang}: ${word}`);
        const out = renderStatement(source).value;
        assert.doesNotMatch(out, /math-error/, `${game.id}/${lang}: TeX that does not parse`);
        assert.deepEqual(outline(out), catalan, `${game.id}/${lang}: the same title block and sections as the Catalan`);
      }
    });
});

test("the fallback notice names both languages in the page's own language", () => {
  assert.equal(translate('es', 'game.statementFallback', 'es', 'en'), 'Este enunciado no está disponible en español; se muestra en inglés.');
  assert.equal(translate('ca', 'game.statementFallback', 'ca', 'es'), 'Aquest enunciat no està disponible en català; es mostra en castellà.');
  assert.equal(translate('en', 'game.statementFallback', 'en', 'ca'), 'This statement is not available in English; it is shown in Catalan.');
  assert.equal(
    translate('en', 'game.statementFallback', 'en', 'fr'),
    'This statement is not available in English; it is shown in fr.',
    'an unknown code as it is',
  );
});
