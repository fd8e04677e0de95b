#!/usr/bin/env node
// Entry point of the `arbiter` command: the built src/cli/main.ts (dist/cli.js,
// rebuilt first when the sources changed), or the sources with ARBITER_FROM_SOURCE=1.
// `arbiter play` runs from a bundle of its own (bin/play.js), the same code in one script.
import module from 'node:module';
import { loadEntry, loadPlay } from './entry.js';

// V8's code cache of the modules a command loads, kept between runs (Node 22.1 and later; Node 20 has
// no such call and starts as before): a later `arbiter` skips compiling them again. A cache it
// cannot write is only not used.
module.enableCompileCache?.();

const [command, ...args] = process.argv.slice(2);
// `arbiter play --help` is main's (the usage of every command is there).
const play = command === 'play' && !args.some((a) => a === '--help' || a === '-h') ? await loadPlay() : null;
if (play) process.exitCode = await play.runCommand('play', play.playCommand, args);
else {
  const { main } = await loadEntry('cli');
  process.exitCode = await main(process.argv.slice(2));
}
