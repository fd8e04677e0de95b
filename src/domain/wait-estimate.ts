// A new submission's expected wait in words: the figures the estimate gives
// (src/domain/queue-overview.ts computes them) and their English sentence,
// the API's. Pure, no imports: the catalogs (src/http/i18n) word the same
// figures in each page's language.

/** The gate work of earlier submissions, which a new submission waits for (first come, first served). */
export interface GateWorkAhead {
  /** Submissions whose gate is not finished. */
  submissions: number;
  /** Compile checks still to do. */
  checks: number;
  /** Self-play matches waiting, running, or still to come. */
  selfplays: number;
  /** Dummy matches waiting, running, or still to come. */
  dummies: number;
  /** Matches of other kinds being played (never interrupted: they hold a runner until they end). */
  otherRunning: number;
}

/** The figures of a wait estimate, as the explanation gives them (seconds rounded as shown). */
export interface WaitEstimate {
  ahead: GateWorkAhead;
  /** Runner-seconds of the work ahead, spread over the runners. */
  aheadSeconds: number;
  slots: number;
  /** Its own gate: a check, a self-play, the Dummy matches. */
  ownSeconds: number;
  checkSeconds: number;
  selfplaySeconds: number;
  dummySeconds: number;
  dummyMatches: number;
  atATime: number;
}

/** Why the wait is what it is: no estimate (and why not), or the estimate's figures. */
export type WaitWhy = { code: 'no-queue' } | { code: 'no-runner' } | { code: 'no-data' } | { code: 'estimate'; params: WaitEstimate };

/** The estimate's explanation in English: the API's, and the English page's. */
export function englishWait(p: WaitEstimate): string {
  const { ahead } = p;
  const before =
    ahead.submissions === 0 && ahead.otherRunning === 0
      ? 'nothing ahead of it'
      : [
          ahead.submissions
            ? `the gates of ${ahead.submissions} earlier submission${ahead.submissions === 1 ? '' : 's'} (${ahead.checks} check${ahead.checks === 1 ? '' : 's'}, ${ahead.selfplays} self-play${ahead.selfplays === 1 ? '' : 's'}, ${ahead.dummies} Dummy match${ahead.dummies === 1 ? '' : 'es'})`
            : '',
          ahead.otherRunning ? `${ahead.otherRunning} other match${ahead.otherRunning === 1 ? '' : 'es'} being played` : '',
        ]
          .filter(Boolean)
          .join(' and ') + `: about ${p.aheadSeconds} s on ${p.slots} runner${p.slots === 1 ? '' : 's'}`;
  return (
    `Gate jobs go before ranked and tournament matches, one submission after another in the order they arrived, so a new submission waits for ${before}; ` +
    `then its own gate, about ${p.ownSeconds} s (a check of about ${p.checkSeconds} s, a self-play of ${p.selfplaySeconds} s and ${p.dummyMatches} Dummy matches of ${p.dummySeconds} s, ${p.atATime} at a time). ` +
    "Match times are the mean run times of recent matches, queue time not included (one played while uploads were being compiled, which go first, counted by its players' CPU time instead)."
  );
}
