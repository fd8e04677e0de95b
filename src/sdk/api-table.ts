// A game's bot API, declared once: the table of what a bot sees (functions,
// enums, record types), from which the runtime API inside the bot's isolate
// is installed (installTable) and the students' player.d.ts is generated
// (playerDts). The C++ headers are written by hand and checked against the
// table by test/games/api-table.test.ts. Node-free: bundled into each bot's
// isolate with the game's bot-api.ts.
//
// A minimal game's table and bot-api.ts:
//
//   export const API = defineApi({
//     intro: 'Coins player API. Every function is a global and also a method of Player.',
//     entries: [
//       enumOf('Dir', { Up: 0, Down: 1 }, 'The two directions.'),
//       record('Coin', [['value', 'number', 'Points it is worth.'], ['pos', 'Pos']]),
//       section('State'),
//       fn('coins', [], 'Coin[]', 'The coins on the board.'),
//       section('Action'),
//       fn('move', [['id', 'number'], ['dir', 'Dir']], 'void', 'Moves unit id one cell.'),
//     ],
//   });
//   export function install(rt: BotRuntime): void {
//     // ...decode the view in rt.onView(...)...
//     installTable(rt, API, { coins: () => [...], move: (id, dir) => rt.order([id, dir]), ...and PLAYER_API's five });
//   }
//
// Types are TypeScript type texts ('number', 'Pos', 'Dir | number',
// 'readonly Coin[]'); a parameter's name may end in '?' (optional). Every
// function of the table must get exactly one implementation in installTable,
// and every implementation must be in the table: installTable throws
// otherwise, so a game cannot drift from its declaration.

import type { BotRuntime } from './bot-runtime-types.ts';

/** A parameter: [name, TypeScript type]. */
export type ApiParam = readonly [name: string, type: string];

/** A shared declaration file of src/sdk that declares an entry instead of the game's player.d.ts. */
export type SharedDts = 'player-api.d.ts' | 'player-dir8.d.ts';

export interface ApiFunction {
  kind: 'function';
  name: string;
  params: readonly ApiParam[];
  /** Further signatures (TypeScript overloads), each a parameter list with the same return type. */
  overloads?: readonly (readonly ApiParam[])[];
  returns: string;
  /** The doc comment, in English ('' for none). */
  doc: string;
  /**
   * The C++ counterpart's name when it differs ('operator+' for pos_add), or
   * false when it has none (then `why` says why).
   */
  cpp?: string | false;
  why?: string;
  /** Declared by a shared file (the game's player.d.ts references it) instead of the game's own. */
  declared?: SharedDts;
}

export interface ApiEnum {
  kind: 'enum';
  name: string;
  members: Readonly<Record<string, number>>;
  doc: string;
  /** C++ enums are unscoped: each member is a global too (move(id, Up)). */
  unscoped?: boolean;
  /** Members left out of the enum's TypeScript type (a DirSize counter). */
  notInType?: readonly string[];
  declared?: SharedDts;
}

/** A record the API returns: [field name, TypeScript type, doc?]. A field named 'f()' is a method. */
export type ApiField = readonly [name: string, type: string, doc?: string];

export interface ApiRecord {
  kind: 'record';
  name: string;
  fields: readonly ApiField[];
  doc: string;
  /** Every field readonly. */
  readonly?: boolean;
}

/**
 * The Pos helpers that player-dir8.d.ts declares (p + d, p == q, dir_ok), as the table
 * entries of a game whose bots see them: the same three in every such game (Pos itself
 * is in every table: PLAYER_API).
 */
export function dir8PosEntries(): ApiEntry[] {
  return [
    fn(
      'pos_add',
      [
        ['p', 'Pos'],
        ['d', 'Dir | number | Pos'],
      ],
      'Pos',
      '',
      { cpp: 'operator+', declared: 'player-dir8.d.ts' },
    ),
    fn(
      'pos_eq',
      [
        ['p', 'Pos'],
        ['q', 'Pos'],
      ],
      'boolean',
      '',
      { cpp: 'operator==', declared: 'player-dir8.d.ts' },
    ),
    fn('dir_ok', [['d', 'number']], 'boolean', '', { declared: 'player-dir8.d.ts' }),
  ];
}

/** A comment line in player.d.ts ('// ---- State ----'), for the reader. */
export interface ApiSection {
  kind: 'section';
  text: string;
}

