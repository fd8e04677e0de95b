// The runner talks to every bot through a BotHost, whether the bot runs in an
// isolated-vm isolate (IsolateBotHost, for anything untrusted: a match process
// hosts the four of a match, see match-pool.ts) or in a node:vm context in
// this process (InProcessBotHost, for benchmarks and fast tests of the
// built-in bots).

import type { ViewArray } from '../sdk/types.ts';
import type { FreezeReason } from '../sdk/replay-format.ts';
import { MAX_MESSAGE_CHARS } from '../sdk/limits.ts';

export interface LoadRequest {
  /** The game's prelude (src/sandbox/hosts/prelude.ts). */
  prelude: string;
  /** The compiled bot (src/sandbox/languages/javascript/compile.ts). */
  code: string;
  filename: string;
  me: number;
  seed: number;
  cpuBudgetMs: number;
  memoryMb: number;
  logCapBytes: number;
}

export interface Failure {
  ok: false;
  reason: FreezeReason;
  message: string;
  log: string;
  /** CPU used by this call, ms. */
  cpuMs: number;
}

export type LoadReply = { ok: true; name: string; game: string; log: string; cpuMs: number } | Failure;

export type PlayReply =
  | {
      ok: true;
      /** Orders given this round, ignored ones included (the 1000 rule). */
      count: number;
      /** JSON array of orders, at most 1000 of them. */
      orders: string;
      log: string;
      cpuMs: number;
    }
  | Failure;

export interface PlayRequest {
  /** JSON array of the view's keys, in the order of `arrays`. */
  names: string;
  /** JSON `{ status, names }`: status(pl) and the declared name of every player. */
  status: string;
  arrays: ViewArray[];
}

export interface BotHost {
  load(request: LoadRequest): Promise<LoadReply>;
  play(request: PlayRequest): Promise<PlayReply>;
  /**
   * The same call, where the host answers without waiting (a node:vm context, an isolate): MatchRun calls
   * it instead of play(), which saves a match's 800 promise turns, about 1% of a warm match's CPU.
   */
  playSync?(request: PlayRequest): PlayReply;
  /** Frees the bot; the host is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * A round's view arrays packed in one buffer, each aligned for its element
 * type, with the layout BotHandle.playPacked reads (`[[type, byteOffset,
 * length], ...]` as JSON): one copy into a bot per round instead of one per array.
 */
export function packViewArrays(arrays: readonly ViewArray[]): { bytes: Uint8Array<ArrayBuffer>; layout: string } {
  const parts: [string, number, number][] = [];
  let size = 0;
  for (const a of arrays) {
    size = (size + 7) & ~7; // every view aligned for its element type
    parts.push([a.constructor.name, size, a.length]);
    size += a.byteLength;
  }
  const bytes = new Uint8Array(size);
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i]!;
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), parts[i]![1]);
  }
  return { bytes, layout: JSON.stringify(parts) };
}

/** Cuts bot-controlled text to `max` characters, saying so. */
export function capText(text: string, max: number = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}

/**
 * The judge, not the bot, failed: a sandbox process killed by a signal we did
 * not send, one that died while its pool was closing, one that could not
 * start, or a watchdog that fired before the bot had used its CPU budget (the
 * machine was too busy). A match that meets this is abandoned and played
 * again; it never freezes a bot.
 */
export class SandboxInfraError extends Error {
  override name = 'SandboxInfraError';
}

/** Reads "TypeError: x at bot.ts:12" style messages out of anything thrown. */
export function describeError(err: unknown): string {
  return capText(describeWhole(err));
}

function describeWhole(err: unknown): string {
  if (err instanceof Error) return err.stack?.includes(err.message) ? firstLines(err.stack) : `${err.name}: ${err.message}`;
  if (typeof err === 'object' && err !== null && 'message' in err) return String((err as { message: unknown }).message);
  return String(err);
}

function firstLines(stack: string): string {
  return stack.split('\n').slice(0, 4).join('\n');
}

export function cpuSinceMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}
