// The language the viewer speaks: the page's own (<html lang>, set by the
// server from the visitor's choice), English elsewhere (outside a browser,
// or a page in another language). Each game's words for its legend and
// tooltips come in every language the site offers (src/games/<id>/viewer-words.ts).

export type ViewerLang = 'en' | 'ca' | 'es';

export function pageLang(): ViewerLang {
  const doc = (globalThis as { document?: { documentElement?: { lang?: string } } }).document;
  const lang = doc?.documentElement?.lang?.toLowerCase().split('-')[0];
  return lang === 'ca' || lang === 'es' ? lang : 'en';
}

/** Words in every language, the English ones the shape the others follow. */
export type Words<T> = { en: T; ca: T; es: T };

export const wordsFor = <T>(words: Words<T>): T => words[pageLang()];
