// `npm run bench [part...]`: the speed and size figures the project tracks. Parts: games
// (engines, sandbox tax, call overhead), judge (gate latency, matches per
// minute), api (throughput and p99 latency of the API and the pages), web
// (page weight, the viewer's drawing time per game), recovery (seconds from
// each fault to every match recorded, with the default settings), tournament
// (a 64-player tournament's wall time with one and two match runners), cpp
// (C++ players: compile times, the C++ Demo's CPU, the per-call overhead),
// eval (arbiter eval over 100 Moria seeds against the original ./Game run 100 times),
// burst (a course's deadline: the split deployment, 250 uploads in 60 s, pollers,
// a worker killed midway; the time to every verdict, latencies, memory, consistency).
// `npm run bench games moria` runs one game. Without a part, each part runs in
// a process of its own: one part's warm caches, registered test games or
// leftover threads never reach the next one's figures.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PARTS = ['games', 'judge', 'api', 'web', 'recovery', 'tournament', 'cpp', 'cli', 'eval', 'burst'];
const [part, ...rest] = process.argv.slice(2);
if (!part) {
  let failed = 0;
  for (const name of PARTS) {
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    if (run.status !== 0) {
      failed++;
      console.log(`bench ${name}: failed (${run.signal ?? `exit code ${run.status}`})`);
    }
  }
  process.exit(failed ? 1 : 0);
}
const file = new URL(`./${part}.ts`, import.meta.url);
if (!existsSync(file)) {
  console.log(`bench ${part}: not present (parts: ${PARTS.join(', ')})`);
  process.exit(2);
}
console.log(`=== bench: ${part}`);
const mod = (await import(file.href)) as { run: (args?: string[]) => Promise<void> };
await mod.run(rest);
process.exit(0);
