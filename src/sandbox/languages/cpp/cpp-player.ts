// Runs INSIDE a bot's isolate, as part of the trusted runtime (bot-runtime.ts):
// instantiates a compiled C++ player's module and plays it. The bot's code
// is the module alone; it never reaches the WebAssembly object (captured by
// the runtime before it removes it from the global object).
//
// - Memory: the module imports its memory; this runtime creates it with a
//   maximum of the memory limit, so growing past it fails inside the module
//   (malloc returns null, and arbiter.hh's operator new reports it).
// - Every round the view's arrays are copied into the module's memory (a
//   buffer the module allocates once) with a table of (address, length)
//   pairs, in the order the module's generated header names them.
// - Orders come back through arbiter.order into the same rt.order() as a
//   JavaScript bot's, so the same counting and validation apply.

import type { BotRuntime } from '../../../sdk/bot-runtime-types.ts';
import type { BotView } from '../../../sdk/types.ts';
import { readMemoryImport, WASM_PAGE } from './wasm-module.ts';
import { decodeUtf8, WasiExit, wasiImports } from './wasi.ts';

/** A failure the bot is frozen for; `message` is what its author reads. */
export class CppStop {
  constructor(readonly message: string) {}
}

export interface CppHooks {
  rt: BotRuntime;
  /** Text for the bot's log (cout and cerr): false once the log is full (what comes after is dropped). */
  log(text: string): boolean;
  status(pl: number): number;
  seed: number;
}

const MAX_ORDER_ITEMS = 64;

/** The part of the WebAssembly API the runtime uses (the project's lib has no DOM types). */
export interface WasmApi {
  Module: {
    new (bytes: Uint8Array): object;
    imports(module: object): { module: string; name: string; kind: string }[];
  };
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
  RuntimeError: new (...args: never[]) => Error;
}

