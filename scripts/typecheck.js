#!/usr/bin/env node
// Type-checks Arbiter itself, then each game's bots against that game's
// player.d.ts (bots see the API as globals, so every game needs its own program),
// and the browser code (src/http/client, each game's viewer.ts) with DOM types.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const tsc = join('node_modules', '.bin', 'tsc');
const projects = ['.', join('src', 'http', 'client', 'tsconfig.json'), join('src', 'http', 'client', 'play', 'tsconfig.json')];
// The project's games, and the test games that prove a game needs nothing but its folder.
for (const root of [join('src', 'games'), join('test', 'fixtures', 'games')]) {
  for (const game of readdirSync(root)) {
    const bots = join(root, game, 'bots', 'tsconfig.json');
    if (existsSync(bots)) projects.push(bots);
  }
}
// Each tsc is one thread: as many at once as cores, so npm test's first step does not leave a core idle.
let failed = false;
const queue = [...projects];
async function lane() {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    const child = spawn(tsc, ['-p', project], { stdio: 'inherit' });
    const code = await new Promise((done) => child.on('close', (c) => done(c)));
    if (code !== 0) {
      console.error(`typecheck failed: ${project}`);
      failed = true;
    }
  }
}
await Promise.all(Array.from({ length: Math.min(projects.length, availableParallelism()) }, lane));
process.exit(failed ? 1 : 0);
