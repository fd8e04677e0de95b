// What the similarity report's two tokenizers (script-tokens.ts for JavaScript
// and TypeScript, cpp/tokens.ts for C++) read alike: names, digits, and the
// punctuators both languages spell the same.

export const isDigit = (c: string) => c >= '0' && c <= '9';
/** A name starts with a letter, `_`, `$` (clang takes it too) or any non-ASCII character. */
export const isIdStart = (c: string) => {
  const x = c.charCodeAt(0);
  return (x >= 97 && x <= 122) || (x >= 65 && x <= 90) || x === 95 || x === 36 || x >= 0xc0;
};
export const isIdPart = (c: string) => isIdStart(c) || isDigit(c);

/** The compound assignments both languages have (each tokenizer puts its longer punctuators before them). */
export const COMPOUND_ASSIGNMENTS = ['+=', '-=', '*=', '/=', '%=', '&=', '|=', '^='] as const;
/** The one-character punctuators both languages have: the end of each tokenizer's list, longest first. */
export const ONE_CHARACTER_PUNCTUATORS = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '!',
  '~',
  '?',
  ':',
  '=',
  '.',
  '#',
] as const;

/** Punctuators by their first character, in the list's order (so longest first, as the list is). */
export function byFirstCharacter(punctuators: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of punctuators) out.set(p[0]!, [...(out.get(p[0]!) ?? []), p]);
  return out;
}
