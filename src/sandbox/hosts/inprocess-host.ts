// Bots as plain functions in a node:vm context of this process: no isolation
// worth the name and no way to stop an endless loop, so only for code we
// trust (built-in bots in tests, and the benchmark's baseline). Same prelude,
// same compiled bot, same protocol as the sandbox.
//
// A global lookup in a node:vm context goes through an interceptor and costs
// hundreds of times a lexical one (measured: 5e6 calls of a global function,
// 3.8 s against 21 ms), so the prelude and the bot are evaluated inside a
// function whose parameters bind every global of the context lexically.

import vm from 'node:vm';
import { parseArtifactForHost } from '../languages/artifact.ts';
import type { BotHandle } from './bot-runtime.ts';
import { MAX_ORDERS_JSON, cpuBudgetUsedUp } from '../../sdk/limits.ts';
import { cpuSinceMs, describeError, type BotHost, type LoadReply, type LoadRequest, type PlayReply, type PlayRequest } from '../../match/bot-host.ts';

export class InProcessBotHost implements BotHost {
  private handle: BotHandle | null = null;
  private readonly cpu: CpuAccount = { used: 0, budget: Infinity };

  async load(req: LoadRequest): Promise<LoadReply> {
    const start = process.cpuUsage();
    this.cpu.budget = req.cpuBudgetMs;
    const artifact = parseArtifactForHost(req.code);
    try {
      const context = vm.createContext({});
      const handle = runWithLexicalGlobals(context, req.prelude, 'prelude.js') as BotHandle;
      handle.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      let loaded: [string, string, string];
      switch (artifact.kind) {
        case 'wasm': {
          // A compiled module (trusted code only here, as everything in this host).
          const { wasm, name, game } = artifact;
          loaded = handle.loadCpp(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer, name, game);
          break;
        }
        case 'script':
          loaded = handle.load(runWithLexicalGlobals(context, artifact.code, req.filename));
          break;
      }
      const [name, game, log] = loaded;
      this.handle = handle;
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: true, name, game, log, cpuMs };
    } catch (err) {
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs };
    }
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.playSync(req);
  }

  playSync(req: PlayRequest): PlayReply {
    const handle = this.handle;
    if (!handle) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    return playInProcess(handle, req, this.cpu);
  }

  async close(): Promise<void> {
    this.handle = null;
  }
}

/** A bot's CPU time over its match, and its budget. */
export interface CpuAccount {
  used: number;
  budget: number;
}

/**
 * One play() of a bot in this process (node:vm), for this host and the built-in one: its CPU charged to
 * `cpu`, what comes back checked as the sandbox checks it. `takeLog` bounds the log (by default kept whole).
 */
export function playInProcess(handle: BotHandle, req: PlayRequest, cpu: CpuAccount, takeLog: (text: unknown) => string = keepLog): PlayReply {
  const start = process.cpuUsage();
  try {
    const [count, orders, log] = handle.play(req.names, req.status, ...req.arrays);
    const cpuMs = cpuSinceMs(start);
    cpu.used += cpuMs;
    if (cpu.used > cpu.budget) return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(cpu.budget), log: takeLog(log), cpuMs };
    if (typeof orders !== 'string' || orders.length > MAX_ORDERS_JSON || typeof count !== 'number')
      return { ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: takeLog(log), cpuMs };
    return { ok: true, count, orders, log: takeLog(log), cpuMs };
  } catch (err) {
    const cpuMs = cpuSinceMs(start);
    cpu.used += cpuMs;
    let log = '';
    try {
      log = handle.drainLog();
    } catch {
      /* the bot broke its own runtime */
    }
    return { ok: false, reason: 'exception', message: describeError(err), log: takeLog(log), cpuMs };
  }
}

const keepLog = (text: unknown): string => (typeof text === 'string' ? text : '');

const NOT_BINDABLE = new Set(['globalThis', 'eval', 'undefined', 'NaN', 'Infinity', 'arguments']);

/** Evaluates `expression` in `context` with every current global passed in as a parameter. */
export function runWithLexicalGlobals(context: vm.Context, expression: string, filename: string): unknown {
  const global = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(global).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !NOT_BINDABLE.has(n));
  const wrapper = vm.runInContext(`(function (${names.join(', ')}) { return ${expression}; })`, context, { filename }) as (...args: unknown[]) => unknown;
  return wrapper(...names.map((n) => global[n]));
}
