// Entry of /assets/play/worker.js: one bot of a play-page match, in a Web
// Worker of its own. It evaluates the game's prelude (src/sandbox/hosts/prelude.ts: the
// same bot runtime and API the judge's isolates get, Math.random seeded the
// same way) and the compiled bot, then answers one play() per message with
// the wall time it took (performance.now: a browser has no CPU clock).
//
// A C++ player arrives compiled by the judge (a wasm module); the prelude's
// runtime instantiates it with the judge's glue (src/sandbox/languages/cpp/cpp-player.ts).
//
// The worker is served with a policy of its own (script-src 'unsafe-eval'
// 'wasm-unsafe-eval', nothing else): it can evaluate the bot and compile its
// module, and the bot can reach no network.

import { unpackResult, type BotHandle } from '../../../sandbox/hosts/bot-runtime.ts';
import { describeError } from '../../../match/bot-host.ts';
import { parseArtifact } from '../../../sandbox/languages/artifact.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

// Captured before any bot code runs: a bot that replaces them only hurts its own answers.
const scope = globalThis as unknown as {
  addEventListener(type: 'message', f: (e: MessageEvent<WorkerRequest>) => void): void;
  postMessage(m: WorkerReply): void;
};
const post = scope.postMessage.bind(scope);
const now = performance.now.bind(performance);
// biome-ignore lint/security/noGlobalEval: this worker exists to run the bot's compiled code, in its own Web Worker
const evaluate = eval; // indirect: the bot sees globals only, not this module's scope

let handle: BotHandle | null = null;

function safeName(filename: string): string {
  return filename.replace(/[^\w.-]/g, '_').slice(0, 64) || 'bot.js';
}

scope.addEventListener('message', (e) => {
  const req = e.data;
  const start = now();
  if (req.kind === 'load') {
    try {
      const h = evaluate(`${req.prelude}\n//# sourceURL=prelude.js`) as BotHandle;
      h.setup(req.me, req.seed, req.logCapBytes, req.memoryMb);
      let loaded: [string, string, string];
      const artifact = parseArtifact(req.code);
      if (artifact.kind === 'wasm') {
        // A compiled module (a C++ player): the runtime instantiates it (cpp-player.ts), as in the judge's isolate.
        loaded = h.loadCpp(artifact.wasm.buffer as ArrayBuffer, artifact.name, artifact.game);
      } else {
        // Same shape as the isolate's (src/sandbox/hosts/isolate-host.ts): the bot's lines keep their numbers.
        const exportsOf = evaluate(`(function(){return ${artifact.code}\n})\n//# sourceURL=${safeName(req.filename)}`) as () => unknown;
        loaded = h.load(exportsOf);
      }
      const [name, game, log] = loaded;
      handle = h;
      post({ kind: 'load', ok: true, name, game, log, ms: now() - start });
    } catch (err) {
      post({ kind: 'load', ok: false, reason: 'compile', message: describeError(err), log: '', ms: now() - start });
    }
    return;
  }
  const h = handle;
  if (!h) {
    post({ kind: 'play', ok: false, reason: 'crash', message: 'bot not loaded', log: '', ms: 0 });
    return;
  }
  try {
    const result = unpackResult(h.playPacked(req.names, req.status, req.layout, req.buffer));
    if (!result) {
      post({ kind: 'play', ok: false, reason: 'output', message: 'the bot returned orders the judge cannot accept', log: '', ms: now() - start });
      return;
    }
    const [count, orders, log] = result;
    post({ kind: 'play', ok: true, count, orders, log, ms: now() - start });
  } catch (err) {
    const ms = now() - start;
    let log = '';
    try {
      log = h.drainLog();
    } catch {
      /* the bot broke its own runtime */
    }
    post({ kind: 'play', ok: false, reason: 'exception', message: describeError(err), log, ms });
  }
});
