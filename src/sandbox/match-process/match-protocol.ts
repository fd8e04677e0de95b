// The protocol between a worker (match-pool.ts, the parent) and its match
// child (match-child.ts): every message either way, with the discriminant
// `t`. Both sides import these types and switch on `t` exhaustively
// (assertNever), so a message added here does not compile until both sides
// handle it. A leaf of its own: the host names these types without importing
// the child's entry (no import circle).
//
// Nothing here decides that a match is played again after a failure: that is
// the worker pool's (src/jobs/worker/pool.ts, BullMQ's attempts). The child reports
// what happened (a result, a call the machine's load cut short, its own or the
// judge's failure), the parent turns it into a verdict or a typed error.

import type { LoadReply, LoadRequest } from '../../match/bot-host.ts';
import type { ReplayHead } from '../../match/replay-io.ts';
import type { Replay } from '../../sdk/replay-format.ts';
import type { MatchOutcome, ResolvedMatchSpec, RunOptions } from '../../match/types.ts';

/** Which game: one the registry finds by id, or a game module outside it (tests' fixtures). */
export type GameRef = { id: string; module?: string };

// ---- parent -> child ----

/** Play one match: the spec's limits are resolved already (the child never merges them again). */
export interface PlayMessage {
  t: 'match';
  id: number;
  game: GameRef;
  spec: ResolvedMatchSpec;
  options: Pick<RunOptions, 'compiled' | 'forced' | 'patient' | 'lastRoundOnly'>;
}

/** The gate's load of one compiled file. */
export interface CheckMessage {
  t: 'check';
  id: number;
  req: LoadRequest;
  /** Calls (seat:round) that get the generous watchdog from the start. */
  patient?: string[];
}

export type ParentMessage = PlayMessage | CheckMessage;
/** A job before the parent numbers it. */
export type MatchProcessJob = Omit<PlayMessage, 'id'> | Omit<CheckMessage, 'id'>;

// ---- child -> parent ----

/** The child started and waits for jobs. */
export interface ReadyMessage {
  t: 'ready';
}

/** A match's progress, at most every 100 ms. */
export interface ProgressMessage {
  t: 'progress';
  id: number;
  round: number;
  totalRounds: number;
}

/** What every job's last message says of the child: its CPU on the job, its resident memory after it. */
interface JobEnd {
  id: number;
  /** CPU the child spent on this job (all its threads), ms. */
  cpuMs: number;
  /** Its resident memory after the job, bytes (the pool replaces a process that grew). */
  rss: number;
}

/**
 * The replay as it crosses the channel: the rounds encoded once (the parent decodes them only if it reads them),
 * or, for an evaluation's match (lastRoundOnly), its one round as it is.
 */
export type SentOutcome = Omit<MatchOutcome, 'replay' | 'replayGz' | 'runs' | 'processCpuMs'> &
  ({ replay: ReplayHead; replayGz: Uint8Array } | { replay: Replay; replayGz?: undefined });

export interface PlayedMessage extends JobEnd {
  t: 'played';
  outcome: SentOutcome;
}

export interface CheckedMessage extends JobEnd {
  t: 'checked';
  reply: LoadReply;
}

/**
 * The wall clock cut a bot's call short before the bot used its CPU (a busy
 * machine, not the bot): the job's verdict is unknown. The parent plays the
 * job again with that call given patience (the same seed gives the same match).
 */
export interface CutShortMessage extends JobEnd {
  t: 'cut-short';
  seat: number;
  round: number;
}

/**
 * The job failed without a bot causing it. `infra`: the judge's machinery
 * (SandboxInfraError); `judge`: any other error of the judge's code (a bad
 * spec, an engine's bug), its name kept.
 */
export interface FailedMessage extends JobEnd {
  t: 'failed';
  fault: 'infra' | 'judge';
  name: string;
  message: string;
}

/** The child got a message it does not know: refused, never guessed at. */
export interface RefusedMessage {
  t: 'refused';
  id: number | null;
  message: string;
}

export type ChildMessage = ReadyMessage | ProgressMessage | PlayedMessage | CheckedMessage | CutShortMessage | FailedMessage | RefusedMessage;
/** The messages that end a job. */
export type JobReply = Exclude<ChildMessage, ReadyMessage | ProgressMessage>;

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/** For the `default:` of an exhaustive switch: does not compile while a case is missing, throws if a value gets there at run time anyway. */
export function assertNever(value: never, what: string): never {
  throw new ProtocolError(`unknown ${what} ${JSON.stringify((value as { t?: unknown })?.t ?? value)}`);
}

const PARENT_TYPES: ReadonlySet<string> = new Set<ParentMessage['t']>(['match', 'check']);
const CHILD_TYPES: ReadonlySet<string> = new Set<ChildMessage['t']>(['ready', 'progress', 'played', 'checked', 'cut-short', 'failed', 'refused']);

function typeOf(raw: unknown): string | null {
  return typeof raw === 'object' && raw !== null && typeof (raw as { t?: unknown }).t === 'string' ? (raw as { t: string }).t : null;
}

/** The job id of a message, if it has one (a refusal names it). */
export function idOf(raw: unknown): number | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'number' ? id : null;
}

/** What the child reads: a parent message, or a ProtocolError saying why not. */
export function readParentMessage(raw: unknown): ParentMessage {
  const t = typeOf(raw);
  if (t === null) throw new ProtocolError('a message without a type (t)');
  if (!PARENT_TYPES.has(t)) throw new ProtocolError(`unknown message type "${t}" (the match process takes ${[...PARENT_TYPES].join(', ')})`);
  if (idOf(raw) === null) throw new ProtocolError(`a "${t}" message without a job id`);
  return raw as ParentMessage;
}

/** What the parent reads: a child message, or a ProtocolError saying why not. */
export function readChildMessage(raw: unknown): ChildMessage {
  const t = typeOf(raw);
  if (t === null) throw new ProtocolError('a message without a type (t)');
  if (!CHILD_TYPES.has(t)) throw new ProtocolError(`unknown message type "${t}" from the match process`);
  if (t !== 'ready' && t !== 'refused' && idOf(raw) === null) throw new ProtocolError(`a "${t}" message without a job id`);
  return raw as ChildMessage;
}
