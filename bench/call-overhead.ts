// The per-call cost of one play() of a bot with the game's real view, shared
// by `npm run bench games` (isolate against in-process host) and `npm run
// bench cpp` (a C++ Null against a JavaScript Null).

import type { AnyGame } from '../src/game-kit/types.ts';
import { LOG_CAP_BYTES } from '../src/limits.ts';
import { compileBot } from '../sandbox/compile.ts';
import { buildPrelude } from '../sandbox/prelude.ts';
import type { BotHost } from '../sandbox/host.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * One play() of the bot (source, filename) loaded in host, per call: CPU time
 * (what the host spends, whatever the machine's load) and wall time, medians
 * of 7 batches of 500 after 200 warm-up calls. A new request every four calls,
 * as in a match (the four bots of a round share one). Closes the host.
 */
export async function callOverhead(
  game: AnyGame,
  host: BotHost,
  source: string,
  filename: string,
  seed: number,
): Promise<{ cpuUs: number; wallUs: number }> {
  const reply = await host.load({
    prelude: await buildPrelude(game),
    code: await compileBot(source, filename, game.id),
    filename,
    me: 0,
    seed,
    cpuBudgetMs: 600_000,
    memoryMb: 128,
    logCapBytes: LOG_CAP_BYTES,
  });
  if (!reply.ok) throw new Error(reply.message);
  const view = game.encodeView(game.create(game.parseConfig({}), seed));
  const names = JSON.stringify(Object.keys(view));
  const arrays = Object.values(view);
  let request = { names, status: '[0,0,0,0]', arrays };
  const call = async (i: number) => {
    if (i % 4 === 0) request = { names, status: '[0,0,0,0]', arrays };
    await host.play(request);
  };
  for (let i = 0; i < 200; i++) await call(i);
  const n = 500;
  const cpus: number[] = [];
  const walls: number[] = [];
  for (let b = 0; b < 7; b++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await call(i);
    const d = process.cpuUsage(cpu);
    walls.push((ms(start) * 1000) / n);
    cpus.push((d.user + d.system) / n);
  }
  await host.close();
  return { cpuUs: median(cpus), wallUs: median(walls) };
}
