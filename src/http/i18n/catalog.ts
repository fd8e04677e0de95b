// The site's words in each language it offers, and the lookup both sides
// share (the server's pages and the browser's scripts import this file; it
// has no Node imports). English is the source: the other catalogs are typed
// against it, so a missing or misspelt key, or a message taking other
// arguments, is a type error (test/http/i18n/i18n.test.ts checks the same at run
// time).

import { en, type Messages } from './en.ts';
import { ca } from './ca.ts';
import { es } from './es.ts';

export const LANGS = ['en', 'ca', 'es'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

/** Each language under its own name, as a language switch shows it. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', ca: 'Català', es: 'Español' };

export const CATALOGS: Record<Lang, Messages> = { en, ca, es };

export type MessageKey = keyof Messages;
/** The arguments a message takes: none for a plain string. */
export type MessageArgs<K extends MessageKey> = Messages[K] extends (...args: infer A) => string ? A : [];

export const isLang = (s: unknown): s is Lang => typeof s === 'string' && (LANGS as readonly string[]).includes(s);

export function translate<K extends MessageKey>(lang: Lang, key: K, ...args: MessageArgs<K>): string {
  const m = (CATALOGS[lang] as Messages)[key] as string | ((...a: unknown[]) => string);
  return typeof m === 'function' ? m(...args) : m;
}

export type Translator = <K extends MessageKey>(key: K, ...args: MessageArgs<K>) => string;

export const translator =
  (lang: Lang): Translator =>
  (key, ...args) =>
    translate(lang, key, ...args);
