#!/usr/bin/env node
// Entry point of the `arbiter` command: the built src/cli/main.ts (dist/cli.js,
// rebuilt first when the sources changed), or the sources with ARBITER_FROM_SOURCE=1.
import { loadEntry } from './entry.js';

const { main } = await loadEntry('cli');
process.exitCode = await main(process.argv.slice(2));
