// A C++ file may include only headers by name (<vector>, "Player.hh",
// <bits/stdc++.h>): a path from the root or with "..", which a system clang
// would read from the judge's own disk and quote back in a compile error, is
// refused before the compiler sees the file. Comments, line splices, string
// and raw string literals and the %: digraph are handled as the preprocessor
// handles them, so a directive cannot hide from this check.

/** A header name as the standard library and the game's headers spell them. */
const SAFE_HEADER = /^[A-Za-z0-9_+][A-Za-z0-9_.+\-/]*$/;
const INCLUDE_DIRECTIVES = new Set(['include', 'include_next', 'import', 'embed']);

/** The text with line splices joined, comments and raw strings blanked (a newline kept for each line), other literals untouched. */
export function stripComments(source: string): string {
  const text = source.replace(/\\\r?\n/g, '');
  let out = '';
  let k = 0;
  const n = text.length;
  while (k < n) {
    const c = text[k]!;
    const next = text[k + 1];
    if (c === '/' && next === '/') {
      while (k < n && text[k] !== '\n') k++;
      out += ' ';
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', k + 2);
      const body = text.slice(k, end < 0 ? n : end + 2);
      out += ' ' + body.replace(/[^\n]/g, '');
      k = end < 0 ? n : end + 2;
    } else if (c === 'R' && next === '"' && !/[A-Za-z0-9_]/.test(prefixBefore(text, k))) {
      // A raw string: R"delim( ... )delim", nothing inside is a comment.
      const open = text.indexOf('(', k + 2);
      const delim = open < 0 ? '' : text.slice(k + 2, open);
      const close = open < 0 ? -1 : text.indexOf(`)${delim}"`, open + 1);
      const end = close < 0 ? n : close + delim.length + 2;
      // Its lines are blanked (kept as lines): a directive-looking line inside it is text, not a directive.
      out += 'R""' + text.slice(k, end).replace(/[^\n]/g, '').slice(0);
      k = end;
    } else if (c === '"' || (c === "'" && !/[0-9A-Fa-f]/.test(text[k - 1] ?? ''))) {
      // A string or character literal (a ' between digits is a digit separator).
      let j = k + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(k, j + 1);
      k = j + 1;
    } else {
      out += c;
      k++;
    }
  }
  return out;
}

/** The identifier character before position k, ignoring an encoding prefix of a raw string (u8R, uR, UR, LR). */
function prefixBefore(text: string, k: number): string {
  let j = k - 1;
  if (text[j] === '8' && text[j - 1] === 'u') j -= 2;
  else if (text[j] === 'u' || text[j] === 'U' || text[j] === 'L') j -= 1;
  return text[j] ?? '';
}

/** The first include of a path outside the headers, as `line: text`, or null when every include names a header. */
export function unsafeInclude(source: string): { line: number; text: string } | null {
  const lines = stripComments(source).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const directive = /^\s*(?:#|%:)\s*([A-Za-z_]+)\s*(.*)$/.exec(line);
    if (directive) {
      const [, name, rest] = directive;
      if (INCLUDE_DIRECTIVES.has(name!)) {
        const operand = /^(<([^>]*)>|"([^"]*)")\s*$/.exec(rest!.trim());
        const header = operand?.[2] ?? operand?.[3];
        if (header === undefined || !SAFE_HEADER.test(header) || header.split('/').includes('..')) return { line: i + 1, text: line.trim() };
      }
      if (name === 'pragma' && /\bdependency\b/.test(rest!)) return { line: i + 1, text: line.trim() };
    }
    for (const m of line.matchAll(/__has_include(?:_next)?\s*\(\s*(<[^>]*>|"[^"]*")/g)) {
      const header = m[1]!.slice(1, -1);
      if (!SAFE_HEADER.test(header) || header.split('/').includes('..')) return { line: i + 1, text: line.trim() };
    }
  }
  return null;
}
