// A line that counts the seconds of something slow the command waits for (a
// C++ compile: seconds, a minute on a loaded judge), so the wait is not
// silence. On a terminal it rewrites itself every second ("compiling
// AIFoo.cc… 3 s") and is cleared at the end; elsewhere (a pipe, a CI log) it
// is written once.

const TICK_MS = 1000;

export async function withElapsed<T>(out: NodeJS.WriteStream, text: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const tty = out.isTTY === true;
  const show = () => out.write(`\r\x1b[2K${text} ${Math.floor((Date.now() - started) / 1000)} s`);
  let timer: NodeJS.Timeout | undefined;
  if (tty) {
    show();
    timer = setInterval(show, TICK_MS);
  } else out.write(`${text}\n`);
  try {
    return await work();
  } finally {
    if (timer) clearInterval(timer);
    if (tty) out.write('\r\x1b[2K');
  }
}
