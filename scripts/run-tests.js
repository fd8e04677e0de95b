#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (Node 20 has no globs
// for --test). Pass paths or substrings to run a subset:
//   node scripts/run-tests.js moria sandbox
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = walk('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--no-node-snapshot', '--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
