// Every refusal the domain can throw reads in the page's language: each code
// found in src/domain (by reading the calls to invalid, conflict, forbidden...
// in the source, so a new code fails here until the catalogs have it) has its
// Catalan, Spanish and English text, each shape of a code's English message
// is translated, and the API answers in the language the request asked for
// (Accept-Language, the lang cookie) for the refusals a student meets first:
// a file too large, a submission after the deadline, a bad player name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApi, registerUser, multipart } from '../../helpers/app.ts';
import { CATALOGS } from '../../../src/http/i18n/catalog.ts';
import { localizeRefusal } from '../../../src/http/i18n/refusals.ts';
import { setSubmissionDeadline } from '../../../src/domain/admin.ts';

/** The argument that carries the code in each way the domain refuses (src/domain/errors.ts), and the code it has when none is given. */
const CODE_ARG: Record<string, number> = { invalid: 1, conflict: 1, unprocessable: 1, forbidden: 1, TooManyError: 2, DomainError: 2 };
const DEFAULT_CODE: Record<string, string> = {
  unauthenticated: 'unauthorized',
  notFound: 'not-found',
  tooLarge: 'too-large',
  forbidden: 'forbidden',
  TooManyError: 'too-many',
};
/** Codes computed where they are thrown: what each expression can be. */
const COMPUTED: Record<string, string[]> = {
  'REQUIRED_CODE[f]': ['email-required', 'student-id-required', 'full-name-required'],
  '`name-${err.problem}`': ['name-empty', 'name-too-long', 'name-bad-characters', 'name-reserved', 'name-offensive', 'name-taken', 'name-locked'],
  '`name-${problem.problem}`': ['name-empty', 'name-too-long', 'name-bad-characters', 'name-reserved', 'name-offensive', 'name-taken', 'name-locked'],
  '`not-${from}`': ['not-running', 'not-paused'],
};
/** Refusals thrown with no code (the start of their message): they stay in English until they get one. */
const UNCODED = ['\'NUL characters are not allowed in "game"\'', "'the player name changed meanwhile: submit again'"];

/** The top-level arguments of the call whose '(' is at `open` (strings, templates and comments skipped). */
function callArgs(src: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < src.length; i++) {
    const c = src[i]!;
    if (c === '/' && src[i + 1] === '/') i = src.indexOf('\n', i);
    else if (c === '/' && src[i + 1] === '*') i = src.indexOf('*/', i) + 1;
    else if (c === '"' || c === "'") i = skipString(src, i, c);
    else if (c === '`') i = skipTemplate(src, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        args.push(src.slice(start, i).trim());
        return args.filter((a) => a !== '');
      }
    } else if (c === ',' && depth === 1) {
      args.push(src.slice(start, i).trim());
      start = i + 1;
    }
  }
  throw new Error(`unclosed call at ${open}`);
}
function skipString(src: string, i: number, quote: string): number {
  for (i++; i < src.length && src[i] !== quote; i++) if (src[i] === '\\') i++;
  return i;
}
function skipTemplate(src: string, i: number): number {
  for (i++; i < src.length && src[i] !== '`'; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '$' && src[i + 1] === '{') {
      let depth = 0;
      for (i++; i < src.length; i++) {
        const c = src[i]!;
        if (c === '"' || c === "'") i = skipString(src, i, c);
        else if (c === '`') i = skipTemplate(src, i);
        else if (c === '{') depth++;
        else if (c === '}' && --depth === 0) break;
      }
    }
  }
  return i;
}

