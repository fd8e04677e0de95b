// Messages between the play page's driver (worker-host.ts) and a bot's Web
// Worker (worker.ts).

import type { FreezeReason } from '../../../sdk/replay-format.ts';

export type WorkerRequest =
  | { kind: 'load'; prelude: string; code: string; filename: string; me: number; seed: number; logCapBytes: number; memoryMb: number }
  /** The view packed as the judge packs it (BotHandle.playPacked), so a bot's stack traces read the same. */
  | { kind: 'play'; names: string; status: string; layout: string; buffer: ArrayBuffer };

interface Failed {
  ok: false;
  reason: FreezeReason;
  message: string;
  log: string;
  /** Wall time of the call inside the worker, ms. */
  ms: number;
}

export type WorkerReply =
  | ({ kind: 'load' } & ({ ok: true; name: string; game: string; log: string; ms: number } | Failed))
  | ({ kind: 'play' } & ({ ok: true; count: number; orders: string; log: string; ms: number } | Failed));
