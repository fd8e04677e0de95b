// One bot file cannot break the compiler for the next one, and the judge's own
// compile failures are never charged to the file: each compile runs esbuild
// in a process of its own, bounded in time and memory; what fails twice on a
// fresh process is the file's compile error, what fails for the machine
// (cannot start, killed from outside, a crash that does not come back) is a
// CompileInfraError that the gate's check retries, a match turns into a
// replayed match, and the upload form lets through.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { BotCompileError, CompileInfraError } from '../../../../src/sandbox/languages/compile-errors.ts';
import { compileBot } from '../../../../src/sandbox/languages/index.ts';
import { compilerSettings } from '../../../../src/sandbox/languages/javascript/compile-process.ts';
import { SandboxInfraError } from '../../../../src/match/bot-host.ts';
import { sharedPool } from '../../../../src/sandbox/match-process/match-pool.ts';
import { checkBot } from '../../../../src/sandbox/entries/check-bot.ts';
import { createSubmission } from '../../../../src/domain/submissions.ts';
import { bot, playAgainstAdders } from '../../helpers.ts';
import { startTestApi, registerUser, bot as moriaBot } from '../../../helpers/app.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-compile-'));
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sharedPool.shutdown();
});

let unique = 0;
/** A Moria bot no earlier compile has seen (compiles are cached by source). */
function freshMoriaBot(name = 'Honest'): { game: string; source: string; filename: string } {
  return { game: 'moria', source: `${moriaBot(name)}// ${++unique}\n`, filename: `${name}.ts` };
}

/** A stand-in for the esbuild executable: a shell script. */
function fakeCompiler(name: string, script: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Runs `fn` with the compiler's settings changed, then puts them back. */
async function withCompiler<T>(change: Partial<ReturnType<typeof compilerSettings>>, fn: () => Promise<T>): Promise<T> {
  const s = compilerSettings();
  const saved = { ...s };
  Object.assign(s, change);
  try {
    return await fn();
  } finally {
    Object.assign(s, saved);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a file that blows up the compiler is its own compile error, and the next file compiles and passes the check', async () => {
  const hostile = `export const GAME = "moria"; export const PLAYER_NAME = "Bang";\nexport default class extends Player { play() {} }\nconst x = ${'!'.repeat(200_000)}0;\n`;
  await assert.rejects(
    compileBot(hostile, 'Bang.ts'),
    (e: unknown) =>
      e instanceof BotCompileError && /^Bang\.ts: (compiling this file needed more than \d+ MiB of memory|the compiler crashed on this file)/.test(e.message),
  );
  const verdict = await checkBot({ game: 'moria', source: hostile, filename: 'Bang.ts' });
  assert.equal(verdict.ok, false);
  assert.match(!verdict.ok ? verdict.message : '', /^compile error: Bang\.ts: (compiling this file needed more than|the compiler crashed)/);

  // Right after, in the same process: an honest bot compiles and passes the check.
  const honest = freshMoriaBot();
  assert.match(await compileBot(honest.source, honest.filename), /module\.exports/);
  assert.deepEqual(await checkBot(freshMoriaBot()), { ok: true, name: 'Honest', game: 'moria' });
});

test("a syntax error keeps esbuild's message, line and column", async () => {
  await assert.rejects(compileBot('export const GAME = "moria";\nlet x x\n', 'Typo.ts'), (e: unknown) => {
    assert.ok(e instanceof BotCompileError);
    assert.equal(e.message, 'Typo.ts:2:7: Expected ";" but found "x"');
    assert.equal(e.line, 2);
    assert.equal(e.column, 7);
    return true;
  });
});

test('a compiler that cannot start is a CompileInfraError, and the check rethrows it instead of a compile error', async () => {
  await withCompiler({ command: join(dir, 'no-such-compiler') }, async () => {
    const b = freshMoriaBot();
    await assert.rejects(compileBot(b.source, b.filename), CompileInfraError);
    await assert.rejects(checkBot(freshMoriaBot()), CompileInfraError);
  });
});

test('a compiler killed from outside is a CompileInfraError', async () => {
  await withCompiler({ command: fakeCompiler('killed', 'kill -KILL $$') }, async () => {
    const b = freshMoriaBot();
    await assert.rejects(compileBot(b.source, b.filename), (e: unknown) => e instanceof CompileInfraError && /SIGKILL/.test(e.message));
  });
});

test('a crash that does not happen again on a fresh process is retried and the file compiles', async () => {
  const marker = join(dir, 'crashed-once');
  const real = compilerSettings().command;
  const flaky = fakeCompiler('flaky', `if [ ! -e '${marker}' ]; then touch '${marker}'; kill -SEGV $$; fi\nexec '${real}' "$@"`);
  await withCompiler({ command: flaky }, async () => {
    const b = freshMoriaBot();
    assert.match(await compileBot(b.source, b.filename), /module\.exports/);
  });
  assert.ok(existsSync(marker), 'the first run crashed');
});

test("a crash that happens again is the file's compile error", async () => {
  await withCompiler({ command: fakeCompiler('segv', 'kill -SEGV $$') }, async () => {
    const b = freshMoriaBot();
    await assert.rejects(compileBot(b.source, b.filename), (e: unknown) => e instanceof BotCompileError && /the compiler crashed on this file/.test(e.message));
  });
});

test('a compile that takes longer than its time bound is stopped and reported as such', async () => {
  const pids = join(dir, 'pids');
  await withCompiler({ command: fakeCompiler('slow', `echo $$ >> '${pids}'\nexec sleep 60`), timeoutMs: 300 }, async () => {
    const b = freshMoriaBot();
    await assert.rejects(
      compileBot(b.source, b.filename),
      (e: unknown) => e instanceof BotCompileError && e.message === 'Honest.ts: compiling this file took more than 0.3 s',
    );
  });
  const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  assert.equal(started.length, 2, 'tried twice, each on a fresh process');
  for (const pid of started) assert.ok(!alive(pid), `compiler process ${pid} was stopped`);
});

test("in a match, a compiler failure of the judge's throws SandboxInfraError (the match is played again), no bot is frozen", async () => {
  await withCompiler({ command: join(dir, 'no-such-compiler') }, async () => {
    const suspect = bot('Fresh', `play() { add(1); } // ${++unique}`);
    await assert.rejects(playAgainstAdders(suspect), (e: unknown) => e instanceof SandboxInfraError && e.cause instanceof CompileInfraError);
  });
});

test('the upload form takes the file when the compiler fails (the gate compiles it), and still refuses a syntax error', async () => {
  const { app } = await startTestApi();
  const ana = await registerUser(app, 'compileana');
  const lines: string[] = [];
  const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
  await withCompiler({ command: join(dir, 'no-such-compiler') }, async () => {
    const b = freshMoriaBot('Anaform');
    const sub = await createSubmission(app.deps, { userId: ana.id, game: 'moria', source: b.source, filename: b.filename }, log, { syntaxCheck: true });
    assert.ok(sub);
  });
  assert.ok(
    lines.some((l) => /compile at upload skipped/.test(l)),
    'a warning is logged',
  );
  await assert.rejects(
    createSubmission(app.deps, { userId: ana.id, game: 'moria', source: `${moriaBot('Anaform')}let x x\n`, filename: 'Anaform.ts' }, log, {
      syntaxCheck: true,
    }),
    (e: unknown) => e instanceof Error && /^compile error: Anaform\.ts:\d+:\d+: Expected ";"/.test(e.message),
  );
});
