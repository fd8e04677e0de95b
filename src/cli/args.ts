// What every `arbiter` command shares for its arguments, apart from
// main.ts so that the commands and the dispatcher do not import each other.

import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command's flags and positionals; an unknown or malformed flag is a UsageError (one line, exit 2). */
export function parseCommandArgs<O extends ParseArgsConfig['options'] & object>(args: string[], options: O) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
