// A node:test reporter for scripts/run-tests.js: per test file, the sum of its top-level
// tests' durations (tests in a file run one after another), one JSON line per file.
export default async function* fileTimes(source) {
  const times = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      times.set(event.data.file, (times.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  for (const [file, ms] of times) yield `${JSON.stringify({ file, ms })}\n`;
}
