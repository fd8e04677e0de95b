// MatchRun calls a host's playSync where the host has one (node:vm built-ins, isolates, in-process: no
// promise turn per bot call) and play() where it has only that (the play page's Web Workers), and both
// kinds of host give the same match.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MatchRun } from '../../src/match/match-run.ts';
import type { BotHost, LoadReply, PlayReply, PlayRequest } from '../../src/match/bot-host.ts';
import { getGame } from '../../src/games/registry.ts';
import { resolveLimits } from '../../src/sdk/limits.ts';

/** A bot that gives no orders and logs its call's number, answering on play() only (as a Web Worker's host). */
class AsyncHost implements BotHost {
  calls = { sync: 0, async: 0 };
  async load(): Promise<LoadReply> {
    return { ok: true, name: 'Counter', game: 'moria', log: '', cpuMs: 0 };
  }
  protected reply(): PlayReply {
    return { ok: true, count: 0, orders: '[]', log: `call ${this.calls.sync + this.calls.async}\n`, cpuMs: 1 };
  }
  async play(_req: PlayRequest): Promise<PlayReply> {
    this.calls.async++;
    return this.reply();
  }
  async close(): Promise<void> {}
}

/** The same bot answering on playSync too; its play() is never to be called. */
class SyncHost extends AsyncHost {
  override async play(_req: PlayRequest): Promise<PlayReply> {
    throw new Error('play() called on a host that answers synchronously');
  }
  playSync(_req: PlayRequest): PlayReply {
    this.calls.sync++;
    return this.reply();
  }
}

async function play(sync: boolean[]) {
  const game = await getGame('moria');
  const hosts = sync.map((s) => (s ? new SyncHost() : new AsyncHost()));
  const seats = sync.map((_, me) => ({ source: '', filename: `bot${me}.js` }));
  const spec = { game: 'moria', seed: 3, config: { nb_rounds: 5 }, seats, limits: resolveLimits(game.defaultLimits, {}) };
  const run = new MatchRun(game, spec, spec.seed, {
    host: (me) => hosts[me]!,
    prelude: async () => '',
    declaredName: () => null,
    compile: async () => ({ code: 'bot' }),
    mapPositions: (_seat, _filename, message) => message,
  });
  return { outcome: await run.playOut(), hosts };
}

test('a host with playSync is called through it, one without through play(), and the match is the same', async () => {
  const mixed = await play([true, false, true, false]);
  assert.deepEqual(
    mixed.hosts.map((h) => h.calls),
    [
      { sync: 5, async: 0 },
      { sync: 0, async: 5 },
      { sync: 5, async: 0 },
      { sync: 0, async: 5 },
    ],
  );
  const asyncOnly = await play([false, false, false, false]);
  assert.deepEqual(asyncOnly.outcome.logs, mixed.outcome.logs);
  assert.deepEqual(
    asyncOnly.outcome.replay.rounds.map((r) => [r.orders, r.cpuMs, r.frozen]),
    mixed.outcome.replay.rounds.map((r) => [r.orders, r.cpuMs, r.frozen]),
  );
  assert.ok(mixed.outcome.replay.players.every((p) => p.frozenReason === null));
});