/** Every refusal code thrown under `dir` (errors.ts, where the helpers are defined, aside), with where. */
function refusalCodes(dir: string): { codes: Map<string, string[]>; uncoded: string[] } {
  const codes = new Map<string, string[]>();
  const uncoded: string[] = [];
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.ts') && f !== 'errors.ts' ? [join(d, f)] : []));
  for (const file of walk(dir)) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(
      /(?<![\w.])(?:new\s+)?(invalid|conflict|unprocessable|forbidden|unauthenticated|notFound|tooLarge|TooManyError|DomainError)\s*\(/g,
    )) {
      const lineStart = src.lastIndexOf('\n', m.index) + 1;
      if (/^\s*(\/?\*|\/\/)/.test(src.slice(lineStart, m.index))) continue; // in a comment
      const where = `${file}:${src.slice(0, m.index).split('\n').length}`;
      const name = m[1]!;
      const args = callArgs(src, m.index + m[0].length - 1);
      const arg = CODE_ARG[name] === undefined ? undefined : args[CODE_ARG[name]!];
      const literal = arg === undefined ? undefined : /^(['"`])([\w-]+)\1$/.exec(arg)?.[2];
      const found = literal ? [literal] : arg !== undefined ? COMPUTED[arg] : DEFAULT_CODE[name] ? [DEFAULT_CODE[name]!] : undefined;
      if (found) for (const code of found) codes.set(code, [...(codes.get(code) ?? []), where]);
      else if (arg === undefined) uncoded.push(`${where}: ${args[0]}`);
      else assert.fail(`${where}: a computed code (${arg}): list what it can be in COMPUTED`);
    }
  }
  return { codes, uncoded };
}

test('every refusal code the domain throws has its Catalan, Spanish and English text', () => {
  const { codes, uncoded } = refusalCodes('src/domain');
  assert.ok(codes.size > 60, `the scan finds the domain's codes (${codes.size})`);
  for (const known of ['deadline-passed', 'too-large', 'name-bad-characters', 'no-game', 'not-found', 'roster-header']) assert.ok(codes.has(known), known);
  const missing = [...codes]
    .flatMap(([code, where]) =>
      (['en', 'ca', 'es'] as const)
        .filter((lang) => typeof (CATALOGS[lang] as Record<string, unknown>)[`refusal.${code}`] !== 'function')
        .map((lang) => `refusal.${code} in ${lang} (${where[0]})`),
    )
    .sort();
  assert.deepEqual(missing, []);
  for (const u of uncoded)
    assert.ok(
      UNCODED.some((start) => u.includes(start)),
      `a refusal with no code (give it one, and its texts): ${u}`,
    );
});

/** One English message of each shape a code is worded in, as the domain (or the HTTP layer, for too-large) words it. */
const SHAPES: [code: string, message: string, ca: RegExp, es: RegExp][] = [
  [
    'deadline-passed',
    'submissions to Moria closed on 2026-12-20 23:59 UTC (the deadline): no new submission is accepted',
    /^els enviaments a Moria es van tancar el 2026-12-20 23:59 UTC/,
    /^los envíos a Moria se cerraron el 2026-12-20 23:59 UTC/,
  ],
  [
    'too-large',
    'file too large: 300000 bytes, at most 262144',
    /^el fitxer fa 300000 bytes: és massa gran, com a màxim 262144 bytes$/,
    /^el fichero ocupa 300000 bytes: es demasiado grande, como máximo 262144 bytes$/,
  ],
  [
    'too-large',
    'file too large: more than 67108864 bytes, at most 262144',
    /^el fitxer fa més de 67108864 bytes: és massa gran, com a màxim 262144 bytes$/,
    /^el fichero ocupa más de 67108864 bytes: es demasiado grande, como máximo 262144 bytes$/,
  ],
  [
    'too-large',
    'file too large: at most 262144 bytes',
    /^el fitxer és massa gran: com a màxim 262144 bytes$/,
    /^el fichero es demasiado grande: como máximo 262144 bytes$/,
  ],
  ['too-large', 'the roster is 3000000 bytes: at most 2097152', /^la llista fa 3000000 bytes/, /^la lista ocupa 3000000 bytes/],
  [
    'too-large',
    'the roster has 5000 students: at most 2000 per import',
    /^la llista té 5000 estudiants: com a màxim 2000/,
    /^la lista tiene 5000 estudiantes: como máximo 2000/,
  ],
  ['too-large', 'the roster is too large: at most 2097152 bytes', /^la llista és massa gran/, /^la lista es demasiado grande/],
  ['too-large', 'send one file only', /^envia un sol fitxer$/, /^envía un solo fichero$/],
  ['too-large', 'request too large', /^la petició és massa gran$/, /^la petición es demasiado grande$/],
  [
    'no-game',
    'no game: send the field "game" (one of: moria, walking-dead) or declare it in the file:  // GAME: moria',
    /^falta el joc: envia el camp "game" \(un de: moria, walking-dead\) o declara’l al fitxer: {2}\/\/ GAME: moria$/,
    /^falta el juego: .* decláralo en el fichero: {2}\/\/ GAME: moria$/,
  ],
  [
    'other-game',
    'this file looks like a "moria" player, not a "walking-dead" one: it uses "dwarves, command" of moria\'s API; submit it for moria',
    /^aquest fitxer sembla un jugador de "moria", no de "walking-dead": fa servir "dwarves, command" de l’API de moria; envia’l per a moria$/,
    /^este fichero parece un jugador de "moria", no de "walking-dead": usa "dwarves, command" de la API de moria; envíalo para moria$/,
  ],
  [
    'no-name',
    'no player name in the file: add  #define PLAYER_NAME YourName',
    /^el fitxer no té nom de jugador: afegeix {2}#define PLAYER_NAME ElTeuNom$/,
    /^el fichero no tiene nombre de jugador: añade {2}#define PLAYER_NAME TuNombre$/,
  ],
  [
    'no-name',
    'no player name in the file: add  export const PLAYER_NAME = "YourName";',
    /^el fitxer no té nom de jugador: afegeix {2}export const PLAYER_NAME = "ElTeuNom";$/,
    /^el fichero no tiene nombre de jugador: añade {2}export const PLAYER_NAME = "TuNombre";$/,
  ],
  [
    'copies-builtin',
    "this file is a near-copy of the built-in Demo of Moria (97% of its code is that player's, renamed or not): the shipped players are examples to learn from, not entries; write your own player",
    /^aquest fitxer és gairebé una còpia del jugador predefinit Demo de Moria \(el 97%/,
    /^este fichero es casi una copia del jugador predefinido Demo de Moria \(el 97%/,
  ],
  ['bad-idempotency-key', 'send one Idempotency-Key header, not several', /^envia una sola capçalera/, /^envía una sola cabecera/],
  [
    'bad-idempotency-key',
    'Idempotency-Key must be 1 to 128 printable ASCII characters (a UUID, for example)',
    /caràcters ASCII imprimibles/,
    /caracteres ASCII imprimibles/,
  ],
  [
    'idempotency-key-reused',
    'Idempotency-Key "k-1" was already used for submission 12 with another file or game: use a new key for a new upload',
    /^la Idempotency-Key "k-1" ja es va fer servir per a l’enviament 12/,
    /^la Idempotency-Key "k-1" ya se usó para el envío 12/,
  ],
  ['not-found', 'no token 3 of yours', /^no tens cap testimoni d’accés 3$/, /^no tienes ningún token de acceso 3$/],
  ['not-found', 'no user "pau": they must sign up first', /^no hi ha cap usuari "pau": primer/, /^no hay ningún usuario "pau": primero/],
  ['not-found', 'no user 4', /^no hi ha cap usuari 4$/, /^no hay ningún usuario 4$/],
  ['not-found', 'no submission 5', /^no hi ha cap enviament 5$/, /^no hay ningún envío 5$/],
  ['not-found', 'no player "Gimli" in moria', /^no hi ha cap jugador Gimli a moria$/, /^no hay ningún jugador Gimli en moria$/],
  ['not-found', 'no player Gimli in moria', /^no hi ha cap jugador Gimli a moria$/, /^no hay ningún jugador Gimli en moria$/],
  [
    'not-found',
    'this link is not valid: it was used already, it expired, or a newer one replaced it (ask the course staff for a new one)',
    /^aquest enllaç no és vàlid/,
    /^este enlace no es válido/,
  ],
  ['not-found', 'moria has no private Dummy: the shipped one plays', /^moria no té cap Dummy privat/, /^moria no tiene ningún Dummy privado/],
  ['not-found', 'no game "chess"', /^no hi ha cap joc "chess"$/, /^no hay ningún juego "chess"$/],
  ['not-found', 'no document s:9 in moria', /^no hi ha cap document s:9 a moria$/, /^no hay ningún documento s:9 en moria$/],
  ['not-found', 'no tournament 7', /^no hi ha cap torneig 7$/, /^no hay ningún torneo 7$/],
  ['not-found', 'tournament 7 has no match 8', /^el torneig 7 no té cap partida 8$/, /^el torneo 7 no tiene ninguna partida 8$/],
  ['unauthorized', 'log in first: a session cookie or an Authorization: Bearer token', /^primer inicia la sessió/, /^primero inicia sesión/],
  ['no-user', 'no such user', /^aquest usuari no existeix$/, /^ese usuario no existe$/],
  ['self', 'you cannot disable your own account', /^no pots desactivar/, /^no puedes desactivar/],
  [
    'already-qualified',
    'submission 6 qualified: its name is locked and a new gate run would change nothing',
    /^l’enviament 6 s’ha classificat/,
    /^el envío 6 se ha clasificado/,
  ],
  [
    'still-judging',
    'submission 6 is still being judged (queued)',
    /^l’enviament 6 encara s’està jutjant \(queued\)$/,
    /^el envío 6 todavía se está juzgando \(queued\)$/,
  ],
  [
    'still-judging',
    'a submission of "Gimli" is still being judged: release the name once it has its verdict',
    /^un enviament de "Gimli" encara/,
    /^un envío de "Gimli" todavía/,
  ],
  ['name-released', 'the name "Gimli" was released: it may now belong to someone else', /^el nom "Gimli" s’ha alliberat/, /^el nombre "Gimli" se ha liberado/],
  ['bad-date', 'the deadline is not a date', /^la data límit no és una data$/, /^la fecha límite no es una fecha$/],
  [
    'bad-date',
    'from: "ahir" is not a date (2026-12-20, or 2026-12-20T23:59 in the course\'s time zone, or with an offset)',
    /^from: "ahir" no és una data/,
    /^from: "ahir" no es una fecha/,
  ],
  [
    'deadline-in-past',
    'the deadline 2026-01-01 10:00 is in the past: submissions to moria would close at once; confirm to set it anyway',
    /^la data límit 2026-01-01 10:00 ja ha passat: els enviaments a moria/,
    /^la fecha límite 2026-01-01 10:00 ya ha pasado: los envíos a moria/,
  ],
  [
    'dummy-name',
    'a private Dummy must declare  export const PLAYER_NAME = "Dummy";  (it plays as Dummy)',
    /^un Dummy privat ha de declarar {2}export const PLAYER_NAME = "Dummy"; {2}\(juga com a Dummy\)$/,
    /^un Dummy privado debe declarar {2}export const PLAYER_NAME = "Dummy";/,
  ],
  [
    'dummy-rejected',
    'the Dummy was not installed: in self-play (seed 3) copy 2 of 4 froze in round 7 (exception): Error: boom',
    /^el Dummy no s’ha instal·lat: a la partida contra si mateix \(llavor 3\) la còpia 2 de 4 s’ha congelat a la ronda 7 \(exception\): Error: boom$/,
    /^el Dummy no se ha instalado: en la partida contra sí mismo \(semilla 3\)/,
  ],
  [
    'dummy-rejected',
    'the Dummy was not installed: compile error: Dummy.ts:3:1: Unexpected "}"',
    /^el Dummy no s’ha instal·lat: compile error: /,
    /^el Dummy no se ha instalado: compile error: /,
  ],
  [
    'bad-status',
    'unknown status "odd" (known: queued, qualified)',
    /^estat desconegut "odd" \(coneguts: queued, qualified\)$/,
    /^estado desconocido "odd" \(conocidos: queued, qualified\)$/,
  ],
  [
    'bad-language',
    'unknown language "go" (known: js, ts, cpp)',
    /^llenguatge desconegut "go" \(coneguts: js, ts, cpp\)$/,
    /^lenguaje desconocido "go" \(conocidos: js, ts, cpp\)$/,
  ],
  ['bad-range', 'the date range is empty: "from" must come before "to"', /^l’interval de dates és buit/, /^el intervalo de fechas está vacío/],
  ['not-utf8', 'the roster is not UTF-8 text: save the spreadsheet as "CSV UTF-8"', /^la llista no és text UTF-8/, /^la lista no es texto UTF-8/],
  ['not-utf8', 'the roster is not a text file', /^la llista no és un fitxer de text$/, /^la lista no es un fichero de texto$/],
  ['empty-roster', 'the roster is empty: a header row (id, name, email) and a row per student', /^la llista és buida/, /^la lista está vacía/],
  ['empty-roster', 'the roster has a header but no student', /^la llista té capçalera però cap estudiant$/, /^la lista tiene cabecera pero ningún estudiante$/],
  [
    'roster-header',
    "the roster's header names no student id column (one of: id, dni); it reads: nom | correu",
    /^la capçalera de la llista .*\(una de: id, dni\); hi diu: nom \| correu$/,
    /^la cabecera de la lista .*\(una de: id, dni\); dice: nom \| correu$/,
  ],
  ['bad-csv', 'line 4: a quote is never closed', /^línia 4: unes cometes no es tanquen mai$/, /^línea 4: unas comillas no se cierran nunca$/],
  ['bad-mode', 'mode: one of add, replace', /^mode: un de add, replace$/, /^mode: uno de add, replace$/],
  [
    'bad-expiry',
    'expiresInDays: a whole number of days, 1 to 60',
    /^expiresInDays: un nombre enter de dies, d’1 a 60$/,
    /^expiresInDays: un número entero de días, de 1 a 60$/,
  ],
  ['bad-term', 'a term is 1 to 32 letters, digits, "-", "_" or "." (e.g. 2024-25)', /^un curs són/, /^un curso son/],
  ['bad-archive', 'old.zip: not a zip file', /^no s’ha pogut llegir l’arxiu: old\.zip: not a zip file$/, /^no se ha podido leer el archivo: old\.zip/],
  ['bad-document', 'a document is "s:<submission id>" or "a:<archived id>"', /^un document és/, /^un documento es/],
  [
    'not-running',
    'tournament 7 is paused: only a running tournament can be paused',
    /^el torneig 7 no està en curs \(paused\)/,
    /^el torneo 7 no está en curso \(paused\)/,
  ],
  [
    'not-paused',
    'tournament 7 is running: only a paused tournament can be resumed',
    /^el torneig 7 no està aturat \(running\)/,
    /^el torneo 7 no está en pausa \(running\)/,
  ],
];

test("each shape of a refusal is translated (Catalan, Spanish), and English keeps the domain's words", () => {
  for (const [code, message, ca, es] of SHAPES) {
    assert.match(localizeRefusal({ code, message }, 'ca'), ca, `${code} in ca: ${message}`);
    assert.match(localizeRefusal({ code, message }, 'es'), es, `${code} in es: ${message}`);
    assert.equal(localizeRefusal({ code, message }, 'en'), message);
  }
});

const { app, db } = await startTestApi();
const pau = await registerUser(app, 'refusalpau');
const player = (name: string) =>
  `export const GAME = 'moria';\nexport const PLAYER_NAME = '${name}';\nexport default class extends Player {\n  play(): void {}\n}\n`;
const submit = (source: string, headers: Record<string, string>, game = 'moria') =>
  app.inject({ method: 'POST', url: '/api/submissions', headers: { ...pau.auth, ...headers }, payload: { game, source } });

test('the API answers a refusal in the language the request asked for (Accept-Language, the lang cookie); English otherwise', async () => {
  const big = player('Gran') + `// ${'x'.repeat(300 * 1024)}\n`;
  const size = Buffer.byteLength(big, 'utf8');
  const asked = [
    [{ 'accept-language': 'ca-ES,ca;q=0.9,en;q=0.5' }, new RegExp(`^el fitxer fa ${size} bytes: és massa gran, com a màxim \\d+ bytes$`)],
    [{ cookie: 'lang=es' }, new RegExp(`^el fichero ocupa ${size} bytes: es demasiado grande, como máximo \\d+ bytes$`)],
    [{}, new RegExp(`^file too large: ${size} bytes, at most \\d+$`)],
  ] as const;
  for (const [headers, text] of asked) {
    const res = await submit(big, headers);
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().code, 'too-large');
    assert.match(res.json().message, text);
  }

  // Through multipart (curl -F, the web form) the refusal says the same, the file's size included.
  const before = await db.submission.count();
  for (const [headers, text] of asked) {
    const mp = multipart({ game: 'moria' }, { filename: 'Gran.ts', content: big });
    const res = await app.inject({ method: 'POST', url: '/api/submissions', headers: { ...pau.auth, ...headers, ...mp.headers }, payload: mp.payload });
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().code, 'too-large');
    assert.match(res.json().message, text);
  }
  assert.equal(await db.submission.count(), before, 'nothing stored');

  const badName = await submit(player('Gim-li'), { 'accept-language': 'es' });
  assert.equal(badName.statusCode, 400, badName.body);
  assert.equal(badName.json().code, 'name-bad-characters');
  assert.match(badName.json().message, /^el nombre de jugador "Gim-li" tiene caracteres que no son A-Z a-z 0-9 _: "-"$/);

  await setSubmissionDeadline(db, null, 'walking-dead', new Date(Date.now() - 60_000), { allowPast: true });
  const late = player('Tard').replace("'moria'", "'walking-dead'");
  for (const [headers, text] of [
    [
      { 'accept-language': 'ca' },
      /^els enviaments a The Walking Dead es van tancar el \d{4}-\d\d-\d\d \d\d:\d\d UTC \(la data límit\): ja no s’accepta cap enviament nou$/,
    ],
    [{ cookie: 'lang=es' }, /^los envíos a The Walking Dead se cerraron el \d{4}-\d\d-\d\d \d\d:\d\d UTC/],
    [{ 'accept-language': 'en' }, /^submissions to The Walking Dead closed on /],
  ] as const) {
    const res = await submit(late, headers, 'walking-dead');
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().code, 'deadline-passed');
    assert.match(res.json().message, text);
  }
});

