// Each game's bot API is declared once, in its table (bot-api.ts's API):
//   - player.d.ts is the text playerDts() makes of the table (regenerate with
//     `node --import tsx scripts/gen-player-dts.ts`);
//   - the bot's runtime defines exactly the table's functions and enums
//     (installTable refuses a function without an implementation or an
//     implementation outside the table);
//   - the C++ headers (src/games/<id>/cpp/*.hh, written by hand like the
//     original package's) have a counterpart for every function, enum and
//     record of the table, with a compatible number of parameters, and
//     nothing public the table lacks but what each game's allow-list names
//     with a reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineApi, fn, installTable, playerDts, functionsOf, enumsOf, PLAYER_API, type ApiTable, type ApiParam } from '../../src/sdk/api-table.ts';
import type { BotRuntime } from '../../src/sdk/bot-runtime-types.ts';
import { Rng } from '../../src/sdk/rng.ts';
import { dtsPath, gameTables } from '../../scripts/gen-player-dts.ts';
import { gameApiHeaders } from '../../src/sandbox/languages/cpp/headers.ts';

// ---- A small reader of the headers' public API ----------------------------------

interface CppFunction {
  name: string;
  /** The class it is a member of, or null for a free function (friends are free). */
  owner: string | null;
  min: number;
  max: number;
  ctor: boolean;
  isStatic: boolean;
}
interface CppClass {
  name: string;
  bases: string[];
  fields: string[];
}
interface CppApi {
  functions: CppFunction[];
  classes: Map<string, CppClass>;
  enums: Map<string, [string, number][]>;
}

