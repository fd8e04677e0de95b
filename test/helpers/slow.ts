// Statistical tests (bot strength over many whole matches) are slow: they run
// when ARBITER_SLOW_TESTS=1 (CI sets it; `npm run test:all`), not in the
// quick loop of `npm test`.

export const slow = {
  skip: process.env['ARBITER_SLOW_TESTS'] === '1' ? false : 'statistical and slow: ARBITER_SLOW_TESTS=1 runs it (CI does)',
} as const;
