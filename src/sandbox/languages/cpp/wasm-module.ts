// Reads what a compiled C++ player's module asks for, from its bytes: the
// memory it imports (its initial size decides whether it fits the memory
// limit) and its other imports. Pure: used by the compile check and, bundled
// into the isolate, by the runtime before it instantiates a module.

export const WASM_PAGE = 65536;

/** A cursor over a module's bytes, past its 8-byte header: the LEB128 numbers, names and constant expressions its sections are made of. */
class ModuleReader {
  at = 8;
  constructor(readonly bytes: Uint8Array) {}

  /** An unsigned LEB128 of at most `maxShift` bits' worth of groups. */
  u32(maxShift = 63): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.bytes.length) throw new Error('truncated module');
      const b = this.bytes[this.at++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
      if (shift > maxShift) throw new Error('bad LEB128');
    }
  }

  /** A signed LEB128. */
  sleb(): number {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      if (this.at >= this.bytes.length) throw new Error('truncated module');
      b = this.bytes[this.at++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (b & 0x40) result -= 2 ** shift;
    return result;
  }

  /**
   * A data segment's offset, a constant expression (i32.const / i64.const / global.get ... end), passed over.
   * False, where it stops, at an opcode no linker writes there.
   */
  skipConstExpr(): boolean {
    for (;;) {
      const op = this.bytes[this.at++];
      if (op === undefined) throw new Error('truncated module');
      if (op === 0x0b) return true;
      if (op === 0x41 || op === 0x42 || op === 0x23) this.u32();
      else return false;
    }
  }
}

export interface MemoryImport {
  module: string;
  name: string;
  /** Pages. */
  initial: number;
  maximum: number | null;
}

/** The module's imported memory, or null if it imports none (it then defines its own, which the runtime refuses). */
export function readMemoryImport(bytes: Uint8Array): MemoryImport | null {
  const r = new ModuleReader(bytes);
  const u32 = () => r.u32(35);
  const name = (): string => {
    const n = u32();
    let s = '';
    for (let k = 0; k < n; k++) s += String.fromCharCode(bytes[r.at + k]!);
    r.at += n;
    return s;
  };
  const limits = (): [number, number | null] => {
    const flags = u32();
    const initial = u32();
    return [initial, flags & 1 ? u32() : null];
  };
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a WebAssembly module');
  while (r.at < bytes.length) {
    const id = bytes[r.at++]!;
    const size = u32();
    const end = r.at + size;
    if (id === 2) {
      const count = u32();
      for (let k = 0; k < count; k++) {
        const module = name();
        const field = name();
        const kind = bytes[r.at++]!;
        if (kind === 0) u32();
        else if (kind === 1) {
          r.at++; // reference type
          limits();
        } else if (kind === 2) {
          const [initial, maximum] = limits();
          return { module, name: field, initial, maximum };
        } else if (kind === 3) r.at += 2;
        else if (kind === 4) {
          r.at++;
          u32();
        } else throw new Error(`unknown import kind ${kind}`);
      }
      return null;
    }
    r.at = end;
  }
  return null;
}

/** The bytes of the module's data segments (its initialized static data, held in the module and copied into its memory), summed. */
export function dataSegmentBytes(bytes: Uint8Array): number {
  const r = new ModuleReader(bytes);
  let total = 0;
  while (r.at < bytes.length) {
    const id = bytes[r.at++]!;
    const size = r.u32();
    const end = r.at + size;
    if (id === 11) {
      const count = r.u32();
      for (let k = 0; k < count; k++) {
        const flags = r.u32();
        if (flags === 2) r.u32();
        if (flags !== 1 && !r.skipConstExpr()) throw new Error(`unexpected opcode ${bytes[r.at - 1]} in a data segment's offset`);
        const n = r.u32();
        total += n;
        r.at += n;
      }
    }
    r.at = end;
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
  const r = new ModuleReader(bytes);
  const u32 = () => r.u32();
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
  while (r.at < bytes.length) {
    const sectionStart = r.at;
    const id = bytes[r.at++]!;
    const size = u32();
    const end = r.at + size;
    if (id !== 11) {
      r.at = end;
      continue;
    }
    const count = u32();
    const parts: Uint8Array[] = [new Uint8Array(leb(count))];
    let changed = false;
    for (let k = 0; k < count; k++) {
      const segStart = r.at;
      const flags = u32();
      // Only the plain form: memory 0, offset i32.const; any other is kept as it is.
      if (flags === 0 && bytes[r.at] === 0x41) {
        r.at++;
        const offset = r.sleb();
        if (bytes[r.at++] !== 0x0b) return bytes;
        const n = u32();
        const data = bytes.subarray(r.at, r.at + n);
        r.at += n;
        let first = 0;
        while (first < data.length && data[first] === 0) first++;
        let last = data.length;
        while (last > first && data[last - 1] === 0) last--;
        if (first === 0 && last === data.length) parts.push(bytes.subarray(segStart, r.at));
        else {
          changed = true;
          const kept = data.subarray(first, last);
          parts.push(new Uint8Array([0, 0x41, ...sleb32(offset + (kept.length ? first : 0)), 0x0b, ...leb(kept.length)]), kept);
        }
      } else {
        if (flags === 2) u32();
        if (flags !== 1 && !r.skipConstExpr()) return bytes;
        const n = u32();
        r.at += n;
        parts.push(bytes.subarray(segStart, r.at));
      }
    }
    if (!changed || r.at !== end) return bytes;
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
    return out;
  }
  return bytes;
}
