#!/usr/bin/env node
// `node play.mjs ...` is `node arbiter.mjs play ...` (see arbiter.mjs): kept for the kits that said so.
process.argv.splice(2, 0, 'play');
await import('./arbiter.mjs');
