// A compiled C++ player (sandbox/cpp/code.ts's string: a marker, then its name,
// game and module in base64) read without Node's Buffer, for the play page's
// workers and the starter kit's runner: the same module the judge runs.

import { CPP_CODE_PREFIX, type CppCode } from '../../../../sandbox/cpp/code.ts';

export const isCppCode = (code: string): boolean => code.startsWith(CPP_CODE_PREFIX);

export function decodeCppCode(code: string): CppCode {
  const { name, game, wasm } = JSON.parse(code.slice(CPP_CODE_PREFIX.length)) as { name: string; game: string; wasm: string };
  const text = atob(wasm);
  const bytes = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
  return { name: String(name), game: String(game), wasm: bytes };
}
