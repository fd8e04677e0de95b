// The game contract. A game is one folder under src/games/<id>/ whose index.ts
// default-exports a GameDefinition; src/game-kit/registry.ts lists them. Nothing
// else in Arbiter knows a game's rules: the runner, the judge, the replay and
// the viewer all go through this interface.
//
// Engines are pure and deterministic: the same config, seed and orders give the
// same match, bit for bit. No other source of randomness and no clock: the RNG (src/game-kit/rng.ts)
// lives inside the state.

/** Typed arrays: the cheapest thing to copy into a bot's isolate every round. */
export type ViewArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Float64Array;

/**
 * What the bots read each round, identical for the four players (every one of
 * these games shows the whole board). The bot-side API module (`bots.api`)
 * decodes it; the bot runtime adds `me()` and `status(pl)` itself.
 */
export type BotView = Record<string, ViewArray>;

/** Judge limits for one bot over one match. */
export interface Limits {
  /** CPU time for the whole match, load included, in milliseconds. */
  cpuBudgetMs: number;
  /** Heap cap of the bot's isolate, in MiB. */
  memoryMb: number;
}

/** Thrown by parseConfig for an unknown key or a value out of range. */
export class GameConfigError extends Error {
  override name = 'GameConfigError';
}

export interface BotFiles {
  /** Absolute path of the bot-side API module, bundled into each bot's isolate (see sandbox/bot-runtime.ts). */
  api: string;
  /** Absolute path of the .d.ts that bot authors compile against. */
  types: string;
  /** Built-in players by name (Null, Demo, Dummy, ...): absolute paths of ordinary bot files. */
  builtin: Record<string, string>;
}

export interface RoundOutcome<State> {
  state: State;
  /** What happened, for the replay and the viewer (attacks, deaths, captures...). JSON-able. */
  events: unknown[];
}

export interface GameDefinition<Config extends object = object, State = unknown, Order = unknown> {
  /** URL and folder id: 'moria'. */
  readonly id: string;
  /** Display name: 'Moria'. */
  readonly title: string;
  /** Bumped whenever a rule changes; replays record it and verify refuses a mismatch. */
  readonly engineVersion: string;
  readonly nbPlayers: number;
  /** Defaults from the statement and game-facts.md. */
  readonly defaultConfig: Config;
  /** The judge's per-game defaults (judging.md: "rather short" CPU; 128 MiB). */
  readonly defaultLimits: Limits;
  readonly bots: BotFiles;
  /** Paths of the statement documents by language ('en', 'ca'), for the website. */
  readonly statements: Record<string, string>;

  /** Defaults merged with overrides; throws GameConfigError on an unknown key or a bad value. */
  parseConfig(overrides?: Record<string, unknown>): Config;
  /** Round 0, the board generated from the seed. Never an unplayable board. */
  create(config: Config, seed: number): State;
  round(state: State): number;
  /** How many rounds a match of this config plays (progress displays; the match ends by isOver). */
  totalRounds(config: Config): number;
  /** True once the last round has been played. */
  isOver(state: State): boolean;
  /**
   * Host-side check of one player's raw orders (the JSON array the bot API
   * produced; anything may arrive). Keeps valid orders in the given order,
   * the first per unit only, and says why each dropped one was dropped.
   */
  validateOrders(state: State, player: number, raw: unknown): { orders: Order[]; warnings: string[] };
  /**
   * One round: a pure function of the state, the validated orders of every
   * player (orders[p] is [] for a frozen player) and which players are frozen
   * ("out": some rules treat them apart, e.g. Bola de Drac never resurrects
   * them). Must not mutate `state`.
   */
  next(state: State, orders: Order[][], frozen: readonly boolean[]): RoundOutcome<State>;
  /** Current score per player. */
  scores(state: State): number[];
  /** Per-player counters for the scoreboard, e.g. { cells: [...], treasures: [...] }. */
  counters(state: State): Record<string, number[]>;
  /** The view copied into every bot before its play() (same for all players). */
  encodeView(state: State): BotView;
  /**
   * JSON-able snapshot stored in the replay for every round, enough for the
   * viewer to draw the board; `arbiter verify` compares them after re-running.
   */
  frame(state: State): unknown;
}

/** Any game, as the generic parts of Arbiter hold it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any, any>;
