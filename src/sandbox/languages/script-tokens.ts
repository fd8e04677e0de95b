// The similarity report's tokenizer for JavaScript and TypeScript
// (src/domain/similarity/ says how tokens are compared). Normalizing is what
// makes renaming useless as a disguise: every identifier becomes `id`, every
// number `num`, every string or template `str`, every regular expression
// `re`; comments and whitespace vanish. Keywords and punctuation stay, since
// they are the program's shape. Each token keeps its source line.

import type { Token } from './types.ts';
import { byFirstCharacter, COMPOUND_ASSIGNMENTS, isDigit, isIdPart, isIdStart, ONE_CHARACTER_PUNCTUATORS } from './token-shared.ts';

// Keywords of JavaScript and TypeScript kept as themselves. Built-in type names
// (number, string...) are kept too: changing them changes the program.
const KEYWORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof new return super switch this throw try typeof var void while with yield let static async await of ' +
    'true false null undefined NaN Infinity ' +
    'abstract as declare enum implements interface keyof namespace private protected public readonly type any boolean number string bigint symbol unknown never object get set'
  ).split(' '),
);

// Longest first, so `>>>=` is read before `>>` and `>`.
const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  ...COMPOUND_ASSIGNMENTS,
  '<<',
  '>>',
  '**',
  ...ONE_CHARACTER_PUNCTUATORS,
  '@',
];

/** The punctuators by their first character, longest first. */
const PUNCTUATORS_BY_FIRST = byFirstCharacter(PUNCTUATORS);

/** After these a `/` divides; elsewhere it starts a regular expression. */
const endsOperand = (t: Token | undefined) =>
  !!t &&
  (t.text === 'id' || t.text === 'num' || t.text === 'str' || t.text === 're' || t.text === ')' || t.text === ']' || t.text === '}' || t.text === 'this');

/** JavaScript and TypeScript (types are tokens like any other). Never throws: an unexpected character is skipped. */
export function jsTokens(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  // Braces open inside template literals' `${`: a `}` that closes one resumes the template.
  const braces: ('code' | 'template')[] = [];
  const push = (text: string, at: number) => out.push({ text, line: at });

  /** Reads a template's text from i (just after ` or the closing } of a ${...}) to its end or its next ${. */
  const templateText = () => {
    while (i < n) {
      const c = src[i]!;
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && src[i + 1] === '{') {
        i += 2;
        braces.push('template');
        return;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
  };

  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') i++;
    else if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (src[j] === '\n') line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const at = line;
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      push('str', at);
    } else if (c === '`') {
      push('str', line);
      i++;
      templateText();
    } else if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const at = line;
      while (
        i < n &&
        (isIdPart(src[i]!) || src[i] === '.' || ((src[i] === '+' || src[i] === '-') && /[eE]/.test(src[i - 1]!) && !/^0[xX]/.test(src.slice(i - 20, i))))
      )
        i++;
      push('num', at);
    } else if (isIdStart(c)) {
      const start = i;
      while (i < n && isIdPart(src[i]!)) i++;
      const word = src.slice(start, i);
      push(KEYWORDS.has(word) ? word : 'id', line);
    } else if (c === '/' && !endsOperand(out[out.length - 1])) {
      // A regular expression literal: to the closing / outside a [class], then its flags.
      const at = line;
      i++;
      let inClass = false;
      while (i < n && src[i] !== '\n') {
        const d = src[i]!;
        if (d === '\\') i += 2;
        else {
          i++;
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) break;
        }
      }
      while (i < n && isIdPart(src[i]!)) i++;
      push('re', at);
    } else if (c === '}' && braces.length > 0 && braces[braces.length - 1] === 'template') {
      braces.pop();
      i++;
      templateText();
    } else {
      const p = PUNCTUATORS_BY_FIRST.get(c)?.find((q) => src.startsWith(q, i));
      if (!p) {
        i++;
        continue;
      }
      if (p === '{') braces.push('code');
      else if (p === '}') braces.pop();
      push(p, line);
      i += p.length;
    }
  }
  return out;
}
