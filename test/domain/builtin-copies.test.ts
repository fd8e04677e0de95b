// Near-copies of a shipped player are refused at upload, naming the built-in
// (the course's rules); honest players are not, whatever they took from
// the Null template. The copies are made here from the shipped files as a
// student would disguise them: identifiers renamed, top-level functions and
// methods in another order, comments dropped or added, the layout changed.
// Every game, both languages. The threshold is COPY_THRESHOLD (0.6).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGames } from '../../src/games/registry.ts';
import { COPY_THRESHOLD, shippedCopyOf } from '../../src/domain/builtin-copies.ts';
import { startTestApi, registerUser, multipart } from '../helpers/app.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const games = [...(await loadGames()).values()].filter((g) => !g.id.startsWith('test-') && existsDir(join(root, 'src/games', g.id)));

function existsDir(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

const KEEP = new Set(
  (
    'abstract as async await auto bool boolean break case catch char class const constexpr continue default define delete do double else enum export extends false ' +
    'float for from function if import in include int let long new null number of override private protected public readonly return short signed sizeof static ' +
    'std string struct switch this throw true try type typedef typeof undefined unsigned using var vector virtual void while map set queue pair'
  ).split(' '),
);

/** Every lower-case identifier outside string literals renamed, consistently (the API's too: tokens normalize them alike). */
function renamed(source: string): string {
  let n = 0;
  const names = new Map<string, string>();
  return source
    .split(/('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\b([a-z][A-Za-z0-9_]{3,})\b/g, (m) => {
            if (KEEP.has(m)) return m;
            if (!names.has(m)) names.set(m, `zz${(n++).toString(36)}q`);
            return names.get(m)!;
          }),
    )
    .join('');
}

/** Comments dropped, a banner added, blank lines squeezed, indentation changed. */
function relaid(source: string): string {
  return (
    '// My own player, written from scratch.\n' +
    source
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:"'])\/\/.*$/gm, '$1')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => '\t' + l.trim())
      .join('\n')
  );
}

/** The chunks between top-level (column 0) `function` / method-like lines, in reverse order. */
function reordered(source: string): string {
  const chunks = source.split(/\n(?=(?:function | {2}[a-zA-Z]+\(.*\)(?::[^{]*)? \{$|[a-zA-Z].*\) \{$))/m);
  if (chunks.length < 3) return source;
  const [head, ...rest] = chunks;
  return [head, ...rest.reverse()].join('\n');
}

function shipped(game: { id: string; bots: { builtin: Record<string, string> } }): { file: string; source: string }[] {
  const out = Object.entries(game.bots.builtin).map(([name, path]) => ({ file: `${name}.ts`, source: readFileSync(path, 'utf8') }));
  const cpp = join(root, 'src/games', game.id, 'cpp');
  if (existsDir(cpp)) for (const f of readdirSync(cpp).filter((f) => f.endsWith('.cc'))) out.push({ file: f, source: readFileSync(join(cpp, f), 'utf8') });
  return out;
}

test('disguised copies of every shipped Demo and Dummy, in TypeScript and C++, are recognised and named', () => {
  let checked = 0;
  for (const game of games) {
    for (const { file, source } of shipped(game)) {
      if (/Null/.test(file)) continue; // the empty template: too small to tell, and it cannot qualify
      const disguised = relaid(reordered(renamed(source)));
      const copy = shippedCopyOf(game, file.endsWith('.cc') ? 'AIMine.cc' : 'Mine.ts', disguised);
      assert.ok(copy, `${game.id} ${file}: a disguised copy was not recognised`);
      assert.ok(copy.score >= COPY_THRESHOLD, `${game.id} ${file}: ${copy.score}`);
      const base = file.replace(/\.(ts|cc)$/, '');
      assert.ok(copy.builtin.replace(/\.(ts|cc)$/, '') === base, `${game.id} ${file}: named ${copy.builtin}`);
      checked++;
    }
  }
  assert.ok(checked >= 8, `${checked} shipped players checked`);
});

test('honest players (the golden test players, grown from the Null template) are not copies', () => {
  let checked = 0;
  for (const game of games) {
    const dir = join(root, 'test/fixtures/golden', game.id, 'players');
    if (!existsDir(dir)) continue;
    for (const f of readdirSync(dir)) {
      const copy = shippedCopyOf(game, f, readFileSync(join(dir, f), 'utf8'));
      assert.equal(copy, null, `${game.id} ${f}: taken for a copy of ${copy?.builtin} (${copy?.score})`);
      checked++;
    }
    // The Null template with a real strategy written into it.
    const nul = readFileSync(game.bots.builtin['Null']!, 'utf8');
    const tracer = join(dir, 'Tracer.ts');
    if (existsDir(dir) && readdirSync(dir).includes('Tracer.ts')) {
      const body = readFileSync(tracer, 'utf8').split('export default class extends Player {')[1] ?? '';
      const grown = nul.replace(/export default class extends Player \{[\s\S]*$/, `export default class extends Player {${body}`);
      assert.equal(shippedCopyOf(game, 'Grown.ts', grown), null, `${game.id}: a bot grown from Null`);
      checked++;
    }
  }
  assert.ok(checked >= 12, `${checked} honest players checked`);
});

const api = await startTestApi();
const student = await registerUser(api.app, 'copier');

test("upload: a renamed Demo is refused with 422 copies-builtin naming it, and claims no name; the C++ kit's AIDemo.cc too", async () => {
  const moria = games.find((g) => g.id === 'moria')!;
  const demo = readFileSync(moria.bots.builtin['Demo']!, 'utf8').replace(/PLAYER_NAME = ['"][^'"]+['"]/, "PLAYER_NAME = 'Sneaky'");
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/submissions',
    headers: student.auth,
    payload: { game: 'moria', source: relaid(renamed(demo)), filename: 'Sneaky.ts' },
  });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().code, 'copies-builtin');
  assert.match(res.json().message, /near-copy of the built-in Demo of Moria/);
  assert.equal(await api.db.playerName.count({ where: { nameLower: 'sneaky' } }), 0, 'no name claimed');

  const cpp = readFileSync(join(root, 'src/games/moria/cpp/AIDemo.cc'), 'utf8').replace(/#define PLAYER_NAME \w+/, '#define PLAYER_NAME Sneaky2');
  const form = multipart({ game: 'moria' }, { filename: 'AISneaky2.cc', content: relaid(cpp) });
  const page = await api.app.inject({ method: 'POST', url: '/api/submissions', headers: { ...student.auth, ...form.headers }, payload: form.payload });
  assert.equal(page.statusCode, 422, page.body);
  assert.match(page.json().message, /near-copy of the built-in AIDemo\.cc/);
});
