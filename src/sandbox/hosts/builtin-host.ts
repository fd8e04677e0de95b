// The match process's host for a seat: a shipped built-in player (the game's
// own Dummy, Demo or Null, whose compiled code the match process recognises,
// builtinCodes below) runs in a node:vm context of this process, as
// InProcessBotHost runs trusted code, so a call costs no isolate crossing;
// every other bot (an upload, a teacher's private player) runs in its isolate.
//
// A built-in's context stays warm between matches in this process (its
// prelude, its module and V8's optimised code), one per seat that uses it at
// a time. Each match still starts from nothing the last one left: the
// runtime's setup() resets every per-match state (seat, seed, generators,
// Math.random, log, view), the game's API rebuilds its state from each
// round's view, and load() makes a new instance of the player class; the
// built-ins keep nothing at their module's top level but constants.
//
// The same accounting as the isolate's: process.cpuUsage() around each call,
// the CPU budget checked after it, the same checks on what comes back, the
// log capped per seat. What it cannot do is stop an endless loop or measure a
// heap of its own: the judge's own players have neither.

import vm from 'node:vm';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { compileBot } from '../languages/index.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { parseArtifactForHost } from '../languages/artifact.ts';
import type { BotHandle } from './bot-runtime.ts';
import { MAX_NAME_CHARS } from '../../sdk/limits.ts';
import {
  cpuSinceMs,
  describeError,
  SandboxInfraError,
  type BotHost,
  type LoadReply,
  type LoadRequest,
  type PlayReply,
  type PlayRequest,
} from '../../match/bot-host.ts';
import { playInProcess, runWithLexicalGlobals, type CpuAccount } from './inprocess-host.ts';
import { IsolateBotHost, type IsolateHostOptions } from './isolate-host.ts';

/** Room for the runtime's "[log truncated]" line on top of the log cap (as the isolate's host). */
const LOG_SLACK = 256;
/** Warm contexts kept per built-in: a match's four seats and a few more. */
const WARM_PER_CODE = 6;

/** A built-in's context with its runtime and its module's exports, idle between matches. */
interface WarmVm {
  handle: BotHandle;
  exports: unknown;
}
const warmVms = new Map<string, WarmVm[]>();

/** Forgets every warm built-in context (tests). */
export function dropWarmBuiltins(): void {
  warmVms.clear();
}

/** Idle warm contexts kept (tests). */
export function warmBuiltinCount(): number {
  let n = 0;
  for (const list of warmVms.values()) n += list.length;
  return n;
}

export class BuiltinOrIsolateHost implements BotHost {
  private isolate: IsolateBotHost | null = null;
  private vm: WarmVm | null = null;
  private code = '';
  private clean = false;
  private readonly cpu: CpuAccount = { used: 0, budget: Infinity };
  private logLeft = 0;

  constructor(private readonly options: IsolateHostOptions & { builtins: ReadonlySet<string> }) {}

  async load(req: LoadRequest): Promise<LoadReply> {
    if (!this.options.builtins.has(req.code)) {
      this.isolate = new IsolateBotHost(this.options);
      return this.isolate.load(req);
    }
    const start = process.cpuUsage();
    this.cpu.budget = req.cpuBudgetMs;
    this.logLeft = req.logCapBytes + LOG_SLACK;
    this.code = req.code;
    try {
      const warm = warmVms.get(req.code)?.pop() ?? this.coldVm(req);
      warm.handle.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      const [name, game, log] = warm.handle.load(warm.exports);
      this.vm = warm;
      this.clean = true;
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: true, name: String(name).slice(0, MAX_NAME_CHARS), game: String(game).slice(0, MAX_NAME_CHARS), log: this.takeLog(log), cpuMs };
    } catch (err) {
      if (err instanceof SandboxInfraError) throw err;
      const cpuMs = cpuSinceMs(start);
      this.cpu.used += cpuMs;
      return { ok: false, reason: 'compile', message: describeError(err), log: '', cpuMs };
    }
  }

  /** A new context for a built-in: the prelude, then its module evaluated once (its exports are what each match loads). */
  private coldVm(req: LoadRequest): WarmVm {
    const artifact = parseArtifactForHost(req.code);
    if (artifact.kind !== 'script') throw new SandboxInfraError('a shipped built-in player is a script');
    const context = vm.createContext({});
    const handle = runWithLexicalGlobals(context, req.prelude, 'prelude.js') as BotHandle;
    const factory = runWithLexicalGlobals(context, artifact.code, req.filename);
    return { handle, exports: typeof factory === 'function' ? (factory as () => unknown)() : factory };
  }

  async play(req: PlayRequest): Promise<PlayReply> {
    return this.playSync(req);
  }

  playSync(req: PlayRequest): PlayReply {
    if (this.isolate) return this.isolate.playSync(req);
    const reply = this.playVm(req);
    if (!reply.ok) this.clean = false;
    return reply;
  }

  private playVm(req: PlayRequest): PlayReply {
    const handle = this.vm?.handle;
    if (!handle) return { ok: false, reason: 'crash', message: 'bot not loaded', log: '', cpuMs: 0 };
    return playInProcess(handle, req, this.cpu, (text) => this.takeLog(text));
  }

  private takeLog(text: unknown): string {
    const s = typeof text === 'string' ? text : '';
    const out = s.length > this.logLeft ? s.slice(0, this.logLeft) : s;
    this.logLeft -= out.length;
    return out;
  }

  /** A built-in whose match went cleanly leaves its context warm for its next match; one that failed, never. */
  async close(): Promise<void> {
    if (this.isolate) return this.isolate.close();
    const warm = this.vm;
    this.vm = null;
    if (!warm || !this.clean) return;
    let list = warmVms.get(this.code);
    if (!list) warmVms.set(this.code, (list = []));
    if (list.length < WARM_PER_CODE) list.push(warm);
  }
}

/**
 * The compiled code of each game's shipped built-in players, compiled here
 * once per game: a seat whose code is one of them is the judge's own code and
 * runs in a warm node:vm context of the process that plays the match (the match process; the CLI
 * when every seat is one), not an isolate.
 */
const builtinCodeSets = new Map<AnyGame, Promise<ReadonlySet<string>>>();
export function builtinCodes(game: AnyGame): Promise<ReadonlySet<string>> {
  let codes = builtinCodeSets.get(game);
  if (!codes) {
    codes = Promise.all(
      Object.values(game.bots.builtin).map(async (path) => {
        try {
          return await compileBot(await readFile(path, 'utf8'), basename(path), game.id);
        } catch {
          // Not compiled here (a missing file, esbuild gone): that built-in runs as any bot does.
          return null;
        }
      }),
    ).then((list) => new Set(list.filter((c): c is string => c !== null)));
    builtinCodeSets.set(game, codes);
  }
  return codes;
}
