// The types of the trusted runtime inside a bot's isolate (bot-runtime.ts): what a game's
// bot API module receives in install(rt). A leaf of its own so that cpp/cpp-player.ts can
// name BotRuntime without importing bot-runtime.ts, which imports it (no import circle).

import type { Rng } from './rng.ts';
import type { BotView } from './types.ts';

/** What a game's bot API module receives in `install(rt)`. */
export interface BotRuntime {
  /** The current round's view (the host replaces it before every play()). */
  view(): BotView;
  /** Called with each new view before play(): decode or invalidate caches here. */
  onView(listener: (view: BotView) => void): void;
  /** This bot's player number. */
  me(): number;
  /** The name a player declared (PLAYER_NAME), for APIs such as Bola de Drac's name(id). */
  playerName(pl: number): string;
  /**
   * Exposes an API name to the bot both as a global and as a method of the
   * `Player` base class (`cell(i, j)` and `this.cell(i, j)`), so a C++ player
   * ports line by line. Non-function values (enums) become frozen globals and
   * static members of Player.
   */
  define(name: string, value: unknown): void;
  /**
   * Queues one order for the host. Orders must be arrays of numbers, strings
   * or arrays of numbers. Every call counts toward the 1000-orders abort,
   * even ignored ones.
   */
  order(order: readonly (number | string | readonly number[])[]): void;
  /** A warning in the bot's log, like the C++ "warning: ..." lines. */
  warn(message: string): void;
  /** The player's own generator, seeded matchSeed + me + 1. */
  readonly rng: Rng;
}

/** The shape of src/games/<id>/bot-api.ts. */
export interface BotApiModule {
  install(rt: BotRuntime): void;
  /** random_permutation draws n swaps (TWD, HP) instead of n-1 (Moria). */
  permutationFull?: boolean;
}
