#!/usr/bin/env node
// Plays a match on this computer with nothing but Node (20 or newer):
//
//   node play.mjs cpp/AIMe.cc                      your player against three Dummies, a random seed
//   node play.mjs cpp/AIMe.cc Dummy Demo Null --seed 7 -o match.json
//
// Your file is compiled by the judge's own compile (POST /api/play/compile on
// the site this kit came from; a C++ file needs your API token: ARBITER_TOKEN,
// --token, or "token" in ~/.config/arbiter.json, as for `arbiter submit`) and
// the module is kept in .cache/ next to this script, by the file's content:
// playing the same file again compiles nothing. The match is played here by
// the judge's match loop and engine (play/runner.mjs), so a seed gives the
// match the judge plays with the same players; only CPU times differ. The
// replay is written as JSON: open it on the site's /view page.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const USAGE =
  'usage: node play.mjs <your bot file> [<player> <player> <player>] [--seed N] [-o replay.json] [--set key=value] [--url URL] [--token TOKEN] [--quiet]';

class Stop extends Error {}

function configFile() {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const path = join(base, 'arbiter.json');
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Stop(`${path} is not JSON ({"url": ..., "token": ...})`);
  }
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        seed: { type: 'string', short: 's' },
        output: { type: 'string', short: 'o' },
        set: { type: 'string', multiple: true },
        url: { type: 'string' },
        token: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new Stop(`${err.message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const kit = JSON.parse(await readFile(join(here, 'play', 'kit.json'), 'utf8'));
  const builtins = Object.keys(kit.builtins);
  const [mine, ...others] = positionals;
  if (!mine) throw new Stop(`which file? ${USAGE}`);
  const nOthers = kit.nbPlayers - 1;
  const fallback = builtins.includes('Dummy') ? 'Dummy' : builtins[0];
  if (others.length !== 0 && others.length !== nOthers)
    throw new Stop(`${kit.title} has ${kit.nbPlayers} players: your file and ${nOthers} more (or none: ${fallback} plays them)`);
  const players = [mine, ...(others.length ? others : Array(nOthers).fill(fallback))];

  let seed = Math.floor(Math.random() * 0x7fffffff);
  if (values.seed !== undefined) {
    if (!/^\d+$/.test(values.seed) || Number(values.seed) > 0x7fffffff)
      throw new Stop(`--seed wants a whole number from 0 to 2147483647, got "${values.seed}"`);
    seed = Number(values.seed);
  }
  const config = {};
  for (const kv of values.set ?? []) {
    const m = /^([A-Za-z_]\w*)=(.*)$/.exec(kv);
    if (!m) throw new Stop(`--set wants key=value, got "${kv}"`);
    const n = Number(m[2]);
    config[m[1]] = m[2].startsWith('@') ? readFileSync(m[2].slice(1), 'utf8') : m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }

  const file = configFile();
  const url = String(values.url || process.env.ARBITER_URL || file.url || kit.url).replace(/\/+$/, '');
  const token = values.token || process.env.ARBITER_TOKEN || file.token || '';
  const cacheDir = join(here, '.cache');

  /** A file compiled by the judge (the judge's own compile), from the cache when this kit compiled it before. */
  async function compile(path) {
    let source;
    try {
      source = await readFile(path, 'utf8');
    } catch (err) {
      throw new Stop(`${path}: ${err.code === 'ENOENT' ? `no such file (built-in players: ${builtins.join(', ')})` : err.message}`);
    }
    const filename = basename(path);
    const ext = (/\.[^.]*$/.exec(filename)?.[0] ?? '').toLowerCase();
    const key = createHash('sha256').update(`${kit.version}\0${kit.game}\0${ext}\0`).update(source).digest('hex');
    const cached = join(cacheDir, `${key}.json`);
    if (existsSync(cached)) {
      try {
        return { filename, source, compiled: JSON.parse(await readFile(cached, 'utf8')) };
      } catch {
        /* a damaged entry: compile again */
      }
    }
    if (!values.quiet) process.stderr.write(`compiling ${filename} on ${url}…\n`);
    const started = Date.now();
    let res;
    try {
      res = await fetch(`${url}/api/play/compile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ filename, source, game: kit.game }),
      });
    } catch (err) {
      throw new Stop(
        `cannot reach ${url} to compile ${filename}: ${err.cause?.message ?? err.message} (--url, ARBITER_URL or "url" in ~/.config/arbiter.json name the site)`,
      );
    }
    const body = await res.json().catch(() => ({}));
    if (res.status === 401)
      throw new Stop(
        `${url} compiles C++ for signed-in users: give your API token (ARBITER_TOKEN, --token, or "token" in ~/.config/arbiter.json; get one with POST ${url}/api/tokens {"username","password"})${body.message ? `\n${body.message}` : ''}`,
      );
    if (!res.ok) throw new Stop(`${url} did not compile ${filename} (HTTP ${res.status}${body.code ? ` ${body.code}` : ''}): ${body.message ?? ''}`);
    if (typeof body.error === 'string') throw new Stop(body.error);
    if (typeof body.code !== 'string') throw new Stop(`${url} answered no compiled player for ${filename}`);
    if (!values.quiet) process.stderr.write(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await mkdir(cacheDir, { recursive: true });
    await writeFile(`${cached}.partial`, JSON.stringify(body));
    await rename(`${cached}.partial`, cached);
    return { filename, source, compiled: body };
  }

  const seats = [];
  for (const p of players) {
    if (Object.hasOwn(kit.builtins, p)) seats.push(kit.builtins[p]);
    else seats.push(await compile(p));
  }
  const { run } = await import(pathToFileURL(join(here, 'play', 'runner.mjs')).href);
  const started = Date.now();
  let shown = 0;
  const { replay, logs } = await run({
    seed,
    seats,
    prelude: kit.prelude,
    config,
    onRound: (round, total) => {
      if (values.quiet || !process.stderr.isTTY || Date.now() - shown < 100) return;
      shown = Date.now();
      process.stderr.write(`\rround ${round}/${total}`);
    },
  });
  if (!values.quiet && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  const output = values.output ?? `${kit.game}-seed-${seed}.json`;
  await writeFile(output, JSON.stringify(replay));
  console.log(`${kit.title}, seed ${seed}, ${replay.rounds.length - 1} rounds, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const [i, p] of replay.players.entries()) {
    const frozen = p.frozenRound === null ? '' : `  frozen in round ${p.frozenRound} (${p.frozenReason}): ${p.frozenMessage}`;
    console.log(
      `  ${i}. ${p.name.padEnd(12)} score ${String(replay.result.scores[i]).padStart(6)}  rank ${replay.result.ranks[i]}  cpu ${(p.cpuMs / 1000).toFixed(2)} s${frozen}`,
    );
  }
  for (const [i, log] of logs.entries()) if (log) console.log(`\n--- what ${replay.players[i].name} wrote ---\n${log.replace(/\n$/, '')}`);
  console.log(`\nreplay: ${output} (open it on ${url}/view)`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Stop ? err.message : err);
    process.exit(err instanceof Stop ? 1 : 70);
  },
);
