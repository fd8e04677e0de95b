// The C++ headers a student's player compiles against, per game:
// - ArbiterView.hh, generated here from the game's declared view layout
//   (src/games/<id>/view.ts): where each array of the round's view lies in
//   the module's memory and how to read its records and bit fields;
// - arbiter.hh (src/sdk/cpp/): what every game shares (the judge's
//   imports, the registry, the exports the runtime calls);
// - the game's own API under the statement's names (src/games/<id>/cpp/*.hh:
//   Player.hh, State.hh, Structs.hh...), written by hand on top of the two.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ArrayLayout, ElementType } from '../../../sdk/view-layout.ts';
import { importModule } from '../../../sdk/modules.ts';

const C_TYPES: Record<ElementType, string> = {
  Int8: 'int8_t',
  Uint8: 'uint8_t',
  Int16: 'int16_t',
  Uint16: 'uint16_t',
  Int32: 'int32_t',
  Float64: 'double',
};

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function ident(name: string, what: string): string {
  if (!IDENT.test(name)) throw new Error(`view ${what}: "${name}" is not a C++ identifier`);
  return name;
}

/**
 * The C++ side of a view layout. The runtime copies the arrays into the
 * module's memory in the order of NAMES and hands over a table of
 * (address, length) pairs; arbiter_bind_view points the arrays at them.
 */
export function viewHeader(game: string, layout: Readonly<Record<string, ArrayLayout>>): string {
  const names = Object.keys(layout).map((n) => ident(n, game));
  const out: string[] = [
    `// Generated from src/games/${game}/view.ts by src/sandbox/languages/cpp/headers.ts: do not edit.`,
    "// The round's view as the judge copies it into this module's memory.",
    '#ifndef ArbiterView_hh',
    '#define ArbiterView_hh',
    '#include <stdint.h>',
    '',
    'namespace arbiter_view {',
    '',
    `static const char NAMES[] = "${names.join(',')}";`,
    `static const int COUNT = ${names.length};`,
    '',
  ];
  for (const name of names) {
    const a = layout[name]!;
    const t = C_TYPES[a.type];
    out.push(`// ${name}: ${a.doc.replace(/\s+/g, ' ')}`);
    out.push(`inline const ${t}* ${name} = nullptr;`);
    out.push(`/** Slots in ${name} (records × ${a.stride}). */`);
    out.push(`inline int ${name}_length = 0;`);
    const fields = Object.keys(a.at);
    const bits = Object.keys(a.shift);
    if (fields.length > 0) {
      out.push(`static const int ${name}_stride = ${a.stride};`);
      out.push(`inline int ${name}_records () { return ${name}_length / ${a.stride}; }`);
      for (const f of fields) {
        const at = a.at[f as keyof typeof a.at];
        const w = a.width[f as keyof typeof a.width];
        ident(f, `${game}.${name}`);
        if (w === 1) out.push(`inline ${t} ${name}_${f} (int record = 0) { return ${name}[record * ${a.stride} + ${at}]; }`);
        else out.push(`inline ${t} ${name}_${f} (int record, int k) { return ${name}[record * ${a.stride} + ${at} + k]; }`);
      }
    } else if (bits.length > 0) {
      for (const b of bits) {
        ident(b, `${game}.${name}`);
        out.push(
          `inline int ${name}_${b} (int slot) { return (int(${name}[slot]) >> ${a.shift[b as keyof typeof a.shift]}) & ${a.mask[b as keyof typeof a.mask]}; }`,
        );
      }
    } else out.push(`inline ${t} ${name}_at (int slot) { return ${name}[slot]; }`);
    out.push('');
  }
  out.push('/** Points the arrays at the table the runtime wrote: (address, length) per array, in the order of NAMES. */');
  out.push('inline void bind (const int32_t* table) {');
  names.forEach((name, i) => {
    const t = C_TYPES[layout[name]!.type];
    out.push(`  ${name} = reinterpret_cast<const ${t}*>(uintptr_t(table[${2 * i}]));`);
    out.push(`  ${name}_length = table[${2 * i + 1}];`);
  });
  out.push('}');
  out.push('');
  out.push('} // namespace arbiter_view');
  out.push('');
  out.push('#endif');
  out.push('');
  return out.join('\n');
}

const GAME_ID = /^[a-z0-9-]+$/;
const cache = new Map<string, Promise<Record<string, string>>>();

function readHeaders(dir: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir)) if (f.endsWith('.hh')) out[f] = readFileSync(new URL(f, dir), 'utf8');
  return out;
}

/** Every header a player of `game` may include, by file name. Throws for a game without a C++ API. */
export function gameHeaders(game: string): Promise<Record<string, string>> {
  if (!GAME_ID.test(game)) return Promise.reject(new Error(`unknown game "${game}"`));
  let headers = cache.get(game);
  if (!headers) {
    headers = (async () => {
      const gameDir = new URL(`../../../games/${game}/`, import.meta.url);
      const { VIEW } = (await importModule(new URL('view.ts', gameDir).href)) as { VIEW: Record<string, ArrayLayout> };
      return {
        ...readHeaders(new URL('../../../sdk/cpp/', import.meta.url)),
        ...readHeaders(new URL('cpp/', gameDir)),
        'ArbiterView.hh': viewHeader(game, VIEW),
        // GCC's catch-all header, which many players include; libc++ has none.
        'bits/stdc++.h': readFileSync(new URL('../../../sdk/cpp/bits/stdc++.h', import.meta.url), 'utf8'),
      };
    })();
    cache.set(game, headers);
    headers.catch(() => cache.delete(game));
  }
  return headers;
}

/** The Player class the Info-and-Action games share, written once (their Player.hh includes it). */
const SHARED_PLAYER = new URL('../../../sdk/cpp/InfoPlayer.hh', import.meta.url);

/**
 * The texts of `game`'s C++ API, or null for a game without one: its own headers (src/games/<id>/cpp/*.hh, by
 * file name), and the shared Player class (src/sdk/cpp/InfoPlayer.hh) when one of them includes it. The
 * runtime's other shared headers (arbiter.hh, the random generator, ArbiterView.hh) are the judge's plumbing,
 * not the game's API. What tells a file's game (./game-hint.ts) and what the API table is checked against.
 */
export function gameApiHeaders(game: string): string[] | null {
  if (!GAME_ID.test(game)) return null;
  const dir = new URL(`../../../games/${game}/cpp/`, import.meta.url);
  if (!existsSync(dir)) return null;
  const own = readdirSync(dir)
    .filter((f) => f.endsWith('.hh'))
    .sort()
    .map((f) => readFileSync(new URL(f, dir), 'utf8'));
  return own.some((text) => /^#include "InfoPlayer\.hh"/m.test(text)) ? [...own, readFileSync(SHARED_PLAYER, 'utf8')] : own;
}

/**
 * A player the game's C++ kit ships, or null: its Demo (cpp/AIDemo.cc), and the empty Null, which is the same
 * in every game (src/sdk/cpp/AINull.cc: it only includes Player.hh) unless the game ships its own.
 */
export function shippedCppPlayer(game: string, name: 'AIDemo.cc' | 'AINull.cc'): string | null {
  if (!GAME_ID.test(game) || !existsSync(new URL(`../../../games/${game}/cpp/`, import.meta.url))) return null;
  for (const dir of [`../../../games/${game}/cpp/`, '../../../sdk/cpp/']) {
    const file = new URL(name, new URL(dir, import.meta.url));
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return null;
}
