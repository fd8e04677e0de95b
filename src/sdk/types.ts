// The game contract. A game is one folder under src/games/<id>/ whose index.ts
// default-exports defineGame({...}); src/games/registry.ts finds them. Nothing
// else in Arbiter knows a game's rules: the runner, the judge, the replay and
// the viewer all go through this interface.
//
// Engines are pure and deterministic: the same config, seed and orders give the
// same match, bit for bit. No other source of randomness and no clock: the RNG (src/sdk/rng.ts)
// lives inside the state.

import { defaultSettings, parseSettings, type ConfigOf, type SettingsDeclaration, type SettingsTable } from './settings.ts';
import type { ArrayLayout } from './view-layout.ts';
import type { JsonWriter } from './json-writer.ts';

/** Typed arrays: the cheapest thing to copy into a bot's isolate every round. */
export type ViewArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Float64Array;

/**
 * What the bots read each round, identical for the four players (every one of
 * these games shows the whole board). The bot-side API module (`bots.api`)
 * decodes it; the bot runtime adds `me()` and `status(pl)` itself.
 */
export type BotView = Record<string, ViewArray>;

import type { Limits } from './limits.ts';
export type { Limits };

export { GameConfigError } from './settings.ts';

export interface BotFiles {
  /** Absolute path of the bot-side API module, bundled into each bot's isolate (see src/sandbox/hosts/bot-runtime.ts). */
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

/**
 * What a game's folder declares (index.ts default-exports
 * `defineGame({...})`). The platform fills in the rest: parsing settings,
 * the defaults, the number of rounds, and the end of the match.
 */
export interface GameDeclaration<T extends SettingsTable, State, Order, Frame> {
  /** URL and folder id: 'moria'. */
  readonly id: string;
  /** Display name: 'Moria'. */
  readonly title: string;
  /** Bumped whenever a rule changes; replays record it and verify refuses a mismatch. */
  readonly engineVersion: string;
  /** Seats at a match: the gate, ranked play and tournaments fill this many. */
  readonly nbPlayers: number;
  /** The settings table (src/sdk/settings.ts): defaults from the statement and the original game. */
  readonly settings: SettingsDeclaration<T>;
  /**
   * The last round's number when it is not the rounds setting itself (an
   * edition that stops one round earlier). The platform plays rounds until
   * `round(state)` reaches it.
   */
  lastRound?(config: ConfigOf<T>): number;
  /** The judge's per-game defaults ("rather short" CPU; 128 MiB). */
  readonly defaultLimits: Limits;
  /**
   * The game's folder (its index.ts's import.meta.url will do): the platform
   * finds the bot files there (bot-api.ts, player.d.ts, bots/Null|Demo|Dummy.ts)
   * and the statements (statement.<lang>.md) unless they are given.
   */
  readonly folder: string;
  readonly bots?: BotFiles;
  /** Paths of the statement documents by language ('en', 'ca', 'es': every game ships all three), for the website. */
  readonly statements?: Record<string, string>;
  /** The bot's view, declared once (src/sdk/view-layout.ts): encodeView fills exactly these arrays. */
  readonly view: Readonly<Record<string, ArrayLayout>>;

  /** Round 0, the board generated from the seed. Never an unplayable board. */
  create(config: ConfigOf<T>, seed: number): State;
  /** The number of the last round played (0 before the first). */
  round(state: State): number;
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
  frame(state: State): Frame;
  /**
   * Optional: JSON.stringify(frame(state))'s text written straight into `out`, to the byte, without
   * building the frame (the match process records its replay this way; games whose frames are large
   * and numeric write it). Tested against frame() for every state of real matches.
   */
  writeFrame?(state: State, out: JsonWriter): void;
}

/** A game as the platform holds it: the declaration plus what the platform derives from it. */
export interface GameDefinition<Config extends object = object, State = unknown, Order = unknown, Frame = unknown>
  extends Omit<GameDeclaration<SettingsTable, State, Order, Frame>, 'create' | 'lastRound' | 'settings' | 'folder' | 'bots' | 'statements'> {
  readonly bots: BotFiles;
  readonly statements: Record<string, string>;
  readonly settings: { readonly table: SettingsTable; readonly rounds: string };
  readonly defaultConfig: Readonly<Config>;
  /** Defaults merged with overrides; throws GameConfigError on an unknown key or a bad value. */
  parseConfig(overrides?: Record<string, unknown>): Config;
  create(config: Config, seed: number): State;
  /** The last round's number: the match is over once `round(state)` reaches it. */
  totalRounds(config: Config): number;
}

/** The platform's side of a game: settings parsed by the shared parser, the number of rounds read from them. */
export function defineGame<const T extends SettingsTable, State, Order, Frame>(
  declaration: GameDeclaration<T, State, Order, Frame>,
): GameDefinition<ConfigOf<T>, State, Order, Frame> {
  const { lastRound, folder, ...rest } = declaration;
  const rounds = declaration.settings.rounds;
  // The folder by string and URL alone: this module is Node-free, for isolates and browsers.
  const dir = folder.startsWith('file:') ? decodeURIComponent(new URL('.', folder).pathname).replace(/\/$/, '') : folder;
  return Object.freeze({
    ...rest,
    bots: declaration.bots ?? conventionalBotFiles(dir),
    // Found on disk by the registry (src/games/registry.ts) when it loads the game.
    statements: declaration.statements ?? {},
    defaultConfig: Object.freeze(defaultSettings(declaration.settings)),
    parseConfig: (overrides: Record<string, unknown> = {}) => parseSettings(declaration.id, declaration.settings, overrides),
    totalRounds: lastRound ?? ((config: ConfigOf<T>) => (config as Record<string, number>)[rounds]!),
  }) as unknown as GameDefinition<ConfigOf<T>, State, Order, Frame>;
}

/** True once the last round has been played. */
export function isOver<Config extends object, State>(game: GameDefinition<Config, State>, config: Config, state: State): boolean {
  return game.round(state) >= game.totalRounds(config);
}

/** Any game, as the generic parts of Arbiter hold it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any, any, any>;

/** The conventional layout of a game folder: bot-api.ts, player.d.ts and bots/<Name>.ts for the built-ins Null, Demo and Dummy. */
export function conventionalBotFiles(gameDir: string, builtins: readonly string[] = ['Null', 'Demo', 'Dummy']): BotFiles {
  return {
    api: `${gameDir}/bot-api.ts`,
    types: `${gameDir}/player.d.ts`,
    builtin: Object.fromEntries(builtins.map((name) => [name, `${gameDir}/bots/${name}.ts`])),
  };
}
