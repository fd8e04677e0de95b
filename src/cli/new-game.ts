// `arbiter new-game <id>`: writes a playable skeleton game from the template in
// src/cli/new-game/template/ (real files: the .ts ones typecheck where they
// stand, the ones that declare a bot's globals or need the DOM end in .tmpl).
// Writing a file means: drop .tmpl, put the id and title in for __ID__ and
// __TITLE__, and point every relative import that leaves the template at the
// same file from the new place, so the game works wherever it is written
// (src/games/<id>/, or a folder of games that ARBITER_GAMES_PATH names).

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { playerDts, type ApiTable } from '../sdk/api-table.ts';
import { importModule } from '../sdk/modules.ts';
import { gameRoots } from '../games/registry.ts';
import { parseCommandArgs, UsageError } from './args.ts';

export const TEMPLATE_DIR = fileURLToPath(new URL('./new-game/template/', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A game id: the URL segment and the folder name. */
export const GAME_ID = /^[a-z][a-z0-9-]{1,29}$/;

export interface NewGameOptions {
  id: string;
  title?: string;
  /** The folder of games to create `<id>/` in; default the project's src/games. */
  dir?: string;
}

export interface NewGameResult {
  gameDir: string;
  /** Where the golden-test stub went: test/games/<id>/ for a game in src/games, else the game's own test/. */
  testsDir: string;
  files: string[];
}

/** The template's files, relative to TEMPLATE_DIR, in a stable order. */
function templateFiles(dir = TEMPLATE_DIR, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? templateFiles(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

const defaultTitle = (id: string) =>
  id
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

/** Writes the skeleton; throws UsageError (exit 2) for a bad id or title, or a folder that exists. */
export async function newGame(options: NewGameOptions): Promise<NewGameResult> {
  const { id } = options;
  if (!GAME_ID.test(id)) throw new UsageError(`bad game id "${id}": 2-30 characters, lowercase letters, digits and '-', starting with a letter`);
  const title = options.title ?? defaultTitle(id);
  if (!title.trim() || title.length > 40 || /[\p{Cc}]/u.test(title)) throw new UsageError(`bad title ${JSON.stringify(title)}: 1-40 characters on one line`);
  const builtinGames = gameRoots({})[0]!;
  const root = resolve(options.dir ?? builtinGames);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new UsageError(`--dir ${root} is not a folder`);
  const gameDir = join(root, id);
  if (existsSync(gameDir)) throw new UsageError(`${gameDir} already exists: pick another id, or remove the folder`);
  // Two folders of the same name in the registry's roots make the server refuse to start.
  for (const other of gameRoots()) {
    if (resolve(other) !== root && existsSync(join(other, id))) throw new UsageError(`a game "${id}" already exists in ${other}`);
  }
  const inProject = root === resolve(builtinGames);
  const testsDir = inProject ? join(REPO_ROOT, 'test', 'games', id) : join(gameDir, 'test');
  if (inProject && existsSync(testsDir)) throw new UsageError(`${testsDir} already exists: pick another id, or remove the folder`);

  const files = templateFiles();
  const outPath = (rel: string) => {
    const plain = rel.replace(/\.tmpl$/, '');
    return plain.startsWith('test/') ? join(testsDir, plain.slice('test/'.length)) : join(gameDir, plain);
  };
  const inTemplate = new Map(files.map((rel) => [resolve(TEMPLATE_DIR, rel.replace(/\.tmpl$/, '')), outPath(rel)]));
  // Generated below from the API table, not a template file; the bots reference it.
  inTemplate.set(resolve(TEMPLATE_DIR, 'player.d.ts'), join(gameDir, 'player.d.ts'));
  const written: string[] = [];
  const rebased = (text: string, from: string, out: string): string => {
    const rebase = (spec: string): string => {
      const target = resolve(from, spec);
      const where = inTemplate.get(target) ?? target;
      const r = relative(dirname(out), where).split(sep).join('/');
      return r.startsWith('.') ? r : `./${r}`;
    };
    return text
      .replace(
        /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]+)\2/g,
        (_m, pre: string, q: string, spec: string) => `${pre}${q}${rebase(spec)}${q}`,
      )
      .replace(/(\/\/\/\s*<reference\s+path=)(['"])(\.\.?\/[^'"]+)\2/g, (_m, pre: string, q: string, spec: string) => `${pre}${q}${rebase(spec)}${q}`);
  };
  for (const rel of files) {
    const out = outPath(rel);
    let text = rebased(readFileSync(join(TEMPLATE_DIR, rel), 'utf8'), dirname(resolve(TEMPLATE_DIR, rel)), out);
    // In code the title sits in a quoted string: written as a literal, so "L'Illa" stays one.
    if (/\.ts(\.tmpl)?$/.test(rel)) text = text.replace(/'__TITLE__'/g, JSON.stringify(title));
    text = text.replace(/__ID__/g, id).replace(/__TITLE__/g, title);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text, { flag: 'wx' });
    written.push(out);
  }
  // Outside the project no package.json says "type": "module", and the game's .ts files would load as CommonJS.
  if (relative(REPO_ROOT, gameDir).startsWith('..')) {
    const pkg = join(gameDir, 'package.json');
    writeFileSync(pkg, JSON.stringify({ private: true, type: 'module' }, null, 2) + '\n', { flag: 'wx' });
    written.push(pkg);
  }
  // player.d.ts is the API table's text (as scripts/gen-player-dts.ts writes it), its references written for src/games/<id>/.
  const api = (await importModule(pathToFileURL(join(gameDir, 'bot-api.ts')).href)) as { API: ApiTable };
  const dts = join(gameDir, 'player.d.ts');
  writeFileSync(dts, rebased(playerDts(api.API), join(builtinGames, id), dts), { flag: 'wx' });
  written.push(dts);
  return { gameDir, testsDir, files: written };
}

export async function newGameCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { title: { type: 'string' }, dir: { type: 'string' } });
  const [id, ...extra] = positionals;
  if (!id) throw new UsageError('which id? arbiter new-game <id> [--title "..."] [--dir <folder of games>]');
  if (extra.length) throw new UsageError(`one id, got also: ${extra.join(' ')}`);
  const { gameDir, files } = await newGame({ id, title: values.title, dir: values.dir });
  const shown = (p: string) => (p.startsWith(REPO_ROOT) ? relative(REPO_ROOT, p) : p);
  console.log(`wrote ${files.length} files for "${id}" in ${shown(gameDir)}:`);
  for (const f of files) console.log(`  ${shown(f)}`);
  const env = values.dir ? `ARBITER_GAMES_PATH=${shown(resolve(values.dir))} ` : '';
  console.log(
    [
      '',
      'next:',
      `  ${env}arbiter play ${id} Demo Dummy Dummy Null --seed 1 -o ${id}.json.gz   # a match`,
      `  ${env}arbiter view ${id}.json.gz                                             # watch it`,
      `  ${env}UPDATE_CONTRACT=1 node scripts/run-tests.js contract              # record engine ${id}-1's digest, then the contract test`,
      `  the rules: ${shown(join(gameDir, 'index.ts'))}; the guide: docs/writing-a-game.md`,
    ].join('\n'),
  );
  return 0;
}
