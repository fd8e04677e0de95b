// .env.example and the settings tables of docs/operations.md are written from
// the declarations in src/config.ts (npm run gen:config-docs): a variable
// added, changed or removed there and not written out fails here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ENV_EXAMPLE, envExample, OPERATIONS, operationsWith } from '../scripts/gen-config-docs.ts';
import { CLIENT_SETTINGS, RETIRED, SETTINGS, type Setting } from '../src/config.ts';

const regenerate = 'run `npm run gen:config-docs` and commit what it writes';

test('.env.example is what the declarations write', () => {
  assert.equal(readFileSync(ENV_EXAMPLE, 'utf8'), envExample(), regenerate);
});

test("docs/operations.md's settings tables are what the declarations write", () => {
  const current = readFileSync(OPERATIONS, 'utf8');
  assert.equal(current, operationsWith(current), regenerate);
});

test('every declared variable is written out, once, in both; no two declarations name one variable', () => {
  const example = readFileSync(ENV_EXAMPLE, 'utf8');
  const operations = readFileSync(OPERATIONS, 'utf8');
  const names = Object.values(SETTINGS).map((s) => s.name);
  assert.equal(new Set(names).size, names.length, names.join(' '));
  for (const name of names) {
    assert.equal(example.split('\n').filter((l) => l.startsWith(`#${name}=`)).length, 1, `${name} in .env.example`);
    assert.equal(operations.split('\n').filter((l) => l.startsWith(`| \`${name}\` |`)).length, 1, `${name} in docs/operations.md`);
  }
  for (const name of [...Object.values(CLIENT_SETTINGS).map((s) => s.name), ...Object.keys(RETIRED)])
    assert.equal(operations.split('\n').filter((l) => l.startsWith(`| \`${name}\` |`)).length, 1, `${name} in docs/operations.md`);
});

test('every declaration says what it sets, in a sentence, and its default reads back as itself', () => {
  for (const s of Object.values(SETTINGS) as Setting<unknown>[]) {
    assert.ok(s.group !== '', `${s.name}: no section`);
    assert.match(s.doc, /^[A-Z`(a-z].*[.)]$/s, `${s.name}: its doc is a sentence`);
    // The value .env.example shows is one the variable accepts.
    if (s.example !== '') assert.doesNotThrow(() => s.read(s.example), `${s.name}=${s.example}`);
  }
});