test('a C++ file is told what C++ says: no game means a // GAME: line; a player of another game is told which, before any compile', async () => {
  const cc =
    '#include "Player.hh"\n#define PLAYER_NAME Tros\nstruct PLAYER_NAME : public Player {\n  static Player* factory() { return new PLAYER_NAME; }\n  virtual void play() {}\n};\nRegisterPlayer(PLAYER_NAME);\n';
  const noGame = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: { ...pau.auth, 'accept-language': 'ca' },
    payload: { source: cc, filename: 'AITros.cc' },
  });
  assert.equal(noGame.statusCode, 400, noGame.body);
  assert.equal(noGame.json().code, 'no-game');
  assert.match(noGame.json().message, /^falta el joc: envia el camp "game" \(un de: [a-z, -]+\) o declara’l al fitxer: {2}\/\/ GAME: moria$/);
  const js = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: pau.auth,
    payload: { source: player('Tros').replace("export const GAME = 'moria';\n", '') },
  });
  assert.match(js.json().message, /declare it in the file: {2}export const GAME = "moria";$/, 'JavaScript keeps its export');

  // Moria's Demo, renamed, sent for Harry Potter (The Walking Dead is closed, above): named for what it is, in the page's language, with no clang error.
  const moriaPlayer = readFileSync('src/games/moria/cpp/AIDemo.cc', 'utf8').replace(/#define PLAYER_NAME \w+/, '#define PLAYER_NAME Perdut');
  const started = process.hrtime.bigint();
  for (const [headers, text] of [
    [{}, /^this file looks like a "moria" player, not a "harry-potter" one: it uses "[a-z_]+(, \w+){2,4}" of moria's API; submit it for moria$/],
    [
      { 'accept-language': 'es' },
      /^este fichero parece un jugador de "moria", no de "harry-potter": usa "[a-z_]+(, \w+){2,4}" de la API de moria; envíalo para moria$/,
    ],
  ] as const) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...pau.auth, ...headers },
      payload: { game: 'harry-potter', source: moriaPlayer, filename: 'AIPerdut.cc' },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'other-game');
    assert.match(res.json().message, text);
  }
  assert.ok(process.hrtime.bigint() - started < 5_000_000_000n, 'refused before compiling');
  // Its own game's players are not refused so: Moria's Demo for Moria goes on to the compile (here, the refusal of a copy of a built-in).
  const own = await app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: pau.auth,
    payload: { game: 'moria', source: moriaPlayer, filename: 'AIPerdut.cc' },
  });
  assert.notEqual(own.json().code, 'other-game', own.body);
});
