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
  private used = 0;
  private budget = Infinity;

  async load(req: LoadRequest): Promise<LoadReply> {
    const start = process.cpuUsage();
    this.budget = req.cpuBudgetMs;
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
      this.used += cpuMs;
      return { ok: true, name, game, log, cpuMs };
    } catch (err) {
      const cpuMs = cpuSinceMs(start);
      this.used += cpuMs;
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs };
    }
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    const handle = this.handle;
    if (!handle) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    const start = process.cpuUsage();
    try {
      const [count, orders, log] = handle.play(req.names, req.status, ...req.arrays);
      const cpuMs = cpuSinceMs(start);
      this.used += cpuMs;
      if (this.used > this.budget) return { ok: false, reason: 'cpu', message: cpuBudgetUsedUp(this.budget), log, cpuMs };
      if (orders.length > MAX_ORDERS_JSON) return { ok: false, reason: 'output', message: 'orders too large', log, cpuMs };
      return { ok: true, count, orders, log, cpuMs };
    } catch (err) {
      const cpuMs = cpuSinceMs(start);
      this.used += cpuMs;
      let log = '';
      try {
        log = handle.drainLog();
      } catch {
        /* the bot broke its own runtime */
      }
      return { ok: false, reason: 'exception', message: describeError(err), log, cpuMs };
    }
  }

  async close(): Promise<void> {
    this.handle = null;
  }
}

const NOT_BINDABLE = new Set(['globalThis', 'eval', 'undefined', 'NaN', 'Infinity', 'arguments']);

/** Evaluates `expression` in `context` with every current global passed in as a parameter. */
export function runWithLexicalGlobals(context: vm.Context, expression: string, filename: string): unknown {
  const global = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(global).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !NOT_BINDABLE.has(n));
  const wrapper = vm.runInContext(`(function (${names.join(', ')}) { return ${expression}; })`, context, { filename }) as (...args: unknown[]) => unknown;
  return wrapper(...names.map((n) => global[n]));
}
