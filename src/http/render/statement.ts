// Statement documents (plain text converted from the original PDFs, with a
// little Markdown: `#` headings, fenced code, `-` lists, `code`, *em*) to
// HTML. The conversions are uneven, so the rules are lenient: numbered lines
// such as "2.1  Running your first game" are headings whatever their `#`
// count, a `####` in front of ordinary text is dropped, command lines
// ("./Game ...", "make all", "#define ...") become code blocks, and lines
// indented under a list item belong to it. Every piece of text is escaped.

import temml from 'temml';
import { escapeHtml, raw, type Html } from './html.ts';

/** Lines of the Jutge problem page the PDF conversion kept: not part of the statement. */
const BOILERPLATE = new Set(['pdf zip', 'official solutions', 'unknown. this problem is being checked.', 'user solutions']);

const CODE_LINE = /^(\.\/\S|cp\s|make(\s|$)|sudo\s|npx\s|cd\s|g\+\+\s|firefox\s|#\s*(define|include)\b|\$\s)/;
/** "1 | 4 | 5 | 6 |": the rows of a small table of numbers. */
const TABLE_ROW = /^(\s*[^\s|]+\s*\|)+\s*$/;
const NUMBERED_HEADING = /^(\d{1,2}(?:\.\d{1,2}){0,3})\s+(\p{Lu}[^]{0,90})$/u;
const LIST_ITEM = /^(\s*)(?:([-*•])\s+(?:(\d{1,3})[.)]\s+)?|(\d{1,3})[.)]\s+)(.*)$/;

const looksLikeCode = (line: string) => CODE_LINE.test(line.trim().replace(/\\(.)/g, '$1')) || TABLE_ROW.test(line);

type Block =
  | { kind: 'heading'; level: number; text: string; id: string | null }
  | { kind: 'para'; lines: string[] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: Item[] }
  | { kind: 'title'; name: string; byline: string[] };

interface Item {
  value: number | null;
  blocks: Block[];
  /** Indentation of the item's marker. */
  indent: number;
  /** The item's own text, before any nested blocks. */
  text: string[];
}

const indentOf = (line: string) => line.length - line.trimStart().length;

// ---- inline: `code`, $math$, **strong**, *em*, <url> and bare URLs; escapes everything else.

const INLINE =
  /`([^`]+)`|\$\$([^$]+)\$\$|\$([^$\n]+)\$|\*\*([^*]+)\*\*|(?<![\w*])\*([^*\s](?:[^*]*[^*\s])?)\*(?![\w*])|<(https?:\/\/[^\s<>]+)>|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?])/g;

/**
 * TeX between $...$ (inline) or $$...$$ (display) as MathML, which browsers
 * draw themselves: no fonts or scripts to serve. The TeX source is not kept
 * in an annotation (a page's text holds no raw TeX), and temml's inline
 * style attributes go (the pages' CSP refuses them; the browser's own MathML
 * styles already display math[display=block] as a block). TeX that does not parse
 * stays visible as code (class "math-error"), so a typo in a statement shows
 * rather than vanishes; the statement tests keep every shipped statement free
 * of it.
 */
export function renderMath(tex: string, display: boolean): string {
  try {
    return temml.renderToString(tex, { displayMode: display, throwOnError: true }).replace(/ style="[^"]*"/g, '');
  } catch {
    return `<code class="math math-error">${escapeHtml(tex)}</code>`;
  }
}

function unescapeMd(s: string): string {
  return s.replace(/\\([\\`*_{}[\]()#+\-.!|<>$])/g, '$1');
}

export function renderInline(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += escapeHtml(unescapeMd(text.slice(last, m.index)));
    const [, code, dmath, imath, strong, em, link, bare] = m;
    if (code !== undefined) out += `<code>${escapeHtml(code)}</code>`;
    else if (dmath !== undefined || imath !== undefined) out += renderMath((dmath ?? imath)!.trim(), dmath !== undefined);
    else if (strong !== undefined) out += `<strong>${renderInline(strong)}</strong>`;
    else if (em !== undefined) out += `<em>${renderInline(em)}</em>`;
    else {
      const url = (link ?? bare)!;
      out += `<a href="${escapeHtml(url)}" rel="nofollow noopener">${escapeHtml(url)}</a>`;
    }
    last = m.index + m[0].length;
  }
  return out + escapeHtml(unescapeMd(text.slice(last)));
}

// ---- blocks

