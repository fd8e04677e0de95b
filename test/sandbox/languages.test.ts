// The languages are plug-ins: src/sandbox/languages/index.ts lists one record per
// language, and nothing outside a language's own folder tells languages apart
// by a file name's ending, a code string's prefix or a language's id. The
// hosts load a compiled bot by its artifact's kind.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BOT_FILE_ACCEPT,
  BOT_FILE_KINDS,
  isUploadFilename,
  languageById,
  languageOf,
  languageOfFile,
  languageOfFilename,
  languageOfSourceFile,
  languages,
  readBotHeader,
} from '../../src/sandbox/languages/index.ts';
import { ArtifactFormatError, artifactKind, parseArtifact, serializeArtifact } from '../../src/sandbox/languages/artifact.ts';
import { InProcessBotHost } from '../../src/sandbox/hosts/inprocess-host.ts';
import { IsolateBotHost } from '../../src/sandbox/hosts/isolate-host.ts';
import { SandboxInfraError } from '../../src/match/bot-host.ts';
import { bot, tallyLoad } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// ---------------------------------------------------------------- the registry is the only place that knows

/** What tells languages apart: the C++ helpers, the compiled string's old marker, a language id as a string, a bot file's ending. */
const LANGUAGE_KNOWLEDGE: [what: string, re: RegExp][] = [
  ['a C++ helper', /\b(isCppFilename|looksLikeCpp|readCppHeader|isCppCode|decodeCppCode|encodeCppCode|CPP_CODE_PREFIX)\b/],
  ['the compiled C++ marker', /arbiter:cpp/],
  ['a language id', /(['"`])(cpp|typescript)\1/],
  ['a bot file ending', /(['"`])\.(cc|cpp|cxx|ts|mts|cts|js|mjs|cjs)\1/],
  ['an ending pattern', /\\\.\((?:ts|js|cc|cpp)\b|\((?:ts|js|cc|cpp)\|/],
  ['an accept list', /\.(?:ts|js|cc),\.[a-z]/],
];

/** Where a language may be named, and why. */
const ALLOWED: Record<string, string> = {
  'src/sdk/api-table.ts': "the API table's `cpp` field is a C++ signature, not a language switch",
  'src/http/assets.ts': '.js there names the served asset files, not bots',
};

/** The code of a file without its comments (what a comment says is no dispatch). */
function code(text: string): string {
  // A block comment keeps its line breaks, so lines keep their numbers.
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function languageKnowledge(text: string): string[] {
  const hits: string[] = [];
  const raw = text.split('\n');
  // The marker looks like a comment itself: it is searched in the raw text.
  code(text)
    .split('\n')
    .forEach((line, i) => {
      for (const [what, re] of LANGUAGE_KNOWLEDGE)
        if (re.test(what === 'the compiled C++ marker' ? (raw[i] ?? '') : line)) hits.push(`${i + 1}: ${what}: ${(raw[i] ?? line).trim().slice(0, 120)}`);
    });
  return hits;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'generated') out.push(...sourceFiles(path));
    } else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

test('the scan finds language knowledge where it is, and not in comments', () => {
  assert.deepEqual(languageKnowledge('if (isCppFilename(f)) x();\n'), ['1: a C++ helper: if (isCppFilename(f)) x();']);
  assert.equal(languageKnowledge("const k = lang === 'cpp';").length, 1);
  assert.equal(languageKnowledge("if (f.endsWith('.cc')) return;").length, 1);
  assert.equal(languageKnowledge('const re = /\\.(ts|js|cc)$/i;').length, 1);
  assert.equal(languageKnowledge("code.startsWith('/*arbiter:cpp*/')").length, 1);
  assert.equal(languageKnowledge("const ACCEPT = '.ts,.js,.cc,text/plain';").length, 1);
  assert.deepEqual(languageKnowledge("// a C++ file (.cc): isCppFilename said so\n/* 'cpp' */\nconst url = 'https://x.org/a';"), []);
});

test('outside src/sandbox/languages no file tells languages apart by ending, marker or id', () => {
  const hits: string[] = [];
  for (const top of ['src', 'bin']) {
    for (const file of sourceFiles(join(root, top))) {
      const rel = relative(root, file).split(sep).join('/');
      if (rel.startsWith('src/sandbox/languages/') || rel in ALLOWED) continue;
      for (const hit of languageKnowledge(readFileSync(file, 'utf8'))) hits.push(`${rel}:${hit}`);
    }
  }
  assert.deepEqual(hits, [], 'ask the registry (src/sandbox/languages/index.ts) instead');
});

// ---------------------------------------------------------------- languageOf and what users see

const NULL_CC =
  '#include "Player.hh"\n#define PLAYER_NAME Gimli\nstruct PLAYER_NAME : public Player { virtual void play () { } };\nRegisterPlayer(PLAYER_NAME);\n';
const TS_BOT = "export const GAME = 'moria';\nexport const PLAYER_NAME = 'Gimli';\nexport default class extends Player { play(): void {} }\n";

test('languageOf: by the file name when there is one, else by the text', () => {
  assert.deepEqual(
    ['AIGimli.cc', 'a.CPP', 'a.cxx', 'a.c++', 'Gimli.ts', 'g.mts', 'g.cts', 'Gimli.js', 'g.mjs', 'g.cjs'].map((f) => languageOf('', f).id),
    ['cpp', 'cpp', 'cpp', 'cpp', 'typescript', 'typescript', 'typescript', 'javascript', 'javascript', 'javascript'],
  );
  // The name wins over the text; an ending no language has is compiled as JavaScript, and refused at upload.
  assert.equal(languageOf(NULL_CC, 'Gimli.ts').id, 'typescript');
  assert.equal(languageOf(TS_BOT, 'bot.py').id, 'javascript');
  assert.equal(languageOfFilename('bot.py'), null);
  assert.equal(languageOfFile('bot.py').id, 'javascript');
  // No name: C++ claims a text with #define PLAYER_NAME; anything else is TypeScript.
  assert.equal(languageOf(NULL_CC).id, 'cpp');
  assert.equal(languageOf(TS_BOT).id, 'typescript');
  assert.equal(languageOf('').id, 'typescript');
  // Headers count for the similarity report and the metrics, not as bots.
  assert.equal(languageOfSourceFile('Util.hh')?.id, 'cpp');
  assert.equal(languageOfFilename('Util.hh'), null);
});

test('what users see is what it was: messages, file names, accept lists, hints', () => {
  assert.equal(BOT_FILE_KINDS, '.ts, .js or .cc');
  assert.ok(BOT_FILE_ACCEPT.startsWith('.ts,.js,.cc,'), BOT_FILE_ACCEPT);
  assert.deepEqual(
    new Set(BOT_FILE_ACCEPT.split(',')),
    new Set('.ts,.js,.mts,.mjs,.cts,.cjs,.cc,.cpp,.cxx,text/typescript,text/javascript,text/x-c++src'.split(',')),
  );
  for (const f of ['a.ts', 'a.JS', 'a.mts', 'a.cjs', 'AIa.cc', 'a.cpp', 'a.cxx']) assert.ok(isUploadFilename(f), f);
  for (const f of ['a.c++', 'a.exe', 'a.h', 'a', 'ts']) assert.ok(!isUploadFilename(f), f);
  const cpp = languageById('cpp');
  const ts = languageById('typescript');
  assert.equal(cpp.defaultFilename('Dummy'), 'AIDummy.cc');
  assert.equal(ts.defaultFilename('Gimli'), 'Gimli.ts');
  assert.equal(languageById('javascript').defaultFilename('Dummy'), 'Dummy.js');
  assert.equal(cpp.nameLine('YourName'), '#define PLAYER_NAME YourName');
  assert.equal(ts.nameLine('YourName'), 'export const PLAYER_NAME = "YourName";');
  assert.equal(cpp.gameLine('<id>'), '// GAME: <id>');
  assert.equal(ts.gameLine('moria'), 'export const GAME = "moria";');
  assert.deepEqual([cpp.gameRequiredInFile, ts.gameRequiredInFile], [false, true]);
  assert.deepEqual([cpp.slowCompile, ts.slowCompile], [true, false]);
  assert.deepEqual(
    languages.map((l) => [l.id, l.displayName]),
    [
      ['typescript', 'TypeScript'],
      ['javascript', 'JavaScript'],
      ['cpp', 'C++'],
    ],
  );
  assert.equal(languageById('cobol'), undefined);
});

test('readBotHeader reads either language from the text', () => {
  assert.deepEqual(readBotHeader(TS_BOT), { name: 'Gimli', game: 'moria' });
  assert.deepEqual(readBotHeader(`// GAME: Moria\n${NULL_CC}`), { name: 'Gimli', game: 'moria' });
  assert.deepEqual(readBotHeader('nothing here'), { name: null, game: null });
});

// ---------------------------------------------------------------- artifacts

const WASM = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 255]);

test('an artifact round-trips through its string, old strings read as they were, unknown ones are refused', () => {
  const script = '(function(){var module={exports:{}},exports=module.exports;\n1\nreturn module.exports;})()';
  assert.equal(serializeArtifact({ kind: 'script', code: script, map: [[]] }), script, 'a script is its code, as it always was');
  assert.deepEqual(parseArtifact(script), { kind: 'script', code: script });
  const text = serializeArtifact({ kind: 'wasm', name: 'Gimli', game: 'moria', wasm: WASM });
  assert.match(text, /^\/\*arbiter:wasm:1\*\/\{/);
  assert.equal(artifactKind(text), 'wasm');
  assert.deepEqual(parseArtifact(text), { kind: 'wasm', name: 'Gimli', game: 'moria', wasm: WASM });
  // Written before artifacts had a version tag (the compiled C++ player's marker).
  const legacy = '/*arbiter:cpp*/' + JSON.stringify({ name: 'Old', game: 'moria', wasm: Buffer.from(WASM).toString('base64') });
  assert.deepEqual(parseArtifact(legacy), { kind: 'wasm', name: 'Old', game: 'moria', wasm: WASM });
  // A tag from a newer judge, or a damaged body: never read as a script.
  assert.throws(() => parseArtifact('/*arbiter:wasm:2*/{}'), ArtifactFormatError);
  assert.throws(() => artifactKind('/*arbiter:jvm:1*/{}'), ArtifactFormatError);
  assert.throws(() => parseArtifact('/*arbiter:wasm:1*/{"name":'), ArtifactFormatError);
  assert.throws(() => parseArtifact('/*arbiter:wasm:1*/{"name":"x","game":"moria"}'), ArtifactFormatError);
});

test("the hosts load by the artifact: a script runs, an unreadable artifact is the judge's error, not the bot's", async () => {
  const load = await tallyLoad(bot('Plain', 'play() {}'));
  for (const host of [new InProcessBotHost(), new IsolateBotHost()]) {
    try {
      const ok = await host.load(load);
      assert.ok(ok.ok, `${host.constructor.name}: ${JSON.stringify(ok)}`);
      assert.equal(ok.ok && ok.name, 'Plain');
    } finally {
      await host.close();
    }
    const other = host.constructor === InProcessBotHost ? new InProcessBotHost() : new IsolateBotHost();
    try {
      await assert.rejects(
        other.load({ ...load, code: '/*arbiter:wasm:9*/{}' }),
        (err: unknown) => err instanceof SandboxInfraError && /format this judge does not read/.test((err as Error).message),
      );
    } finally {
      await other.close();
    }
  }
});
