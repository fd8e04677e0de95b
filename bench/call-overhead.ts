// The per-call cost of one play() of a bot with the game's real view, shared
// by `npm run bench games` (isolate against in-process host) and `npm run
// bench cpp` (a C++ Null against a JavaScript Null).

import type { AnyGame } from '../src/sdk/types.ts';
import { LOG_CAP_BYTES } from '../src/sdk/limits.ts';
import { compileBot } from '../src/sandbox/languages/index.ts';
import { buildPrelude } from '../src/sandbox/hosts/prelude.ts';
import type { BotHost } from '../src/match/bot-host.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** What one call costs, microseconds. */
export interface CallCost {
  cpuUs: number;
  wallUs: number;
}

/** A bot to time: its host, its source and file name. */
export interface TimedBot {
  host: BotHost;
  source: string;
  filename: string;
}

/**
 * One play() of each bot loaded in its host, per call: CPU time (what the
 * host spends, whatever the machine's load) and wall time, medians of 15
 * batches of 300 after 200 warm-up calls each. The bots' batches take turns,
 * so what the process does in the background (its GC threads, a compile
 * finishing) falls on all of them alike, not on whichever ran first. A new
 * request every four calls, as in a match (the four bots of a round share
 * one). Closes the hosts.
 */
export async function callOverheads<T extends TimedBot[]>(game: AnyGame, bots: [...T], seed: number): Promise<{ [K in keyof T]: CallCost }> {
  const prelude = await buildPrelude(game);
  for (const bot of bots) {
    const reply = await bot.host.load({
      prelude,
      code: await compileBot(bot.source, bot.filename, game.id),
      filename: bot.filename,
      me: 0,
      seed,
      cpuBudgetMs: 600_000,
      memoryMb: 128,
      logCapBytes: LOG_CAP_BYTES,
    });
    if (!reply.ok) throw new Error(reply.message);
  }
  const view = game.encodeView(game.create(game.parseConfig({}), seed));
  const names = JSON.stringify(Object.keys(view));
  const arrays = Object.values(view);
  const calls = async (host: BotHost, n: number) => {
    let request = { names, status: '[0,0,0,0]', arrays };
    for (let i = 0; i < n; i++) {
      if (i % 4 === 0) request = { names, status: '[0,0,0,0]', arrays };
      await host.play(request);
    }
  };
  for (const bot of bots) await calls(bot.host, 200);
  const n = 300;
  const cpus: number[][] = bots.map(() => []);
  const walls: number[][] = bots.map(() => []);
  for (let b = 0; b < 15; b++) {
    for (const [k, bot] of bots.entries()) {
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await calls(bot.host, n);
      const d = process.cpuUsage(cpu);
      walls[k]!.push((ms(start) * 1000) / n);
      cpus[k]!.push((d.user + d.system) / n);
    }
  }
  for (const bot of bots) await bot.host.close();
  return bots.map((_, k) => ({ cpuUs: median(cpus[k]!), wallUs: median(walls[k]!) })) as { [K in keyof T]: CallCost };
}
