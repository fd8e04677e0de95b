// Structured logs: one JSON line per event (pino), the same format from every
// part (api, recorder, scheduler, worker), so an admin can grep a submission
// or a match id across processes. Parts receive a `Log` function, which keeps
// their code free of the logger and their tests free of output.
//
//   log('match done', { matchId: 12, kind: 'gate', durationMs: 4100 })

import { pino, type Logger } from 'pino';
import { readSettings, type LogLevel } from './config.ts';

export type LogFields = Record<string, unknown>;

/** What parts accept: a message and optional fields. Levels: see `level` in fields. */
export type Log = (message: string, fields?: LogFields & { level?: 'debug' | 'info' | 'warn' | 'error' }) => void;

export type { LogLevel };

let root: Logger | null = null;

/** The process's root logger (LOG_LEVEL, JSON on stdout). */
export function rootLogger(level?: LogLevel): Logger {
  root ??= pino({ level: level ?? readSettings(['logLevel']).logLevel, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
  return root;
}

/** A `Log` for one part of Arbiter: every line carries `part`. */
export function partLog(part: string, logger: Logger = rootLogger()): Log {
  const child = logger.child({ part });
  return (message, fields) => {
    const { level = 'info', ...rest } = fields ?? {};
    child[level](rest, message);
  };
}

/** Discards everything (tests). */
export const silentLog: Log = () => {};
