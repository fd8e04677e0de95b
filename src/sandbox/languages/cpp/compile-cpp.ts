// compileBot for a C++ player: the toolchain's result turned into the
// judge's terms. The file's own failures (compile errors with the student's
// line and column, a compile that times out or blows up twice, a module that
// needs more memory than the limit) are BotCompileError; the machine's are
// CompileInfraError, never reported as the file's; the play lane's bounds
// (its queue, the client's CPU budget) are PlayCompileRefusal.
//
// What the compiler may read is not decided here by reading the text: the
// toolchain can open nothing but the sysroot, the headers and the file
// (confine.ts for the system clang, the in-memory tree for the npm one).

import { getGame } from '../../../games/registry.ts';
import { BotCompileError, CompileInfraError, PlayCompileRefusal, type CompileBotOptions } from '../compile-errors.ts';
import type { BotArtifact } from '../artifact.ts';
import { readCppHeader } from './source.ts';
import { compileCpp, cppCompileSettings, type CppCompileResult } from './toolchain.ts';
import { readMemoryImport } from './wasm-module.ts';

/** Compiler output kept in a compile error: the first errors with their source lines. */
const MAX_ERROR_TEXT = 3000;

/** clang's diagnostics as the student reads them: the first error's position, the text from there. */
export function cppCompileError(stderr: string, filename: string): BotCompileError {
  const text = stderr.replace(/\r/g, '');
  const first = /^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$/m.exec(text);
  // Position in the student's file: the first error there, else the line that includes a header with the error.
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^(?:In file included from )?(?:\\./)?${escaped}:(\\d+):(\\d+)?`, 'm').exec(text);
  const body = first ? text.slice(first.index) : text;
  const cut = body.length > MAX_ERROR_TEXT ? body.slice(0, MAX_ERROR_TEXT) + '\n[more errors cut]' : body.trimEnd();
  if (!first) return new BotCompileError(`${filename}: ${cut || 'the file does not compile'}`);
  const line = Number(own?.[1] ?? first[2]);
  const column = Number(own?.[2] ?? first[3]);
  return new BotCompileError(cut, line, column);
}

function reproduced(r: Extract<CppCompileResult, { ok: false }>, filename: string): BotCompileError {
  const s = cppCompileSettings();
  const text = {
    timeout: `compiling this file took more than ${s.cpuSeconds ?? s.timeoutMs / 1000} s of the compiler's CPU time`,
    memory: `compiling this file needed more than ${s.memoryMb} MiB of memory`,
    crash: 'the compiler crashed on this file',
    infra: 'the compiler failed',
    rejected: 'the file does not compile',
    refused: 'the file does not compile',
    busy: 'the compiler is busy',
    budget: 'the compile used up its CPU budget',
  }[r.kind];
  return new BotCompileError(`${filename}: ${text}`);
}

export async function compileCppBot(source: string, uploadedName: string, game: string | undefined, options: CompileBotOptions = {}): Promise<BotArtifact> {
  // The name the file is compiled under (and its errors carry): the upload's own, without directories or odd characters.
  const filename =
    uploadedName
      .replace(/^.*[\\/]/, '')
      .replace(/[^A-Za-z0-9_.+-]/g, '_')
      .replace(/^\.+/, '_') || 'AIPlayer.cc';
  const header = readCppHeader(source);
  if (!header.name) throw new BotCompileError(`${filename}: no player name: the file must say  #define PLAYER_NAME YourName`);
  const gameId = game ?? header.game;
  if (!gameId) throw new BotCompileError(`${filename}: which game does it play? Submit it for a game, or add a line  // GAME: moria`);
  if (header.game && game && header.game !== game) throw new BotCompileError(`${filename}: the file says // GAME: ${header.game} but is compiled for ${game}`);
  let memoryMb: number;
  try {
    memoryMb = (await getGame(gameId)).defaultLimits.memoryMb;
  } catch {
    throw new BotCompileError(`${filename}: unknown game "${gameId}"`);
  }
  const compile = async (): Promise<CppCompileResult> => {
    let r: CppCompileResult;
    try {
      r = await compileCpp(source, filename, gameId, {
        lane: options.lane ?? 'judge',
        memoryMb,
        budgetSeconds: options.budgetSeconds?.(),
        onCpu: options.onCpu,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BotCompileError(`${filename}: C++ players are not available for ${gameId}`);
      throw new CompileInfraError(`could not compile ${filename}: ${(err as Error).message}`);
    }
    if (!r.ok && (r.kind === 'busy' || r.kind === 'budget')) throw new PlayCompileRefusal(r.kind, r.detail);
    return r;
  };
  /** A result that says something about the file whatever the machine: a module, its diagnostics, a refusal of its size. */
  const final = (r: CppCompileResult): r is Extract<CppCompileResult, { ok: true } | { kind: 'rejected' | 'refused' }> =>
    r.ok || r.kind === 'rejected' || r.kind === 'refused';
  let r = await compile();
  if (!final(r)) {
    const first = r as Extract<CppCompileResult, { detail: string }>;
    r = await compile();
    if (!final(r)) {
      const second = r as Extract<CppCompileResult, { detail: string }>;
      if (first.kind !== 'infra' && second.kind !== 'infra') throw reproduced(second, filename);
      throw new CompileInfraError(`could not compile ${filename}: ${first.detail}; then, on a second try: ${second.detail}`);
    }
  }
  if (!r.ok && r.kind === 'refused') throw new BotCompileError(`${filename}: ${r.message}`);
  if (!r.ok) throw cppCompileError(r.stderr, filename);
  if (!readMemoryImport(r.wasm)) throw new CompileInfraError(`could not compile ${filename}: the module imports no memory`);
  return { kind: 'wasm', name: header.name, game: gameId, wasm: r.wasm };
}
