// node --test's spec and tap reporters (scripts/run-tests.js passes this module as
// `--test-reporter=<url>?spec` and `?tap`) with the test files named by their sources: the runner
// runs each test/<path>.test.ts as its bundle, <ARBITER_TEST_BUNDLE>/test/<path>.test.js
// (scripts/build.js's buildTests), and every path of a bundle in an event (a file's name, a
// failure's location and stack) is written back as test/<path>.test.ts, so the report reads as if
// the sources ran.
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const bundle = process.env.ARBITER_TEST_BUNDLE;
const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The bundle's folder as an absolute path (file names, stacks) or in a file URL; its test files back to test/<path>.ts.
const BUNDLED = bundle ? new RegExp(`(?:file://)?${escaped(bundle)}/(test/[^\\s:'"()]*?)\\.js\\b`, 'g') : null;
const toSource = (s) => s.replace(BUNDLED, (_, path) => path + '.ts');

/** `value` with every string in it (an event's fields, an error's message and stack) named by the sources. */
function named(value, depth = 0, seen = new Set()) {
  if (typeof value === 'string') return toSource(value);
  if (value === null || typeof value !== 'object' || depth > 8 || seen.has(value)) return value;
  seen.add(value);
  for (const key of Object.getOwnPropertyNames(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (!d || !('value' in d) || !d.writable) continue;
    const v = named(d.value, depth + 1, seen);
    if (v !== d.value) value[key] = v;
  }
  return value;
}

async function* sourceNamed(source) {
  for await (const event of source) yield BUNDLED ? named(event) : event;
}

const kind = new URL(import.meta.url).search.slice(1);

export default async function* report(source) {
  if (kind === 'tap') yield* tap(sourceNamed(source));
  else yield* Readable.from(sourceNamed(source)).pipe(new spec());
}
