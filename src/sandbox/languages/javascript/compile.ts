// Turns a bot file (JavaScript or TypeScript) into the script its isolate
// runs: esbuild strips the types and rewrites `export` into a CommonJS shape,
// and a wrapper makes the script's completion value the bot's exports, so no
// global is needed to hand them over.
//
// Each compile runs esbuild in a process of its own (src/sandbox/languages/javascript/compile-process.ts),
// so a file that crashes the compiler cannot break the next one. A crash, a
// timeout or a memory blow-up is tried once more on a fresh process: when it
// happens again it is the file's doing (BotCompileError), otherwise, like a
// compiler that cannot start or is killed from outside, it is the judge's
// (CompileInfraError), which is never reported as the file's compile error.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtEntryUrl } from '../../../sdk/modules.ts';
import { compilerSettings, runEsbuild, type EsbuildRun } from './compile-process.ts';
import { decodeMappings, scriptSourceMaps } from './bot-source.ts';
import { BotCompileError, CompileInfraError } from '../compile-errors.ts';
import type { BotArtifact } from '../artifact.ts';

const cache = new Map<string, string>();
/** Compiles under way, by the cache's key. */
const compiling = new Map<string, Promise<Extract<BotArtifact, { kind: 'script' }>>>();
const INLINE_MAP = '//# sourceMappingURL=data:application/json;base64,';

/** What a failure that happened twice says about the file. */
function reproducedFailure(run: Extract<EsbuildRun, { kind: 'crash' | 'memory' | 'timeout' | 'output' }>, filename: string): BotCompileError {
  const s = compilerSettings();
  const text = {
    crash: `the compiler crashed on this file (${/stack overflow|stack exceeds/i.test(run.detail) ? 'stack overflow: code nested too deeply?' : 'stack overflow?'})`,
    memory: `compiling this file needed more than ${s.memoryMb} MiB of memory (code nested too deeply?)`,
    timeout: `compiling this file took more than ${s.timeoutMs / 1000} s`,
    output: 'the compiled code of this file is too large',
  }[run.kind];
  return new BotCompileError(`${filename}: ${text}`);
}

/** esbuild's first error, as `file:line:col: text` with the author's file name. */
function firstError(stderr: string, filename: string): BotCompileError {
  const text = /\[ERROR\] (.*)$/m.exec(stderr)?.[1]?.trim() ?? 'the file does not compile';
  // The error's position is the first "    file:line:column:" line after it.
  const at = /^ {4}\S.*:(\d+):(\d+):$/m.exec(stderr.slice(stderr.indexOf('[ERROR]')));
  if (!at) return new BotCompileError(`${filename}: ${text}`);
  const line = Number(at[1]);
  const column = Number(at[2]) + 1;
  return new BotCompileError(`${filename}:${line}:${column}: ${text}`, line, column);
}

/**
 * Compiles a JavaScript or TypeScript bot (by its file's ending) into the
 * script its isolate runs (languages/javascript.ts's compile; everything else
 * calls languages/index.ts's compileBot). Throws BotCompileError (the file's
 * fault, with the line of the first error when there is one) or
 * CompileInfraError.
 */
export function compileScript(source: string, filename: string): Promise<Extract<BotArtifact, { kind: 'script' }>> {
  const isTs = /\.(ts|mts|cts)$/i.test(filename);
  const key = compileKey(source, filename);
  const hit = cache.get(key) ?? builtCompile(key);
  if (hit !== undefined) return Promise.resolve(script(hit));
  // The same source compiled again meanwhile (a match of four copies of one bot) waits for this compile.
  let compile = compiling.get(key);
  if (!compile) {
    compile = compileNow(source, filename, isTs, key).finally(() => compiling.delete(key));
    compiling.set(key, compile);
  }
  return compile;
}

/** The cache's key of a file's compile: its text and whether it is TypeScript. */
export function compileKey(source: string, filename: string): string {
  return createHash('sha256')
    .update(/\.(ts|mts|cts)$/i.test(filename) ? 'ts\0' : 'js\0')
    .update(source)
    .digest('hex');
}

/** The name of a compile the built judge made (builtCompile). */
export const builtCompileFile = (key: string): string => `compiled-${key}.json`;

/**
 * The compile the built judge made of this very file when it was built (scripts/build.js compiles
 * the games' shipped bots with compileScript, into dist/compiled-<key>.json), kept in the cache:
 * the built-ins a CLI run or a new match process loads cost no esbuild process (70 ms of CPU each).
 * Undefined from the sources, or for any other file (one failed open).
 */
function builtCompile(key: string): string | undefined {
  const url = builtEntryUrl(builtCompileFile(key));
  if (!url) return undefined;
  let built: { code: string; map: number[][][] };
  try {
    built = JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as { code: string; map: number[][][] };
  } catch {
    return undefined;
  }
  if (cache.size > 200) {
    cache.clear();
    scriptSourceMaps.forget();
  }
  cache.set(key, built.code);
  scriptSourceMaps.remember(built.code, built.map);
  return built.code;
}

async function compileNow(source: string, filename: string, isTs: boolean, key: string): Promise<Extract<BotArtifact, { kind: 'script' }>> {
  const args = [
    `--loader=${isTs ? 'ts' : 'js'}`,
    '--format=cjs',
    '--target=es2022',
    // The name shapes the code (esbuild names a helper after it), as it always has.
    `--sourcefile=${filename}`,
    '--sourcemap=inline',
    '--sources-content=false',
    '--log-level=error',
    '--color=false',
  ];
  let run = await runEsbuild(source, args);
  // The second run classifies the fault (the file's if it fails again, else the judge's); it is not a retry of
  // a match or a gate step, which only the worker pool decides (src/jobs/worker/pool.ts).
  if (run.kind !== 'ok' && run.kind !== 'rejected') {
    const first = run;
    run = await runEsbuild(source, args);
    if (run.kind !== 'ok' && run.kind !== 'rejected') {
      if (first.kind !== 'infra' && run.kind !== 'infra') throw reproducedFailure(run, filename);
      throw new CompileInfraError(`could not compile ${filename}: ${first.detail}; then, on a second try: ${run.detail}`);
    }
  }
  if (run.kind === 'rejected') throw firstError(run.stderr, filename);
  const at = run.stdout.lastIndexOf(INLINE_MAP);
  if (at < 0) throw new CompileInfraError(`could not compile ${filename}: the compiler's output has no source map`);
  const code = run.stdout.slice(0, at);
  const map = Buffer.from(run.stdout.slice(at + INLINE_MAP.length).trim(), 'base64').toString('utf8');
  // One line of wrapper before the code keeps esbuild's line numbers close to the author's.
  const wrapped = `(function(){var module={exports:{}},exports=module.exports;\n${code}\nreturn module.exports;})()`;
  if (cache.size > 200) {
    cache.clear();
    scriptSourceMaps.forget();
  }
  cache.set(key, wrapped);
  scriptSourceMaps.remember(wrapped, decodeMappings((JSON.parse(map) as { mappings: string }).mappings));
  return script(wrapped);
}

function script(code: string): Extract<BotArtifact, { kind: 'script' }> {
  const map = scriptSourceMaps.of(code);
  return map ? { kind: 'script', code, map } : { kind: 'script', code };
}
