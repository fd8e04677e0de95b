#!/usr/bin/env node
// Entry point of every server process (npm start, npm run api|worker|recorder|scheduler):
// `node --no-node-snapshot bin/server.js [part...]` runs the built src/main.ts (dist/main.js,
// rebuilt first when the sources changed), or the sources with ARBITER_FROM_SOURCE=1.
import { loadEntry } from './entry.js';

const { cli } = await loadEntry('main');
try {
  await cli();
} catch (e) {
  console.error(`arbiter: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
