// A command run as `arbiter` runs it: its exit code, or the one line on stderr that a user's mistake
// (exit 2) or the machinery's failure (exit 1) gets. src/cli/main.ts runs every command through it, and
// `arbiter play`'s own bundle (scripts/build.js, bin/play.js) runs play through it.

/** Errors of the user's input: their message and exit 2. */
const USER_ERRORS = [
  'ConfigError',
  'UsageError',
  'UnknownGameError',
  'UnknownPlayerError',
  'GameConfigError',
  'MatchSpecError',
  'ReplayFormatError',
  'BotCompileError',
];

export async function runCommand(name: string, run: (args: string[]) => Promise<number>, args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (err) {
    const e = err as Error;
    if (USER_ERRORS.includes(e.name) || (e as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error(`arbiter ${name}: ${e.message}`);
      return 2;
    }
    // The machinery failed (no compiler, a sandbox process killed from outside): not the user's input, so exit 1.
    if (e.name === 'CompileInfraError' || e.name === 'SandboxInfraError') {
      console.error(`arbiter ${name}: ${e.message}`);
      return 1;
    }
    throw err;
  }
}
