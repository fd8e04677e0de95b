// The similarity report's tokenizer for C++ (src/domain/similarity/ says
// how tokens are compared).

import type { Token } from '../types.ts';
import { byFirstCharacter, COMPOUND_ASSIGNMENTS, isDigit, isIdPart, isIdStart, ONE_CHARACTER_PUNCTUATORS } from '../token-shared.ts';

// C++: what the course's players are written in (one file, AIName.cc, against
// the game's headers). The same normalizing as JavaScript's: every name that
// is not a keyword is `id` (so is every name of the standard library: vector,
// push_back), every number `num`, every string `str`, every character
// literal `chr`; comments and layout vanish. What a copy changes at no cost
// is normalized away too: the preprocessor's lines go (#include <bits/stdc++.h>
// or the headers one by one, #define PLAYER_NAME, include guards: boilerplate
// that says nothing about the program), a `std::` qualification is dropped
// (`using namespace std;` or not), the alternative operators read as their
// symbols (`and` is `&&`, as the course's headers write it), and `>>` is two
// `>` (so `vector<vector<int>>` and `vector<vector<int> >` are one program).

const CPP_KEYWORDS = new Set(
  (
    'alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class const consteval constexpr constinit const_cast continue co_await co_return co_yield ' +
    'decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace new noexcept nullptr ' +
    'operator private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this thread_local ' +
    'throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while override final'
  ).split(' '),
);

/** The alternative spellings of operators, and NULL, read as what they mean. */
const CPP_ALIASES: Record<string, string> = {
  and: '&&',
  or: '||',
  not: '!',
  not_eq: '!=',
  bitand: '&',
  bitor: '|',
  xor: '^',
  compl: '~',
  and_eq: '&=',
  or_eq: '|=',
  xor_eq: '^=',
  NULL: 'nullptr',
};

/** Longest first. `>>` and `>>=` are not here: they are read as `>` `>` and `>` `>=`. */
const CPP_PUNCTUATORS = [
  '<=>',
  '->*',
  '...',
  '<<=',
  '::',
  '->',
  '.*',
  '++',
  '--',
  '<<',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  ...COMPOUND_ASSIGNMENTS,
  '##',
  ...ONE_CHARACTER_PUNCTUATORS,
];
const CPP_PUNCTUATORS_BY_FIRST = byFirstCharacter(CPP_PUNCTUATORS);

/** Prefixes of string and character literals (u8"...", L'x', R"(...)"). */
const STRING_PREFIX = /^(?:u8|u|U|L)?R?$/;

/** C++ (and C). Never throws: an unexpected character is skipped. */
export function cppTokens(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  /** Only blanks since the last newline: a `#` here starts a directive. */
  let lineStart = true;
  const push = (text: string, at: number) => {
    out.push({ text, line: at });
    lineStart = false;
  };
  /** Skips a comment starting at i (// or /*), counting its lines; a // comment stops before its newline. */
  const skipComment = () => {
    if (src[i + 1] === '/') {
      // A line comment goes on after a backslash at the end of its line.
      while (i < n && src[i] !== '\n') {
        if (src[i] === '\\' && src[i + 1] === '\n') {
          line++;
          i++;
        } else if (src[i] === '\\' && src[i + 1] === '\r' && src[i + 2] === '\n') {
          line++;
          i += 2;
        }
        i++;
      }
    } else {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (src[j] === '\n') line++;
      i = stop;
    }
  };
  /** A quoted literal from i (at its opening quote) to its closing one, on one line. */
  const skipQuoted = (q: string) => {
    i++;
    while (i < n && src[i] !== q && src[i] !== '\n') {
      if (src[i] === '\\') {
        if (src[i + 1] === '\n') line++;
        i += 2;
      } else i++;
    }
    i++;
  };

  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
      lineStart = true;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') i++;
    else if (c === '\\' && (src[i + 1] === '\n' || (src[i + 1] === '\r' && src[i + 2] === '\n'))) {
      // A line splice: the line goes on.
      i += src[i + 1] === '\n' ? 2 : 3;
      line++;
    } else if (c === '/' && (src[i + 1] === '/' || src[i + 1] === '*')) skipComment();
    else if (c === '#' && lineStart) {
      // A preprocessor directive, with its continuation lines and comments: left out.
      while (i < n && src[i] !== '\n') {
        if (src[i] === '\\' && src[i + 1] === '\n') {
          line++;
          i += 2;
        } else if (src[i] === '\\' && src[i + 1] === '\r' && src[i + 2] === '\n') {
          line++;
          i += 3;
        } else if (src[i] === '/' && (src[i + 1] === '/' || src[i + 1] === '*')) skipComment();
        else if (src[i] === '"' || src[i] === "'") skipQuoted(src[i]!);
        else i++;
      }
    } else if (c === '"') {
      const at = line;
      skipQuoted('"');
      push('str', at);
    } else if (c === "'") {
      const at = line;
      skipQuoted("'");
      push('chr', at);
    } else if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const at = line;
      const hex = c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X');
      i++;
      while (i < n) {
        const d = src[i]!;
        const prev = src[i - 1]!;
        if (isIdPart(d) || d === '.') i++;
        // A digit separator (1'000'000).
        else if (d === "'" && isIdPart(src[i + 1] ?? '')) i++;
        // An exponent's sign: 1e-9, 0x1p+3.
        else if ((d === '+' || d === '-') && (hex ? prev === 'p' || prev === 'P' : prev === 'e' || prev === 'E')) i++;
        else break;
      }
      push('num', at);
    } else if (isIdStart(c)) {
      const at = line;
      const start = i;
      while (i < n && isIdPart(src[i]!)) i++;
      const word = src.slice(start, i);
      const next = src[i];
      if ((next === '"' || next === "'") && STRING_PREFIX.test(word)) {
        if (next === '"' && word.endsWith('R')) {
          // A raw string: R"delim( ... )delim", newlines and all.
          const open = src.indexOf('(', i);
          const delim = open < 0 ? '' : src.slice(i + 1, open);
          const close = open < 0 || delim.length > 16 ? -1 : src.indexOf(`)${delim}"`, open + 1);
          const stop = close < 0 ? n : close + delim.length + 2;
          for (let j = i; j < stop; j++) if (src[j] === '\n') line++;
          i = stop;
        } else skipQuoted(next);
        push(next === '"' ? 'str' : 'chr', at);
        continue;
      }
      // std::vector and vector (after using namespace std) are one program.
      if (word === 'std' && src.startsWith('::', i)) {
        i += 2;
        continue;
      }
      push(CPP_ALIASES[word] ?? (CPP_KEYWORDS.has(word) ? word : 'id'), at);
    } else if (c === '>' && src[i + 1] === '>') {
      // Two closing angle brackets or a shift: two `>` either way (and `>>=` is `>` `>=`).
      push('>', line);
      i++;
    } else {
      const p = CPP_PUNCTUATORS_BY_FIRST.get(c)?.find((q) => src.startsWith(q, i));
      if (!p) {
        i++;
        continue;
      }
      push(p, line);
      i += p.length;
    }
  }
  return out;
}
