// Runs INSIDE a bot's isolate (or, for benchmarks and trusted built-ins, a
// node:vm context). It is bundled with one game's bot API module
// (src/games/<id>/bot-api.ts) into the prelude that every bot of that game gets.
//
// It captures the intrinsics it relies on before any bot code runs, so a bot
// that tampers with prototypes or globals only hurts itself: the host
// validates every order again anyway, and never trusts `me()`.

import { Rng } from '../../sdk/rng.ts';
import type { BotView } from '../../sdk/types.ts';
import { LOG_CAP_BYTES, logTruncated as logTruncatedLine, MAX_MESSAGE_CHARS, MAX_ORDERS } from '../../sdk/limits.ts';
import { createCppPlayer, type WasmApi } from '../languages/cpp/cpp-player.ts';
import type { BotApiModule, BotRuntime } from '../../sdk/bot-runtime-types.ts';

// The interfaces live in bot-runtime-types.ts (cpp/cpp-player.ts needs BotRuntime, and this file imports it).
export type { BotRuntime } from '../../sdk/bot-runtime-types.ts';

/** Result of one play() as the host receives it: [orders counted, orders JSON, log]. */
export type PlayReturn = [count: number, ordersJson: string, log: string];

/** playPacked's result as one string, `count,ordersLength,orders log` (unpackResult reads it). */
function packResult([count, orders, log]: PlayReturn): string {
  return count + ',' + orders.length + ',' + orders + log;
}

/** Reads playPacked's string (packResult); null if it is not one. */
export function unpackResult(packed: unknown): PlayReturn | null {
  if (typeof packed !== 'string') return null;
  const a = packed.indexOf(',');
  const b = a < 0 ? -1 : packed.indexOf(',', a + 1);
  if (b < 0) return null;
  const count = Number(packed.slice(0, a));
  const length = Number(packed.slice(a + 1, b));
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(length) || length < 0 || b + 1 + length > packed.length) return null;
  return [count, packed.slice(b + 1, b + 1 + length), packed.slice(b + 1 + length)];
}

/** The handle the host keeps (never reachable from bot code). */
export interface BotHandle {
  setup(me: number, seed: number, logCapBytes: number, memoryMb?: number): void;
  /**
   * Takes the bot file's exports, or a function that evaluates the bot file
   * and returns them; answers [PLAYER_NAME, GAME, log]. Throws a readable
   * Error if the bot is malformed; what the bot's own code throws comes out
   * as a string of at most MAX_MESSAGE_CHARS (plus a note of what was cut).
   */
  load(exports: unknown): [name: string, game: string, log: string];
  /**
   * Loads a compiled C++ player: its module's bytes, with the name and game
   * the compiler read from the file. Only the host calls it (bot code
   * cannot hand a module to the runtime).
   */
  loadCpp(wasm: ArrayBuffer, name: string, game: string): [name: string, game: string, log: string];
  play(names: string, status: string, ...arrays: BotView[string][]): PlayReturn;
  /**
   * play() with the view's arrays packed in one buffer (one copy into the
   * isolate per call): `layout` is JSON `[[type, byteOffset, length], ...]`
   * in the order of `names`, type one of the ViewArray constructors' names.
   * The result is one string, `count,ordersLength,orders log` (packResult):
   * a primitive crosses out of an isolate without the structured clone an
   * array needs.
   */
  playPacked(names: string, status: string, layout: string, buffer: ArrayBuffer): string;
  /** The log written since the last call (after a play() that threw). */
  drainLog(): string;
  /**
   * A full garbage collection of the isolate, where the host process runs
   * with --expose-gc (the match process does); false where it cannot.
   */
  collectGarbage(): boolean;
  /**
   * Makes `slot` the seat every later call is for (a context shared by the seats that run the same
   * built-in, inprocess-host.ts): each slot has its own me(), random streams, log, player and view,
   * kept while another slot plays. A new slot starts empty (setup() fills it); slot 0 is the only
   * one of a runtime that never switches.
   */
  useSlot(slot: number): void;
  /** Forgets `slot`'s state (its player, its log): the seat left the shared context. */
  freeSlot(slot: number): void;
}

