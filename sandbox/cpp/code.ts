// A compiled C++ player as the judge passes it around: a wasm artifact
// (languages/artifact.ts, which alone turns artifacts into strings and back).

import { artifactKind, parseArtifact, serializeArtifact } from '../languages/artifact.ts';

export interface CppCode {
  name: string;
  game: string;
  wasm: Uint8Array;
}

export function encodeCppCode(c: CppCode): string {
  return serializeArtifact({ kind: 'wasm', ...c });
}

export function isCppCode(code: string): boolean {
  try {
    return artifactKind(code) === 'wasm';
  } catch {
    return false;
  }
}

export function decodeCppCode(code: string): CppCode {
  const a = parseArtifact(code);
  if (a.kind !== 'wasm') throw new Error('not a compiled C++ player');
  return { name: a.name, game: a.game, wasm: a.wasm };
}
