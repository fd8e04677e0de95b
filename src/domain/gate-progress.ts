// The gate as it stands, one view model for everyone who shows it: the API's
// submission (`gate`), the submission page's timeline and `arbiter submit`.
// Pure: it reads a submission and its gate matches as the API shapes them.

import { isOutrightWinner } from '../sdk/ranking.ts';
import { GATE_DUMMY_MATCHES, GATE_OPPONENT } from './gate.ts';
import type { matchOut } from './serialize.ts';
import { FINAL_STATUSES, GATE_ORDER, GateStep, SELF_PLAY, type SubmissionStatusOut } from '../statuses.ts';

export const GATE_STEP_STATES = ['pending', 'running', 'passed', 'failed', 'skipped', 'won', 'lost', 'error'] as const;
export type GateStepState = (typeof GATE_STEP_STATES)[number];

type GateMatch = Pick<ReturnType<typeof matchOut>, 'id' | 'seed' | 'status' | 'gateStep' | 'gateIndex' | 'participants'>;

export interface GateStepView {
  /** 'compile', 'selfplay', 'dummy-0' .. 'dummy-3'. */
  key: string;
  label: string;
  state: GateStepState;
  /** The step's match, once it exists. */
  matchId: number | null;
  seed: number | null;
}

export interface GateProgress {
  /** The submission's status as the API spells it ('self-play', not self_play). */
  status: string;
  final: boolean;
  /** The step that rejected it, or null. */
  failedStep: string | null;
  steps: GateStepView[];
}

/** Which step rejected it: reasonDetail.step, or the compile step for older rows without detail. */
function failedStepOf(status: string, reasonDetail: unknown): string | null {
  if (status !== 'rejected') return null;
  const step = (reasonDetail as { step?: unknown } | null)?.step;
  return typeof step === 'string' ? step : 'compile';
}

export function gateProgress(submission: { id: number; status: string; reasonDetail: unknown }, matches: readonly GateMatch[]): GateProgress {
  const { status } = submission;
  const final = FINAL_STATUSES.has(status);
  const failed = failedStepOf(status, submission.reasonDetail);
  const reached = (step: string) => GATE_ORDER.indexOf(status as SubmissionStatusOut) > GATE_ORDER.indexOf(step as SubmissionStatusOut);
  const selfplay = matches.find((m) => m.gateStep === GateStep.selfplay);
  const dummies = new Map(matches.filter((m) => m.gateStep === 'dummy').map((m) => [m.gateIndex ?? -1, m]));
  const steps: GateStepView[] = [
    {
      key: 'compile',
      label: 'Compile',
      state: failed === 'compile' ? 'failed' : status === 'queued' ? 'pending' : status === 'compiling' ? 'running' : 'passed',
      matchId: null,
      seed: null,
    },
    {
      key: GateStep.selfplay,
      label: 'Self-play',
      state:
        failed === 'compile'
          ? 'skipped'
          : failed === GateStep.selfplay
            ? 'failed'
            : status === SELF_PLAY
              ? // Running only once a worker took its match (the recorder marks it from the queue's events).
                selfplay?.status === 'running'
                ? 'running'
                : 'pending'
              : reached(SELF_PLAY) || failed === 'dummy'
                ? 'passed'
                : 'pending',
      matchId: selfplay?.id ?? null,
      seed: selfplay?.seed ?? null,
    },
  ];
  for (let i = 0; i < GATE_DUMMY_MATCHES; i++) {
    const m = dummies.get(i);
    let state: GateStepState;
    if (!m) state = final || failed ? 'skipped' : 'pending';
    else if (m.status === 'done') {
      const seats = [...m.participants].sort((a, b) => a.seat - b.seat);
      const mine = seats.findIndex((p) => p.submissionId === submission.id);
      state =
        mine >= 0 &&
        isOutrightWinner(
          seats.map((p) => p.score ?? 0),
          mine,
        )
          ? 'won'
          : 'lost';
    } else if (m.status === 'failed') state = 'error';
    else state = m.status === 'running' ? 'running' : final ? 'skipped' : 'pending';
    // The opponent as recorded (tests may gate against another built-in); Dummy before the match exists.
    const opponent = m?.participants.find((p) => p.builtin)?.builtin ?? GATE_OPPONENT;
    steps.push({ key: `dummy-${i}`, label: `Match ${i + 1} against ${opponent}`, state, matchId: m?.id ?? null, seed: m?.seed ?? null });
  }
  return { status, final, failedStep: failed, steps };
}

/**
 * Its gate waits for a runner: its compile check not started yet, or its self-play not started (in a burst,
 * most of the wait is there: the self-play queues behind the earlier gates' matches).
 */
export function waitsForRunner(progress: GateProgress): boolean {
  if (progress.status === 'queued') return true;
  return progress.status === SELF_PLAY && progress.steps.find((s) => s.key === GateStep.selfplay)?.state === 'pending';
}

/**
 * It has a place in the queue and an expected wait, which the API (`wait`) and the submission page both show:
 * no match of its gate has started yet. That is while it waits for a runner (waitsForRunner), and while its
 * check compiles: the check runs on a lane of its own, but the self-play it leads to still queues behind the
 * earlier submissions' gates, so the place and the wait are as true then as a moment before.
 */
export function showsWait(progress: GateProgress): boolean {
  return progress.status === 'compiling' || waitsForRunner(progress);
}
