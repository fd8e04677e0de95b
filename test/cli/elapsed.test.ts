// The line that counts a slow compile's seconds (arbiter submit and arbiter
// play of a .cc): rewritten every second on a terminal and cleared at the
// end, written once elsewhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { withElapsed } from '../../src/cli/elapsed.ts';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, write: (s: string) => void written.push(s) } as unknown as NodeJS.WriteStream };
}

test("on a terminal the line counts the seconds, then is cleared; the work's value comes back", async () => {
  const { written, out } = stream(true);
  const value = await withElapsed(out, 'compiling AIFoo.cc…', async () => {
    await sleep(2300);
    return 42;
  });
  assert.equal(value, 42);
  assert.equal(written[0], '\r\x1b[2Kcompiling AIFoo.cc… 0 s');
  assert.ok(written.includes('\r\x1b[2Kcompiling AIFoo.cc… 1 s'), JSON.stringify(written));
  assert.ok(written.includes('\r\x1b[2Kcompiling AIFoo.cc… 2 s'), JSON.stringify(written));
  assert.equal(written.at(-1), '\r\x1b[2K', 'cleared at the end');
});

test('elsewhere (a pipe, a log) the line is written once; a failure still ends it', async () => {
  const { written, out } = stream(false);
  await assert.rejects(
    withElapsed(out, 'compiling AIBad.cc…', async () => {
      await sleep(1200);
      throw new Error('does not compile');
    }),
    /does not compile/,
  );
  assert.deepEqual(written, ['compiling AIBad.cc…\n']);
});
