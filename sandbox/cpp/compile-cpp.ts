// compileBot for a C++ player: the toolchain's result turned into the
// judge's terms. The file's own failures (compile errors with the student's
// line and column, a compile that times out or blows up twice, a module that
// needs more memory than the limit) are BotCompileError; the machine's are
// CompileInfraError, never reported as the file's.

import { getGame } from '../../src/game-kit/registry.ts';
import { BotCompileError, CompileInfraError } from '../compile.ts';
import { encodeCppCode } from './code.ts';
import { readCppHeader } from './source.ts';
import { unsafeInclude } from './include-check.ts';
import { compileCpp, cppCompileSettings, type CppCompileResult } from './toolchain.ts';
import { readMemoryImport, WASM_PAGE } from './wasm-module.ts';

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
    timeout: `compiling this file took more than ${s.timeoutMs / 1000} s`,
    memory: `compiling this file needed more than ${s.memoryMb} MiB of memory`,
    crash: 'the compiler crashed on this file',
    infra: 'the compiler failed',
    rejected: 'the file does not compile',
  }[r.kind];
  return new BotCompileError(`${filename}: ${text}`);
}

export async function compileCppBot(source: string, uploadedName: string, game: string | undefined): Promise<string> {
  // The name the file is compiled under (and its errors carry): the upload's own, without directories or odd characters.
  const filename = uploadedName.replace(/^.*[\\/]/, '').replace(/[^A-Za-z0-9_.+-]/g, '_').replace(/^\.+/, '_') || 'AIPlayer.cc';
  const header = readCppHeader(source);
  if (!header.name) throw new BotCompileError(`${filename}: no player name: the file must say  #define PLAYER_NAME YourName`);
  const gameId = game ?? header.game;
  if (!gameId) throw new BotCompileError(`${filename}: which game does it play? Submit it for a game, or add a line  // GAME: moria`);
  if (header.game && game && header.game !== game) throw new BotCompileError(`${filename}: the file says // GAME: ${header.game} but is compiled for ${game}`);
  const unsafe = unsafeInclude(source);
  if (unsafe) throw new BotCompileError(`${filename}:${unsafe.line}:1: error: only headers may be included, by name (<vector>, "Player.hh"): ${unsafe.text.slice(0, 200)}`, unsafe.line, 1);
  let memoryMb: number;
  try {
    memoryMb = (await getGame(gameId)).defaultLimits.memoryMb;
  } catch {
    throw new BotCompileError(`${filename}: unknown game "${gameId}"`);
  }
  const compile = async () => {
    try {
      return await compileCpp(source, filename, gameId);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BotCompileError(`${filename}: C++ players are not available for ${gameId}`);
      throw new CompileInfraError(`could not compile ${filename}: ${(err as Error).message}`);
    }
  };
  let r = await compile();
  if (!r.ok && r.kind !== 'rejected') {
    const first = r;
    r = await compile();
    if (!r.ok && r.kind !== 'rejected') {
      if (first.kind !== 'infra' && r.kind !== 'infra') throw reproduced(r, filename);
      throw new CompileInfraError(`could not compile ${filename}: ${first.detail}; then, on a second try: ${r.detail}`);
    }
  }
  if (!r.ok) throw cppCompileError(r.stderr, filename);
  const mem = readMemoryImport(r.wasm);
  if (!mem) throw new CompileInfraError(`could not compile ${filename}: the module imports no memory`);
  const startMb = (mem.initial * WASM_PAGE) / (1024 * 1024);
  if (startMb > memoryMb) {
    throw new BotCompileError(`${filename}: the program needs ${Math.ceil(startMb)} MiB of memory at start (large global arrays?), more than the memory limit of ${memoryMb} MiB`);
  }
  return encodeCppCode({ name: header.name, game: gameId, wasm: r.wasm });
}
