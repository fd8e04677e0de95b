// A refusal's message in the visitor's language. The domain words its
// refusals in English, with a stable code; where the catalog has the code
// (refusal.<code>), the page shows the translation, filled with the values
// the English message quotes ("name") and its first number. Codes without a
// translation keep the English message, which is still the API's. (The
// English catalog's refusal.* entries are the templates the others follow.)

import { CATALOGS, type Lang, type MessageKey } from './catalog.ts';
import { currentLang } from './index.ts';

/** A refusal's translation: the English message's quoted values, its first number, and the whole message (for a value it gives unquoted). */
type RefusalMessage = (q: readonly string[], n: number, message: string) => string;

export function localizeRefusal(refused: { code?: string | undefined; message: string; retryAfterSeconds?: number }, lang: Lang = currentLang()): string {
  // English is the domain's own wording: shown as it is.
  if (lang === 'en') return refused.message;
  let code = refused.code;
  if (code === 'unauthorized' && /^wrong username or password/.test(refused.message)) code = 'wrong-credentials';
  const key = `refusal.${code}` as MessageKey;
  const m = (CATALOGS[lang] as Record<string, unknown>)[key] as RefusalMessage | undefined;
  if (!code || typeof m !== 'function') return refused.message;
  const quoted = [...refused.message.matchAll(/"([^"]*)"/g)].map((x) => x[1]!);
  const n =
    code === 'too-many-attempts' && refused.retryAfterSeconds
      ? Math.max(1, Math.ceil(refused.retryAfterSeconds / 60))
      : Number(/\d+/.exec(refused.message)?.[0] ?? 0);
  return m(quoted, n, refused.message);
}