function headingOf(line: string, alone: boolean): { level: number; text: string; id: string | null } | 'not-heading' | { plain: string } {
  const hashes = /^(#{1,6})\s+(.*)$/.exec(line.trim());
  const text = (hashes ? hashes[2]! : line).trim();
  const numbered = NUMBERED_HEADING.exec(unescapeMd(text));
  if (numbered && (hashes || (alone && indentOf(line) === 0)) && !/[.:;,]$/.test(numbered[2]!)) {
    const number = numbered[1]!;
    const depth = number.split('.').length;
    return { level: Math.min(4, depth + 1), text: `${number} ${numbered[2]!.trim()}`, id: `s-${number.replace(/\./g, '-')}` };
  }
  if (!hashes) return 'not-heading';
  // "#### #define ...", "#### Utilitzeu", "#### 3. Executeu": conversion noise in front of ordinary text.
  if (hashes[1]!.length >= 4 || /^#/.test(text) || LIST_ITEM.test(text)) return { plain: text };
  return { level: hashes[1]!.length <= 2 ? 2 : 3, text, id: null };
}

export function parseStatement(source: string): Block[] {
  const lines = source
    .replace(/\r\n?/g, '\n')
    .replace(/<!--[^]*?-->/g, '')
    .split('\n')
    .map((l) => l.replace(/\t/g, '    ').replace(/\s+$/, ''))
    .filter((l) => !BOILERPLATE.has(l.trim().replace(/\s+/g, ' ').toLowerCase()));
  const blocks: Block[] = [];
  /** Open lists, outermost first, with the item being filled in each. */
  let stack: { list: Extract<Block, { kind: 'list' }>; indent: number }[] = [];
  let para: string[] | null = null;
  let blankBefore = true;

  const target = (): Block[] => (stack.length ? stack[stack.length - 1]!.list.items.at(-1)!.blocks : blocks);
  const flushPara = () => {
    if (!para) return;
    const item = stack.length ? stack[stack.length - 1]!.list.items.at(-1)! : null;
    if (para.every(looksLikeCode)) target().push({ kind: 'code', lines: para.map((l) => unescapeMd(l.trim())) });
    else if (item && item.blocks.length === 0 && item.text.length === 0) item.text.push(...para);
    else target().push({ kind: 'para', lines: para });
    para = null;
  };
  const closeLists = (toIndent: number) => {
    while (stack.length && stack[stack.length - 1]!.indent > toIndent) stack.pop();
  };

  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.trim() === '') {
      flushPara();
      blankBefore = true;
      continue;
    }
    const wasBlank = blankBefore;
    blankBefore = false;
    if (/^\s*```/.test(line)) {
      flushPara();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!); i++) code.push(lines[i]!);
      target().push({ kind: 'code', lines: code });
      blankBefore = true;
      continue;
    }
    const alone = wasBlank && (lines[i + 1] ?? '').trim() === '';
    const h = headingOf(line, alone);
    if (h !== 'not-heading') {
      if ('plain' in h) line = h.plain;
      else {
        flushPara();
        stack = [];
        blocks.push({ kind: 'heading', ...h });
        blankBefore = true;
        continue;
      }
    }
    const item = LIST_ITEM.exec(line);
    if (item && !(para && !wasBlank && !stack.length)) {
      flushPara();
      const indent = item[1]!.length;
      const value = item[3] ?? item[4];
      const ordered = value !== undefined;
      closeLists(indent);
      const top = stack[stack.length - 1];
      if (!top || indent > top.indent || top.list.ordered !== ordered) {
        if (top && top.indent === indent) stack.pop();
        const list: Extract<Block, { kind: 'list' }> = { kind: 'list', ordered, items: [] };
        target().push(list);
        stack.push({ list, indent });
      }
      const text = item[5]!;
      stack[stack.length - 1]!.list.items.push({ value: value ? Number(value) : null, blocks: [], indent, text: text ? [text] : [] });
      continue;
    }
    if (stack.length) {
      const open = stack[stack.length - 1]!.list.items.at(-1)!;
      if (!wasBlank && !para && open.blocks.length === 0) {
        open.text.push(line.trim()); // the item's text wrapped onto the next line
        continue;
      }
      // After a blank line, only indented text stays in the list.
      if (wasBlank && indentOf(line) <= stack[0]!.indent) {
        flushPara();
        stack = [];
      }
    }
    (para ??= []).push(line.trim());
  }
  flushPara();
  return titleBlock(blocks);
}

const shortLine = (b: Block) => (b.kind === 'heading' && b.id === null) || (b.kind === 'para' && b.lines.length === 1 && b.lines[0]!.length <= 80);

/**
 * The PDF's title page (name, authors, date) comes out of the conversion as
 * two to four short headings or lines before the first section: one title
 * block, not a heading each.
 */
function titleBlock(blocks: Block[]): Block[] {
  let n = 0;
  while (n < blocks.length && n < 4 && shortLine(blocks[n]!)) n++;
  if (n < 2) return blocks;
  const texts = blocks.slice(0, n).map((b) => (b.kind === 'heading' ? b.text : b.kind === 'para' ? b.lines[0]! : ''));
  return [{ kind: 'title', name: texts[0]!, byline: texts.slice(1) }, ...blocks.slice(n)];
}

function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'title':
      return `<header class="statement-title"><p class="statement-name">${renderInline(b.name)}</p><p class="byline">${b.byline.map(renderInline).join(' · ')}</p></header>`;
    case 'heading':
      return `<h${b.level}${b.id ? ` id="${b.id}"` : ''}>${renderInline(b.text)}</h${b.level}>`;
    case 'para':
      return `<p>${renderInline(b.lines.join(' '))}</p>`;
    case 'code':
      return `<pre><code>${escapeHtml(b.lines.join('\n'))}</code></pre>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      const items = b.items.map((it) => {
        const text = it.text.join(' ');
        const head = text === '' ? '' : looksLikeCode(text) ? `<code>${escapeHtml(unescapeMd(text))}</code>` : renderInline(text);
        const value = b.ordered && it.value !== null ? ` value="${it.value}"` : '';
        return `<li${value}>${head}${it.blocks.map(renderBlock).join('')}</li>`;
      });
      return `<${tag}>${items.join('')}</${tag}>`;
    }
  }
}

/** The statement as HTML (escaped; headings from h2 down, numbered ones with ids such as s-2-1). */
export function renderStatement(source: string): Html {
  return raw(parseStatement(source).map(renderBlock).join('\n'));
}