/** The text with comments, string and character literals and preprocessor lines blanked. */
function stripCpp(text: string): string {
  let out = '';
  for (let k = 0; k < text.length; ) {
    const two = text.slice(k, k + 2);
    if (two === '//') {
      while (k < text.length && text[k] !== '\n') k++;
    } else if (two === '/*') {
      const end = text.indexOf('*/', k + 2);
      k = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (text[k] === '"' || text[k] === "'") {
      const q = text[k]!;
      k++;
      while (k < text.length && text[k] !== q) k += text[k] === '\\' ? 2 : 1;
      k++;
      out += q === '"' ? '""' : "' '";
    } else if (text[k] === '#' && /(^|\n)[ \t]*$/.test(out)) {
      // A directive, with its continuation lines.
      while (k < text.length && !(text[k] === '\n' && text[k - 1] !== '\\')) k++;
    } else out += text[k++];
  }
  return out;
}

/** Top-level comma-separated parts of a parameter list. */
function splitParams(params: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of params) {
    if ('(<[{'.includes(c)) depth++;
    if (')>]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  const kept = parts.map((p) => p.trim()).filter((p) => p !== '');
  return kept.length === 1 && kept[0] === 'void' ? [] : kept;
}

const HEADER = /(operator\s*(?:\(\)|[^\s(]+(?:\s+\w+)?)|~?[A-Za-z_]\w*)\s*\(/;

function functionOf(head: string, owner: string | null): CppFunction | null {
  const m = HEADER.exec(head);
  if (!m) return null;
  const name = m[1]!.replace(/\s+/g, ' ').replace(/^operator (?=\W)/, 'operator');
  let depth = 0;
  let k = m.index + m[0].length;
  const start = k;
  for (; k < head.length; k++) {
    if (head[k] === '(') depth++;
    else if (head[k] === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  const params = splitParams(head.slice(start, k));
  const before = head.slice(0, m.index);
  const friend = /\bfriend\b/.test(before);
  return {
    name,
    owner: friend ? null : owner,
    min: params.filter((p) => !p.includes('=')).length,
    max: params.length,
    ctor: owner !== null && name === owner,
    isStatic: /\bstatic\b/.test(before),
  };
}

/** The public functions, classes (with their public fields) and enums of a set of headers. */
function readCpp(texts: string[]): CppApi {
  const api: CppApi = { functions: [], classes: new Map(), enums: new Map() };
  for (const text of texts) {
    const src = stripCpp(text);
    type Scope = { kind: 'top' | 'class' | 'enum' | 'body'; name: string; pub: boolean; depth?: number };
    const stack: Scope[] = [{ kind: 'top', name: '', pub: true }];
    let buf = '';
    for (const c of src) {
      const top = stack[stack.length - 1]!;
      if (top.kind === 'body') {
        if (c === '{') top.depth!++;
        else if (c === '}' && --top.depth! === 0) {
          stack.pop();
          buf = '';
        }
        continue;
      }
      const owner = top.kind === 'class' ? top.name : null;
      if (c === '{') {
        const head = buf.trim();
        buf = '';
        const cls = /^(?:template\s*<[^>]*>\s*)?(class|struct)\s+(\w+)\s*(?::\s*([^{]*))?$/.exec(head);
        const en = /^enum\s+(?:class\s+)?(\w+)/.exec(head);
        if (cls) {
          const bases = (cls[3] ?? '')
            .split(',')
            .map((b) => b.replace(/\b(public|private|protected|virtual)\b/g, '').trim())
            .filter(Boolean);
          api.classes.set(cls[2]!, { name: cls[2]!, bases, fields: [] });
          stack.push({ kind: 'class', name: cls[2]!, pub: cls[1] === 'struct' });
        } else if (en) stack.push({ kind: 'enum', name: en[1]!, pub: top.pub });
        else {
          const f = top.pub && !/=\s*$/.test(head) ? functionOf(head, owner) : null;
          if (f) api.functions.push(f);
          stack.push({ kind: 'body', name: '', pub: false, depth: 1 });
        }
      } else if (c === '}') {
        if (top.kind === 'enum') {
          let next = 0;
          const members: [string, number][] = [];
          for (const part of buf
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean)) {
            const [name, value] = part.split('=').map((s) => s.trim());
            next = value === undefined ? next : Number(value);
            members.push([name!, next++]);
          }
          if (top.pub) api.enums.set(top.name, members);
        }
        stack.pop();
        buf = '';
      } else if (c === ';') {
        const stmt = buf.trim();
        buf = '';
        if (!top.pub || stmt === '' || top.kind === 'enum') continue;
        if (/^(using|typedef|template|friend\s+class)\b/.test(stmt)) continue;
        const eq = stmt.indexOf('=');
        const paren = stmt.indexOf('(');
        if (paren >= 0 && (eq < 0 || paren < eq)) {
          const f = functionOf(stmt, owner);
          if (f) api.functions.push(f);
        } else if (owner) {
          // A field declaration: `int i, j;`, `CellType type;`.
          const declarators = (eq >= 0 ? stmt.slice(0, eq) : stmt).split(',');
          const first = /(\w+)\s*(?:\[[^\]]*\])?\s*$/.exec(declarators[0]!)?.[1];
          const names = [first, ...declarators.slice(1).map((d) => /^\s*(\w+)/.exec(d)?.[1])].filter((n): n is string => !!n);
          api.classes.get(owner)!.fields.push(...names);
        }
      } else if (c === ':' && top.kind === 'class' && /^(public|private|protected)$/.test(buf.trim())) {
        top.pub = buf.trim() === 'public';
        buf = '';
      } else buf += c;
    }
  }
  return api;
}

/** The classes Player inherits from, Player included: their members need no receiver. */
function playerClasses(api: CppApi): Set<string> {
  const out = new Set<string>();
  const visit = (name: string): void => {
    if (out.has(name)) return;
    out.add(name);
    for (const b of api.classes.get(name)?.bases ?? []) visit(b);
  };
  visit('Player');
  return out;
}

// ---- What the C++ API has that the table need not -------------------------------

/** In every game: plumbing, and what the runtime gives every bot. */
const COMMON_ALLOWED: Record<string, string> = {
  play: 'the player writes it; the table lists what the player calls',
  arbiter_reset: "the C++ runtime's hook before every play()",
  me: 'given by the runtime to every game (bot-runtime.ts, player-api.d.ts)',
  status: 'given by the runtime to every game (bot-runtime.ts, player-api.d.ts)',
  'operator<<': 'printing to cerr; JavaScript prints with console.log',
  'operator!=': 'JavaScript has no operator overloading: !pos_eq(p, q)',
  'operator<': 'JavaScript has no operator overloading (a Pos as the key of a map)',
  'operator+=': 'JavaScript has no operator overloading: p = pos_add(p, d)',
};

/** Per game: the original package's C++-only helpers, and why the JavaScript API has none. */
const ALLOWED: Record<string, Record<string, string>> = {
  moria: {
    ut2char: "the original's board-file letters: a bot has no use for them",
    char2ut: "the original's board-file letters: a bot has no use for them",
  },
  'walking-dead': {
    CommandType: "the original's command kinds: a JavaScript bot has only move()",
    command_type_ok: "the original's command kinds: a JavaScript bot has only move()",
    Dir2char: "the original's replay letters: a bot has no use for them",
    char2Dir: "the original's replay letters: a bot has no use for them",
    UnitType2char: "the original's replay letters: a bot has no use for them",
    char2UnitType: "the original's replay letters: a bot has no use for them",
    CommandType2char: "the original's replay letters: a bot has no use for them",
    char2CommandType: "the original's replay letters: a bot has no use for them",
  },
  'harry-potter': {
    CommandType: "the original's command kinds: move() and spell() are functions of their own",
    command_type_ok: "the original's command kinds: move() and spell() are functions of their own",
    Dir2char: "the original's replay letters: a bot has no use for them",
    char2Dir: "the original's replay letters: a bot has no use for them",
    UnitType2char: "the original's replay letters: a bot has no use for them",
    char2UnitType: "the original's replay letters: a bot has no use for them",
    CommandType2char: "the original's replay letters: a bot has no use for them",
    char2CommandType: "the original's replay letters: a bot has no use for them",
  },
  'bola-de-drac': {
    AType: "the original Action's record of the action asked: move() and throw_kamehame() are functions of their own",
    'operator==': 'JavaScript has no operator overloading, and this API no pos_eq: a.i === b.i && a.j === b.j (as player.d.ts says)',
    'operator+': 'p + d is dest(p, d), as Board::dest',
    d2c: "the original's replay letters: a bot has no use for them",
    c2d: "the original's replay letters: a bot has no use for them",
    'operator<=': 'JavaScript has no operator overloading',
    'operator>=': 'JavaScript has no operator overloading',
    'operator>': 'JavaScript has no operator overloading',
    s2i: "the original Utils.hh's string helpers: JavaScript has Number() and String()",
    i2s: "the original Utils.hh's string helpers: JavaScript has Number() and String()",
    sze: "the original Utils.hh's int(size()): JavaScript arrays have length",
    boolean: "the original Utils.hh's `implies` operator (a % b): no JavaScript counterpart",
    'operator bool': "the original Utils.hh's `implies` operator (a % b): no JavaScript counterpart",
    'operator%': "the original Utils.hh's `implies` operator (a % b): no JavaScript counterpart",
    srandomize: "the original Utils.hh's generator, under the player's own random(): JavaScript bots use random() or Math.random()",
    randomize: "the original Utils.hh's generator, under the player's own random(): JavaScript bots use random() or Math.random()",
  },
};

/** The C++ arity of a function as the JavaScript API calls it: a member of a record takes the record first. */
function arity(f: CppFunction, players: Set<string>): [number, number] {
  const receiver = f.owner !== null && !f.ctor && !f.isStatic && !players.has(f.owner) ? 1 : 0;
  return [f.min + receiver, f.max + receiver];
}

const jsArity = (params: readonly ApiParam[]): number => params.length;

const tables = await gameTables();

const cppDir = (game: string): string => join(import.meta.dirname, '..', '..', 'src', 'games', game, 'cpp');

/** The game's C++ API as the judge defines it (its headers, with the shared Player class when they include it). */
function headersOf(game: string): CppApi {
  return readCpp(gameApiHeaders(game) ?? assert.fail(`${game}: no C++ API`));
}

test('the header reader finds public members, arities, fields and enums, and skips private ones', () => {
  const api = readCpp([
    `// x
enum E { A, B = 4, C };
#define M(x) \\
  x
struct S {
  int i, j;
  bool ok;
  S (int i, int j) : i(i), j(j) { }
  int f (int a, int b = 2) const { if (a) { return b; } return 0; }
  friend bool operator== (const S& a, const S& b) { return a.i == b.i; }
private:
  int hidden_ (int x) { return x; }
  int secret;
};
class K : public S, private E2 {
  int priv_ () const;
public:
  static string v () { return "s;{"; }
};
inline int g (void) { return 1; }`,
  ]);
  assert.deepEqual(api.enums.get('E'), [
    ['A', 0],
    ['B', 4],
    ['C', 5],
  ]);
  assert.deepEqual(api.classes.get('S')!.fields, ['i', 'j', 'ok']);
  assert.deepEqual(api.classes.get('K')!.bases, ['S', 'E2']);
  const byName = Object.fromEntries(api.functions.map((f) => [f.name, f]));
  assert.deepEqual(Object.keys(byName).sort(), ['S', 'f', 'g', 'operator==', 'v']);
  assert.deepEqual([byName['f']!.min, byName['f']!.max, byName['f']!.owner], [1, 2, 'S']);
  assert.equal(byName['operator==']!.owner, null);
  assert.equal(byName['S']!.ctor, true);
  assert.equal(byName['v']!.isStatic, true);
  assert.equal(byName['g']!.max, 0);
});

test('the four games have API tables', () => {
  for (const game of ['moria', 'harry-potter', 'walking-dead', 'bola-de-drac']) assert.ok(tables.has(game), game);
});

for (const [game, table] of tables) {
  test(`${game}: player.d.ts is the text the API table makes (node --import tsx scripts/gen-player-dts.ts ${game} writes it)`, () => {
    assert.equal(readFileSync(dtsPath(game), 'utf8'), playerDts(table));
  });

  test(`${game}: the runtime defines exactly the table's functions and enums`, async () => {
    const defined = new Map<string, unknown>();
    const rt: BotRuntime = {
      view: () => ({}),
      onView: () => {},
      me: () => 0,
      playerName: () => '',
      define: (name, value) => defined.set(name, value),
      order: () => {},
      warn: () => {},
      rng: new Rng(1),
    };
    const mod = (await import(`../../src/games/${game}/bot-api.ts`)) as { install(rt: BotRuntime): void };
    mod.install(rt);
    const expected = new Set<string>();
    for (const f of functionsOf(table)) expected.add(f.name);
    for (const e of enumsOf(table)) {
      expected.add(e.name);
      if (e.unscoped) for (const k of Object.keys(e.members)) expected.add(k);
    }
    assert.deepEqual([...defined.keys()].sort(), [...expected].sort());
    for (const f of functionsOf(table)) assert.equal(typeof defined.get(f.name), 'function', f.name);
    for (const e of enumsOf(table)) assert.deepEqual(defined.get(e.name), e.members);
  });

  test(`${game}: the C++ headers have every function, enum and record of the table, and nothing public the table lacks but the allow-list`, {
    skip: existsSync(cppDir(game)) ? false : 'no C++ API',
  }, () => {
    const api = headersOf(game);
    const players = playerClasses(api);
    const problems: string[] = [];
    const allowed = { ...COMMON_ALLOWED, ...ALLOWED[game] };
    const covered = new Set<string>();

    for (const f of functionsOf(table)) {
      if (f.cpp === false) {
        if (!f.why) problems.push(`${f.name}: no C++ counterpart and no why`);
        continue;
      }
      const name = f.cpp ?? f.name;
      covered.add(name);
      const candidates = api.functions.filter((c) => c.name === name);
      if (candidates.length === 0) {
        problems.push(`${f.name}: no C++ ${name}`);
        continue;
      }
      for (const sig of [f.params, ...(f.overloads ?? [])]) {
        const n = jsArity(sig);
        if (!candidates.some((c) => ((r) => n >= r[0] && n <= r[1])(arity(c, players))))
          problems.push(
            `${f.name}(${sig.map((p) => p[0]).join(', ')}): no C++ ${name} takes ${n} parameters (${candidates.map((c) => arity(c, players).join('..')).join(', ')})`,
          );
      }
    }

    for (const e of enumsOf(table)) {
      covered.add(e.name);
      const members = api.enums.get(e.name);
      if (!members) problems.push(`enum ${e.name}: not in the headers`);
      else assert.deepEqual(Object.fromEntries(members), { ...e.members }, `enum ${e.name}: members and values`);
    }

    for (const r of table.entries) {
      if (r.kind !== 'record') continue;
      covered.add(r.name);
      const cls = api.classes.get(r.name);
      if (!cls) {
        problems.push(`record ${r.name}: no C++ struct`);
        continue;
      }
      const methods = new Set(api.functions.filter((f) => f.owner === r.name && !f.ctor).map((f) => f.name));
      for (const [field] of r.fields) {
        const method = field.endsWith('()') ? field.slice(0, -2) : null;
        if (method ? !methods.has(method) : !cls.fields.includes(field)) problems.push(`record ${r.name}: no C++ ${field}`);
        if (method) covered.add(method);
      }
      for (const field of cls.fields) if (!r.fields.some(([f]) => f === field)) problems.push(`record ${r.name}: the C++ field ${field} is not in the table`);
    }

    // The other way: what the headers make public.
    const recordNames = new Set(table.entries.filter((e) => e.kind === 'record').map((e) => e.name));
    for (const f of api.functions) {
      if (f.name.startsWith('~') || covered.has(f.name) || f.name in allowed) continue;
      // A record's constructors: the API builds records, a bot reads them; Player's seeds the generator.
      if (f.ctor && (recordNames.has(f.owner!) || players.has(f.owner!))) continue;
      problems.push(`C++ ${f.owner ? f.owner + '::' : ''}${f.name} is not in the table nor in the allow-list`);
    }
    for (const name of api.enums.keys())
      if (!covered.has(name) && !(name in allowed)) problems.push(`C++ enum ${name} is not in the table nor in the allow-list`);
    for (const cls of api.classes.values()) {
      // Pos is the shared { i, j } of player-api.d.ts; Player and its bases hold the API itself.
      if (cls.name === 'Pos' || players.has(cls.name) || covered.has(cls.name) || cls.name in allowed) continue;
      problems.push(`C++ struct ${cls.name} is not a record of the table nor in the allow-list`);
    }
    // An allow-list entry that names nothing would hide a real gap later.
    for (const name of Object.keys(ALLOWED[game] ?? {}))
      if (!api.functions.some((f) => f.name === name) && !api.enums.has(name) && !api.classes.has(name))
        problems.push(`allow-list: ${name} is not in the headers`);

    assert.deepEqual(problems, []);
  });
}

test('installTable refuses a function of the table without an implementation, and an implementation outside the table', () => {
  const table: ApiTable = { intro: '', entries: [{ kind: 'function', name: 'f', params: [], returns: 'number', doc: '' }] };
  const rt = { define: () => {} } as unknown as BotRuntime;
  assert.throws(() => installTable(rt, table, {}), /f is in the table but has no implementation/);
  assert.throws(() => installTable(rt, table, { f: () => 1, g: () => 2 }), /g is implemented but not in the table/);
  assert.doesNotThrow(() => installTable(rt, table, { f: () => 1 }));
});

test("every table has PLAYER_API's entries once, from the one declaration; a game that declares one again is refused", async () => {
  const shared = PLAYER_API.map((f) => f.name);
  assert.deepEqual(shared, ['Pos', 'player_ok', 'pos_ok', 'round', 'cell']);
  for (const [game, table] of await gameTables()) {
    for (const f of PLAYER_API) assert.equal(functionsOf(table).filter((g) => g === f).length, 1, `${game}: ${f.name} from PLAYER_API`);
    const again = functionsOf(table).filter((g) => shared.includes(g.name) && g.declared === 'player-api.d.ts' && !PLAYER_API.includes(g));
    assert.deepEqual(again, [], `${game} restates a shared entry`);
  }
  assert.throws(
    () => defineApi({ intro: '', entries: [fn('round', [], 'number', '', { declared: 'player-api.d.ts' })] }),
    /round is in every table already \(PLAYER_API\)/,
  );
});