/** What one seat of a runtime keeps between its calls (the per-seat part of boot()'s closure). */
interface SlotState {
  me: number;
  rng: Rng;
  mathRng: Rng;
  status: number[];
  playerNames: string[];
  currentView: BotView;
  log: string;
  logUsed: number;
  logCap: number;
  logTruncated: boolean;
  memoryLimitMb: number;
  cppLoaded: boolean;
  matchSeed: number;
  instance: { play(): unknown } | null;
}

export function boot(api: BotApiModule): BotHandle {
  // Intrinsics, captured before the bot can touch them.
  const g = globalThis as Record<string, unknown>;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringCtor = String;
  const isArray = Array.isArray;
  const mathFloor = Math.floor;
  const ErrorCtor = Error;
  // Bound now, so a bot that replaces String.prototype methods cannot grow what leaves the isolate.
  const sliceOf = Function.prototype.call.bind(String.prototype.slice) as (s: string, a: number, b?: number) => string;
  const indexOf = Function.prototype.call.bind(String.prototype.indexOf) as (s: string, t: string) => number;
  const viewTypes: Record<string, new (buffer: ArrayBuffer, byteOffset: number, length: number) => BotView[string]> = {
    Int8Array,
    Uint8Array,
    Int16Array,
    Uint16Array,
    Int32Array,
    Float64Array,
  };

  /** A thrown value as the author should read it (first stack lines), cut to MAX_MESSAGE_CHARS. */
  function describeThrown(e: unknown): string {
    let text: string;
    try {
      if (e instanceof ErrorCtor) {
        const stack: unknown = e.stack;
        const message = StringCtor(e.message);
        if (typeof stack === 'string' && indexOf(stack, message) >= 0) {
          // First four lines: the message and where it was thrown.
          let end = -1;
          for (let i = 0; i < 4; i++) {
            const next = indexOf(sliceOf(stack, end + 1, end + 1 + MAX_MESSAGE_CHARS + 1), '\n');
            if (next < 0) {
              end = stack.length;
              break;
            }
            end = end + 1 + next;
          }
          text = sliceOf(stack, 0, end < 0 ? stack.length : end);
        } else text = StringCtor(e.name) + ': ' + message;
      } else if (typeof e === 'object' && e !== null && 'message' in e) text = StringCtor((e as { message: unknown }).message);
      else text = StringCtor(e);
    } catch {
      text = '[an error that cannot be printed]';
    }
    if (typeof text !== 'string') text = '[an error that cannot be printed]';
    return text.length > MAX_MESSAGE_CHARS ? sliceOf(text, 0, MAX_MESSAGE_CHARS) + '… [' + (text.length - MAX_MESSAGE_CHARS) + ' more characters cut]' : text;
  }

  // Kept for the runtime alone, to instantiate a C++ player's module with a
  // memory whose maximum is the memory limit.
  const Wasm = g['WebAssembly'] as WasmApi | undefined;
  // V8's gc(), where the process exposes it: the host's alone (collectGarbage).
  const gc = typeof g['gc'] === 'function' ? (g['gc'] as () => void) : null;
  // Nothing beyond standard ECMAScript; these three ignore the memory limit
  // (WebAssembly.Memory) or allow blocking (Atomics.wait), and a bot has no
  // use for gc().
  for (const name of ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'gc']) {
    if (!(name in g)) continue;
    let gone = false;
    try {
      gone = delete g[name];
    } catch {
      /* strict code throws where sloppy code answers false */
    }
    // Non-configurable (V8's gc is): made undefined and read-only instead.
    if (!gone) defineProperty(g, name, { value: undefined, writable: false, configurable: false });
  }

  let me = -1;
  let rng = new Rng(0);
  let currentView: BotView = {};
  let status: number[] = [];
  let playerNames: string[] = [];
  const viewListeners: ((view: BotView) => void)[] = [];
  let orders = '';
  let orderCount = 0;
  let log = '';
  let logUsed = 0;
  let logCap = LOG_CAP_BYTES;
  let logTruncated = false;
  let memoryLimitMb = 128;
  let cppLoaded = false;
  let matchSeed = 0;
  let mathRng = new Rng(12345);
  let instance: { play(): unknown } | null = null;
  // The slots of a shared context (useSlot): the current one lives in the variables above, the others here.
  let slot = 0;
  const slots: (SlotState | undefined)[] = [];
  const emptySlot = (): SlotState => ({
    me: -1,
    rng: new Rng(0),
    mathRng: new Rng(12345),
    status: [],
    playerNames: [],
    currentView: {},
    log: '',
    logUsed: 0,
    logCap: LOG_CAP_BYTES,
    logTruncated: false,
    memoryLimitMb: 128,
    cppLoaded: false,
    matchSeed: 0,
    instance: null,
  });
  function saveSlot(into: SlotState): void {
    into.me = me;
    into.rng = rng;
    into.mathRng = mathRng;
    into.status = status;
    into.playerNames = playerNames;
    into.currentView = currentView;
    into.log = log;
    into.logUsed = logUsed;
    into.logCap = logCap;
    into.logTruncated = logTruncated;
    into.memoryLimitMb = memoryLimitMb;
    into.cppLoaded = cppLoaded;
    into.matchSeed = matchSeed;
    into.instance = instance;
  }
  function restoreSlot(from: SlotState): void {
    me = from.me;
    rng = from.rng;
    mathRng = from.mathRng;
    status = from.status;
    playerNames = from.playerNames;
    currentView = from.currentView;
    log = from.log;
    logUsed = from.logUsed;
    logCap = from.logCap;
    logTruncated = from.logTruncated;
    memoryLimitMb = from.memoryLimitMb;
    cppLoaded = from.cppLoaded;
    matchSeed = from.matchSeed;
    instance = from.instance;
  }

  /** False once the log is full (then nothing more is kept). */
  function appendLog(text: string): boolean {
    if (logTruncated) return false;
    const room = logCap - logUsed;
    if (text.length > room) {
      text = text.slice(0, room) + '\n' + logTruncatedLine() + '\n';
      logTruncated = true;
    }
    logUsed += text.length;
    log += text;
    return !logTruncated;
  }

  function show(value: unknown): string {
    if (typeof value === 'string') return value;
    try {
      const s = stringify(value);
      return s === undefined ? StringCtor(value) : s;
    } catch {
      try {
        return StringCtor(value);
      } catch {
        return '[unprintable]';
      }
    }
  }

  function makeLogger(prefix: string) {
    return (...args: unknown[]) => {
      if (logTruncated) return;
      let line = prefix;
      for (let i = 0; i < args.length; i++) line += (i ? ' ' : '') + show(args[i]);
      appendLog(line + '\n');
    };
  }
  const consoleObject = freeze({
    log: makeLogger(''),
    info: makeLogger(''),
    debug: makeLogger(''),
    error: makeLogger(''),
    warn: makeLogger(''),
  });
  defineProperty(g, 'console', { value: consoleObject, writable: true, configurable: true });

  // Serialises orders without JSON.stringify on objects, which a bot could
  // redirect through Array.prototype.toJSON.
  function encodeItem(item: unknown): string {
    // biome-ignore lint/suspicious/noSelfCompare: NaN is the one number unequal to itself; no global a bot could redefine is consulted
    if (typeof item === 'number') return item === item && item !== Infinity && item !== -Infinity ? '' + item : 'null';
    if (typeof item === 'string') return stringify(item);
    if (isArray(item)) {
      let out = '[';
      const n = item.length;
      for (let i = 0; i < n && i < 64; i++) out += (i ? ',' : '') + (typeof item[i] === 'number' ? encodeItem(item[i]) : 'null');
      return out + ']';
    }
    return 'null';
  }

  const rt: BotRuntime = {
    view: () => currentView,
    onView: (listener) => {
      viewListeners[viewListeners.length] = listener;
    },
    me: () => me,
    playerName: (pl) => {
      const n = playerNames[pl];
      return typeof n === 'string' ? n : '';
    },
    define: (name, value) => define(name, value),
    order: (order) => {
      orderCount++;
      if (orderCount > MAX_ORDERS) return;
      let out = '[';
      for (let i = 0; i < order.length && i < 16; i++) out += (i ? ',' : '') + encodeItem(order[i]);
      orders += (orders ? ',' : '') + out + ']';
    },
    warn: (message) => appendLog('warning: ' + message + '\n'),
    get rng() {
      return rng;
    },
  };

  // The base class a bot extends; API names land on its prototype.
  class Player {
    play(): void {}
  }
  const proto = Player.prototype as unknown as Record<string, unknown>;

  function define(name: string, value: unknown): void {
    if (typeof value === 'function') {
      const fn = value as (...args: unknown[]) => unknown;
      defineProperty(g, name, { value: fn, writable: true, configurable: true });
      defineProperty(proto, name, {
        value: function (this: unknown, ...args: unknown[]) {
          return fn(...args);
        },
        writable: true,
        configurable: true,
      });
    } else {
      const frozen = typeof value === 'object' && value !== null ? freeze(value) : value;
      defineProperty(g, name, { value: frozen, writable: true, configurable: true });
      defineProperty(Player, name, { value: frozen, writable: true, configurable: true });
    }
  }

  define('me', () => me);
  define('random', (l: unknown, u: unknown) => rng.random(mathFloor(+(l as number)), mathFloor(+(u as number))));
  define('random_permutation', (n: unknown) => {
    const k = mathFloor(+(n as number));
    if (!(k >= 0 && k <= 1e6)) throw new ErrorCtor('random_permutation: n out of range');
    return rng.permutation(k, api.permutationFull === true);
  });
  /** A player's status (its share of the CPU budget, -1 once frozen or for no such player). */
  function statusOf(pl: unknown): number {
    const v = status[pl as number];
    return typeof v === 'number' ? v : -1;
  }
  define('status', statusOf);
  defineProperty(g, 'Player', { value: Player, writable: true, configurable: true });
  // esbuild turns a stray `import` into require(): say plainly why it fails.
  defineProperty(g, 'require', {
    value: (what: unknown) => {
      throw new ErrorCtor(`a bot is one self-contained file: it cannot import "${StringCtor(what)}"`);
    },
    writable: true,
    configurable: true,
  });

  api.install(rt);

  // The last names and layout seen, parsed: they are the same every round.
  let lastNames = '';
  let keys: string[] = [];
  let lastLayout = '';
  let layoutParts: [string, number, number][] = [];

  /**
   * The view's typed arrays over this call's buffer. A function of its own, so
   * that playPacked has no loop: a loop made it hot enough for TurboFan, which
   * then compiled it with playWith inlined, about 5 ms in every isolate of
   * every match (measured with --trace-opt: a fifth of a Bola de Drac match of
   * Null bots); this small loop alone compiles in about 1 ms.
   */
  function viewArrays(buffer: ArrayBuffer): BotView[string][] {
    const arrays: BotView[string][] = [];
    for (let i = 0; i < layoutParts.length; i++) {
      const part = layoutParts[i]!;
      arrays[i] = new viewTypes[part[0]]!(buffer, part[1], part[2]);
    }
    return arrays;
  }

  function playWith(names: string, statusJson: string, arrays: BotView[string][]): PlayReturn {
    if (names !== lastNames) {
      keys = parse(names) as string[];
      lastNames = names;
    }
    const view: BotView = {};
    for (let i = 0; i < keys.length; i++) view[keys[i]!] = arrays[i]!;
    currentView = view;
    // `{ status, names }` (or a bare status array).
    const header = parse(statusJson) as { status?: number[]; names?: string[] } | number[];
    if (isArray(header)) status = header;
    else {
      status = header.status ?? [];
      playerNames = header.names ?? playerNames;
    }
    orders = '';
    orderCount = 0;
    try {
      // A C++ player reads the view in its own memory: the JavaScript API's decoders would work for nothing.
      if (!cppLoaded) for (let i = 0; i < viewListeners.length; i++) viewListeners[i]!(view);
      if (instance) instance.play();
    } catch (e) {
      throw describeThrown(e);
    }
    const out = log;
    log = '';
    return [orderCount, '[' + orders + ']', out];
  }

  return {
    setup(player, seed, logCapBytes, memoryMb) {
      // Everything a match leaves behind, for a built-in's context that plays the next one (a seat's slot of a built-in's shared context, inprocess-host.ts).
      log = '';
      logUsed = 0;
      logTruncated = false;
      status = [];
      playerNames = [];
      currentView = {};
      instance = null;
      me = player;
      matchSeed = seed;
      if (typeof memoryMb === 'number' && memoryMb > 0) memoryLimitMb = memoryMb;
      rng = new Rng(seed + player + 1);
      logCap = logCapBytes;
      // Math.random, seeded per match and player: a bot's own randomness replays identically.
      mathRng = new Rng(seed * 7 + player * 101 + 12345);
      defineProperty(Math, 'random', { value: () => mathRng.uniform(), writable: true, configurable: true });
    },

    load(exports) {
      if (typeof exports === 'function') {
        try {
          exports = (exports as () => unknown)();
        } catch (e) {
          throw describeThrown(e);
        }
      }
      const mod = (exports ?? {}) as Record<string, unknown>;
      const name = mod['PLAYER_NAME'];
      const game = mod['GAME'];
      const Cls = (mod['default'] ?? mod['Bot']) as unknown;
      if (typeof name !== 'string') throw new ErrorCtor('the bot must export its name: export const PLAYER_NAME = "Gimli";');
      if (typeof game !== 'string') throw new ErrorCtor('the bot must export the game it plays: export const GAME = "moria";');
      if (typeof Cls !== 'function') throw new ErrorCtor('the bot must export its player class: export default class extends Player { play() { ... } }');
      const created = new (Cls as new () => { play(): unknown })();
      if (typeof created.play !== 'function') throw new ErrorCtor('the player class has no play() method');
      instance = created;
      const out = log;
      log = '';
      return [name, game, out];
    },

    loadCpp(wasm, name, game) {
      if (!Wasm) throw new ErrorCtor('this sandbox cannot run C++ players (no WebAssembly)');
      try {
        const player = createCppPlayer(Wasm, new Uint8Array(wasm), memoryLimitMb, {
          rt,
          log: appendLog,
          status: statusOf,
          seed: matchSeed * 7 + me * 101 + 12345,
        });
        instance = { play: () => player.play() };
        cppLoaded = true;
      } catch (e) {
        throw describeThrown(e);
      }
      const out = log;
      log = '';
      return [name, game, out];
    },

    play(names, statusJson, ...arrays) {
      return playWith(names, statusJson, arrays);
    },

    playPacked(names, statusJson, layout, buffer) {
      if (layout !== lastLayout) {
        layoutParts = parse(layout) as [string, number, number][];
        lastLayout = layout;
      }
      return packResult(playWith(names, statusJson, viewArrays(buffer)));
    },

    drainLog() {
      const out = log;
      log = '';
      return out;
    },

    collectGarbage() {
      if (!gc) return false;
      gc();
      return true;
    },

    useSlot(next) {
      if (next === slot) return;
      saveSlot((slots[slot] ??= emptySlot()));
      restoreSlot((slots[next] ??= emptySlot()));
      slot = next;
    },

    freeSlot(which) {
      if (which === slot) restoreSlot(emptySlot());
      else slots[which] = undefined;
    },
  };
}
