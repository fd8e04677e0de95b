// `arbiter submit my-bot.ts [--game moria]`: uploads a bot to an Arbiter
// server, follows the Dummy gate live (server-sent events) with a progress
// line, and prints the verdict, the gate matches' results and replay links.
//
// Server and token: --url/--token, else ARBITER_URL / ARBITER_TOKEN, else
// ~/.config/arbiter.json ({"url": "...", "token": "..."}; $XDG_CONFIG_HOME is
// honoured). Get a token with POST /api/tokens {username, password}.
//
// Exit codes: 0 qualified (or submitted, with --no-follow), 1 rejected or a
// server/network error, 2 bad input (usage, missing file, refused upload).

import { readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { BOT_FILE_KINDS, isUploadFilename, languageOf } from '../sandbox/languages/index.ts';
import { submitAndFollow, SubmitError, type Site } from '../http/starter-kit/shared-commands.ts';
import { readClientSettings, type Env } from '../config.ts';

const USAGE = 'usage: arbiter submit <bot.ts|bot.js> [--game <id>] [--url <server>] [--token <token>] [--no-follow]';

export function configPath(env?: Env): string {
  return join(readClientSettings(env).configHome ?? join(homedir(), '.config'), 'arbiter.json');
}

export function clientConfig(flags: { url?: string | undefined; token?: string | undefined }, env?: Env): Site {
  let file: Partial<Site> = {};
  const path = configPath(env);
  const settings = readClientSettings(env);
  if (existsSync(path)) {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object') file = parsed as Partial<Site>;
    } catch (e) {
      throw new SubmitError(`${path} is not valid JSON: ${(e as Error).message}`, 2);
    }
  }
  const url = flags.url || settings.url || (typeof file.url === 'string' ? file.url : '');
  const token = flags.token || settings.token || (typeof file.token === 'string' ? file.token : '');
  if (!url) throw new SubmitError(`no server: set ARBITER_URL (e.g. http://127.0.0.1:3000), pass --url, or write {"url": ..., "token": ...} to ${path}`, 2);
  if (!/^https?:\/\//.test(url)) throw new SubmitError(`the server URL must start with http:// or https://, got "${url}"`, 2);
  if (!token)
    throw new SubmitError(
      `no token: set ARBITER_TOKEN, pass --token, or add "token" to ${path} (get one with POST ${url.replace(/\/+$/, '')}/api/tokens {"username","password"})`,
      2,
    );
  return { url: url.replace(/\/+$/, ''), token };
}

export async function submitCommand(args: string[]): Promise<number> {
  try {
    return await submit(args);
  } catch (e) {
    if (e instanceof SubmitError) {
      console.error(`arbiter submit: ${e.message}`);
      return e.exitCode;
    }
    throw e;
  }
}

async function submit(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        game: { type: 'string', short: 'g' },
        url: { type: 'string' },
        token: { type: 'string' },
        'no-follow': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new SubmitError(`${(e as Error).message}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new SubmitError(positionals.length === 0 ? `which file?\n${USAGE}` : `one file at a time\n${USAGE}`, 2);
  const file = positionals[0]!;
  if (!isUploadFilename(file)) throw new SubmitError(`"${file}": a bot is one ${BOT_FILE_KINDS} file`, 2);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SubmitError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, 2);
  }
  // The game the file names, as its language says it (a C++ file's `// GAME: moria` line).
  const language = languageOf(source, file);
  const game = values.game ?? language.readHeader(source).game ?? undefined;
  if (!game) throw new SubmitError(`which game? pass --game <id> or declare  ${language.gameLine('<id>')}  in ${file}`, 2);
  const site = clientConfig({ url: values.url, token: values.token });
  return submitAndFollow(site, { game, source, filename: basename(file) }, { follow: !values['no-follow'], prefix: 'arbiter submit: ' });
}
