// `arbiter play`: the counterpart of the original `./Game`, with the same bots
// and the same sandbox as the server.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { getGame, loadGames } from '../games/registry.ts';
import { encodeReplay } from '../match/replay-io.ts';
import { builtinSeat, UnknownPlayerError } from '../match/builtins.ts';
import { checkSeed, playMatch } from '../sandbox/entries/play-match.ts';
import type { MatchSeat } from '../match/types.ts';
import { sharedPool } from '../sandbox/match-process/match-pool.ts';
import { compileBot, languageOf, readBotHeader } from '../sandbox/languages/index.ts';
import { parseCommandArgs, UsageError } from './args.ts';
import { withElapsed } from './elapsed.ts';
import { roundShown } from '../sdk/replay-format.ts';

/**
 * A match of built-ins is played in this short process, each seat in a context of its own, so V8 optimises
 * the same bot's functions once per seat: on Node 20 (V8 11) the optimising compiler took 30-45% of a
 * 4-Dummy play's CPU (perf), much of it on code about to finish. A larger budget before a function is
 * optimised leaves the short-lived code to the baseline tiers: 7-24% less CPU of the whole play per game
 * (npm run bench cli against the commit before, one run). Node 22+ tier up through Maglev first: their
 * defaults are kept. It only changes when code is compiled, never what it computes.
 */
const INTERRUPT_BUDGET_NODE20 = 1_000_000;

function tuneForOneShortMatch(): void {
  if (process.versions.v8.startsWith('11.')) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET_NODE20}`);
}

export async function playCommand(args: string[]): Promise<number> {
  tuneForOneShortMatch();
  const { values, positionals } = parseCommandArgs(args, {
    seed: { type: 'string', short: 's' },
    output: { type: 'string', short: 'o' },
    set: { type: 'string', multiple: true },
    list: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
    inprocess: { type: 'boolean' },
  });
  if (values.list) {
    for (const game of (await loadGames()).values())
      console.log(`${game.id.padEnd(14)} ${game.title.padEnd(18)} built-in players: ${Object.keys(game.bots.builtin).join(' ')}`);
    return 0;
  }
  const [gameId, ...players] = positionals;
  if (!gameId) throw new UsageError('which game? arbiter play <game> <p1> <p2> <p3> <p4> (arbiter play --list)');
  const game = await getGame(gameId);
  if (players.length !== game.nbPlayers) throw new UsageError(`${game.title} needs ${game.nbPlayers} players, got ${players.length}`);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 0x7fffffff) : parseSeed(values.seed);
  const config: Record<string, unknown> = {};
  for (const kv of values.set ?? []) {
    const m = /^([A-Za-z_][\w]*)=(.*)$/.exec(kv);
    if (!m) throw new UsageError(`--set wants key=value, got "${kv}"`);
    const n = Number(m[2]);
    // key=@file reads the value from a file: a fixed board (Moria's `board`, Bola de Drac's `map`).
    config[m[1]!] = m[2]!.startsWith('@') ? readFileSync(m[2]!.slice(1), 'utf8') : m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }
  game.parseConfig(config); // refuse a bad setting before any bot starts
  const seats: MatchSeat[] = [];
  for (const p of players) seats.push(await resolvePlayer(game.id, p, Object.keys(game.bots.builtin), values.quiet === true));

  try {
    const started = Date.now();
    let lastShown = 0;
    const { replay, logs, replayGz } = await playMatch(
      { game: game.id, seed, config, seats },
      {
        // Built-ins only: played in this process, as a match process would (no second node to start).
        host: values.inprocess ? 'inprocess' : 'local',
        // Without -o nothing reads the rounds' frames: the replay keeps its last round only (the same match).
        lastRoundOnly: !values.output,
        onRound: (round, total) => {
          if (values.quiet || !process.stderr.isTTY || Date.now() - lastShown < 100) return;
          lastShown = Date.now();
          process.stderr.write(`\rround ${round}/${total}`);
        },
      },
    );
    if (!values.quiet && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    console.log(`${game.title}, seed ${seed}, ${replay.rounds.at(-1)!.round} rounds, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const width = Math.max(...replay.players.map((p) => p.name.length), 6);
    console.log(`${'rank'.padEnd(5)}${'player'.padEnd(width + 2)}${'score'.padStart(8)}${'cpu ms'.padStart(10)}  status`);
    const order = replay.players.map((_, i) => i).sort((a, b) => replay.result.ranks[a]! - replay.result.ranks[b]! || a - b);
    for (const i of order) {
      const p = replay.players[i]!;
      const status = p.frozenReason ? `out in round ${roundShown(p.frozenRound ?? 0)} (${p.frozenReason}): ${p.frozenMessage?.split('\n')[0]}` : 'ok';
      console.log(
        `${String(replay.result.ranks[i]).padEnd(5)}${p.name.padEnd(width + 2)}${String(replay.result.scores[i]).padStart(8)}${p.cpuMs.toFixed(0).padStart(10)}  ${status}`,
      );
    }
    for (const [i, log] of logs.entries()) {
      if (log && !values.quiet)
        process.stderr.write(`--- log of player ${i} (${replay.players[i]!.name}) ---\n${log.length > 2000 ? log.slice(0, 2000) + '\n[...]\n' : log}`);
    }
    if (values.output) {
      const gz = values.output.endsWith('.gz');
      // The match process's own encoding when it sent one: the same bytes, not gzip'd again here.
      writeFileSync(values.output, gz ? (replayGz ?? encodeReplay(replay)) : JSON.stringify(replay));
      console.log(`replay written to ${values.output}`);
    }
    return 0;
  } finally {
    sharedPool.shutdown();
  }
}

function parseSeed(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`bad seed "${text}": a whole number from 0 to 2147483647`);
  return checkSeed(n);
}

async function resolvePlayer(gameId: string, arg: string, builtins: string[], quiet: boolean): Promise<MatchSeat> {
  if (builtins.includes(arg)) return builtinSeat(gameId, arg);
  if (existsSync(arg)) {
    let source: string;
    try {
      source = readFileSync(arg, 'utf8');
    } catch (err) {
      throw new UnknownPlayerError(`cannot read ${arg}: ${(err as Error).message}`);
    }
    // A local run refuses a broken file outright instead of playing it frozen.
    const compile = () => compileBot(source, basename(arg), gameId);
    // A C++ compile takes seconds: its line counts them (a cached one ends before the first tick).
    if (languageOf(source, arg).slowCompile && !quiet) await withElapsed(process.stderr, `compiling ${basename(arg)}…`, compile);
    else await compile();
    const { game } = readBotHeader(source);
    if (game !== null && game !== gameId) throw new UnknownPlayerError(`${arg} declares GAME = "${game}", not ${gameId}`);
    return { source, filename: basename(arg) };
  }
  throw new UnknownPlayerError(`"${arg}" is neither a built-in player of ${gameId} (${builtins.join(', ')}) nor a readable file`);
}
