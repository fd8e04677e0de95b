// A rejected submission's reason, and the expected wait, in the page's language. The gate stores it
// as a code and its parameters (reasonDetail { code, params }, see
// src/domain/reasons.ts); the catalogs' reason.<code> entries word it. Rows
// older than the codes have only the English sentence: its usual shapes are
// read back into a code and parameters, and anything else is shown as it was
// written (English).

import { storedReason, type Reason } from '../../domain/reasons.ts';
import type { WaitWhy } from '../../domain/wait-estimate.ts';
import { CATALOGS, type Lang } from './catalog.ts';
import type { Messages } from './en.ts';
import { currentLang, t } from './index.ts';

const num = (s: string) => Number(s);

/** An older row's English sentence read back into its code and parameters, when it has one of the gate's shapes. */
export function legacyReason(reason: string, line: number | null = null): Reason | null {
  let m =
    /^lost to (\S+) in gate match (\d+) of (\d+) \(match #(\d+), seed (\d+)\): (?:tied for first with \S+ at (-?[\d.]+) \(ties are not wins\)|ranked (\d+|\?) of (\d+) with (-?[\d.]+) against \S+'s best (-?[\d.]+))(?:; your bot froze in round (\d+) \((\w+)\): (.*))?$/s.exec(
      reason,
    );
  if (m) {
    const tied = m[6] !== undefined;
    return {
      code: 'lost',
      params: {
        opponent: m[1]!,
        n: num(m[2]!),
        of: num(m[3]!),
        matchId: num(m[4]!),
        seed: num(m[5]!),
        seat: null,
        tied,
        score: num(tied ? m[6]! : m[9]!),
        best: num(tied ? m[6]! : m[10]!),
        rank: tied || m[7] === '?' ? null : num(m[7]!),
        players: tied ? 4 : num(m[8]!),
        froze: m[11] !== undefined ? { round: num(m[11]), why: m[12]!, message: m[13]! } : null,
      },
    };
  }
  // Older self-play sentences numbered the copies 1 to 4; seats are 0 to 3.
  m = /^self-play: copy (\d+) of (\d+) froze in round (\d+) \((\w+)\): (.*?)(?: \((\d+) copies of \d+ froze\))?; see match #(\d+)$/s.exec(reason);
  if (m) {
    return {
      code: 'selfplay-frozen',
      params: {
        seat: num(m[1]!) - 1,
        copies: num(m[2]!),
        round: num(m[3]!),
        why: m[4]!,
        message: m[5]!,
        frozen: m[6] !== undefined ? num(m[6]) : 1,
        matchId: num(m[7]!),
      },
    };
  }
  m = /^(self-play: )?the judge could not play (?:gate )?match #(\d+) \((.*)\); not your bot's fault, please resubmit$/s.exec(reason);
  if (m) return { code: 'judge-error', params: { step: m[1] ? 'selfplay' : 'dummy', matchId: num(m[2]!), error: m[3]! } };
  m = /^name locked: version (\d+) beat (\S+), but another version of (\S+) qualified first$/.exec(reason);
  if (m) return { code: 'name-locked', params: { version: num(m[1]!), opponent: m[2]!, name: m[3]! } };
  if (/^compile error: /.test(reason)) return { code: 'compile-error', params: { message: reason.replace(/ \(line \d+\)$/, ''), line } };
  return null;
}

/**
 * The reason as the page's language words it: the stored code, else an older
 * row's sentence read back, else the sentence as it is. English shows the
 * stored sentence (the API's `reason`, the same words).
 */
export function localizeReason(reason: string | null, detail: unknown, line: number | null = null, lang: Lang = currentLang()): string | null {
  if (lang === 'en' || reason === null) return reason;
  const r = storedReason(detail) ?? legacyReason(reason, line);
  if (!r) return reason;
  const m = (CATALOGS[lang] as Messages)[`reason.${r.code}`] as (p: unknown) => string;
  try {
    return m(r.params);
  } catch {
    return reason; // parameters that do not fit (a hand-edited row): the sentence as it was written
  }
}

/** A new submission's expected wait explained in the page's language (the API keeps the English explanation). */
export function waitExplanation(wait: { explanation: string; why?: WaitWhy }): string {
  const why = wait.why;
  if (!why) return wait.explanation;
  switch (why.code) {
    case 'no-queue':
      return t('queue.noQueue');
    case 'no-runner':
      return t('queue.noRunner');
    case 'no-data':
      return t('queue.noData');
    case 'estimate':
      return t('queue.estimate', why.params);
  }
}
