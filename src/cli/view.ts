// `arbiter view`: watch a local replay in the browser. Checks the file here
// first (a bad file is a one-line error, not a broken page), then serves the
// viewer and the file until interrupted.

import { spawn } from 'node:child_process';
import { decodeReplay, readReplayFile } from '../match/replay-io.ts';
import { parseCommandArgs, UsageError } from './args.ts';

export async function viewCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'no-open': { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('which replay? arbiter view <match.json[.gz]> [--port N] [--host H] [--no-open]');
  const file = positionals[0]!;
  const port = values.port === undefined ? 0 : parsePort(values.port);
  const host = values.host ?? '127.0.0.1';

  let data: Buffer;
  try {
    data = readReplayFile(file);
  } catch (err) {
    if ((err as Error).name === 'ReplayFormatError') throw err;
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
  const replay = decodeReplay(data);

  // Loaded here, not at the top: the other commands need no web server.
  const { startViewServer } = await import('../http/view-server.ts');
  let server;
  try {
    server = await startViewServer({ file, data, port, host });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? 'the port is in use' : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' ? 'no such address here' : e.message;
    throw new UsageError(`cannot listen on ${host}:${port}: ${why}`);
  }
  console.log(`${replay.title}, seed ${replay.seed}, ${replay.rounds.length - 1} rounds: ${replay.players.map((p) => p.name).join(', ')}`);
  console.log(`viewer at ${server.url}`);
  console.log('press Ctrl+C to stop');
  if (!values['no-open']) openBrowser(server.url);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > 65535) throw new UsageError(`bad port "${text}": a whole number from 0 to 65535 (0 = any free port)`);
  return n;
}

/** Best effort: a missing or failing opener only means the user opens the printed URL. */
function openBrowser(url: string) {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    // cmd's start takes the window title first, hence the empty "".
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true, windowsVerbatimArguments: process.platform === 'win32' });
    child.on('error', () => console.log(`(no ${cmd} here: open the URL above in a browser)`));
    child.unref();
  } catch {
    console.log('(could not start a browser: open the URL above)');
  }
}
