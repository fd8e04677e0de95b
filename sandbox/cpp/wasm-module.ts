// Reads what a compiled C++ player's module asks for, from its bytes: the
// memory it imports (its initial size decides whether it fits the memory
// limit) and its other imports. Pure: used by the compile check and, bundled
// into the isolate, by the runtime before it instantiates a module.

export const WASM_PAGE = 65536;

export interface MemoryImport {
  module: string;
  name: string;
  /** Pages. */
  initial: number;
  maximum: number | null;
}

/** The module's imported memory, or null if it imports none (it then defines its own, which the runtime refuses). */
export function readMemoryImport(bytes: Uint8Array): MemoryImport | null {
  let at = 8;
  const u32 = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (at >= bytes.length) throw new Error('truncated module');
      const b = bytes[at++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
      if (shift > 35) throw new Error('bad LEB128');
    }
  };
  const name = (): string => {
    const n = u32();
    let s = '';
    for (let k = 0; k < n; k++) s += String.fromCharCode(bytes[at + k]!);
    at += n;
    return s;
  };
  const limits = (): [number, number | null] => {
    const flags = u32();
    const initial = u32();
    return [initial, flags & 1 ? u32() : null];
  };
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a WebAssembly module');
  while (at < bytes.length) {
    const id = bytes[at++]!;
    const size = u32();
    const end = at + size;
    if (id === 2) {
      const count = u32();
      for (let k = 0; k < count; k++) {
        const module = name();
        const field = name();
        const kind = bytes[at++]!;
        if (kind === 0) u32();
        else if (kind === 1) {
          at++; // reference type
          limits();
        } else if (kind === 2) {
          const [initial, maximum] = limits();
          return { module, name: field, initial, maximum };
        } else if (kind === 3) at += 2;
        else if (kind === 4) {
          at++;
          u32();
        } else throw new Error(`unknown import kind ${kind}`);
      }
      return null;
    }
    at = end;
  }
  return null;
}
