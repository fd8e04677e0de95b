// `arbiter eval <game> <bot> [<player>...] --seeds 1-100`: a bot against
// chosen opponents over many seeds, in the judge's sandbox, one match per
// core at a time (the sandbox's match processes stay warm; each file is
// compiled once). It prints what the starter kit's `node arbiter.mjs eval`
// prints (eval-summary.ts): wins with a 95% interval, mean score and rank,
// each seat's CPU against the budget, the freezes, and the seeds not won with
// the line that plays each again; --json for scripts.

import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { getGame } from '../games/registry.ts';
import { builtinSeat, UnknownPlayerError } from '../match/builtins.ts';
import type { CompiledSeat, MatchSeat } from '../match/types.ts';
import { compileSeat } from '../sandbox/languages/compile-seat.ts';
import { sharedPool } from '../sandbox/match-process/match-pool.ts';
import { playMatch } from '../sandbox/entries/play-match.ts';
import { readBotHeader } from '../sandbox/languages/index.ts';
import { resolveLimits } from '../sdk/limits.ts';
import { type EvalMatch, evalMatch, isWin, parseSeeds, summarize, summaryLines } from '../http/starter-kit/eval-summary.ts';
import { parseCommandArgs, UsageError } from './args.ts';

const USAGE = 'arbiter eval <game> <your bot file> [<player> ...] [--seeds 1-100 | --seeds 3,7,9] [--jobs N] [--set key=value] [--json] [--quiet]';
/** Progress when not on a terminal: a line this often. */
const PLAIN_PROGRESS_MS = 3000;

export async function evalCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    seeds: { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    set: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  });
  const [gameId, mine, ...others] = positionals;
  if (!gameId || !mine) throw new UsageError(`which game and which bot? ${USAGE}`);
  const game = await getGame(gameId);
  const builtins = Object.keys(game.bots.builtin);
  const fallback = builtins.includes('Dummy') ? 'Dummy' : builtins[0]!;
  if (others.length !== 0 && others.length !== game.nbPlayers - 1)
    throw new UsageError(`${game.title} has ${game.nbPlayers} players: your file and ${game.nbPlayers - 1} more (or none: ${fallback} plays them)`);
  const players = [mine, ...(others.length ? others : Array<string>(game.nbPlayers - 1).fill(fallback))];
  let seeds: number[];
  try {
    seeds = parseSeeds(values.seeds ?? '1-100');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let jobs = availableParallelism();
  if (values.jobs !== undefined) {
    if (!/^\d+$/.test(values.jobs) || Number(values.jobs) < 1) throw new UsageError(`--jobs wants a whole number from 1, got "${values.jobs}"`);
    jobs = Number(values.jobs);
  }
  jobs = Math.max(1, Math.min(jobs, seeds.length));
  const config: Record<string, unknown> = {};
  for (const kv of values.set ?? []) {
    const m = /^([A-Za-z_]\w*)=(.*)$/.exec(kv);
    if (!m) throw new UsageError(`--set wants key=value, got "${kv}"`);
    const n = Number(m[2]);
    config[m[1]!] = m[2]!.startsWith('@') ? readFileSync(m[2]!.slice(1), 'utf8') : m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }
  game.parseConfig(config); // a bad setting is refused before any match

  // Each file read and compiled once, for every seat it takes.
  const seats: MatchSeat[] = [];
  const compiled: CompiledSeat[] = [];
  const byFile = new Map<string, { seat: MatchSeat; compiled: CompiledSeat }>();
  for (const [me, p] of players.entries()) {
    let entry = byFile.get(p);
    if (!entry) {
      const seat = builtins.includes(p) ? await builtinSeat(game.id, p) : readPlayer(game.id, p, builtins);
      entry = { seat, compiled: await compileSeat(seat.source, seat.filename, me, game.id) };
      if ('error' in entry.compiled) throw new UsageError(`${p}: ${entry.compiled.error}`);
      byFile.set(p, entry);
    }
    seats.push(entry.seat);
    compiled.push(entry.compiled);
  }

  const arg = (s: string) => (/^[\w./=,:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const sets = Object.entries(config)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
    .map(([k, v]) => ` --set ${arg(`${k}=${String(v)}`)}`)
    .join('');
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  const matches: EvalMatch[] = [];
  const failed: { seed: number; message: string }[] = [];
  let processCpuMs = 0;
  let shown = 0;
  const progress = (force = false) => {
    if (values.quiet || (!force && Date.now() - shown < (tty ? 200 : PLAIN_PROGRESS_MS))) return;
    shown = Date.now();
    const line = `${game.title}: ${matches.length + failed.length}/${seeds.length} matches, ${matches.filter(isWin).length} won, ${((Date.now() - started) / 1000).toFixed(0)} s`;
    process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
  };
  const ticker = setInterval(progress, 1000);
  let next = 0;
  try {
    // `jobs` matches at a time; the sandbox plays at most one per core (its match slots) in warm processes.
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        while (next < seeds.length) {
          const seed = seeds[next++]!;
          try {
            const outcome = await playMatch({ game: game.id, seed, config, seats }, { compiled, lastRoundOnly: true });
            matches.push(evalMatch(seed, outcome.replay, (outcome.runs ?? 1) - 1));
            processCpuMs += outcome.processCpuMs ?? 0;
          } catch (err) {
            failed.push({ seed, message: (err as Error).message });
          }
          progress();
        }
      }),
    );
  } finally {
    clearInterval(ticker);
    sharedPool.shutdown();
  }
  progress(true);
  if (tty && !values.quiet) process.stderr.write('\n');
  const summary = summarize({
    game: game.id,
    players,
    seeds,
    matches,
    failed,
    cpuBudgetMs: resolveLimits(game.defaultLimits).cpuBudgetMs,
    jobs,
    wallMs: Date.now() - started,
    processCpuMs,
    playLine: (seed) => `npx arbiter play ${game.id} ${players.map(arg).join(' ')} --seed ${seed}${sets}`,
  });
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else for (const line of summaryLines(summary)) console.log(line);
  return failed.length ? 1 : 0;
}

function readPlayer(gameId: string, path: string, builtins: string[]): MatchSeat {
  if (!existsSync(path)) throw new UnknownPlayerError(`"${path}" is neither a built-in player of ${gameId} (${builtins.join(', ')}) nor a readable file`);
  const source = readFileSync(path, 'utf8');
  const { game } = readBotHeader(source);
  if (game !== null && game !== gameId) throw new UnknownPlayerError(`${path} declares GAME = "${game}", not ${gameId}`);
  return { source, filename: basename(path) };
}
