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

/** The bytes of the module's data segments (its initialized static data, held in the module and copied into its memory), summed. */
export function dataSegmentBytes(bytes: Uint8Array): number {
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
      if (shift > 63) throw new Error('bad LEB128');
    }
  };
  /** A constant expression (i32.const / global.get ... end). */
  const expr = (): void => {
    for (;;) {
      const op = bytes[at++];
      if (op === undefined) throw new Error('truncated module');
      if (op === 0x0b) return;
      if (op === 0x41 || op === 0x42 || op === 0x23) u32();
      else throw new Error(`unexpected opcode ${op} in a data segment's offset`);
    }
  };
  let total = 0;
  while (at < bytes.length) {
    const id = bytes[at++]!;
    const size = u32();
    const end = at + size;
    if (id === 11) {
      const count = u32();
      for (let k = 0; k < count; k++) {
        const flags = u32();
        if (flags === 2) u32();
        if (flags !== 1) expr();
        const n = u32();
        total += n;
        at += n;
      }
    }
    at = end;
  }
  return total;
}

/**
 * The module with the zero bytes at the ends of its active data segments left
 * out (a segment of zeros only becomes an empty one): the runtime gives the
 * module a fresh memory, all zeros, so they change nothing but its size. A
 * linker that writes a large zero-initialized array as that many zero bytes
 * (wasm-ld 14 with an imported memory) then gives the module another's does.
 * The same bytes back when there is nothing to leave out.
 */
export function trimZeroData(bytes: Uint8Array): Uint8Array {
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
      if (shift > 63) throw new Error('bad LEB128');
    }
  };
  const sleb = (): number => {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= bytes.length) throw new Error('truncated module');
      b = bytes[at++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (b & 0x40) result -= 2 ** shift;
    return result;
  };
  const leb = (n: number): number[] => {
    const out: number[] = [];
    do {
      let b = n % 128;
      n = Math.floor(n / 128);
      if (n > 0) b |= 0x80;
      out.push(b);
    } while (n > 0);
    return out;
  };
  const sleb32 = (n: number): number[] => {
    const out: number[] = [];
    n |= 0;
    for (;;) {
      const b = n & 0x7f;
      n >>= 7;
      if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
        out.push(b);
        return out;
      }
      out.push(b | 0x80);
    }
  };
  while (at < bytes.length) {
    const sectionStart = at;
    const id = bytes[at++]!;
    const size = u32();
    const bodyStart = at;
    const end = at + size;
    if (id !== 11) {
      at = end;
      continue;
    }
    const count = u32();
    const parts: Uint8Array[] = [new Uint8Array(leb(count))];
    let changed = false;
    for (let k = 0; k < count; k++) {
      const segStart = at;
      const flags = u32();
      // Only the plain form: memory 0, offset i32.const; any other is kept as it is.
      if (flags === 0 && bytes[at] === 0x41) {
        at++;
        const offset = sleb();
        if (bytes[at++] !== 0x0b) return bytes;
        const n = u32();
        const data = bytes.subarray(at, at + n);
        at += n;
        let first = 0;
        while (first < data.length && data[first] === 0) first++;
        let last = data.length;
        while (last > first && data[last - 1] === 0) last--;
        if (first === 0 && last === data.length) parts.push(bytes.subarray(segStart, at));
        else {
          changed = true;
          const kept = data.subarray(first, last);
          parts.push(new Uint8Array([0, 0x41, ...sleb32(offset + (kept.length ? first : 0)), 0x0b, ...leb(kept.length)]), kept);
        }
      } else {
        if (flags === 2) u32();
        if (flags !== 1) {
          for (;;) {
            const op = bytes[at++];
            if (op === undefined) throw new Error('truncated module');
            if (op === 0x0b) break;
            if (op === 0x41 || op === 0x42 || op === 0x23) u32();
            else return bytes;
          }
        }
        const n = u32();
        at += n;
        parts.push(bytes.subarray(segStart, at));
      }
    }
    if (!changed || at !== end) return bytes;
    const bodySize = parts.reduce((a, p) => a + p.length, 0);
    const header = new Uint8Array([11, ...leb(bodySize)]);
    const out = new Uint8Array(sectionStart + header.length + bodySize + (bytes.length - end));
    out.set(bytes.subarray(0, sectionStart), 0);
    let w = sectionStart;
    out.set(header, w);
    w += header.length;
    for (const p of parts) {
      out.set(p, w);
      w += p.length;
    }
    out.set(bytes.subarray(end), w);
    void bodyStart;
    return out;
  }
  return bytes;
}