export type ApiEntry = ApiFunction | ApiEnum | ApiRecord | ApiSection;

export interface ApiTable {
  /** The comment at the head of player.d.ts (lines without the '// '). */
  intro: string;
  entries: readonly ApiEntry[];
  /** The doc comment of the Player class in player.d.ts. */
  playerDoc?: string;
  /** The doc comment of play() in player.d.ts. */
  playDoc?: string;
}

/**
 * The entries every game's table has, as src/sdk/player-api.d.ts declares them: Pos, player_ok,
 * pos_ok, round and cell. defineApi puts them in every table, so a game declares only its own
 * entries; its bot-api.ts implements these five like any other.
 */
export const PLAYER_API: readonly ApiFunction[] = [
  fn(
    'Pos',
    [
      ['i', 'number'],
      ['j', 'number'],
    ],
    'Pos',
    '',
    { declared: 'player-api.d.ts' },
  ),
  fn('player_ok', [['pl', 'number']], 'boolean', '', { declared: 'player-api.d.ts' }),
  fn(
    'pos_ok',
    [
      ['i', 'number'],
      ['j', 'number'],
    ],
    'boolean',
    '',
    { overloads: [[['p', 'Pos']]], declared: 'player-api.d.ts' },
  ),
  fn('round', [], 'number', '', { declared: 'player-api.d.ts' }),
  fn(
    'cell',
    [
      ['i', 'number'],
      ['j', 'number'],
    ],
    'Cell',
    '',
    { overloads: [[['p', 'Pos']]], declared: 'player-api.d.ts' },
  ),
];

/** A game's table: PLAYER_API, then the game's own entries (which may not declare those again). */
export function defineApi(table: ApiTable): ApiTable {
  const shared = new Set(PLAYER_API.map((f) => f.name));
  const again = table.entries.find((e) => e.kind === 'function' && e.declared === 'player-api.d.ts' && shared.has(e.name));
  if (again) throw new Error(`bot API: ${(again as ApiFunction).name} is in every table already (PLAYER_API): leave it out of the game's`);
  return { ...table, entries: [...PLAYER_API, ...table.entries] };
}

export function fn(
  name: string,
  params: readonly ApiParam[],
  returns: string,
  doc = '',
  more: Partial<Pick<ApiFunction, 'overloads' | 'cpp' | 'why' | 'declared'>> = {},
): ApiFunction {
  return { kind: 'function', name, params, returns, doc, ...more };
}

export function enumOf(
  name: string,
  members: Readonly<Record<string, number>>,
  doc = '',
  more: Partial<Pick<ApiEnum, 'unscoped' | 'notInType' | 'declared'>> = {},
): ApiEnum {
  return { kind: 'enum', name, members, doc, ...more };
}

export function record(name: string, fields: readonly ApiField[], doc = '', more: Partial<Pick<ApiRecord, 'readonly'>> = {}): ApiRecord {
  return { kind: 'record', name, fields, doc, ...more };
}

export function section(text: string): ApiSection {
  return { kind: 'section', text };
}

/** One getter per name, all of type () => number, in one call: the settings of a game. */
export function getters(names: readonly string[], docs: Readonly<Record<string, string>> = {}): ApiFunction[] {
  return names.map((name) => fn(name, [], 'number', docs[name] ?? ''));
}

export const functionsOf = (table: ApiTable): ApiFunction[] => table.entries.filter((e): e is ApiFunction => e.kind === 'function');
export const enumsOf = (table: ApiTable): ApiEnum[] => table.entries.filter((e): e is ApiEnum => e.kind === 'enum');

/** What the game's bot-api.ts computes: one function per function of the table, by name. */
export type ApiImpl = Record<string, (...args: never[]) => unknown>;

/** The functions a rt.define-style helper (bot-pos.ts's definePosHelpers) defines, as implementations. */
export function collect(define: (rt: BotRuntime) => void): ApiImpl {
  const impl: ApiImpl = {};
  define({ define: (name: string, value: unknown) => (impl[name] = value as ApiImpl[string]) } as unknown as BotRuntime);
  return impl;
}

/**
 * Defines the table for the bot (globals and Player methods, through
 * rt.define): the enums with their values, the functions with `impl`.
 * Throws if a function of the table has no implementation or an
 * implementation is not in the table.
 */
