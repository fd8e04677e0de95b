// `npm run bench [part...]`: the speed and size figures the project tracks. Parts: games
// (engines, sandbox tax, call overhead), judge (gate latency, matches per
// minute), api (throughput and p99 latency of the API and the pages), web
// (page weight, the viewer's drawing time per game), recovery (seconds from
// each fault to every match recorded, with the default settings), tournament
// (a 64-player tournament's wall time with one and two match runners), cpp
// (C++ players: compile times, the C++ Demo's CPU, the per-call overhead).
// `npm run bench games moria` runs one game.
import { existsSync } from 'node:fs';

const [part, ...rest] = process.argv.slice(2);
const parts = part ? [part] : ['games', 'judge', 'api', 'web', 'recovery', 'tournament', 'cpp'];
for (const name of parts) {
  const file = new URL(`./${name}.ts`, import.meta.url);
  if (!existsSync(file)) {
    console.log(`bench ${name}: not present`);
    continue;
  }
  console.log(`=== bench: ${name}`);
  const mod = (await import(file.href)) as { run: (args?: string[]) => Promise<void> };
  await mod.run(rest);
}
process.exit(0);
