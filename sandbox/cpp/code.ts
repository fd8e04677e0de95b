// A compiled C++ player as the judge passes it around: a string like a
// JavaScript bot's compiled code (caches, match requests and the replay of a
// match all carry strings), marked so the host loads it as a module.

export const CPP_CODE_PREFIX = '/*arbiter:cpp*/';

export interface CppCode {
  name: string;
  game: string;
  wasm: Uint8Array;
}

export function encodeCppCode(c: CppCode): string {
  return CPP_CODE_PREFIX + JSON.stringify({ name: c.name, game: c.game, wasm: Buffer.from(c.wasm.buffer, c.wasm.byteOffset, c.wasm.byteLength).toString('base64') });
}

export function isCppCode(code: string): boolean {
  return code.startsWith(CPP_CODE_PREFIX);
}

export function decodeCppCode(code: string): CppCode {
  const { name, game, wasm } = JSON.parse(code.slice(CPP_CODE_PREFIX.length)) as { name: string; game: string; wasm: string };
  return { name, game, wasm: new Uint8Array(Buffer.from(wasm, 'base64')) };
}