export function installTable(rt: BotRuntime, table: ApiTable, impl: ApiImpl): void {
  const names = new Set<string>();
  for (const e of table.entries) {
    if (e.kind === 'enum') {
      rt.define(e.name, { ...e.members });
      if (e.unscoped) for (const k in e.members) rt.define(k, e.members[k]);
    } else if (e.kind === 'function') {
      const f = impl[e.name];
      if (typeof f !== 'function') throw new Error(`bot API: ${e.name} is in the table but has no implementation`);
      names.add(e.name);
      rt.define(e.name, f);
    }
  }
  for (const name in impl) if (!names.has(name)) throw new Error(`bot API: ${name} is implemented but not in the table`);
}

// ---- player.d.ts ---------------------------------------------------------------

/** The line that tells a maintainer where player.d.ts comes from (the starter kit leaves it out: a student has no table). */
export const GENERATED_NOTE = '// Generated from bot-api.ts by scripts/gen-player-dts.ts: edit the table there, not this file.';

function docLines(doc: string, indent: string): string[] {
  if (!doc) return [];
  const lines = doc.split('\n');
  if (lines.length === 1) return [`${indent}/** ${doc} */`];
  return [`${indent}/**`, ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`];
}

const paramList = (params: readonly ApiParam[]): string => params.map(([n, t]) => `${n}: ${t}`).join(', ');
const signatures = (f: ApiFunction): string[] => [f.params, ...(f.overloads ?? [])].map((p) => `${f.name}(${paramList(p)}): ${f.returns}`);

/**
 * The game's player.d.ts: references to the shared declarations the table
 * uses, the intro, every entry the game declares itself, and the Player
 * class with every function of the table as a method and every enum as a
 * static member. src/games/<id>/player.d.ts is this text (scripts/gen-player-dts.ts).
 */
export function playerDts(table: ApiTable): string {
  const out: string[] = [];
  const shared = new Set(table.entries.flatMap((e) => ('declared' in e && e.declared ? [e.declared] : [])));
  shared.add('player-api.d.ts');
  for (const file of ['player-api.d.ts', 'player-dir8.d.ts'] as const) if (shared.has(file)) out.push(`/// <reference path="../../sdk/${file}" />`);
  out.push(GENERATED_NOTE);
  out.push('');
  for (const line of table.intro.split('\n')) out.push(line ? `// ${line}` : '//');
  let last: ApiEntry['kind'] = 'section';
  for (const e of table.entries) {
    if ('declared' in e && e.declared) continue;
    // A blank line before each section, enum and record, and before the first of a run of functions.
    if (e.kind !== 'function' || (last !== 'function' && last !== 'section')) out.push('');
    last = e.kind;
    if (e.kind === 'section') {
      out.push(`// ---- ${e.text} ----`);
    } else if (e.kind === 'enum') {
      out.push(...docLines(e.doc, ''));
      out.push(`declare const ${e.name}: {`);
      for (const [k, v] of Object.entries(e.members)) out.push(`  readonly ${k}: ${v};`);
      out.push('};');
      const values = Object.entries(e.members)
        .filter(([k]) => !e.notInType?.includes(k))
        .map(([, v]) => String(v));
      out.push(`type ${e.name} = ${values.join(' | ')};`);
      if (e.unscoped) for (const [k, v] of Object.entries(e.members)) out.push(`declare const ${k}: ${v};`);
    } else if (e.kind === 'record') {
      out.push(...docLines(e.doc, ''));
      out.push(`interface ${e.name} {`);
      for (const [name, type, doc] of e.fields) {
        out.push(...docLines(doc ?? '', '  '));
        out.push(`  ${e.readonly ? 'readonly ' : ''}${name}: ${type};`);
      }
      out.push('}');
    } else {
      out.push(...docLines(e.doc, ''));
      for (const s of signatures(e)) out.push(`declare function ${s};`);
    }
  }
  out.push('');
  out.push(...docLines(table.playerDoc ?? 'Extend this class and write play(): it is called once per round. Fields keep their values between rounds.', ''));
  out.push('declare class Player {');
  out.push(...docLines(table.playDoc ?? '', '  '));
  out.push('  play(): void;');
  for (const f of functionsOf(table)) if (!f.declared) for (const s of signatures(f)) out.push(`  ${s};`);
  for (const e of enumsOf(table)) out.push(`  static readonly ${e.name}: typeof ${e.name};`);
  out.push('}');
  return out.join('\n') + '\n';
}
