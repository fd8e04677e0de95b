// The replay: versioned, self-contained JSON (gzip on disk). The viewer reads
// nothing else, and `arbiter verify` re-runs the engine from its seed and
// orders. Bump REPLAY_VERSION on any incompatible change.

import type { Limits } from './limits.ts';

export const REPLAY_FORMAT = 'arbiter-replay';
export const REPLAY_VERSION = 1;
/**
 * The most a replay's JSON may take once unpacked, wherever one is read (arbiter verify and view,
 * the viewer's file and download): far above any real match (a Moria replay is about 1.5 MiB), and
 * what a gzip bomb is stopped at while it inflates, before it can take more.
 */
export const REPLAY_MAX_JSON_BYTES = 64 * 1024 * 1024;

/** Why a bot stopped giving orders. */
export type FreezeReason =
  | 'compile' // did not parse, or did not expose the player API
  | 'exception' // threw
  | 'cpu' // CPU budget for the match used up
  | 'memory' // heap cap exceeded (also a V8 catastrophic OOM)
  | 'orders' // more than 1000 orders in one round
  | 'output' // returned something the host could not accept (oversized orders)
  | 'watchdog' // wall-clock safety net
  | 'crash'; // its sandbox process died

/**
 * The one round number people read for a stored freeze round (messages, gate
 * reasons, pages, the viewer): the value of `round()` in the bot's code when
 * it froze, 0 to totalRounds - 1. The replay numbers a play() by the round it
 * makes (rounds[r], 1 for the first), so the shown round is one less; a bot
 * that froze while loading, before its first play(), shows 0 too.
 */
export function roundShown(frozenRound: number): number {
  return Math.max(0, frozenRound - 1);
}

export interface ReplayPlayer {
  name: string;
  /** CPU used over the whole match, load included, in ms. */
  cpuMs: number;
  /** The round during which it was frozen (0 = at load; r = the play() that made rounds[r]), or null. Shown as roundShown(frozenRound). */
  frozenRound: number | null;
  frozenReason: FreezeReason | null;
  /** The error as the submitter should read it. */
  frozenMessage: string | null;
}

/** One recorded round; Frame is the game's frame type (`frame(state)`). */
export interface ReplayRound<Frame = unknown> {
  /** Round number; rounds[0] is the initial state (round 0, no orders). */
  round: number;
  /** The orders applied, per player, after validation (what verify feeds the engine). */
  orders: unknown[][];
  /** What happened (game-specific). */
  events: unknown[];
  /** The game's frame after this round. */
  frame: Frame;
  scores: number[];
  counters: Record<string, number[]>;
  /** Cumulative CPU per player at the end of this round, ms. */
  cpuMs: number[];
  /** Players frozen at the end of this round. */
  frozen: boolean[];
}

export interface Replay<Frame = unknown> {
  format: typeof REPLAY_FORMAT;
  version: typeof REPLAY_VERSION;
  game: string;
  title: string;
  engineVersion: string;
  config: Record<string, unknown>;
  seed: number;
  limits: Limits;
  players: ReplayPlayer[];
  rounds: ReplayRound<Frame>[];
  result: {
    scores: number[];
    /** 1 = first; ties share a rank. */
    ranks: number[];
    /** The outright winner (strictly first), or null on a tie for first. */
    winner: number | null;
  };
}
