// The running server's local door for the commands run on its machine
// (`arbiter admin`, `backup`, `similarity`) while it holds the embedded
// database: PGlite serves one process, so the command asks that process to
// run it on its open database. A Unix socket in DATA_DIR/control (folder
// 0700, socket 0600): whoever may read the database's own files may use it,
// nobody else. One JSON line each way: the command and its arguments; the
// exit code and what the command printed. A client that has not sent its
// line within IDLE_MS is closed, and at most MAX_CLIENTS are served at once
// (the others get a refusal), so idle connections cannot pile up. `backup`
// writes where the CLI says when it says it absolutely (it always does), and
// a relative path only under DATA_DIR, never the server's working folder.

import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/client.ts';

/** Where a command's lines go: the terminal, or the control socket's reply. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Set while the running server executes a command for the control socket: its open database and the reply's output. */
export const serverCommandContext = new AsyncLocalStorage<{ db: Db; io: CommandOutput }>();

/** Runs one `arbiter` command by name (src/cli/main.ts's table), as the terminal would. */
export type RunCommand = (command: string, args: string[]) => Promise<number>;

export interface ControlRequest {
  command: string;
  args: string[];
}

export interface ControlReply {
  code: number;
  stdout: string;
  stderr: string;
}

/** The commands a running server runs for its socket (restore is not one: it replaces the database under the server). */
const SERVED = ['admin', 'backup', 'similarity'] as const;
const MAX_REQUEST_BYTES = 64 * 1024;
/** How long a client may take to send its request line. */
export const CONTROL_IDLE_MS = 10_000;
/** Clients served at once (a command runs meanwhile); more get a refusal. */
export const CONTROL_MAX_CLIENTS = 8;

export function controlSocketPath(dataDir: string): string {
  return join(resolve(dataDir), 'control', 'arbiter.sock');
}

/** Serves the control socket for the process that holds the embedded database. */
export async function serveControl(
  dataDir: string,
  db: Db,
  run: RunCommand,
  log: (line: string) => void,
  limits: { idleMs?: number; maxClients?: number } = {},
): Promise<{ close(): Promise<void> }> {
  const idleMs = limits.idleMs ?? CONTROL_IDLE_MS;
  const maxClients = limits.maxClients ?? CONTROL_MAX_CLIENTS;
  const path = controlSocketPath(dataDir);
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  chmodSync(join(path, '..'), 0o700);
  // Left by a server that was killed: this process holds the database's lock, so no other server listens there.
  rmSync(path, { force: true });
  let clients = 0;
  const server: Server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    if (clients >= maxClients) {
      const busy: ControlReply = { code: 1, stdout: '', stderr: `arbiter: the server is running ${clients} other commands: try again in a moment\n` };
      socket.end(JSON.stringify(busy) + '\n');
      return;
    }
    clients++;
    socket.once('close', () => clients--);
    // Until the request line arrives: a command that then runs for long (a backup) is not cut.
    socket.setTimeout(idleMs, () => socket.destroy());
    let input = '';
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > MAX_REQUEST_BYTES) return void socket.destroy();
      const end = input.indexOf('\n');
      if (end < 0) return;
      socket.pause();
      socket.setTimeout(0);
      void answer(input.slice(0, end), dataDir, db, run).then((reply) => socket.end(JSON.stringify(reply) + '\n'));
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  chmodSync(path, 0o600);
  log(`control socket: ${path} (arbiter admin, backup and similarity run here while this process holds the database)`);
  return {
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        rmSync(path, { force: true });
      }),
  };
}

/** A backup's file as the server writes it: an absolute path as given, a relative one under DATA_DIR (never outside it). */
export function backupTarget(dataDir: string, given: string): string {
  if (isAbsolute(given)) return given;
  const root = resolve(dataDir);
  const file = resolve(root, given);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new Error(`a backup's relative path is written under DATA_DIR (${root}): "${given}" leads outside it (give an absolute path)`);
  return file;
}

async function answer(line: string, dataDir: string, db: Db, run: RunCommand): Promise<ControlReply> {
  let stdout = '';
  let stderr = '';
  const io = { out: (l: string) => void (stdout += l + '\n'), err: (l: string) => void (stderr += l + '\n') };
  try {
    const req = JSON.parse(line) as ControlRequest;
    if (!req || typeof req.command !== 'string' || !Array.isArray(req.args) || !req.args.every((a) => typeof a === 'string'))
      throw new Error('a malformed request');
    if (!(SERVED as readonly string[]).includes(req.command)) return { code: 2, stdout, stderr: `arbiter ${req.command}: not run by a running server\n` };
    // The CLI sends a backup's path absolute (its own working folder's); anything else lands under DATA_DIR.
    const args = req.command === 'backup' ? req.args.map((a) => (a.startsWith('-') ? a : backupTarget(dataDir, a))) : req.args;
    const code = await serverCommandContext.run({ db, io }, () => run(req.command, args));
    return { code, stdout, stderr };
  } catch (err) {
    const e = err as Error;
    return { code: e.name === 'UsageError' ? 2 : 1, stdout, stderr: `${stderr}arbiter: ${e.message}\n` };
  }
}

/** Has the server that holds the embedded database run the command; null when no server answers on its socket. */
export async function askRunningServer(dataDir: string, req: ControlRequest): Promise<ControlReply | null> {
  const path = controlSocketPath(dataDir);
  return new Promise((done) => {
    let input = '';
    const socket = createConnection(path);
    socket.setEncoding('utf8');
    socket.on('error', () => done(null));
    socket.on('connect', () => socket.write(JSON.stringify(req) + '\n'));
    socket.on('data', (c: string) => (input += c));
    socket.on('end', () => {
      try {
        done(JSON.parse(input) as ControlReply);
      } catch {
        done(null);
      }
    });
  });
}