export function createCppPlayer(Wasm: WasmApi, bytes: Uint8Array, memoryMb: number, hooks: CppHooks): { play(): void } {
  let mem: ReturnType<typeof readMemoryImport>;
  try {
    mem = readMemoryImport(bytes);
  } catch (e) {
    throw new CppStop(`the module cannot be read: ${String((e as Error).message)}`);
  }
  if (mem?.module !== 'env' || mem.name !== 'memory') throw new CppStop('the module does not import its memory (it was not compiled by the judge)');
  const limitPages = Math.floor((memoryMb * 1024 * 1024) / WASM_PAGE);
  if (mem.initial > limitPages)
    throw new CppStop(
      `out of memory: the module needs ${Math.ceil((mem.initial * WASM_PAGE) / 1048576)} MiB at start, more than the memory limit of ${memoryMb} MiB`,
    );
  const module = new Wasm.Module(bytes);
  const memory = new Wasm.Memory({ initial: mem.initial, maximum: mem.maximum === null ? limitPages : Math.min(limitPages, mem.maximum) });
  const buffer = () => memory.buffer;
  let lastErrLine = '';
  let errTail = '';
  const { rt } = hooks;

  const wasiNames: string[] = [];
  for (const imp of Wasm.Module.imports(module)) {
    if (imp.module === 'wasi_snapshot_preview1' && imp.kind === 'function') wasiNames.push(imp.name);
    else if (imp.module === 'env' && imp.name === 'memory') continue;
    else if (imp.module !== 'arbiter') throw new CppStop(`the module imports ${imp.module}.${imp.name}, which the judge does not provide`);
  }
  const inside = (ptr: number, len: number) => ptr >= 0 && len >= 0 && ptr + len <= buffer().byteLength;
  const arbiter: Record<string, (...args: number[]) => number | undefined> = {
    me: () => rt.me(),
    random: (l, u) => rt.rng.random(l | 0, u | 0),
    status: (pl) => hooks.status(pl | 0),
    order(ptr, n, nestedFrom) {
      if (!(n >= 0 && n <= MAX_ORDER_ITEMS) || !inside(ptr, 4 * n) || ptr % 4 !== 0) {
        rt.order([-1]);
        return;
      }
      const items = new Int32Array(buffer(), ptr, n);
      const order: (number | number[])[] = [];
      const split = nestedFrom >= 0 && nestedFrom <= n ? nestedFrom : n;
      for (let k = 0; k < split; k++) order.push(items[k]!);
      if (split < n || nestedFrom === n) {
        const nested: number[] = [];
        for (let k = split; k < n; k++) nested.push(items[k]!);
        order.push(nested);
      }
      rt.order(order);
    },
    // An order whose first item is a one-letter text (Bola de Drac's 'm' and 't'), then numbers.
    order_tagged(tag, ptr, n) {
      if (!(n >= 0 && n <= MAX_ORDER_ITEMS) || !inside(ptr, 4 * n) || ptr % 4 !== 0 || !(tag > 32 && tag < 127)) {
        rt.order([-1]);
        return;
      }
      const items = new Int32Array(buffer(), ptr, n);
      const order: (number | string)[] = [String.fromCharCode(tag)];
      for (let k = 0; k < n; k++) order.push(items[k]!);
      rt.order(order);
    },
    seed: () => hooks.seed & 0x7fffffff,
    out_of_memory(bytes) {
      throw new CppStop(`out of memory: an allocation of ${bytes >>> 0} bytes failed (memory limit ${memoryMb} MiB)`);
    },
    // cout, cerr and clog's text, buffered in the module (arbiter-exports.hh): once per play(), or when 64 KiB fill.
    log(ptr, n) {
      if (!hooks.log('')) return 0;
      if (!(n > 0) || !inside(ptr, n)) return 1;
      return hooks.log(decodeUtf8(new Uint8Array(buffer(), ptr, n))) ? 1 : 0;
    },
    player_name(pl, buf, cap) {
      const name = rt.playerName(pl | 0);
      const n = Math.min(name.length, cap);
      if (!inside(buf, n)) return 0;
      const u8 = new Uint8Array(buffer());
      for (let k = 0; k < n; k++) u8[buf + k] = name.charCodeAt(k) & 0x7f;
      return n;
    },
  };
  const wasi = wasiImports(
    {
      memory: buffer,
      write: (fd, text) => {
        drainLog(); // what cout and cerr wrote before this stdio write comes first
        hooks.log(text);
        if (fd === 2) {
          // The last line on stderr says why an assert aborted.
          errTail = (errTail + text).slice(-600);
          const lines = errTail.split('\n').filter((l) => l.trim() !== '');
          if (lines.length) lastErrLine = lines[lines.length - 1]!;
        }
      },
      seed: hooks.seed,
    },
    wasiNames,
  );
  let drain: (() => void) | null = null;
  const drainLog = () => {
    try {
      drain?.();
    } catch {
      // after a trap (a stack overflow) the module may not run even this: its last text is lost
    }
  };
  let instance: { exports: Record<string, unknown> };
  try {
    instance = new Wasm.Instance(module, { env: { memory }, arbiter, wasi_snapshot_preview1: wasi });
  } catch (e) {
    throw new CppStop(`the module cannot start: ${String((e as Error).message)}`);
  }
  const ex = instance.exports;
  const fn = (name: string) => {
    const f = ex[name];
    if (typeof f !== 'function') throw new CppStop(`the module has no ${name}(): it was not compiled against the game's Player.hh`);
    return f as (...args: number[]) => number;
  };
  const initialize = typeof ex['_initialize'] === 'function' ? (ex['_initialize'] as () => void) : null;
  const viewNames = fn('arbiter_view_names');
  const viewTable = fn('arbiter_view_table');
  const viewAlloc = fn('arbiter_view_alloc');
  const create = fn('arbiter_create');
  const play = fn('arbiter_play');
  // Modules compiled before the log buffer have none: their writes cross one by one.
  if (typeof ex['arbiter_log_drain'] === 'function') drain = ex['arbiter_log_drain'] as () => void;

  /** Runs a call into the module; what goes wrong comes out as a CppStop with a readable reason. */
  const guarded = <T>(call: () => T): T => {
    try {
      return call();
    } catch (e) {
      drainLog(); // what the module wrote before it stopped
      if (e instanceof CppStop) throw e;
      if (e instanceof WasiExit) throw new CppStop(`the program called exit(${e.code})`);
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof Wasm.RuntimeError) {
        if (/unreachable/.test(message))
          throw new CppStop(lastErrLine ? `abort: ${lastErrLine}` : 'the program aborted (abort() or a failed check of the standard library)');
        if (/out of bounds/.test(message)) throw new CppStop(`${message} (a stack overflow, or a pointer or index out of range)`);
        throw new CppStop(message);
      }
      if (e instanceof RangeError && /call stack/.test(message)) throw new CppStop('stack overflow (Maximum call stack size exceeded): recursion too deep?');
      throw e;
    }
  };

  guarded(() => {
    initialize?.();
    if (create() !== 1) throw new CppStop('the file registers no player: end it with  RegisterPlayer(PLAYER_NAME);');
  });
  const cString = (ptr: number): string => {
    const u8 = new Uint8Array(buffer());
    let s = '';
    for (let k = ptr; k >= 0 && k < u8.length && u8[k] !== 0 && s.length < 4096; k++) s += String.fromCharCode(u8[k]!);
    return s;
  };
  const names = guarded(() => cString(viewNames())).split(',');

  let viewPtr = -1;
  let viewSize = -1;
  const tablePtr = guarded(() => viewTable());
  // Views of the module's memory, made again only when it grows (its buffer is then a new one).
  let seen: ArrayBuffer | null = null;
  let u8 = new Uint8Array(0);
  let table = new Int32Array(0);
  const offsets: number[] = [];
  return {
    play() {
      const view: BotView = rt.view();
      let size = 0;
      for (let k = 0; k < names.length; k++) {
        const a = view[names[k]!];
        size = (size + 7) & ~7;
        offsets[k] = size;
        size += a ? a.byteLength : 0;
      }
      guarded(() => {
        if (size !== viewSize) {
          viewPtr = viewAlloc(size);
          viewSize = size;
        }
        const mem = buffer();
        if (mem !== seen) {
          if (!inside(tablePtr, 8 * names.length) || tablePtr % 4 !== 0) throw new CppStop('the view table in the module was overwritten');
          u8 = new Uint8Array(mem);
          table = new Int32Array(mem, tablePtr, 2 * names.length);
          seen = mem;
        }
        if (!inside(viewPtr, size) || viewPtr % 8 !== 0) throw new CppStop('the view buffer in the module was overwritten');
        for (let k = 0; k < names.length; k++) {
          const a = view[names[k]!];
          if (a) u8.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), viewPtr + offsets[k]!);
          table[2 * k] = viewPtr + offsets[k]!;
          table[2 * k + 1] = a ? a.length : 0;
        }
        play();
      });
    },
  };
}
