#!/usr/bin/env node
// The registry these machines reach serves msgpackr-extract's native builds
// for linux only, so `npm install` writes a lock that lists the other
// platforms' optional packages without entries for them, and `npm ci` then
// refuses the lock. This drops optional dependencies that have no entry in
// the lock (run it after `npm install` changes package-lock.json).
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const present = new Set(Object.keys(lock.packages).map((p) => p.replace(/^.*node_modules\//, '')));
let dropped = 0;
for (const entry of Object.values(lock.packages)) {
  const optional = entry.optionalDependencies;
  if (!optional) continue;
  for (const name of Object.keys(optional)) {
    if (!present.has(name)) {
      delete optional[name];
      dropped++;
    }
  }
}
writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log(`dropped ${dropped} optional dependencies that the registry does not serve`);
