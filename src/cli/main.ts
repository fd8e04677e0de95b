// The `arbiter` command. Each subcommand is a function from its arguments to
// an exit code; bad input is one line on stderr and a non-zero exit.

// Each command's module is loaded when it runs: `arbiter --help` (and every
// command) loads only what it uses, not the judge, the database or the server.

import { runCommand } from './run-command.ts';

type Command = { run: (args: string[]) => Promise<number>; help: string };

export const commands: Record<string, Command> = {
  play: {
    run: async (args) => (await import('./play.ts')).playCommand(args),
    help: 'play <game> <p1> <p2> <p3> <p4> [--seed N] [-o match.json.gz] [--set key=value or key=@file]...   (play --list)',
  },
  verify: {
    run: async (args) => (await import('./verify.ts')).verifyCommand(args),
    help: "verify <match.json[.gz]> | <replays.zip>   re-run the engine and check every recorded state; a tournament's replays.zip: every match re-run, each seed and draw redone from the published tournament seed, the bracket and standings rebuilt from the results (exit 1: something differs, named; 3: recorded under another engine version)",
  },
  view: {
    run: async (args) => (await import('./view.ts')).viewCommand(args),
    help: 'view <match.json[.gz]> [--port N] [--host H] [--no-open]   watch a replay in the browser',
  },
  admin: {
    run: async (args) => (await import('./admin.ts')).adminCommand(args),
    help: 'admin grant|revoke <username>   on the server (DATABASE_URL or DATA_DIR; a running npm start does it for you): make a registered user an admin, or no longer one (recorded in the audit)',
  },
  similarity: {
    run: async (args) => (await import('./similarity.ts')).similarityCommand(args),
    help: "similarity report <game> | import <folder or .zip> --term <term> --game <game>   on the server: compute the plagiarism report (admins see it at /admin/similarity), or import a previous term's bots",
  },
  backup: {
    run: async (args) => (await import('./backup.ts')).backupCommand(args),
    help: 'backup <file>   on the server (a running npm start writes it): one consistent archive of the database (users, submissions, matches, replays), mode 0600',
  },
  restore: {
    run: async (args) => (await import('./backup.ts')).restoreCommand(args),
    help: 'restore <file> [--force]   into an empty database (DATABASE_URL or DATA_DIR); --force replaces what is there',
  },
  'new-game': {
    run: async (args) => (await import('./new-game.ts')).newGameCommand(args),
    help: 'new-game <id> [--title "..."] [--dir <folder of games>]   write a playable skeleton game (rules, settings, view, bot API, player.d.ts, Null/Demo/Dummy, viewer, statements, golden-test stub) into src/games/<id>/ or <folder>/<id>/',
  },
  submit: {
    run: async (args) => (await import('./submit.ts')).submitCommand(args),
    help: 'submit <bot.ts> [--game <id>]   upload to the server (ARBITER_URL, ARBITER_TOKEN) and follow the Dummy gate',
  },
  eval: {
    run: async (args) => (await import('./eval.ts')).evalCommand(args),
    help: 'eval <game> <bot> [<p2> <p3> <p4>] [--seeds 1-100 | 3,7,9] [--json]   many seeds: wins, CPU, freezes',
  },
  tokens: {
    run: async (args) => (await import('./tokens.ts')).tokensCommand(args),
    help: 'tokens [list] | revoke <id>   my API tokens on the server (ARBITER_URL, ARBITER_TOKEN): each with when it was made and last used; revoke one',
  },
};

function usage(): string {
  return [
    'usage: arbiter <command> ...',
    '',
    ...Object.entries(commands).map(([name, c]) => `  arbiter ${c.help.startsWith(name) ? c.help : `${name} ${c.help}`}`),
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  // `arbiter <command> [subcommand] --help`: the command's own usage, whatever else is given.
  if (command && rest.some((a) => a === '--help' || a === '-h')) {
    console.log(`usage: arbiter ${command.help.startsWith(name) ? command.help : `${name} ${command.help}`}`);
    return 0;
  }
  if (!command) {
    console.error(`arbiter: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')}; arbiter --help)`);
    return 2;
  }
  return runCommand(name, command.run, rest);
}
