// A game's settings, declared as a table (name, kind, range, default); the
// platform parses every game's overrides with the same rules and messages, and
// reads the number of rounds from the setting the table names.

/** Thrown for an unknown setting or a value out of range; the message names the setting. */
export class GameConfigError extends Error {
  override name = 'GameConfigError';
}

export interface IntSetting {
  readonly kind: 'int';
  readonly min: number;
  readonly max: number;
  readonly default: number;
  /** One line for `arbiter play --help` and the docs. */
  readonly doc: string;
}

/** A block of text (a fixed board, a map file); absent when it has no default. */
export interface TextSetting {
  readonly kind: 'text';
  readonly maxChars: number;
  readonly default?: string;
  readonly doc: string;
}

export type Setting = IntSetting | TextSetting;

/** The number of players of a game for four (every game here: the originals assert it too). */
export const FOUR_PLAYERS: IntSetting = { kind: 'int', min: 4, max: 4, default: 4, doc: 'players (the game is for four)' };

/** The number of rounds of a match: 1 to max. */
export const roundsSetting = (max: number, def: number, doc = 'rounds of a match'): IntSetting => ({ kind: 'int', min: 1, max, default: def, doc });

/** One side of the board, in cells. */
export const boardSide = (side: 'rows' | 'columns', min: number, max: number, def: number): IntSetting => ({
  kind: 'int',
  min,
  max,
  default: def,
  doc: `${side} of the board`,
});
export type SettingsTable = Readonly<Record<string, Setting>>;

/** The config object a table describes: integers and texts under the table's keys. */
export type ConfigOf<T extends SettingsTable> = {
  -readonly [K in keyof T & string as T[K] extends TextSetting ? (T[K]['default'] extends string ? K : never) : K]: T[K] extends IntSetting ? number : string;
} & {
  -readonly [K in keyof T & string as T[K] extends TextSetting ? (T[K]['default'] extends string ? never : K) : never]?: string;
};

export interface SettingsDeclaration<T extends SettingsTable> {
  readonly table: T;
  /** The integer setting that holds the number of rounds (the last round's number). */
  readonly rounds: { [K in keyof T]: T[K] extends IntSetting ? K : never }[keyof T] & string;
  /**
   * Checks across settings, after each one passed its own range; may fill in
   * derived values. `given` holds the keys the overrides set. Throws
   * GameConfigError with a message that names the settings.
   */
  readonly check?: (config: ConfigOf<T>, given: ReadonlySet<string>) => ConfigOf<T>;
}

export function defineSettings<const T extends SettingsTable>(declaration: SettingsDeclaration<T>): SettingsDeclaration<T> {
  for (const [key, s] of Object.entries(declaration.table)) {
    if (s.kind === 'int' && !(Number.isInteger(s.min) && Number.isInteger(s.max) && s.min <= s.default && s.default <= s.max))
      throw new Error(`setting ${key}: default ${s.default} outside [${s.min}, ${s.max}]`);
  }
  if (declaration.table[declaration.rounds]?.kind !== 'int') throw new Error(`rounds must name an integer setting, not "${declaration.rounds}"`);
  return declaration;
}

/** The defaults of every setting, as a config. */
export function defaultSettings<T extends SettingsTable>(declaration: SettingsDeclaration<T>): ConfigOf<T> {
  const config: Record<string, number | string> = {};
  for (const [key, s] of Object.entries(declaration.table)) if (s.default !== undefined) config[key] = s.default;
  return config as ConfigOf<T>;
}

/** Integers are JSON numbers in every game (the CLI's --set converts text). */
function asInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** Defaults merged with the overrides, each checked against the table, then the game's own check. */
export function parseSettings<T extends SettingsTable>(gameId: string, declaration: SettingsDeclaration<T>, overrides: unknown = {}): ConfigOf<T> {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides))
    throw new GameConfigError(`${gameId}: the settings must be an object of name: value pairs`);
  const table = declaration.table;
  const config = defaultSettings(declaration) as Record<string, number | string>;
  const given = new Set<string>();
  for (const [key, raw] of Object.entries(overrides)) {
    if (!Object.hasOwn(table, key)) throw new GameConfigError(`${gameId}: unknown setting "${key}" (known: ${Object.keys(table).join(', ')})`);
    const s = table[key]!;
    if (s.kind === 'int') {
      const value = asInteger(raw);
      if (value === null || value < s.min || value > s.max)
        throw new GameConfigError(`${gameId}: ${key} must be an integer in [${s.min}, ${s.max}], got ${JSON.stringify(raw)?.slice(0, 40)}`);
      config[key] = value;
    } else {
      if (typeof raw !== 'string' || raw.length > s.maxChars) throw new GameConfigError(`${gameId}: ${key} must be a text of at most ${s.maxChars} characters`);
      config[key] = raw;
    }
    given.add(key);
  }
  const parsed = config as ConfigOf<T>;
  return declaration.check ? declaration.check(parsed, given) : parsed;
}

/** The settings as a table for people: `arbiter play --help` and the game's page. */
export function describeSettings(table: SettingsTable): { name: string; kind: string; range: string; default: string; doc: string }[] {
  return Object.entries(table).map(([name, s]) => ({
    name,
    kind: s.kind,
    range: s.kind === 'int' ? (s.min === s.max ? String(s.min) : `${s.min}..${s.max}`) : `up to ${s.maxChars} characters`,
    default: s.default === undefined ? '—' : s.kind === 'text' && s.default === '' ? '(none)' : String(s.default),
    doc: s.doc,
  }));
}
