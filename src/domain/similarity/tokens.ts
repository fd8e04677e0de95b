// Normalized token streams for the similarity report: each language's record
// has its tokenizer (src/sandbox/languages/script-tokens.ts for JavaScript and
// TypeScript, src/sandbox/languages/cpp/tokens.ts for C++). Each token keeps its source
// line, so matching regions can be shown in the original text.

import { languageById, languageOfSourceFile, type LanguageId, type Token, type Tokenizer } from '../../sandbox/languages/index.ts';

export type Language = LanguageId;
export type { Token, Tokenizer };

/** The language of a submitted file by its name (a C++ header included), or null when no tokenizer reads it. */
export function languageOf(filename: string): Language | null {
  return languageOfSourceFile(filename)?.id ?? null;
}

/** The tokenizer of a language the report reads. */
export function tokenizerOf(language: Language): Tokenizer {
  return languageById(language).tokenize;
}
