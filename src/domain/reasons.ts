// Why the gate rejected a submission, as a stable code and its parameters:
// stored in submission.reasonDetail ({ code, params, ...the step's detail }),
// rendered in each page's language by the catalogs' reason.* entries
// (src/http/i18n), and in English here for the API's `reason` string and
// `arbiter submit`. Pure, no Node imports: the catalogs import its types.
//
// A freeze's round is stored as the replay stores it and shown as the bot's
// round() saw it (roundShown), here and in every catalog.
//
// Seats are numbered 0 to 3, as `arbiter play`, the statements and the match
// pages number them.

/** A bot that stopped: the round (the replay's frozenRound, shown as roundShown(round)), why (a FreezeReason: exception, cpu, memory, orders...), and its error's first line (the bot's own text). */
import { roundShown } from '../sdk/replay-format.ts';

export interface FrozenAt {
  round: number;
  why: string;
  message: string;
}

export interface ReasonParams {
  /** The compile step's verdict; `message` is the compiler's, in its own words. */
  'compile-error': { message: string; line: number | null };
  'game-mismatch': { declared: string; game: string };
  'name-mismatch': { declared: string; name: string };
  /** The judge could not play a gate match (not the bot's fault). */
  'judge-error': { step: 'selfplay' | 'dummy'; matchId: number; error: string };
  /** Self-play: the first copy that froze (by round, then seat), and how many froze. */
  'selfplay-frozen': FrozenAt & { seat: number; copies: number; frozen: number; matchId: number };
  /** A match against the gate's opponent not won outright. `n` counts from 1, as the gate's steps do. */
  lost: {
    opponent: string;
    n: number;
    of: number;
    matchId: number;
    seed: number;
    seat: number | null;
    tied: boolean;
    score: number;
    best: number;
    rank: number | null;
    players: number;
    froze: FrozenAt | null;
  };
  /** Beat the opponent, but another version of the name qualified first. */
  'name-locked': { version: number; opponent: string; name: string };
}

export type ReasonCode = keyof ReasonParams;
export type Reason = { [K in ReasonCode]: { code: K; params: ReasonParams[K] } }[ReasonCode];

export const REASON_CODES: readonly ReasonCode[] = ['compile-error', 'game-mismatch', 'name-mismatch', 'judge-error', 'selfplay-frozen', 'lost', 'name-locked'];

/** The reason stored in a reasonDetail, or null (older rows have only the English text). */
export function storedReason(detail: unknown): Reason | null {
  if (!detail || typeof detail !== 'object') return null;
  const { code, params } = detail as { code?: unknown; params?: unknown };
  if (typeof code !== 'string' || !(REASON_CODES as readonly string[]).includes(code) || !params || typeof params !== 'object') return null;
  return { code, params } as Reason;
}

/**
 * A compile error with its line: esbuild's one line gets " (line N)"; clang's
 * diagnostics (several lines: the error, the source line, the caret) are kept
 * as clang printed them, their first line already saying file:line:column,
 * so the line goes on a line of its own only when the text does not show it.
 */
export function compileErrorText(message: string, line: number | null): string {
  if (line === null || /\bline \d+/.test(message)) return message;
  if (!message.includes('\n')) return `${message} (line ${line})`;
  return message.includes(`:${line}:`) ? message : `${message.trimEnd()}\n(line ${line})`;
}

/** A compile error's text split for a page: the first line (what went wrong, where) and the whole of it as the compiler printed it, without the "compile error: " prefix. */
export function compileErrorLines(message: string): { first: string; text: string; multiline: boolean } {
  const text = message.replace(/^compile error: /, '').replace(/\s+$/, '');
  return { first: text.split('\n', 1)[0]!, text, multiline: text.includes('\n') };
}

const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.replace(/y$/, 'ie') + 's'}`;

/** The English sentence: the API's `reason`, `arbiter submit`'s verdict, the English pages. */
export function englishReason(r: Reason): string {
  switch (r.code) {
    case 'compile-error':
      return compileErrorText(r.params.message, r.params.line);
    case 'game-mismatch':
      return `compile error: the file declares GAME = "${r.params.declared}" but was submitted for ${r.params.game}`;
    case 'name-mismatch':
      return `compile error: the file declares PLAYER_NAME = "${r.params.declared}" but was submitted as "${r.params.name}"`;
    case 'judge-error': {
      const { step, matchId, error } = r.params;
      return step === 'selfplay'
        ? `self-play: the judge could not play match #${matchId} (${error}); not your bot's fault, please resubmit`
        : `the judge could not play gate match #${matchId} (${error}); not your bot's fault, please resubmit`;
    }
    case 'selfplay-frozen': {
      const p = r.params;
      const others = p.frozen > 1 ? ` (${plural(p.frozen, 'copy')} of ${p.copies} froze)` : '';
      return `self-play: the copy in seat ${p.seat} froze in round ${roundShown(p.round)} (${p.why}): ${p.message}${others}; see match #${p.matchId}`;
    }
    case 'lost': {
      const p = r.params;
      const how = p.tied
        ? `tied for first with ${p.opponent} at ${p.score} (ties are not wins)`
        : `ranked ${p.rank ?? '?'} of ${p.players} with ${p.score} against ${p.opponent}'s best ${p.best}`;
      const froze = p.froze ? `; your bot froze in round ${roundShown(p.froze.round)} (${p.froze.why}): ${p.froze.message}` : '';
      return `lost to ${p.opponent} in gate match ${p.n} of ${p.of} (match #${p.matchId}, seed ${p.seed}): ${how}${froze}`;
    }
    case 'name-locked':
      return `name locked: version ${r.params.version} beat ${r.params.opponent}, but another version of ${r.params.name} qualified first`;
  }
}
