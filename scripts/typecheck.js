#!/usr/bin/env node
// Type-checks Arbiter itself, then each game's bots against that game's
// player.d.ts (bots see the API as globals, so every game needs its own program),
// and the browser code (src/http/client, each game's viewer.ts) with DOM types.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const tsc = join('node_modules', '.bin', 'tsc');
const projects = ['.', join('src', 'http', 'client', 'tsconfig.json'), join('src', 'http', 'client', 'play', 'tsconfig.json')];
// The project's games, and the test games that prove a game needs nothing but its folder.
for (const root of [join('src', 'games'), join('test', 'fixtures', 'games')]) {
  for (const game of readdirSync(root)) {
    const bots = join(root, game, 'bots', 'tsconfig.json');
    if (existsSync(bots)) projects.push(bots);
  }
}
let failed = false;
for (const project of projects) {
  const r = spawnSync(tsc, ['-p', project], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`typecheck failed: ${project}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
